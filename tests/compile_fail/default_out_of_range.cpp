// expect: the default lies outside the field's own minimum and maximum
// member: guests
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<int, elicit::range<1, 10>, elicit::default_value<2>> guests;
#else
  elicit::field<int, elicit::range<1, 10>, elicit::default_value<12>> guests;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
