// expect: a form field cannot be a pointer
// member: note
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  std::optional<std::string> note;
#else
  const std::string* note;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
