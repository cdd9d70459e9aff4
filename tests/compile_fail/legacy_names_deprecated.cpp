// The deprecated shape warns where it is used, and names the replacement.
// expect: give the options titles (elicit_options) and drop this annotation
// flags: -Werror=deprecated-declarations
#include <elicit/form/schema.hpp>

enum class Color { red, green };
struct Form {
#ifdef ELICIT_CONTROL
  Color color;
#else
  elicit::field<Color, elicit::legacy_enum_names> color;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
