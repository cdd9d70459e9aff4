// Decoding answers: the three actions, every rule of the schema, defaults, limits, and the
// round trip through to_content.
#include "../samples/forms.hpp"
#include "forms.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using nlohmann::json;
using namespace std::chrono;

namespace {

// The violations of an answer's content, as "pointer keyword" strings, in order.
template <class Form>
std::vector<std::string> broken(const json& content, elicit::decode_options options = {}) {
  const auto d = elicit::decode_content<Form>(content, options);
  std::vector<std::string> out;
  for (const auto& v : d.violations()) out.push_back(v.pointer + " " + v.keyword);
  CHECK(d.has_value() == out.empty());
  return out;
}

using strings = std::vector<std::string>;

json valid_plain() {
  return {{"flag", true},       {"count", 3},       {"big", -9007199254740993}, {"ratio", 0.25},
          {"weight", 70.5},     {"text", "héllo"},  {"day", "2024-02-29"},     {"moment", "2025-01-31T09:30:00Z"},
          {"mail", "a.b@ex.org"}, {"link", "https://example.com/a?b=c#d"}};
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
    CHECK(broken<forms::Plain>(c).empty());
  }
  for (const json& bad : {json(12.5), json("30"), json(true), json(nullptr), json::array(), json::object()}) {
    c["count"] = bad;
    CHECK(broken<forms::Plain>(c) == strings{"/count type"});
  }
}

TEST_CASE("type: every other field rejects the wrong JSON type") {
  const std::vector<std::pair<std::string, json>> wrong{
      {"flag", "true"}, {"ratio", "0.5"},    {"text", 5},     {"day", 20240229},
      {"moment", 0},    {"mail", nullptr},   {"link", false}, {"flag", 1},
  };
  for (const auto& [key, value] : wrong) {
    json c = valid_plain();
    c[key] = value;
    INFO(key << " = " << value.dump());
    CHECK(broken<forms::Plain>(c) == strings{"/" + key + " type"});
  }
}

TEST_CASE("an integer outside its C++ type is reported, never wrapped or truncated") {
  json c = valid_plain();
  c["count"] = 2147483648LL;
  CHECK(broken<forms::Plain>(c) == strings{"/count maximum"});
  c["count"] = -2147483649LL;
  CHECK(broken<forms::Plain>(c) == strings{"/count minimum"});
  c["count"] = 1e300;
  CHECK(broken<forms::Plain>(c) == strings{"/count maximum"});
  c = valid_plain();
  c["big"] = 18446744073709551615ULL;
  CHECK(broken<forms::Plain>(c) == strings{"/big maximum"});
  c["big"] = -9223372036854775807LL - 1;
  CHECK(broken<forms::Plain>(c).empty());

  // With bounds of its own, the field names those.
  json a = {{"name", "Ada"}, {"post-code", "SW1A1AA"}, {"rating", 1}, {"age", 3000000000LL}};
  const auto d = elicit::decode_content<forms::Annotated>(a);
  REQUIRE(d.violations().size() == 1);
  CHECK(d.violations()[0].message == "age must be at most 130; got 3000000000.");

  json n = {{"i8", -128}, {"u8", 255}, {"i16", 0}, {"u16", 0}, {"i32", 0}, {"u32", 4294967295u}, {"u64", 18446744073709551615ULL}};
  CHECK(broken<forms::Narrow>(n).empty());
  n["u8"] = 256;
  n["i8"] = -129;
  n["u32"] = -1;
  CHECK(broken<forms::Narrow>(n) == strings{"/i8 minimum", "/u8 maximum", "/u32 minimum"});
}

TEST_CASE("minimum and maximum, integer and fractional, inclusive") {
  json c = {{"name", "Ada"}, {"post-code", "SW1A1AA"}, {"rating", 10}, {"age", 18}, {"score", 0.5}, {"tiny", 1e-7}};
  CHECK(broken<forms::Annotated>(c).empty());
  c["age"] = 17;
  c["score"] = 99.50000000000001;
  c["rating"] = 11;
  c["tiny"] = 2e-7;
  CHECK(broken<forms::Annotated>(c) == strings{"/age minimum", "/score maximum", "/rating maximum", "/tiny maximum"});
  const auto d = elicit::decode_content<forms::Annotated>(c);
  CHECK(fmt::format("{}", d.violations()[0]) == "/age: age must be at least 18; got 17. (minimum)");
}

