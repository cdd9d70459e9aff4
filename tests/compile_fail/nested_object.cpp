// A nested aggregate cannot be rendered as one widget.
// expect: a form field cannot be a nested object or class: flatten it
// member: address
#include <elicit/form/schema.hpp>

struct Address {
  std::string street;
  std::string city;
};
struct Order {
  int quantity;
#ifdef ELICIT_CONTROL
  std::string address;
#else
  Address address;
#endif
};
constexpr auto schema = elicit::schema_json<Order>;
