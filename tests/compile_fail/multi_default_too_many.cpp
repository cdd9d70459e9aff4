// expect: the multi-select default has fewer or more choices than min_items / max_items allow
// member: toppings
#include <elicit/form/schema.hpp>

#include <vector>

enum class Topping { cheese, ham, olives };
struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<std::vector<Topping>, elicit::max_items<2>, elicit::default_value<Topping::cheese, Topping::ham>>
      toppings;
#else
  elicit::field<std::vector<Topping>, elicit::max_items<1>, elicit::default_value<Topping::cheese, Topping::ham>>
      toppings;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