TEST_CASE("minLength and maxLength count code points, not bytes") {
  json c = {{"name", "Ada"}, {"post-code", "SW1A1AA"}, {"rating", 1}};
  c["unicode"] = "ÀÉÎÕÜàéî";  // 8 two-byte characters: fits maxLength 8
  CHECK(broken<forms::Annotated>(c).empty());
  c["unicode"] = "ÀÉÎÕÜàéîo";
  CHECK(broken<forms::Annotated>(c) == strings{"/unicode maxLength"});
  c["unicode"] = "😀😀😀😀😀😀😀😀";  // 8 four-byte characters
  CHECK(broken<forms::Annotated>(c).empty());
  c["name"] = "";
  c["post-code"] = "SW1";
  CHECK(broken<forms::Annotated>(c) == strings{"/name minLength", "/post-code minLength"});
  const auto d = elicit::decode_content<forms::Annotated>(c);
  CHECK(d.violations()[0].message == "Full name must be at least 1 character long; got 0 characters.");
}

TEST_CASE("text that is not UTF-8 is a violation") {
  json c = valid_plain();
  c["text"] = std::string("caf\xc3", 4);
  CHECK(broken<forms::Plain>(c) == strings{"/text type"});
  c["text"] = std::string("\xed\xa0\x80");  // a surrogate, encoded
  CHECK(broken<forms::Plain>(c) == strings{"/text type"});
}

TEST_CASE("required, optional and default fields") {
  CHECK(broken<forms::Plain>(json::object()) ==
        strings{"/flag required", "/count required", "/big required", "/ratio required", "/weight required",
                "/text required", "/day required", "/moment required", "/mail required", "/link required"});
  const auto o = elicit::decode_content<forms::Optionals>(json{{"always", "x"}});
  REQUIRE(o);
  CHECK_FALSE(o->maybe_flag.has_value());
  CHECK_FALSE(o->maybe_day.has_value());
  const auto p = elicit::decode_content<forms::Optionals>(json{{"always", "x"}, {"maybe_count", 4}, {"maybe_day", "2000-01-01"}});
  REQUIRE(p);
  CHECK(p->maybe_count == 4);
  CHECK(p->maybe_day == year_month_day{year{2000}, January, day{1}});
  // null is not a value of an optional field's type (as a JSON Schema validator judges it).
  CHECK(broken<forms::Optionals>(json{{"always", "x"}, {"maybe_text", nullptr}}) == strings{"/maybe_text type"});

  const auto a = elicit::decode_content<forms::Annotated>(json{{"name", "Ada"}, {"post-code", "AB123"}, {"rating", 0}});
  REQUIRE(a);
  CHECK(*a->age == 30);
  CHECK(*a->score == 95.5);
  CHECK(*a->subscribe == true);
  CHECK(a->contact->str() == "user@example.com");
  CHECK(*a->unicode == "ÀÉÎÕÜàéî");
}

TEST_CASE("enum membership on wire values, never titles") {
  json c = {{"plain", "Green"}, {"titled", "#00FF00"}, {"size", "large"}, {"code", "B"}, {"many", json::array()},
            {"few", {"urgent"}}};
  auto d = elicit::decode_content<forms::Choices>(c);
  REQUIRE(d);
  CHECK(d->plain == forms::ColorName::Green);
  CHECK(d->titled == forms::Color::green);
  CHECK(d->size == forms::large);
  CHECK(d->code == forms::Code::beta);
  CHECK(*d->priority == forms::Priority::high);  // default
  c["titled"] = "Green";                          // a title, not a value
  c["plain"] = "green";                           // case matters
  c["code"] = "beta";                             // the enumerator's name is not its wire value here
  c["priority"] = "low";                          // an enumerator that is not offered
  CHECK(broken<forms::Choices>(c) == strings{"/plain enum", "/titled enum", "/priority enum", "/code enum"});
}

TEST_CASE("multi-selects: every item, minItems and maxItems") {
  json c = {{"plain", "Red"}, {"titled", "#FF0000"}, {"size", "small"}, {"code", "A"},
            {"many", {"Red", "Blue", "Red"}}, {"some", {"#0000FF", "#FF0000"}}, {"few", {"normal", "high"}}};
  auto d = elicit::decode_content<forms::Choices>(c);
  REQUIRE(d);
  CHECK(d->many == std::vector{forms::ColorName::Red, forms::ColorName::Blue, forms::ColorName::Red});
  CHECK(*d->some == std::set{forms::Color::red, forms::Color::blue});
  c["many"] = {"Red", "Purple", 3};
  c["some"] = json::array();
  c["few"] = {"normal", "high", "urgent"};
  CHECK(broken<forms::Choices>(c) == strings{"/many/1 enum", "/many/2 type", "/some minItems", "/few maxItems"});
  c["many"] = "Red";
  c.erase("some");
  c.erase("few");
  CHECK(broken<forms::Choices>(c) == strings{"/many type", "/few required"});
}

