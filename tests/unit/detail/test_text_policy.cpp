// What text fields refuse by default (decode_options::plain_text), and keys that come twice.
#include "../../../samples/forms.hpp"
#include "../support/forms.hpp"

#include <elicit/elicit.hpp>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_detail_text_policy {

using shipping::DeliveryAddress;

namespace {

std::string address_with_street(const std::string& street_json) {
  return R"({"action":"accept","content":{"street":)" + street_json +
         R"(,"city":"Leeds","postcode":"LS1 4AP","country_code":"GB"}})";
}

}  // namespace

TEST_CASE("a text field refuses NUL and the direction controls, wherever they come") {
  struct sample {
    std::string json;  // the street, as JSON text
    const char* code;
    int character;
  };
  const sample refused[] = {
      {R"("1 High St\u0000DROP")", "U+0000", 10},
      {R"("\u0000")", "U+0000", 1},
      {"\"1 High St\xE2\x80\xAE"
       "evil\"",
       "U+202E", 10},                          // RIGHT-TO-LEFT OVERRIDE, raw UTF-8
      {R"("1 High St\u202e")", "U+202E", 10},  // and escaped
      {R"("\u202A")", "U+202A", 1},
      {R"("Caf\u00e9 \u2066x\u2069")", "U+2066", 6},  // isolates; the é is one character
      {R"("Straße \u2067")", "U+2067", 8},
      {R"("\u2068\u2069")", "U+2068", 1},
      {R"("a\u202Db")", "U+202D", 2},
  };
  for (const sample& s : refused) {
    CAPTURE(s.json);
    const auto r = elicit::decode<DeliveryAddress>(address_with_street(s.json));
    REQUIRE(r.outcome() == elicit::outcome::invalid);
    REQUIRE(r.violations().size() == 1);
    const elicit::violation_view v = r.violations()[0];
    CHECK(v.pointer == "/street");
    CHECK(v.keyword == "plainText");
    CHECK_THAT(std::string(v.message), Catch::Contains(s.code) &&
                                           Catch::Contains(fmt::format("at character {}", s.character)) &&
                                           Catch::StartsWith("Street address must not contain"));
    // The message never repeats the control it names.
    CHECK(std::string(v.message).find("\xE2\x80") == std::string::npos);
    CHECK(std::string(v.message).find("\xE2\x81") == std::string::npos);
    CHECK(std::string(v.message).find('\0') == std::string::npos);
    // The same from a parsed document, and with the check turned off, kept.
    const auto parsed = nlohmann::json::parse(address_with_street(s.json));
    CHECK(elicit::decode<DeliveryAddress>(parsed).violations().items() == r.violations().items());
    const auto kept = elicit::decode<DeliveryAddress>(address_with_street(s.json), {.plain_text = false});
    CHECK(kept.accepted());
  }
}

TEST_CASE("text with other controls and marks, and the characters beside the refused ones, passes") {
  for (const char* street : {R"("1 High St")", R"("tab\there")", R"("new\nline")", R"("\u200Fmark")", R"("\u200E")",
                             R"("\u2029")", R"("\u2060")", R"("\u2065")", R"("\u206A")", R"("\u2029\u202F")",
                             R"("€ — “quoted”")", R"("\u061C")", "\"\xE2\x80\xA9\"", "\"ends in \xE2\x82\xAC\""}) {
    CAPTURE(street);
    CHECK(elicit::decode<DeliveryAddress>(address_with_street(street)).accepted());
  }
}

TEST_CASE("the text policy holds for decode_content and for a form's run-time refinements") {
  const auto content = nlohmann::json::parse(R"({"text":"a\u202eb"})");
  const auto d = elicit::decode_content<forms::Plain>(content);
  REQUIRE_FALSE(d);
  bool named = false;
  for (const elicit::violation_view v : d.violations())
    named = named || (v.pointer == "/text" && v.keyword == "plainText");
  CHECK(named);
  // A default may not carry one either: it is checked as an answer would be.
  elicit::form<DeliveryAddress> f;
  CHECK_THROWS_AS(f.default_value(&DeliveryAddress::street, std::string("1 High St\u202E")), elicit::form_error);
  CHECK_NOTHROW(f.default_value(&DeliveryAddress::street, std::string("1 High St")));
}

TEST_CASE("a key the content holds twice: the last value read, or refused with strict") {
  const std::string twice =
      R"({"action":"accept","content":{"street":"1 High St","city":"York","postcode":"LS1 4AP","country_code":"GB","city":"Leeds"}})";
  const auto lenient = elicit::decode<DeliveryAddress>(twice);
  REQUIRE(lenient.accepted());
  CHECK(lenient->city.value == "Leeds");  // as JSON.parse and nlohmann::json::parse read it
  const auto strict = elicit::decode<DeliveryAddress>(twice, {.strict = true});
  REQUIRE(strict.outcome() == elicit::outcome::invalid);
  REQUIRE(strict.violations().size() == 1);
  CHECK(strict.violations()[0].pointer == "/city");
  CHECK(strict.violations()[0].keyword == "duplicateKey");
  CHECK(strict.violations()[0].message ==
        R"("city" comes more than once in the answer's content; send each key once.)");

  // An unknown key twice is one additionalProperties and one duplicateKey; a key three times,
  // one duplicateKey; a key spelled with an escape is the same key.
  const auto unknown = elicit::decode<DeliveryAddress>(
      R"({"action":"accept","content":{"street":"1 High St","city":"York","postcode":"LS1 4AP","country_code":"GB","x":1,"x":2,"c\u0069ty":"Hull","city":"Ely"}})",
      {.strict = true});
  REQUIRE(unknown.violations().size() == 3);
  CHECK(fmt::format("{}", unknown.violations()) ==
        "/x: \"x\" is not a field of this form. (additionalProperties); "
        "/city: \"city\" comes more than once in the answer's content; send each key once. (duplicateKey); "
        "/x: \"x\" comes more than once in the answer's content; send each key once. (duplicateKey)");
  // A repeated "content" replaces the first whole: its keys are not repeats.
  const auto contents = elicit::decode<DeliveryAddress>(
      R"({"action":"accept","content":{"city":"York"},"content":{"street":"1 High St","city":"Leeds","postcode":"LS1 4AP","country_code":"GB"}})",
      {.strict = true});
  CHECK(contents.accepted());
}

}  // namespace unit_detail_text_policy
