// expect: two options have the same wire value
// member: tier
#include <elicit/form/schema.hpp>

namespace app {
enum class Tier { free, pro, team };
constexpr auto elicit_options(Tier) {
#ifdef ELICIT_CONTROL
  return std::array{elicit::option{Tier::free, "basic", "Free"}, elicit::option{Tier::pro, "pro", "Pro"}};
#else
  return std::array{elicit::option{Tier::free, "basic", "Free"}, elicit::option{Tier::pro, "basic", "Pro"}};
#endif
}
}  // namespace app
struct Form {
  app::Tier tier;
};
constexpr auto schema = elicit::schema_json<Form>;
