// expect: items, min_items and max_items apply to multi-select fields only
// member: color
#include <elicit/form/schema.hpp>

enum class Color { red, green };
struct Form {
#ifdef ELICIT_CONTROL
  Color color;
#else
  elicit::field<Color, elicit::max_items<1> > color;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
