// An int holds no 3000000000, whatever the schema would say.
// expect: the default lies outside the field's own minimum and maximum (or its C++ type's range)
// member: big
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<long long, elicit::default_value<3000000000>> big;
#else
  elicit::field<int, elicit::default_value<3000000000>> big;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
