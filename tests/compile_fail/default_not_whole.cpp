// expect: an integer field's default must be a whole number
// member: guests
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<int, elicit::default_value<2.0>> guests;
#else
  elicit::field<int, elicit::default_value<2.5>> guests;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
