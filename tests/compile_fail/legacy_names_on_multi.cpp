// expect: legacy_enum_names applies to single-select enum fields only
// member: colors
// flags: -Wno-deprecated-declarations
#include <elicit/form/schema.hpp>

#include <vector>

enum class Color { red, green };
struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<Color, elicit::legacy_enum_names> colors;
#else
  elicit::field<std::vector<Color>, elicit::legacy_enum_names> colors;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
