// decode<F> without a form<F> would check a run-time choice against no options: it does not
// compile, and names the field (here a multi-select of run-time choices).
// expect: build the form per request with elicit::form<F>
// member: labels
#include <elicit/elicit.hpp>

#include <string>
#include <string_view>
#include <vector>

struct Triage {
  std::string summary;
#ifdef ELICIT_CONTROL
  std::string labels;
#else
  std::vector<elicit::choice> labels;
#endif
};

bool accepted(std::string_view reply) { return elicit::decode<Triage>(reply).accepted(); }
