// Two members with one property key: the second is named.
// expect: two properties of this form have the same wire name
// member: postcode
#include <elicit/form/schema.hpp>

struct Form {
  std::string zip;
#ifdef ELICIT_CONTROL
  elicit::field<std::string, elicit::name<"post_code">> postcode;
#else
  elicit::field<std::string, elicit::name<"zip">> postcode;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
