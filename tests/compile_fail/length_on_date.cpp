// expect: length, min_length and max_length do not apply to date and date-time fields
// member: when
#include <elicit/form/schema.hpp>

#include <chrono>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<std::chrono::sys_seconds, elicit::title<"When">> when;
#else
  elicit::field<std::chrono::sys_seconds, elicit::max_length<20>> when;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
