// expect: the same enumerator is offered twice
// member: tier
#include <elicit/form/schema.hpp>

namespace app {
enum class Tier { free, pro, team };
constexpr auto elicit_options(Tier) {
#ifdef ELICIT_CONTROL
  return std::array{elicit::option{Tier::free, "Free"}, elicit::option{Tier::pro, "Pro"}};
#else
  return std::array{elicit::option{Tier::free, "Free"}, elicit::option{Tier::free, "gratis", "Gratis"}};
#endif
}
}  // namespace app
struct Form {
  app::Tier tier;
};
constexpr auto schema = elicit::schema_json<Form>;
