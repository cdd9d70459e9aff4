// A strong type with no elicit_value_as beside it has no field type: the diagnostic says how
// to give it one.
// expect: a type that holds one value is a field once an elicit_value_as beside it maps it onto a field type
// (elicit/form/value_as.hpp) member: contact
#include <elicit/form/schema.hpp>

#include <string>

namespace shop {
struct Email {
  std::string v;
};
#ifdef ELICIT_CONTROL
elicit::held_as<elicit::email, &Email::v> elicit_value_as(const Email&);
#endif
}  // namespace shop

struct Signup {
  std::string name;
  shop::Email contact;
};
constexpr auto schema = elicit::schema_json<Signup>;
