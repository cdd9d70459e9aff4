// expect: the default's type does not match the field
// member: guests
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<int, elicit::default_value<2>> guests;
#else
  elicit::field<int, elicit::default_value<"two">> guests;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
