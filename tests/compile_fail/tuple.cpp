// expect: a form field cannot be a std::variant, std::tuple or std::pair
// member: size
#include <elicit/form/schema.hpp>

#include <tuple>

struct Form {
#ifdef ELICIT_CONTROL
  int size;
#else
  std::tuple<int, int> size;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
