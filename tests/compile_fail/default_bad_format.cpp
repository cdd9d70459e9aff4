// A default must be what the decoder would accept: a real date here.
// expect: the default does not have the field's format
// member: day
#include <elicit/form/schema.hpp>

#include <chrono>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<std::chrono::year_month_day, elicit::default_value<"2024-02-29">> day;
#else
  elicit::field<std::chrono::year_month_day, elicit::default_value<"2023-02-29">> day;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
