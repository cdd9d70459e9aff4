// elicit's enums print by name, through fmt and through iostreams, for logs: a log that reads
// "wrong_principal" instead of 9.
#include <elicit/answer/print.hpp>
#include <elicit/elicit.hpp>
#include <elicit/state/state.hpp>
#include <elicit/state/tool.hpp>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <sstream>
#include <string>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_answer_print {

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
  CHECK(fmt::format("[{}]", elicit::state_error::expired) == "[expired]");
  CHECK_THROWS_AS(fmt::format(fmt::runtime("{:>10}"), elicit::state_error::expired), fmt::format_error);
  CHECK(streamed(elicit::state_error::tampered) == "tampered");
  CHECK(fmt::format("{}", elicit::request_kind::retry_without_state) == "retry_without_state");
  CHECK(streamed(elicit::request_kind::first_call) == "first_call");
  CHECK(fmt::format("{} {}", elicit::outcome::timed_out, elicit::outcome::accepted) == "timed_out accepted");
  CHECK(streamed(elicit::action::decline) == "decline");
  CHECK(fmt::format("{}", elicit::stop_reason::cancelled) == "cancelled");
  CHECK(elicit::to_string(elicit::tool_failure::invalid_state) == "invalid_state");
  // A value that names no enumerator (a cast) prints as "unknown", never as garbage.
  CHECK(elicit::to_string(static_cast<elicit::state_error>(200)) == "unknown");
}

TEST_CASE("a user's own enums are not taken over", "[print]") {
  enum class Mine { a };
  STATIC_REQUIRE_FALSE(elicit::detail::printable_enum<Mine>);
  STATIC_REQUIRE_FALSE(fmt::is_formattable<Mine>::value);
}

TEST_CASE("a one-question answer: its -> reaches its one value", "[print][single]") {
  using Slot = elicit::single<"slot", std::string, elicit::max_length<20>>;
  const auto r = elicit::decode<Slot>(R"({"action":"accept","content":{"slot":"thu-am"}})");
  REQUIRE(r.accepted());
  CHECK(r->size() == 6);
  CHECK(r.value().get() == "thu-am");
  const auto content = elicit::decode_content<Slot>(nlohmann::json{{"slot", "fri"}});
  REQUIRE(content);
  CHECK(content->size() == 3);
  // A form of several fields: -> reaches its members, as before.
  struct Two {
    std::string a;
    int b;
  };
  const auto two = elicit::decode<Two>(R"({"action":"accept","content":{"a":"x","b":2}})");
  CHECK(two->b == 2);
  // With no valid answer, -> throws as value() does.
  const auto no = elicit::decode<Slot>(R"({"action":"decline"})");
  CHECK_THROWS_AS(no->size(), elicit::bad_answer_access);
}

}  // namespace unit_answer_print
