// expect: every argument of elicit::field after the value type must be an annotation
// member: guests
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<int, elicit::minimum<1>> guests;
#else
  elicit::field<int, int> guests;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
