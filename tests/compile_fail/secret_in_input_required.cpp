// expect: this field's name says it is a credential
// member: apiKey
#include <elicit/elicit.hpp>

struct Setup {
#ifdef ELICIT_CONTROL
  std::string apiVersion;
#else
  std::string apiKey;
#endif
};
const auto result = elicit::input_required{}.ask<Setup>("setup", "Set up?").result();
