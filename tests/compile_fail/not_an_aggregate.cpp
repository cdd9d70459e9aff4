// expect: a form must be an aggregate struct
// expect: Booking
#include <elicit/form/schema.hpp>

struct Booking {
#ifndef ELICIT_CONTROL
  Booking() = default;
  explicit Booking(int n) : guests(n) {}
#endif
  int guests;
};
constexpr auto schema = elicit::schema_json<Booking>;
