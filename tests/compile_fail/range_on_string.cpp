// expect: range, minimum and maximum apply to integer and number fields only
// member: postcode
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<std::string, elicit::max_length<8>> postcode;
#else
  elicit::field<std::string, elicit::maximum<8>> postcode;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
