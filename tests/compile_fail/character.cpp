// expect: a form field cannot be a character type: use std::string
// member: initial
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  std::string initial;
#else
  char initial;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
