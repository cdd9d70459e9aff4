// expect: an option has no wire value
// member: code
#include <elicit/form/schema.hpp>

namespace app {
enum class Code { alpha = 1000, beta = 1 };
constexpr auto elicit_options(Code) {
#ifdef ELICIT_CONTROL
  return std::array{elicit::option{Code::alpha, "alpha", "Alpha"}, elicit::option{Code::beta, "Beta"}};
#else
  return std::array{elicit::option{Code::alpha, "Alpha"}, elicit::option{Code::beta, "Beta"}};
#endif
}
}  // namespace app
struct Form {
  app::Code code;
};
constexpr auto schema = elicit::schema_json<Form>;
