// elicit's enums print by name, through fmt and through iostreams, for logs: a log that reads
// "wrong_principal" instead of 9.
#include <elicit/elicit.hpp>
#include <elicit/print.hpp>
#include <elicit/state.hpp>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <sstream>
#include <string>

namespace {

template <class E>
std::string streamed(E e) {
  std::ostringstream out;
  out << e;
  return out.str();
}

}  // namespace

TEST_CASE("elicit's enums print by their names", "[print]") {
  CHECK(elicit::to_string(elicit::state_error::wrong_principal) == "wrong_principal");
  CHECK(fmt::format("{}", elicit::state_error::replay_unavailable) == "replay_unavailable");
  CHECK(fmt::format("[{:>10}]", elicit::state_error::expired) == "[   expired]");  // a string's format spec
  CHECK(streamed(elicit::state_error::tampered) == "tampered");
  CHECK(fmt::format("{}", elicit::request_kind::retry_without_state) == "retry_without_state");
  CHECK(streamed(elicit::request_kind::first_call) == "first_call");
  // A value that names no enumerator (a cast) prints as "unknown", never as garbage.
  CHECK(elicit::to_string(static_cast<elicit::state_error>(200)) == "unknown");
}

TEST_CASE("a user's own enums are not taken over", "[print]") {
  enum class Mine { a };
  STATIC_REQUIRE_FALSE(elicit::detail::printable_enum<Mine>);
  STATIC_REQUIRE_FALSE(fmt::is_formattable<Mine>::value);
}
