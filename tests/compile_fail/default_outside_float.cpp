// expect: the default lies outside the field's own minimum and maximum (or its C++ type's range)
// member: weight
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<double, elicit::default_value<1e39>> weight;
#else
  elicit::field<float, elicit::default_value<1e39>> weight;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
