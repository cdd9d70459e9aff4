// expect: the same annotation is given twice
// member: city
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<std::string, elicit::title<"City">> city;
#else
  elicit::field<std::string, elicit::title<"City">, elicit::title<"Town">> city;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
