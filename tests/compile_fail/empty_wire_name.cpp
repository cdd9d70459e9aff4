// expect: gives an empty property key
// member: city
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<std::string, elicit::name<"town">> city;
#else
  elicit::field<std::string, elicit::name<"">> city;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
