// expect: the minimum is greater than the maximum
// member: guests
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<int, elicit::range<1, 10>> guests;
#else
  elicit::field<int, elicit::range<10, 1>> guests;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
