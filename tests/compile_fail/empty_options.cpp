// expect: the field offers no option (elicit_options returns none, or choices() was given none): offer at least one
// choice member: tier
#include <elicit/form/schema.hpp>

namespace app {
enum class Tier { free, pro };
constexpr auto elicit_options(Tier) {
#ifdef ELICIT_CONTROL
  return std::array{elicit::option{Tier::free}};
#else
  return std::array<elicit::option<Tier>, 0>{};
#endif
}
}  // namespace app
struct Form {
  app::Tier tier;
};
constexpr auto schema = elicit::schema_json<Form>;
