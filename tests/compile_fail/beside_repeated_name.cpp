// The same member named twice beside a struct: one list of annotations per member.
// expect: elicit::member names the same member twice
#include <elicit/form/schema.hpp>

#include <string>

namespace shop {
struct Address {
  std::string street;
};
#ifdef ELICIT_CONTROL
elicit::members<elicit::member<"street", elicit::title<"Street">, elicit::max_length<80>>>
#else
elicit::members<elicit::member<"street", elicit::title<"Street">>, elicit::member<"street", elicit::max_length<80>>>
#endif
elicit_annotations(const Address&);
}  // namespace shop
constexpr std::string_view text = elicit::schema_json<shop::Address>;
