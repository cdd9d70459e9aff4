// expect: the default's length (in code points) lies outside the field's own min_length and max_length
// member: postcode
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<std::string, elicit::length<5, 8>, elicit::default_value<"SW1A 1AA">> postcode;
#else
  elicit::field<std::string, elicit::length<5, 8>, elicit::default_value<"SW1A 1AAA">> postcode;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