TEST_CASE("format: email") {
  for (const char* ok : {"a@b.co", "first.last+tag@sub.example.org", "x_y-z@a-b.example"}) {
    json c = valid_plain();
    c["mail"] = ok;
    CHECK(broken<forms::Plain>(c).empty());
  }
  for (const char* bad : {"", "plain", "@b.co", "a@", "a@b", "a..b@c.de", ".a@b.co", "a@-b.co", "a b@c.de", "a@b_c.de"}) {
    json c = valid_plain();
    c["mail"] = bad;
    INFO(bad);
    CHECK(broken<forms::Plain>(c) == strings{"/mail format"});
  }
}

TEST_CASE("format: uri") {
  for (const char* ok : {"https://example.com", "http://u:p@h.example:8080/p/a%20th?q=1#f", "mailto:a@b.co",
                         "urn:isbn:0451450523", "http://[::1]:80/", "http://[2001:db8::7]/c=GB?objectClass?one", "http://[v7.a:b]/",
                         "file:///etc/hosts"}) {
    json c = valid_plain();
    c["link"] = ok;
    INFO(ok);
    CHECK(broken<forms::Plain>(c).empty());
  }
  for (const char* bad : {"", "example.com", "/relative/path", "http://exa mple.com", "1http://a.b", "http://a.b/%zz",
                          "http://[::1/", "ht tp://a", "http://[vZ.x]/", "http://[v1.%41]/"}) {
    json c = valid_plain();
    c["link"] = bad;
    INFO(bad);
    CHECK(broken<forms::Plain>(c) == strings{"/link format"});
  }
}

TEST_CASE("format: date is a real calendar date") {
  for (const char* ok : {"2024-02-29", "2000-02-29", "1999-12-31", "0001-01-01"}) {
    json c = valid_plain();
    c["day"] = ok;
    CHECK(broken<forms::Plain>(c).empty());
  }
  for (const char* bad : {"2023-02-29", "1900-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "2024-4-1",
                          "24-01-01", "2024-01-01T00:00:00Z", "2024/01/01", ""}) {
    json c = valid_plain();
    c["day"] = bad;
    INFO(bad);
    CHECK(broken<forms::Plain>(c) == strings{"/day format"});
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
    CHECK(broken<forms::Plain>(c) == strings{"/moment format"});
  }
}

TEST_CASE("unknown keys are ignored, or rejected with strict") {
  json c = valid_plain();
  c["extra"] = 1;
  c["a/b~c"] = true;
  CHECK(broken<forms::Plain>(c).empty());
  CHECK(broken<forms::Plain>(c, {.strict = true}) == strings{"/a~1b~0c additionalProperties", "/extra additionalProperties"});
}

TEST_CASE("all violations of one answer are reported, in field order") {
  json c = {{"street", 5}, {"postcode", "SW1A 1AAAA"}, {"country_code", "United Kingdom"}};
  CHECK(broken<shipping::DeliveryAddress>(c) ==
        strings{"/street type", "/city required", "/postcode maxLength", "/country_code enum"});
  const auto d = elicit::decode_content<shipping::DeliveryAddress>(c);
  CHECK(fmt::format("{}", d.violations()) ==
        "/street: Street address must be text; got the number 5. (type); "
        "/city: City is required. (required); "
        "/postcode: Postcode must be at most 8 characters long; got 10 characters. (maxLength); "
        "/country_code: Country must be one of \"GB\", \"IE\", \"FR\", \"DE\", \"NL\"; got the text \"United Kingdom\". (enum)");
}

