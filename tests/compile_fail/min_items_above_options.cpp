// expect: min_items asks for more choices than the field offers
// member: colors
#include <elicit/form/schema.hpp>

#include <vector>

enum class Color { red, green };
struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<std::vector<Color>, elicit::min_items<2>> colors;
#else
  elicit::field<std::vector<Color>, elicit::min_items<3>> colors;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
