// Decoding answers: the three actions, every rule of the schema, defaults, limits, and the
// round trip through to_content.
#include "../../../samples/forms.hpp"
#include "../support/forms.hpp"
#include "../support/test_support.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_answer_decode {

using nlohmann::json;
using namespace std::chrono;

using test_support::content_violations;

namespace {

using strings = std::vector<std::string>;

json valid_plain() {
  return {{"flag", true},
          {"count", 3},
          {"big", -9007199254740993},
          {"ratio", 0.25},
          {"weight", 70.5},
          {"text", "héllo"},
          {"day", "2024-02-29"},
          {"moment", "2025-01-31T09:30:00Z"},
          {"mail", "a.b@ex.org"},
          {"link", "https://example.com/a?b=c#d"}};
}

}  // namespace

TEST_CASE("accept, decline and cancel are kept apart") {
  const auto accepted = elicit::decode<shipping::ShipmentOptions>(
      R"({"action":"accept","content":{"country_code":"IE","insured_value_gbp":250}})");
  CHECK(accepted.action() == elicit::action::accept);
  REQUIRE(accepted.accepted());
  CHECK(accepted->country_code == shipping::Country::IE);
  CHECK(*accepted.value().insured_value_gbp == std::optional<int>(250));
  CHECK((*accepted).signature_required == false);  // absent: its default

  for (const char* text : {R"({"action":"decline"})", R"({"action":"decline","content":null})",
                           R"({"action":"decline","content":{"country_code":"XX"}})"}) {
    const auto r = elicit::decode<shipping::ShipmentOptions>(text);
    CHECK(r.action() == elicit::action::decline);
    CHECK_FALSE(r.accepted());
    CHECK(r.violations().empty());  // not an error
    CHECK_THROWS_WITH(r.value(), "elicit: the user declined the form");
  }
  for (const char* text : {R"({"action":"cancel"})", R"({"action":"cancel","content":{}})"}) {
    const auto r = elicit::decode<shipping::ShipmentOptions>(text);
    CHECK(r.action() == elicit::action::cancel);
    CHECK(r.violations().empty());
    CHECK_THROWS_AS(r.value(), elicit::bad_answer_access);
  }
}

TEST_CASE("a malformed result is not accepted and says why") {
  struct expectation {
    std::string text, pointer, keyword;
  };
  for (const auto& [text, pointer, keyword] : std::vector<expectation>{
           {R"({"content":{}})", "/action", "required"},
           {R"({"action":"ok"})", "/action", "enum"},
           {R"({"action":"ACCEPT"})", "/action", "enum"},
           {R"({"action":1})", "/action", "enum"},
           {R"([1,2])", "", "type"},
           {R"("accept")", "", "type"},
           {R"({"action":"accept")", "", "json"},
           {"", "", "json"},
           {"{\"action\":\"accept\",\"content\":{\"city\":\"\xff\"}}", "", "json"},
           {R"({"action":"accept","content":null})", "", "type"},
           {R"({"action":"accept","content":[1]})", "", "type"},
       }) {
    INFO(text);
    const auto r = elicit::decode<shipping::DeliveryAddress>(text);
    CHECK_FALSE(r.accepted());
    REQUIRE(r.violations().size() == 1);
    CHECK(r.violations()[0].pointer == pointer);
    CHECK(r.violations()[0].keyword == keyword);
    CHECK_FALSE(r.violations()[0].message.empty());
    CHECK_THROWS_AS(r.value(), elicit::bad_answer_access);
  }
}

TEST_CASE("an accepted answer with no content is judged as an empty object") {
  const auto r = elicit::decode<shipping::ShipmentOptions>(R"({"action":"accept"})");
  CHECK(r.action() == elicit::action::accept);
  CHECK_FALSE(r.accepted());
  REQUIRE(r.violations().size() == 1);
  CHECK(r.violations()[0].pointer == "/country_code");
  CHECK(r.violations()[0].keyword == "required");
}

TEST_CASE("every field type reads its value") {
  const auto d = elicit::decode_content<forms::Plain>(valid_plain());
  REQUIRE(d);
  CHECK(d->flag == true);
  CHECK(d->count == 3);
  CHECK(d->big == -9007199254740993);  // no rounding through double
  CHECK(d->ratio == 0.25);
  CHECK(d->weight == 70.5f);
  CHECK(d->text == "héllo");
  CHECK(d->day == year_month_day{year{2024}, February, day{29}});
  CHECK(d->moment == sys_days{year_month_day{year{2025}, January, day{31}}} + hours{9} + minutes{30});
  CHECK(d->mail.str() == "a.b@ex.org");
  CHECK(d->link == std::string_view("https://example.com/a?b=c#d"));
}

