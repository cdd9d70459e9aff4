// One-question forms (<elicit/form/single.hpp>): elicit::confirmation, answered by its action
// alone, and elicit::single<Key, T, A...>, whose answer reads as its one value; as a plain form
// and through elicit::form<F>.
#include "../support/runtime_forms.hpp"
#include "../support/test_support.hpp"

#include <elicit/elicit.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_form_single {

using nlohmann::json;
using nlohmann::ordered_json;
using namespace std::string_view_literals;

using test_support::violation_keys;

namespace {

using strings = std::vector<std::string>;

std::string accept(const std::string& content) { return R"({"action":"accept","content":)" + content + "}"; }

}  // namespace

static_assert(elicit::schema_json<elicit::confirmation> == R"({"type":"object","properties":{}})"sv);
static_assert(elicit::schema_json<rt::PartySize> ==
              R"({"type":"object","properties":{"party_size":{"type":"integer","title":"Party size",)"
              R"("minimum":1,"maximum":20}},"required":["party_size"]})"sv);

TEST_CASE("form: a confirmation is answered by its action alone", "[form]") {
  CHECK(elicit::form<elicit::confirmation>().schema_json() == R"({"type":"object","properties":{}})");
  CHECK(elicit::fields<elicit::confirmation>().empty());
  CHECK(elicit::decode<elicit::confirmation>(R"({"action":"accept"})").outcome() == elicit::outcome::accepted);
  CHECK(elicit::decode<elicit::confirmation>(R"({"action":"accept","content":{}})").accepted());
  CHECK(elicit::decode<elicit::confirmation>(R"({"action":"decline"})").outcome() == elicit::outcome::declined);
  CHECK(elicit::decode<elicit::confirmation>(R"({"action":"cancel"})").outcome() == elicit::outcome::cancelled);
  CHECK(elicit::decode<elicit::confirmation>(json{{"action", "accept"}}).accepted());
  CHECK(elicit::decode_content<elicit::confirmation>(json::object()).has_value());
  // Content it did not ask for: ignored, or refused when strict.
  CHECK(elicit::decode<elicit::confirmation>(accept(R"({"x":1})")).accepted());
  CHECK(violation_keys(elicit::decode<elicit::confirmation>(accept(R"({"x":1})"), {.strict = true})) ==
        strings{"/x additionalProperties"});
  CHECK(violation_keys(elicit::decode<elicit::confirmation>(accept("3"))) == strings{" type"});
  CHECK(elicit::form_params<elicit::confirmation>("Delete the file?") ==
        ordered_json{{"mode", "form"},
                     {"message", "Delete the file?"},
                     {"requestedSchema", {{"type", "object"}, {"properties", ordered_json::object()}}}});
  const elicit::form<elicit::confirmation> f;
  CHECK(f.decode(R"({"action":"decline"})").outcome() == elicit::outcome::declined);
  CHECK(f.fields().empty());
}

TEST_CASE("form: a single value, whose answer reads as that value", "[form]") {
  const auto r = elicit::decode<rt::PartySize>(accept(R"({"party_size":4})"));
  REQUIRE(r.accepted());
  int n = *r;
  CHECK(n == 4);
  CHECK(r.value().get() == 4);
  CHECK(r.value().value == 4);
  CHECK(*r.operator->() == 4);  // `->` reaches the one value (answer/test_print.cpp: r->size())
  const auto big = elicit::decode<rt::PartySize>(accept(R"({"party_size":21})"));
  CHECK(violation_keys(big) == strings{"/party_size maximum"});
  CHECK(big.violations()[0].message == "Party size must be at most 20; got 21.");
  CHECK(violation_keys(elicit::decode<rt::PartySize>(accept("{}"))) == strings{"/party_size required"});
  CHECK(elicit::to_content(*r) == ordered_json{{"party_size", 4}});

  // Refined per request: a cap, a default.
  auto f = rt::party_size_narrowed();
  CHECK(f.schema_json() == R"({"type":"object","properties":{"party_size":{"type":"integer","title":"Party size",)"
                           R"("minimum":1,"maximum":6}},"required":["party_size"]})");
  f.default_value("party_size", 2);
  const auto d = f.decode(accept("{}"));
  REQUIRE(d.accepted());
  CHECK(static_cast<const int&>(*d) == 2);
  CHECK(f.fields()[0].name() == "party_size");
  CHECK(f.fields()[0].member() == "value");

  // A single run-time choice.
  const auto s = rt::slot_pick();
  CHECK(s.schema_json() ==
        R"({"type":"object","properties":{"slot":{"type":"string","title":"Slot","oneOf":[)"
        R"({"const":"s-0900","title":"9:00"},{"const":"s-0930","title":"9:30"}]}},"required":["slot"]})");
  const auto picked = s.decode(accept(R"({"slot":"s-0930"})"));
  REQUIRE(picked.accepted());
  const elicit::choice& c = *picked;
  CHECK(c.value == "s-0930");
  CHECK(violation_keys(s.decode(accept(R"({"slot":"s-1"})"))) == strings{"/slot enum"});

  // Other value types.
  using Agree = elicit::single<"agree", bool, elicit::default_value<true>>;
  CHECK(elicit::schema_json<Agree> ==
        R"({"type":"object","properties":{"agree":{"type":"boolean","default":true}}})"sv);
  const auto agreed = elicit::decode<Agree>(accept("{}"));
  REQUIRE(agreed.accepted());
  CHECK(*agreed.operator->());
  using When = elicit::single<"when", std::optional<std::chrono::year_month_day>>;
  CHECK(elicit::schema_json<When> == R"({"type":"object","properties":{"when":{"type":"string","format":"date"}}})"sv);
  const auto when = elicit::decode<When>(accept(R"({"when":"2024-02-29"})"));
  REQUIRE(when.accepted());
  CHECK(when->value() ==
        std::chrono::year_month_day{std::chrono::year{2024}, std::chrono::February, std::chrono::day{29}});
}

}  // namespace unit_form_single
