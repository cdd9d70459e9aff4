// A rule broken under decode stops elicit there: one diagnostic, naming the field, and no
// reader, writer or schema of the form instantiated after it (clang++-14 gave 9 errors).
// expect: a form field cannot be a nested object or class: flatten it
// member: address
#include <elicit/answer/decode.hpp>

#include <string>

struct Address {
  std::string street;
};
struct Order {
  int quantity;
#ifdef ELICIT_CONTROL
  std::string address;
#else
  Address address;
#endif
};
inline bool decodes(const char* text) { return elicit::decode<Order>(text).accepted(); }
