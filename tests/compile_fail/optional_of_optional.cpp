// expect: std::optional<std::optional<T>> means nothing more in a form
// member: nickname
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  std::optional<std::string> nickname;
#else
  std::optional<std::optional<std::string> > nickname;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
