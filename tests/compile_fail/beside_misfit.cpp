// An annotation beside a struct that does not fit its member's type gets the same rule and
// message as one written on an elicit::field, naming the member.
// expect: range, minimum and maximum apply to integer and number fields only
// member: street
#include <elicit/form/schema.hpp>

#include <string>

namespace shop {
struct Address {
  std::string street;
};
#ifdef ELICIT_CONTROL
elicit::members<elicit::member<"street", elicit::max_length<80>>> elicit_annotations(const Address&);
#else
elicit::members<elicit::member<"street", elicit::range<1, 80>>> elicit_annotations(const Address&);
#endif
}  // namespace shop
constexpr std::string_view text = elicit::schema_json<shop::Address>;
