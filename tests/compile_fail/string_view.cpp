// expect: a form field cannot be a std::string_view, which would not own the answer
// member: city
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  std::string city;
#else
  std::string_view city;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