TEST_CASE("type: an integer field takes 30, 30.0 and 1e3, never 12.5 or text") {
  json c = valid_plain();
  for (const json& ok : {json(30), json(30.0), json::parse("1e3"), json(-0.0)}) {
    c["count"] = ok;
    CHECK(content_violations<forms::Plain>(c).empty());
  }
  for (const json& bad : {json(12.5), json("30"), json(true), json(nullptr), json::array(), json::object()}) {
    c["count"] = bad;
    CHECK(content_violations<forms::Plain>(c) == strings{"/count type"});
  }
}

TEST_CASE("type: every other field rejects the wrong JSON type") {
  const std::vector<std::pair<std::string, json>> wrong{
      {"flag", "true"}, {"ratio", "0.5"},  {"text", 5},     {"day", 20240229},
      {"moment", 0},    {"mail", nullptr}, {"link", false}, {"flag", 1},
  };
  for (const auto& [key, value] : wrong) {
    json c = valid_plain();
    c[key] = value;
    INFO(key << " = " << value.dump());
    CHECK(content_violations<forms::Plain>(c) == strings{"/" + key + " type"});
  }
}

TEST_CASE("an integer outside its C++ type is reported, never wrapped or truncated") {
  json c = valid_plain();
  c["count"] = 2147483648LL;
  CHECK(content_violations<forms::Plain>(c) == strings{"/count maximum"});
  c["count"] = -2147483649LL;
  CHECK(content_violations<forms::Plain>(c) == strings{"/count minimum"});
  c["count"] = 1e300;
  CHECK(content_violations<forms::Plain>(c) == strings{"/count maximum"});
  c = valid_plain();
  c["big"] = 18446744073709551615ULL;
  CHECK(content_violations<forms::Plain>(c) == strings{"/big maximum"});
  c["big"] = -9223372036854775807LL - 1;
  CHECK(content_violations<forms::Plain>(c).empty());

  // With bounds of its own, the field names those.
  json a = {{"name", "Ada"}, {"post-code", "SW1A1AA"}, {"rating", 1}, {"age", 3000000000LL}};
  const auto d = elicit::decode_content<forms::Annotated>(a);
  REQUIRE(d.violations().size() == 1);
  CHECK(d.violations()[0].message == "age must be at most 130; got 3000000000.");

  json n = {{"i8", -128},
            {"u8", 255},
            {"i16", 0},
            {"u16", 0},
            {"i32", 0},
            {"u32", 4294967295u},
            {"u64", 18446744073709551615ULL}};
  CHECK(content_violations<forms::Narrow>(n).empty());
  n["u8"] = 256;
  n["i8"] = -129;
  n["u32"] = -1;
  CHECK(content_violations<forms::Narrow>(n) == strings{"/i8 minimum", "/u8 maximum", "/u32 minimum"});
}

TEST_CASE("minimum and maximum, integer and fractional, inclusive") {
  json c = {{"name", "Ada"}, {"post-code", "SW1A1AA"}, {"rating", 10}, {"age", 18}, {"score", 0.5}, {"tiny", 1e-7}};
  CHECK(content_violations<forms::Annotated>(c).empty());
  c["age"] = 17;
  c["score"] = 99.50000000000001;
  c["rating"] = 11;
  c["tiny"] = 2e-7;
  CHECK(content_violations<forms::Annotated>(c) ==
        strings{"/age minimum", "/score maximum", "/rating maximum", "/tiny maximum"});
  const auto d = elicit::decode_content<forms::Annotated>(c);
  CHECK(fmt::format("{}", d.violations()[0]) == "/age: age must be at least 18; got 17. (minimum)");
}

TEST_CASE("minLength and maxLength count code points, not bytes") {
  json c = {{"name", "Ada"}, {"post-code", "SW1A1AA"}, {"rating", 1}};
  c["unicode"] = "ÀÉÎÕÜàéî";  // 8 two-byte characters: fits maxLength 8
  CHECK(content_violations<forms::Annotated>(c).empty());
  c["unicode"] = "ÀÉÎÕÜàéîo";
  CHECK(content_violations<forms::Annotated>(c) == strings{"/unicode maxLength"});
  c["unicode"] = "😀😀😀😀😀😀😀😀";  // 8 four-byte characters
  CHECK(content_violations<forms::Annotated>(c).empty());
  c["name"] = "";
  c["post-code"] = "SW1";
  CHECK(content_violations<forms::Annotated>(c) == strings{"/name minLength", "/post-code minLength"});
  const auto d = elicit::decode_content<forms::Annotated>(c);
  CHECK(d.violations()[0].message == "Full name must be at least 1 character long; got 0 characters.");
}

