// expect: this enum has no enumerator in [-128, 127] that elicit can name
// member: code
#include <elicit/form/schema.hpp>

namespace app {
enum class Code { alpha = 1000, beta = 2000 };
#ifdef ELICIT_CONTROL
constexpr auto elicit_options(Code) {
  return std::array{elicit::option{Code::alpha, "alpha", "Alpha"}, elicit::option{Code::beta, "beta", "Beta"}};
}
#endif
}  // namespace app
struct Form {
  app::Code code;
};
constexpr auto schema = elicit::schema_json<Form>;
