// A mapping without its way back (no `from`) cannot read an answer into the type.
// expect: this type's elicit_value_as mapping is incomplete: it needs using held = H
// member: contact
#include <elicit/answer/decode.hpp>

#include <string>

namespace shop {
struct Email {
  std::string v;
};
struct email_mapping {
  using held = elicit::email;
  static elicit::email to(const Email& e) { return elicit::email(e.v); }
#ifdef ELICIT_CONTROL
  static Email from(elicit::email&& e) { return Email{e.str()}; }
#endif
};
email_mapping elicit_value_as(const Email&);
}  // namespace shop

struct Signup {
  std::string name;
  shop::Email contact;
};
inline bool decodes(const char* text) { return elicit::decode<Signup>(text).accepted(); }
