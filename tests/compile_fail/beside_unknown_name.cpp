// Annotations beside a struct for a name it has no member of: a typo must not pass silently.
// (g++ shows the name in the failing instantiation; clang++ 14 prints it as character codes.)
// expect: elicit::member names a member this struct does not have
#include <elicit/form/schema.hpp>

#include <string>

namespace shop {
struct Address {
  std::string street;
};
#ifdef ELICIT_CONTROL
elicit::members<elicit::member<"street", elicit::title<"Street">>> elicit_annotations(const Address&);
#else
elicit::members<elicit::member<"stret", elicit::title<"Street">>> elicit_annotations(const Address&);
#endif
}  // namespace shop
constexpr std::string_view text = elicit::schema_json<shop::Address>;
