// The credential rule holds in the generator: a schema file for a password form is never
// written, and the build fails with the same one message naming the field.
// expect: forms must never ask for one: send the user to a page of yours in URL mode instead
// member: card_number
#include <elicit_generator.hpp>

#include <string>

struct Payment {
  std::string name;
#ifdef ELICIT_CONTROL
  int amount;
#else
  std::string card_number;
#endif
};
const auto entry = elicit::generator::entry<Payment>("Payment", "Payment");