TEST_CASE("length bounds hold exactly at their edges, in code points of one to four bytes") {
  // DeliveryAddress: street maxLength 120, city maxLength 60, postcode minLength 5 and maxLength 8.
  const auto address = [](std::string street, std::string city, std::string postcode) {
    return json{{"street", std::move(street)},
                {"city", std::move(city)},
                {"postcode", std::move(postcode)},
                {"country_code", "GB"}};
  };
  const auto times = [](std::string_view unit, std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i) out += unit;
    return out;
  };
  for (const std::string_view unit : {"a", "é", "中", "😀"}) {  // 1, 2, 3 and 4 bytes
    INFO("unit " << unit);
    CHECK(content_violations<shipping::DeliveryAddress>(address(times(unit, 120), times(unit, 60), times(unit, 8)))
              .empty());
    CHECK(content_violations<shipping::DeliveryAddress>(address(times(unit, 121), times(unit, 60), times(unit, 8))) ==
          strings{"/street maxLength"});
    CHECK(content_violations<shipping::DeliveryAddress>(address(times(unit, 120), times(unit, 61), times(unit, 9))) ==
          strings{"/city maxLength", "/postcode maxLength"});
    CHECK(content_violations<shipping::DeliveryAddress>(address("x", "y", times(unit, 5))).empty());
    CHECK(content_violations<shipping::DeliveryAddress>(address("x", "y", times(unit, 4))) ==
          strings{"/postcode minLength"});
  }
  // A combining sequence counts each code point: e + U+0301 is two, so four of them fill 8.
  CHECK(content_violations<shipping::DeliveryAddress>(address("x", "y", times("e\u0301", 4))).empty());
  CHECK(content_violations<shipping::DeliveryAddress>(address("x", "y", times("e\u0301", 5))) ==
        strings{"/postcode maxLength"});
  const auto d = elicit::decode_content<shipping::DeliveryAddress>(address(times("😀", 121), "y", "SW1A 1AA"));
  REQUIRE(d.violations().size() == 1);
  CHECK(d.violations()[0].message == "Street address must be at most 120 characters long; got 121 characters.");
  // An e-mail field with a length bound: both the length and the format are reported.
  CHECK(content_violations<forms::SpecString>(json{{"value", "a@"}}) == strings{"/value minLength", "/value format"});
  CHECK(content_violations<forms::SpecString>(json{{"value", "a@b.c" + std::string(46, 'o')}}) ==
        strings{"/value maxLength"});
  CHECK(content_violations<forms::SpecString>(json{{"value", "a@b.c" + std::string(45, 'o')}}).empty());
}

TEST_CASE("text that is not UTF-8 is a violation") {
  json c = valid_plain();
  c["text"] = std::string("caf\xc3", 4);
  CHECK(content_violations<forms::Plain>(c) == strings{"/text type"});
  c["text"] = std::string("\xed\xa0\x80");  // a surrogate, encoded
  CHECK(content_violations<forms::Plain>(c) == strings{"/text type"});
}

TEST_CASE("required, optional and default fields") {
  CHECK(content_violations<forms::Plain>(json::object()) ==
        strings{"/flag required", "/count required", "/big required", "/ratio required", "/weight required",
                "/text required", "/day required", "/moment required", "/mail required", "/link required"});
  const auto o = elicit::decode_content<forms::Optionals>(json{{"always", "x"}});
  REQUIRE(o);
  CHECK_FALSE(o->maybe_flag.has_value());
  CHECK_FALSE(o->maybe_day.has_value());
  const auto p =
      elicit::decode_content<forms::Optionals>(json{{"always", "x"}, {"maybe_count", 4}, {"maybe_day", "2000-01-01"}});
  REQUIRE(p);
  CHECK(p->maybe_count == 4);
  CHECK(p->maybe_day == year_month_day{year{2000}, January, day{1}});
  // null is not a value of an optional field's type (as a JSON Schema validator judges it).
  CHECK(content_violations<forms::Optionals>(json{{"always", "x"}, {"maybe_text", nullptr}}) ==
        strings{"/maybe_text type"});

  const auto a = elicit::decode_content<forms::Annotated>(json{{"name", "Ada"}, {"post-code", "AB123"}, {"rating", 0}});
  REQUIRE(a);
  CHECK(*a->age == 30);
  CHECK(*a->score == 95.5);
  CHECK(*a->subscribe == true);
  CHECK(a->contact->str() == "user@example.com");
  CHECK(*a->unicode == "ÀÉÎÕÜàéî");
}

