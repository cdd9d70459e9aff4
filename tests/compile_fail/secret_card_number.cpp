// expect: If it is no credential, add elicit::not_secret to it
// member: card_number
#include <elicit/elicit.hpp>

struct Payment {
#ifdef ELICIT_CONTROL
  elicit::field<std::string, elicit::not_secret> card_number;  // the opt-out, greppable
#else
  std::string card_number;
#endif
};
const auto request = elicit::elicitation_request<Payment>(1, "Pay?");
