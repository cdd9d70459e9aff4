// expect: min_length is greater than max_length
// member: code
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<std::string, elicit::min_length<4>, elicit::max_length<8>> code;
#else
  elicit::field<std::string, elicit::min_length<8>, elicit::max_length<4>> code;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
