// expect: the default is not among the offered options
// member: priority
#include <elicit/form/schema.hpp>

namespace app {
enum class Priority { low, normal, high };
constexpr auto elicit_options(Priority) {
  return std::array{elicit::option{Priority::normal, "Normal"}, elicit::option{Priority::high, "High"}};
}
}  // namespace app

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<app::Priority, elicit::default_value<app::Priority::normal>> priority;
#else
  elicit::field<app::Priority, elicit::default_value<app::Priority::low>> priority;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
