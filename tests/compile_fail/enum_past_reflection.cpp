// expect: this enum has an enumerator at -128 or 127, the ends of the values elicit reflects, or one past them
// expect: list its choices with a constexpr elicit_options(E) function
// expect: reflected_range_rule
// expect: app::Country
// member: country
#include <elicit/form/schema.hpp>

// 200 enumerators, 0 to 199: reflection names those in [-128, 127] only, so without
// elicit_options the schema would offer the first 128 and say nothing of the others.
#define ELICIT_TEN(p) p##0, p##1, p##2, p##3, p##4, p##5, p##6, p##7, p##8, p##9
namespace app {
enum class Country {
  ELICIT_TEN(a),
  ELICIT_TEN(b),
  ELICIT_TEN(c),
  ELICIT_TEN(d),
  ELICIT_TEN(e),
  ELICIT_TEN(f),
  ELICIT_TEN(g),
  ELICIT_TEN(h),
  ELICIT_TEN(i),
  ELICIT_TEN(j),
  ELICIT_TEN(k),
  ELICIT_TEN(l),
  ELICIT_TEN(m),
  ELICIT_TEN(n),
  ELICIT_TEN(o),
  ELICIT_TEN(p),
  ELICIT_TEN(q),
  ELICIT_TEN(r),
  ELICIT_TEN(s),
  ELICIT_TEN(t)
};
#ifdef ELICIT_CONTROL
constexpr auto elicit_options(Country) {
  return std::array{elicit::option{Country::a0, "a0", "First"}, elicit::option{Country::t9, "t9", "Last"}};
}
#endif
}  // namespace app
#undef ELICIT_TEN
struct Form {
  app::Country country;
};
constexpr auto schema = elicit::schema_json<Form>;
