// expect: default_value takes exactly one value on this field
// member: color
#include <elicit/form/schema.hpp>

enum class Color { red, green };
struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<Color, elicit::default_value<Color::red>> color;
#else
  elicit::field<Color, elicit::default_value<Color::red, Color::green>> color;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
