// expect: the default's type does not match the field
// member: color
#include <elicit/form/schema.hpp>

enum class Color { red, green };
enum class Shade { red, green };
struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<Color, elicit::default_value<Color::red>> color;
#else
  elicit::field<Color, elicit::default_value<Shade::red>> color;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
