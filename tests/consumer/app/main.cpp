// Prints the schema of one form, and decodes an answer to it; the test compares the output.
#include "booking.hpp"

#include <iostream>

// elicit::elicit alone reaches no OpenSSL header: sealing is elicit::state's.
#ifdef OPENSSL_VERSION_MAJOR
#error "<elicit/elicit.hpp> included an OpenSSL header"
#endif

static_assert(elicit::schema_json<Booking>.size() > 0, "the schema is a compile-time constant");

int main() {
  std::cout << elicit::schema_json<Booking> << "\n";
  const auto answer = elicit::decode<Booking>(R"({"action":"accept","content":{"guests":13}})");
  std::cout << fmt::format("{}", answer.violations()) << "\n";
}
