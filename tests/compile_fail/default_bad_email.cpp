// expect: the default does not have the field's format
// member: contact
#include <elicit/form/schema.hpp>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<elicit::email, elicit::default_value<"help@example.com">> contact;
#else
  elicit::field<elicit::email, elicit::default_value<"help at example.com">> contact;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
