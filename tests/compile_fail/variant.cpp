// expect: a form field cannot be a std::variant, std::tuple or std::pair
// member: amount
#include <elicit/form/schema.hpp>

#include <variant>

struct Form {
#ifdef ELICIT_CONTROL
  double amount;
#else
  std::variant<int, std::string> amount;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