TEST_CASE("enum membership on wire values, never titles") {
  json c = {{"plain", "Green"}, {"titled", "#00FF00"},   {"size", "large"},
            {"code", "B"},      {"many", json::array()}, {"few", {"urgent"}}};
  auto d = elicit::decode_content<forms::Choices>(c);
  REQUIRE(d);
  CHECK(d->plain == forms::ColorName::Green);
  CHECK(d->titled == forms::Color::green);
  CHECK(d->size == forms::large);
  CHECK(d->code == forms::Code::beta);
  CHECK(*d->priority == forms::Priority::high);  // default
  c["titled"] = "Green";                         // a title, not a value
  c["plain"] = "green";                          // case matters
  c["code"] = "beta";                            // the enumerator's name is not its wire value here
  c["priority"] = "low";                         // an enumerator that is not offered
  CHECK(content_violations<forms::Choices>(c) ==
        strings{"/plain enum", "/titled enum", "/priority enum", "/code enum"});
}

TEST_CASE("multi-selects: every item, minItems and maxItems") {
  json c = {{"plain", "Red"},
            {"titled", "#FF0000"},
            {"size", "small"},
            {"code", "A"},
            {"many", {"Red", "Blue", "Red"}},
            {"some", {"#0000FF", "#FF0000"}},
            {"few", {"normal", "high"}}};
  auto d = elicit::decode_content<forms::Choices>(c);
  REQUIRE(d);
  CHECK(d->many == std::vector{forms::ColorName::Red, forms::ColorName::Blue, forms::ColorName::Red});
  CHECK(*d->some == std::set{forms::Color::red, forms::Color::blue});
  c["many"] = {"Red", "Purple", 3};
  c["some"] = json::array();
  c["few"] = {"normal", "high", "urgent"};
  CHECK(content_violations<forms::Choices>(c) ==
        strings{"/many/1 enum", "/many/2 type", "/some minItems", "/few maxItems"});
  c["many"] = "Red";
  c.erase("some");
  c.erase("few");
  CHECK(content_violations<forms::Choices>(c) == strings{"/many type", "/few required"});
}

TEST_CASE("item bounds hold exactly at their edges") {
  // SpecUntitledMulti: items<1, 2>, a std::vector (repeats count); Pizza below: a std::set.
  using forms::SpecUntitledMulti;
  CHECK(content_violations<SpecUntitledMulti>(json{{"value", {"Red"}}}).empty());
  CHECK(content_violations<SpecUntitledMulti>(json{{"value", {"Red", "Blue"}}}).empty());
  CHECK(content_violations<SpecUntitledMulti>(json{{"value", {"Red", "Red"}}}).empty());
  CHECK(content_violations<SpecUntitledMulti>(json{{"value", {"Red", "Blue", "Green"}}}) == strings{"/value maxItems"});
  CHECK(content_violations<SpecUntitledMulti>(json{{"value", {"Red", "Red", "Red"}}}) == strings{"/value maxItems"});
  CHECK(content_violations<SpecUntitledMulti>(json{{"value", json::array()}}) == strings{"/value minItems"});
  const auto d = elicit::decode_content<SpecUntitledMulti>(json{{"value", {"Red", "Blue", "Green"}}});
  REQUIRE(d.violations().size() == 1);
  CHECK(d.violations()[0].message == "Pick at most 2 for Color Selection; got 3.");
}

TEST_CASE("format: email") {
  for (const char* ok : {"a@b.co", "first.last+tag@sub.example.org", "x_y-z@a-b.example"}) {
    json c = valid_plain();
    c["mail"] = ok;
    CHECK(content_violations<forms::Plain>(c).empty());
  }
  for (const char* bad :
       {"", "plain", "@b.co", "a@", "a@b", "a..b@c.de", ".a@b.co", "a@-b.co", "a b@c.de", "a@b_c.de"}) {
    json c = valid_plain();
    c["mail"] = bad;
    INFO(bad);
    CHECK(content_violations<forms::Plain>(c) == strings{"/mail format"});
  }
}

