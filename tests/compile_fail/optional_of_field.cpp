// expect: write elicit::field<std::optional<T>, ...> instead
// member: nickname
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<std::optional<std::string>, elicit::title<"Nickname">> nickname;
#else
  std::optional<elicit::field<std::string, elicit::title<"Nickname">>> nickname;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
