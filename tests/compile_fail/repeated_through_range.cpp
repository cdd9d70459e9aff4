// range<> sets minimum too, so adding minimum<> sets it twice.
// expect: the same annotation is given twice (range also sets minimum and maximum
// member: guests
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<int, elicit::range<1, 10>> guests;
#else
  elicit::field<int, elicit::range<1, 10>, elicit::minimum<2>> guests;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