TEST_CASE("format: uri") {
  for (const char* ok :
       {"https://example.com", "http://u:p@h.example:8080/p/a%20th?q=1#f", "mailto:a@b.co", "urn:isbn:0451450523",
        "http://[::1]:80/", "http://[2001:db8::7]/c=GB?objectClass?one", "http://[v7.a:b]/", "file:///etc/hosts"}) {
    json c = valid_plain();
    c["link"] = ok;
    INFO(ok);
    CHECK(content_violations<forms::Plain>(c).empty());
  }
  for (const char* bad : {"", "example.com", "/relative/path", "http://exa mple.com", "1http://a.b", "http://a.b/%zz",
                          "http://[::1/", "ht tp://a", "http://[vZ.x]/", "http://[v1.%41]/"}) {
    json c = valid_plain();
    c["link"] = bad;
    INFO(bad);
    CHECK(content_violations<forms::Plain>(c) == strings{"/link format"});
  }
}

TEST_CASE("format: date is a real calendar date") {
  for (const char* ok : {"2024-02-29", "2000-02-29", "1999-12-31", "0001-01-01"}) {
    json c = valid_plain();
    c["day"] = ok;
    CHECK(content_violations<forms::Plain>(c).empty());
  }
  for (const char* bad : {"2023-02-29", "1900-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "2024-4-1", "24-01-01",
                          "2024-01-01T00:00:00Z", "2024/01/01", ""}) {
    json c = valid_plain();
    c["day"] = bad;
    INFO(bad);
    CHECK(content_violations<forms::Plain>(c) == strings{"/day format"});
  }
}

TEST_CASE("format: date-time per RFC 3339, with offsets") {
  const sys_seconds base = sys_days{year_month_day{year{2025}, January, day{31}}} + hours{9} + minutes{30};
  const std::vector<std::pair<const char*, sys_seconds>> ok{
      {"2025-01-31T09:30:00Z", base},
      {"2025-01-31t09:30:00z", base},
      {"2025-01-31 09:30:00Z", base},
      {"2025-01-31T10:30:00+01:00", base},
      {"2025-01-31T04:00:00-05:30", base},
      {"2025-01-31T09:30:00.000Z", base},
      {"2016-12-31T23:59:60Z", sys_days{year_month_day{year{2017}, January, day{1}}}},
      {"2025-01-31T09:30:00.000000000000Z", base},
  };
  for (const auto& [text, instant] : ok) {
    json c = valid_plain();
    c["moment"] = text;
    INFO(text);
    const auto d = elicit::decode_content<forms::Plain>(c);
    REQUIRE(d);
    CHECK(d->moment == instant);
  }
  for (const char* bad : {"2025-01-31T09:30:00", "2025-01-31T24:00:00Z", "2025-02-30T00:00:00Z", "2025-01-31T09:30Z",
                          "2025-01-31T09:30:00+0100", "2025-01-31T09:30:00.Z", "2025-01-31T12:00:60Z",
                          "2025-01-31T09:30:00.5Z", "2024-01-01t12:00:00.25z", "2024-02-29T23:59:59.999+01:00"}) {
    // the last three: a fraction, in a whole-seconds field (several digits once made the reader loop)
    json c = valid_plain();
    c["moment"] = bad;
    INFO(bad);
    CHECK(content_violations<forms::Plain>(c) == strings{"/moment format"});
  }
}

TEST_CASE("unknown keys are ignored, or rejected with strict") {
  json c = valid_plain();
  c["extra"] = 1;
  c["a/b~c"] = true;
  CHECK(content_violations<forms::Plain>(c).empty());
  CHECK(content_violations<forms::Plain>(c, {.strict = true}) ==
        strings{"/a~1b~0c additionalProperties", "/extra additionalProperties"});
}

TEST_CASE("all violations of one answer are reported, in field order") {
  json c = {{"street", 5}, {"postcode", "SW1A 1AAAA"}, {"country_code", "United Kingdom"}};
  CHECK(content_violations<shipping::DeliveryAddress>(c) ==
        strings{"/street type", "/city required", "/postcode maxLength", "/country_code enum"});
  const auto d = elicit::decode_content<shipping::DeliveryAddress>(c);
  CHECK(fmt::format("{}", d.violations()) ==
        "/street: Street address must be text; got the number 5. (type); "
        "/city: City is required. (required); "
        "/postcode: Postcode must be at most 8 characters long; got 10 characters. (maxLength); "
        "/country_code: Country got the title \"United Kingdom\" where the value of that choice, \"GB\", must be "
        "sent. (enum)");
}

