// expect: length, min_length and max_length apply to string fields only
// member: age
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<int, elicit::range<0, 130>> age;
#else
  elicit::field<int, elicit::length<0, 3>> age;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
