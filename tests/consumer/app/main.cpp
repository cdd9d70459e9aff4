// Prints the schema of one form; the test compares it with the expected text.
#include <elicit/elicit.hpp>

#include <iostream>

struct Booking {
  elicit::field<int, elicit::title<"Guests">, elicit::range<1, 12>> guests;
  std::optional<std::string> notes;
};

static_assert(elicit::schema_json<Booking>.size() > 0, "the schema is a compile-time constant");

int main() { std::cout << elicit::schema_json<Booking> << "\n"; }