TEST_CASE("limits: size and depth of the text are bounded") {
  const std::string big = R"({"action":"accept","content":{"street":")" + std::string(2'000'000, 'a') + R"("}})";
  const auto r = elicit::decode<shipping::DeliveryAddress>(big);
  REQUIRE(r.violations().size() == 1);
  CHECK(r.violations()[0].keyword == "maxBytes");
  CHECK(elicit::decode<shipping::DeliveryAddress>(big, {.max_bytes = 4'000'000}).violations()[0].keyword ==
        "maxLength");

  const std::string deep =
      R"({"action":"accept","content":{"street":)" + std::string(100'000, '[') + std::string(100'000, ']') + "}}";
  const auto d = elicit::decode<shipping::DeliveryAddress>(deep);
  REQUIRE(d.violations().size() == 1);
  CHECK(d.violations()[0].keyword == "maxDepth");
  // Brackets inside strings do not count.
  const std::string text =
      R"({"action":"accept","content":{"street":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",)"
      R"("city":"x","postcode":"AB1 2CD","country_code":"NL"}})";
  CHECK(elicit::decode<shipping::DeliveryAddress>(text).accepted());
  // A huge number is a violation, not a crash.
  CHECK(elicit::decode<shipping::ShipmentOptions>(R"({"action":"accept","content":{"insured_value_gbp":1e400}})")
            .violations()[0]
            .keyword == "json");
}

namespace {

// One value of a form, and the content a client sends for it, both written by hand: to_content
// writes exactly that text (keys in field order, wire values, dates as text, empty optionals
// left out), and decoding that text, from text and from a parsed document, gives the value back.
template <class Form>
void round_trip(const Form& value, std::string_view wire) {
  INFO(wire);
  CHECK(elicit::to_content(value).dump() == wire);
  const auto from_text = elicit::decode<Form>(fmt::format(R"({{"action":"accept","content":{}}})", wire));
  REQUIRE(from_text.accepted());
  CHECK(boost::pfr::eq(*from_text, value));
  const auto from_json = elicit::decode_content<Form>(json::parse(wire));
  REQUIRE(from_json);
  CHECK(boost::pfr::eq(*from_json, value));
}

year_month_day ymd(int y, unsigned m, unsigned d) { return year_month_day{year{y}, month{m}, day{d}}; }

}  // namespace

