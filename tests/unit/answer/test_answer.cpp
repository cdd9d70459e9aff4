// What an answer is (<elicit/answer/answer.hpp>): decoded<T>, a value or its violations; response<T>,
// the action and, for an accepted answer, its value; the outcome of each; a missing answer; the
// throw of value() when there is none; decode_options' defaults.
#include <elicit/elicit.hpp>

#include <catch2/catch.hpp>

#include <optional>
#include <string>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_answer_answer {

namespace {
struct Age {
  elicit::field<int, elicit::range<0, 150>> age;
};
elicit::violation broken(const char* pointer) { return elicit::violation{pointer, "maximum", "too old"}; }
}  // namespace

TEST_CASE("decoded: a value, or the violations and outcome invalid, value() throws with them") {
  const elicit::decoded<int> seven(7);
  CHECK(seven.has_value());
  CHECK(*seven == 7);
  CHECK_FALSE(seven.error());
  CHECK(seven.violations().empty());
  const elicit::decoded<int> bad(elicit::violation_list({broken("/age")}));
  CHECK_FALSE(bad);
  CHECK(bad.error() == elicit::outcome::invalid);
  CHECK(bad.violations().size() == 1);
  CHECK_THROWS_AS(bad.value(), elicit::bad_answer_access);
  CHECK_THROWS_WITH(bad.value(), Catch::Contains("the answer is invalid") && Catch::Contains("too old"));
}

TEST_CASE("response: the outcome of each action, accepted only with a valid value") {
  using R = elicit::response<int>;
  const R ok(elicit::action::accept, std::optional<int>(3), {});
  CHECK(ok.accepted());
  CHECK(ok.outcome() == elicit::outcome::accepted);
  CHECK(*ok == 3);
  const R invalid(elicit::action::accept, std::nullopt, elicit::violation_list({broken("/age")}));
  CHECK_FALSE(invalid.accepted());
  CHECK(invalid.outcome() == elicit::outcome::invalid);
  CHECK_THROWS_AS(invalid.value(), elicit::bad_answer_access);
  CHECK(R(elicit::action::decline, std::nullopt, {}).outcome() == elicit::outcome::declined);
  CHECK(R(elicit::action::cancel, std::nullopt, {}).outcome() == elicit::outcome::cancelled);
  // A cancel that came with violations (a malformed result reads as cancel): invalid.
  CHECK(R(elicit::action::cancel, std::nullopt, elicit::violation_list({broken("")})).outcome() ==
        elicit::outcome::invalid);
  const R missing = R::missing(elicit::violation{"", "required", "not answered"});
  CHECK(missing.action() == elicit::action::cancel);
  CHECK(missing.outcome() == elicit::outcome::missing);
  CHECK_FALSE(missing.accepted());
}

TEST_CASE("decode_options: not strict, 1 MiB, 32 levels, 100 violations, plain text, English") {
  const elicit::decode_options o;
  CHECK_FALSE(o.strict);
  CHECK(o.max_bytes == 1024 * 1024);
  CHECK(o.max_depth == 32);
  CHECK(o.max_violations == 100);
  CHECK(o.plain_text);
  CHECK(o.words == nullptr);
  const auto r = elicit::decode<Age>(R"({"action":"accept","content":{"age":151}})");
  CHECK(r.outcome() == elicit::outcome::invalid);
  CHECK(r.action() == elicit::action::accept);
}

}  // namespace unit_answer_answer