TEST_CASE("limits: size and depth of the text are bounded") {
  const std::string big = R"({"action":"accept","content":{"street":")" + std::string(2'000'000, 'a') + R"("}})";
  const auto r = elicit::decode<shipping::DeliveryAddress>(big);
  REQUIRE(r.violations().size() == 1);
  CHECK(r.violations()[0].keyword == "maxBytes");
  CHECK(elicit::decode<shipping::DeliveryAddress>(big, {.max_bytes = 4'000'000}).violations()[0].keyword == "maxLength");

  const std::string deep = R"({"action":"accept","content":{"street":)" + std::string(100'000, '[') + std::string(100'000, ']') + "}}";
  const auto d = elicit::decode<shipping::DeliveryAddress>(deep);
  REQUIRE(d.violations().size() == 1);
  CHECK(d.violations()[0].keyword == "maxDepth");
  // Brackets inside strings do not count.
  const std::string text = R"({"action":"accept","content":{"street":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",)"
                           R"("city":"x","postcode":"AB1 2CD","country_code":"NL"}})";
  CHECK(elicit::decode<shipping::DeliveryAddress>(text).accepted());
  // A huge number is a violation, not a crash.
  CHECK(elicit::decode<shipping::ShipmentOptions>(R"({"action":"accept","content":{"insured_value_gbp":1e400}})")
            .violations()[0]
            .keyword == "json");
}

TEST_CASE("to_content then decode gives back the same value, for every form") {
  forms::Plain p{true, -7, 1LL << 60, 0.1, 2.5f, "text ✓", year_month_day{year{2024}, February, day{29}},
                 sys_days{year_month_day{year{1999}, December, day{31}}} + hours{23} + minutes{59} + seconds{59},
                 elicit::email("x@y.org"), elicit::uri("urn:example:1")};
  const auto content = elicit::to_content(p);
  CHECK(content["day"] == "2024-02-29");
  CHECK(content["moment"] == "1999-12-31T23:59:59Z");
  const auto back = elicit::decode_content<forms::Plain>(json::parse(content.dump()));
  REQUIRE(back);
  CHECK(boost::pfr::eq(*back, p));

  forms::Choices c{forms::ColorName::Blue, forms::Color::green, forms::medium, {forms::Priority::urgent},
                   forms::Code::alpha, forms::ColorName::Red, {forms::ColorName::Green, forms::ColorName::Green},
                   {std::set{forms::Color::red}}, {{forms::Priority::normal}}};
  const auto cc = elicit::to_content(c);
  CHECK(cc["titled"] == "#00FF00");
  CHECK(cc["code"] == "A");
  CHECK(cc["some"] == nlohmann::ordered_json{"#FF0000"});
  const auto cback = elicit::decode_content<forms::Choices>(json::parse(cc.dump()));
  REQUIRE(cback);
  CHECK(elicit::to_content(*cback) == cc);

  shipping::ShipmentOptions s{shipping::Country::FR, {std::nullopt}, {true}};
  const auto sc = elicit::to_content(s);
  CHECK(sc.dump() == R"({"country_code":"FR","signature_required":true})");  // empty optional left out
  const auto sback = elicit::decode<shipping::ShipmentOptions>(json{{"action", "accept"}, {"content", sc}});
  REQUIRE(sback.accepted());
  CHECK(elicit::to_content(*sback) == sc);

  // The seed's other forms.
  const shipping::DeliveryAddress address{{"1 High St"}, {"London"}, {"SW1A 1AA"}, {shipping::Country::NL}};
  const auto address_back = elicit::decode_content<shipping::DeliveryAddress>(json::parse(elicit::to_content(address).dump()));
  REQUIRE(address_back);
  CHECK(boost::pfr::eq(*address_back, address));
  const shipping::Contact contact{{"Ada"}, {elicit::email("ada@example.com")}, {year_month_day{year{2026}, December, day{1}}}};
  const auto contact_back = elicit::decode_content<shipping::Contact>(json::parse(elicit::to_content(contact).dump()));
  REQUIRE(contact_back);
  CHECK(boost::pfr::eq(*contact_back, contact));

  forms::Choices bad = c;
  bad.priority = forms::Priority::low;  // not offered
  CHECK_THROWS_AS(elicit::to_content(bad), std::invalid_argument);
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
  CHECK(broken<Rounded>(json{{"ratio", 0.1}}) == strings{"/ratio maximum"});
  CHECK(broken<Rounded>(json{{"ratio", 0.05}}).empty());
}

TEST_CASE("repeated choices do not make up a set's minimum") {
  CHECK(broken<Pizza>(json{{"toppings", {"ham", "ham"}}}) == strings{"/toppings minItems"});
  CHECK(broken<Pizza>(json{{"toppings", {"ham", "olives", "ham"}}}).empty());
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