TEST_CASE("to_content writes, and decode reads back, every form of the tests and the samples") {
  using namespace forms;
  round_trip(Plain{true, -7, 1LL << 60, 0.1, 2.5f, "text ✓", ymd(2024, 2, 29),
                   sys_days{ymd(1999, 12, 31)} + hours{23} + minutes{59} + seconds{59}, elicit::email("x@y.org"),
                   elicit::uri("urn:example:1")},
             R"({"flag":true,"count":-7,"big":1152921504606846976,"ratio":0.1,"weight":2.5,"text":"text ✓",)"
             R"("day":"2024-02-29","moment":"1999-12-31T23:59:59Z","mail":"x@y.org","link":"urn:example:1"})");
  round_trip(Narrow{-128, 255, -32768, 65535, -2147483647 - 1, 4294967295u, 18446744073709551615ull},
             R"({"i8":-128,"u8":255,"i16":-32768,"u16":65535,"i32":-2147483648,"u32":4294967295,)"
             R"("u64":18446744073709551615})");
  round_trip(Optionals{std::nullopt, 4, std::string(), ymd(2000, 1, 1), "x"},
             R"({"maybe_count":4,"maybe_text":"","maybe_day":"2000-01-01","always":"x"})");
  round_trip(Optionals{false, std::nullopt, std::nullopt, std::nullopt, ""}, R"({"maybe_flag":false,"always":""})");
  round_trip(Annotated{{"Ada Lovelace"},
                       {36},
                       {99.5},
                       {"SW1A1AA"},
                       {false},
                       {10},
                       {-0.5},
                       {elicit::email("ada@example.org")},
                       {"ÀÉÎÕÜàéî"}},
             R"({"name":"Ada Lovelace","age":36,"score":99.5,"post-code":"SW1A1AA","subscribe":false,"rating":10,)"
             R"("tiny":-0.5,"contact":"ada@example.org","unicode":"ÀÉÎÕÜàéî"})");
  round_trip(SpecString{{elicit::email("a.b@example.com")}}, R"({"value":"a.b@example.com"})");
  round_trip(SpecNumber{{42.25}}, R"({"value":42.25})");
  round_trip(SpecBoolean{{true}}, R"({"value":true})");
  round_trip(SpecMultipleFields{{"Ada"}, {elicit::email("ada@example.com")}, {18.5}},
             R"({"name":"Ada","email":"ada@example.com","age":18.5})");
  round_trip(SpecMultipleFields{{"Ada"}, {elicit::email("ada@example.com")}, {std::nullopt}},
             R"({"name":"Ada","email":"ada@example.com"})");
  round_trip(SpecSingleField{"Zoë"}, R"({"name":"Zoë"})");
  round_trip(Choices{ColorName::Blue,
                     Color::green,
                     medium,
                     {Priority::urgent},
                     Code::alpha,
                     ColorName::Red,
                     {ColorName::Green, ColorName::Green},
                     {std::set{Color::red}},
                     {{Priority::normal}}},
             R"({"plain":"Blue","titled":"#00FF00","size":"medium","priority":"urgent","code":"A","maybe":"Red",)"
             R"("many":["Green","Green"],"some":["#FF0000"],"few":["normal"]})");
  round_trip(Choices{ColorName::Red,
                     Color::blue,
                     large,
                     {Priority::normal},
                     Code::beta,
                     std::nullopt,
                     {},
                     {std::set{Color::blue, Color::red}},
                     {{Priority::high, Priority::urgent}}},
             R"({"plain":"Red","titled":"#0000FF","size":"large","priority":"normal","code":"B","many":[],)"
             R"("some":["#FF0000","#0000FF"],"few":["high","urgent"]})");
  round_trip(SpecUntitledSingle{{ColorName::Green}}, R"({"value":"Green"})");
  round_trip(SpecTitledSingle{{Color::blue}}, R"({"value":"#0000FF"})");
  round_trip(SpecUntitledMulti{{{ColorName::Blue, ColorName::Red}}}, R"({"value":["Blue","Red"]})");
  round_trip(SpecTitledMulti{{{Color::green}}}, R"({"value":["#00FF00"]})");
  round_trip(Legacy{{Color::red}}, R"({"value":"#FF0000"})");
  round_trip(shipping::DeliveryAddress{{"1 High St"}, {"London"}, {"SW1A 1AA"}, {shipping::Country::NL}},
             R"({"street":"1 High St","city":"London","postcode":"SW1A 1AA","country_code":"NL"})");
  round_trip(shipping::ShipmentOptions{shipping::Country::FR, {std::nullopt}, {true}},
             R"({"country_code":"FR","signature_required":true})");
  round_trip(shipping::ShipmentOptions{shipping::Country::IE, {5000}, {false}},
             R"({"country_code":"IE","insured_value_gbp":5000,"signature_required":false})");
  round_trip(shipping::Contact{{"Ada"}, {elicit::email("ada@example.com")}, {ymd(2026, 12, 1)}},
             R"({"name":"Ada","email":"ada@example.com","not_before":"2026-12-01"})");

  Choices bad;
  bad.priority = Priority::low;  // not offered
  CHECK_THROWS_AS(elicit::to_content(bad), std::invalid_argument);
}

TEST_CASE("absent fields decode to the defaults the form declares") {
  // The defaults as forms.hpp declares them, written out here.
  const forms::Annotated expected{
      {"Ada"}, {30}, {95.5}, {"AB123"}, {true}, {0}, {std::nullopt}, {elicit::email("user@example.com")}, {"ÀÉÎÕÜàéî"}};
  const auto a = elicit::decode<forms::Annotated>(
      R"({"action":"accept","content":{"name":"Ada","post-code":"AB123","rating":0}})");
  REQUIRE(a.accepted());
  CHECK(boost::pfr::eq(*a, expected));
  const auto c = elicit::decode_content<forms::Choices>(json{{"plain", "Red"},
                                                             {"titled", "#FF0000"},
                                                             {"size", "small"},
                                                             {"code", "A"},
                                                             {"many", json::array()},
                                                             {"few", json::array()}});
  REQUIRE(c);
  CHECK(*c->priority == forms::Priority::high);
  CHECK(*c->some == std::set{forms::Color::blue});
  const auto m = elicit::decode_content<forms::SpecTitledMulti>(json::object());
  REQUIRE(m);
  CHECK(*m->value == std::vector{forms::Color::red, forms::Color::green});
  const auto o = elicit::decode_content<shipping::ShipmentOptions>(json{{"country_code", "GB"}});
  REQUIRE(o);
  CHECK(*o->signature_required == false);
  CHECK_FALSE(o->insured_value_gbp.has_value());
  const auto b = elicit::decode_content<forms::SpecBoolean>(json::object());
  REQUIRE(b);
  CHECK(*b->value == false);
  const auto n = elicit::decode_content<forms::SpecNumber>(json::object());
  REQUIRE(n);
  CHECK(*n->value == 50.0);
}

namespace {
struct Dated {
  elicit::field<std::chrono::year_month_day, elicit::default_value<"2024-02-29">> day;
  elicit::field<std::chrono::sys_seconds, elicit::default_value<"2025-01-31T10:30:00+01:00">> moment;
};
struct Rounded {
  elicit::field<float, elicit::maximum<0.1>> ratio;
};
enum class Topping { cheese, ham, olives };
struct Pizza {
  elicit::field<std::set<Topping>, elicit::items<2, 3>> toppings;
};
}  // namespace

TEST_CASE("date fields start from their defaults, and decode to them when absent") {
  const Dated d;
  CHECK(*d.day == year_month_day{year{2024}, February, day{29}});
  CHECK(*d.moment == sys_days{year_month_day{year{2025}, January, day{31}}} + hours{9} + minutes{30});
  const auto decoded = elicit::decode_content<Dated>(json::object());
  REQUIRE(decoded);
  CHECK(*decoded->day == *d.day);
  CHECK(*decoded->moment == *d.moment);
  CHECK(elicit::to_content(d) == nlohmann::ordered_json{{"day", "2024-02-29"}, {"moment", "2025-01-31T09:30:00Z"}});
}

TEST_CASE("a float's bounds hold for the value it holds, after rounding") {
  // 0.1 rounds up to 0.100000001 as a float, past maximum 0.1: refused, so that what is
  // accepted always decodes again from its own to_content.
  CHECK(content_violations<Rounded>(json{{"ratio", 0.1}}) == strings{"/ratio maximum"});
  CHECK(content_violations<Rounded>(json{{"ratio", 0.05}}).empty());
}

TEST_CASE("repeated choices do not make up a set's minimum") {
  CHECK(content_violations<Pizza>(json{{"toppings", {"ham", "ham"}}}) == strings{"/toppings minItems"});
  CHECK(content_violations<Pizza>(json{{"toppings", {"ham", "olives", "ham"}}}).empty());
}

TEST_CASE("parse errors are reported in text that is always valid UTF-8") {
  const auto r = elicit::decode<shipping::DeliveryAddress>("{\"action\":\"accept\",\"content\":{\"city\":\"\xff\"}}");
  REQUIRE(r.violations().size() == 1);
  CHECK(r.violations()[0].message == "The answer is not valid JSON (at byte 39).");
  CHECK_NOTHROW(elicit::invalid_params_error(1, r.violations()).dump());
  json bad_key = valid_plain();
  bad_key[std::string("\xff")] = 1;
  const auto strict = elicit::decode_content<forms::Plain>(bad_key, {.strict = true});
  REQUIRE(strict.violations().size() == 1);
  CHECK_NOTHROW(elicit::invalid_params_error(1, strict.violations()).dump());
}

TEST_CASE("values that JSON text never holds are reported, never thrown") {
  // What nlohmann::json::parse(text, nullptr, false) gives for text that is not JSON.
  const auto r = elicit::decode<shipping::ShipmentOptions>(json::parse("{oops", nullptr, false));
  REQUIRE(r.violations().size() == 1);
  CHECK(r.violations()[0].message == "An elicitation result must be a JSON object; got nothing readable.");
  CHECK_FALSE(elicit::decode_content<shipping::ShipmentOptions>(json::parse("[", nullptr, false)).has_value());
  const json binary = {{"country_code", json::binary({1, 2})}};
  const auto d = elicit::decode_content<shipping::ShipmentOptions>(binary);
  REQUIRE(d.violations().size() == 1);
  CHECK(d.violations()[0].keyword == "type");
  CHECK(d.violations()[0].message.ends_with("got binary data."));
}

}  // namespace unit_answer_decode
