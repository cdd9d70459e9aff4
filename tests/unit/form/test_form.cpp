// elicit::form<F> (<elicit/form/form.hpp>): every refinement with the exact JSON it gives, every
// refusal naming the field, a form with no refinement equal to schema_json<F>, and answers checked
// against what was offered. One-question forms: test_single.cpp; the description of the fields:
// test_field_info.cpp.
#include "../../../samples/forms.hpp"
#include "../../generator/edited_form.hpp"
#include "../../generator/lint_forms.hpp"
#include "../support/forms.hpp"
#include "../support/runtime_forms.hpp"
#include "../support/test_support.hpp"

#include <elicit/elicit.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_form_form {

using Catch::Contains;
using nlohmann::json;
using nlohmann::ordered_json;
using namespace std::string_view_literals;

using test_support::violation_keys;

namespace {

// A property of a form's schema as text, keys in the order the schema writes them.
template <class F>
std::string prop(const elicit::form<F>& f, const std::string& key) {
  return f.schema()["properties"][key].dump();
}

// The schema's `required` list as text, or "none" when the schema has none.
template <class F>
std::string required_of(const elicit::form<F>& f) {
  const ordered_json s = f.schema();
  return s.contains("required") ? s["required"].dump() : "none";
}

using strings = std::vector<std::string>;

std::string accept(const std::string& content) { return R"({"action":"accept","content":)" + content + "}"; }

// The schemas of rt::booking() and rt::picks_defaults(), written out by hand.
const std::string booking_schema =
    R"({"type":"object","properties":{)"
    R"("slot":{"type":"string","title":"Time slot","oneOf":[{"const":"s-0900","title":"9:00"},)"
    R"({"const":"s-0930","title":"9:30"}]},)"
    R"("party":{"type":"integer","title":"Party size","description":"6 seats are left","minimum":1,"maximum":6},)"
    R"("email":{"type":"string","title":"E-mail","format":"email","default":"ada@example.org"},)"
    R"("note":{"type":"string","title":"Anything else?","maxLength":200},)"
    R"("day":{"type":"string","title":"Date","format":"date"}},)"
    R"("required":["slot","party"]})";
const std::string picks_defaults_schema =
    R"({"type":"object","properties":{)"
    R"("one":{"type":"string","enum":["red","green"],"default":"green"},)"
    R"("many":{"type":"array","items":{"type":"string","enum":["bug","docs"]},"default":["docs"]},)"
    R"("some":{"type":"array","minItems":2,"maxItems":2,"items":{"type":"string","enum":["s","m","l"]},)"
    R"("default":["m","s"]}}})";  // a std::set default is written in the set's order

// The rules' words (detail/engine/rules.hpp, ELICIT_FORM_RULES), as form_error says them after the field:
// the same words a declaration breaking the rule gets from its static_assert (unit/detail/engine/test_rules.cpp).
const std::string out_of_range =
    "the default lies outside the field's own minimum and maximum (or its C++ type's "
    "range): change the default or the range";
const std::string not_whole = "an integer field's default must be a whole number";
const std::string out_of_length =
    "the default's length (in code points) lies outside the field's own min_length and "
    "max_length: change the default or the length";
const std::string not_offered =
    "the default is not among the offered options: pick an offered enumerator, or offer it in elicit_options";
const std::string type_mismatch =
    "the default's type does not match the field: a bool field takes true or false, a number field a number, a string "
    "field a string literal, an enum field enumerators of its own enum";
const std::string items_count =
    "the multi-select default has fewer or more choices than min_items / max_items allow: change the default or the "
    "bounds";
const std::string repeated_wire = "two options have the same wire value: give each choice its own";
const std::string no_wire =
    "an option has no wire value: give each one (an enumerator outside [-128, 127], which "
    R"(elicit cannot name, as elicit::option{E::x, "wire", "Title"}))";
const std::string not_utf8 = "title, description, name and string defaults must be valid UTF-8";
const std::string min_above_max = "the minimum is greater than the maximum: swap them";
const std::string length_order = "min_length is greater than max_length: swap them";
const std::string items_order = "min_items is greater than max_items: swap them";
const std::string above_options = "min_items asks for more choices than the field offers: lower it";
const std::string numeric_misfit =
    "range, minimum and maximum apply to integer and number fields only: use length, min_length or max_length on a "
    "string";
const std::string length_misfit =
    "length, min_length and max_length apply to string fields only: use range, minimum or maximum on a number";
const std::string length_on_date =
    "length, min_length and max_length do not apply to date and date-time fields: their format fixes their shape";
const std::string items_misfit =
    "items, min_items and max_items apply to multi-select fields only (std::vector<Enum> or std::set<Enum>)";

}  // namespace

// A refinement the form must refuse: form_error, its message naming the field (`field`, a
// string literal) and saying why (`why`), and the form left exactly as it was.
#define CHECK_REFUSED(f, refinement, field, why)                                     \
  do {                                                                               \
    const std::string before_refusal = (f).schema_json();                            \
    CHECK_THROWS_AS(refinement, elicit::form_error);                                 \
    CHECK((f).schema_json() == before_refusal);                                      \
    CHECK_THROWS_WITH(refinement, Contains("field \"" field "\"") && Contains(why)); \
    CHECK((f).schema_json() == before_refusal);                                      \
  } while (false)

static_assert(elicit::has_runtime_choices<rt::Picks>);
static_assert(elicit::has_runtime_choices<rt::Booking>);
static_assert(elicit::has_runtime_choices<rt::SlotPick>);
static_assert(!elicit::has_runtime_choices<forms::Choices>);
static_assert(!elicit::has_runtime_choices<rt::PartySize>);
static_assert(!elicit::has_runtime_choices<elicit::confirmation>);

// ---- 1. Refinements, with the JSON each gives ---------------------------------------------------

TEST_CASE("form: titled run-time choices give oneOf and items.anyOf", "[form]") {
  const auto f = rt::picks_titled();
  // Two strings, as below: g++ 12 at -O1 takes compare() against a char array for a memcmp past
  // a short string's inline buffer (-Wstringop-overread), which it never reaches.
  CHECK(f.schema_json() ==
        std::string(
            R"({"type":"object","properties":{)"
            R"("one":{"type":"string","oneOf":[{"const":"r-17","title":"elicit"},{"const":"r-42","title":"glaze"}]},)"
            R"("many":{"type":"array","items":{"anyOf":[{"const":"bug","title":"Bug"},{"const":"docs","title":"Docs"},)"
            R"({"const":"perf","title":"perf"}]}},)"
            R"("some":{"type":"array","minItems":1,"maxItems":3,"items":{"anyOf":[{"const":"s","title":"Small"},)"
            R"({"const":"m","title":"Medium"},{"const":"l","title":"Large"}]}}},)"
            R"("required":["one","many","some"]})"));
}

TEST_CASE("form: untitled run-time choices give enum and items.enum, from strings or offers", "[form]") {
  const auto f = rt::picks_untitled();
  CHECK(f.schema_json() ==
        R"({"type":"object","properties":{)"
        R"("one":{"type":"string","enum":["red","green"]},)"
        R"("many":{"type":"array","items":{"type":"string","enum":["bug","docs"]}},)"
        R"("some":{"type":"array","minItems":1,"maxItems":3,"items":{"type":"string","enum":["s","m","l"]}}},)"
        R"("required":["one","many","some"]})");

  // Any range whose items make an offer: a std::set of strings, an array of C strings.
  elicit::form<rt::Picks> g = rt::picks_untitled();
  g.choices(&rt::Picks::one, std::set<std::string>{"b", "a"});
  g.choices(&rt::Picks::many, std::array<const char*, 2>{"x", "y"});
  CHECK(prop(g, "one") == R"({"type":"string","enum":["a","b"]})");
  CHECK(prop(g, "many") == R"({"type":"array","items":{"type":"string","enum":["x","y"]}})");
  // Given again, choices replace the previous ones.
  g.choices(&rt::Picks::one, {{"c", "Sea"}});
  CHECK(prop(g, "one") == R"({"type":"string","oneOf":[{"const":"c","title":"Sea"}]})");
}

TEST_CASE("form: choices from rows of a table, as {wire, title} pairs", "[form]") {
  struct Row {
    int id;
    std::string name;
  };
  const std::vector<Row> table{{17, "elicit"}, {42, "glaze"}, {7, "Zoë \"Z\""}};
  std::vector<elicit::choice_option> offers;
  for (const Row& r : table) offers.emplace_back("r-" + std::to_string(r.id), r.name);
  elicit::form<rt::SlotPick> f;
  f.choices("slot", offers);
  // A string, as above: g++ 12 at -O1 warns of a memcmp past a short string's inline buffer.
  CHECK(f.schema_json() ==
        std::string(R"({"type":"object","properties":{"slot":{"type":"string","title":"Slot","oneOf":[)"
                    R"({"const":"r-17","title":"elicit"},{"const":"r-42","title":"glaze"},)"
                    R"({"const":"r-7","title":"Zoë \"Z\""}]}},"required":["slot"]})"));
}

TEST_CASE("form: choices from pairs, a map, and rows with value and title members", "[form]") {
  const std::string titled_ab = R"({"type":"string","oneOf":[{"const":"a","title":"Ay"},{"const":"b","title":"Bee"}]})";
  elicit::form<rt::Picks> f = rt::picks_untitled();
  f.choices(&rt::Picks::one, std::vector<std::pair<std::string, std::string>>{{"a", "Ay"}, {"b", "Bee"}});
  CHECK(prop(f, "one") == titled_ab);
  f.choices(&rt::Picks::one, std::map<std::string, std::string>{{"b", "Bee"}, {"a", "Ay"}});  // the map's order
  CHECK(prop(f, "one") == titled_ab);
  struct Slot {  // a row of the server's own: other members are not read
    std::string value;
    const char* title;
    int seats;
  };
  const std::array<Slot, 2> slots{{{"a", "Ay", 3}, {"b", "Bee", 0}}};
  f.choices(&rt::Picks::one, slots);
  CHECK(prop(f, "one") == titled_ab);
  // What the user sends is checked against exactly those options.
  CHECK(f.decode(R"({"action":"accept","content":{"one":"b","many":["bug"],"some":["s"]}})").accepted());
  CHECK(f.decode(R"({"action":"accept","content":{"one":"Bee","many":["bug"],"some":["s"]}})").outcome() ==
        elicit::outcome::invalid);
  // The rules of choices() hold for every shape: a repeated wire value is refused.
  CHECK_THROWS_AS(f.choices(&rt::Picks::one, std::vector<std::pair<std::string, std::string>>{{"a", "1"}, {"a", "2"}}),
                  elicit::form_error);
}

TEST_CASE("form: run-time choices with defaults and items", "[form]") {
  CHECK(rt::picks_defaults().schema_json() == picks_defaults_schema);
}

TEST_CASE("form: slots from a table, a capped party, a prefilled e-mail, a title and a description", "[form]") {
  CHECK(rt::booking().schema_json() == booking_schema);
}

TEST_CASE("form: a default on one field at a time, of each kind", "[form]") {
  using namespace std::chrono;
  elicit::form<rt::Kinds> f;
  f.choices(&rt::Kinds::pick, {"a", "b"}).choices(&rt::Kinds::picks, {{"x", "Ex"}, {"y", "Why"}});
  CHECK(required_of(f) == R"(["text","count","ratio","flag","color","pick","picks","day","mail","colors"])");

  f.default_value(&rt::Kinds::text, "Ada");
  CHECK(prop(f, "text") == R"({"type":"string","default":"Ada"})");
  CHECK(required_of(f) == R"(["count","ratio","flag","color","pick","picks","day","mail","colors"])");
  f.default_value(&rt::Kinds::text, std::string("Grace"));  // again: replaces it
  CHECK(prop(f, "text") == R"({"type":"string","default":"Grace"})");

  f.default_value(&rt::Kinds::count, 4);
  CHECK(prop(f, "count") == R"({"type":"integer","default":4})");
  f.default_value(&rt::Kinds::count, 4.0);  // a whole double on an integer field
  CHECK(prop(f, "count") == R"({"type":"integer","default":4})");

  f.default_value(&rt::Kinds::ratio, 0.25);
  CHECK(prop(f, "ratio") == R"({"type":"number","default":0.25})");
  f.default_value(&rt::Kinds::flag, false);
  CHECK(prop(f, "flag") == R"({"type":"boolean","default":false})");
  f.default_value(&rt::Kinds::color, forms::Color::green);
  CHECK(prop(f, "color") == R"({"type":"string","oneOf":[{"const":"#FF0000","title":"Red"},)"
                            R"({"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}],)"
                            R"("default":"#00FF00"})");
  f.default_value(&rt::Kinds::pick, elicit::choice{"b"});
  CHECK(prop(f, "pick") == R"({"type":"string","enum":["a","b"],"default":"b"})");
  f.default_value(&rt::Kinds::pick, "a");  // a wire value as text
  CHECK(prop(f, "pick") == R"({"type":"string","enum":["a","b"],"default":"a"})");
  f.default_value(&rt::Kinds::picks, std::vector<elicit::choice>{{"y"}, {"x"}});
  CHECK(prop(f, "picks") == R"({"type":"array","items":{"anyOf":[{"const":"x","title":"Ex"},)"
                            R"({"const":"y","title":"Why"}]},"default":["y","x"]})");
  f.default_value(&rt::Kinds::day, year_month_day{year{2024}, February, day{29}});
  CHECK(prop(f, "day") == R"({"type":"string","format":"date","default":"2024-02-29"})");
  f.default_value(&rt::Kinds::day, "2023-12-31");  // a date as text
  CHECK(prop(f, "day") == R"({"type":"string","format":"date","default":"2023-12-31"})");
  f.default_value(&rt::Kinds::mail, elicit::email("ada@example.org"));
  CHECK(prop(f, "mail") == R"({"type":"string","format":"email","default":"ada@example.org"})");
  f.default_value(&rt::Kinds::colors, std::vector<forms::ColorName>{forms::ColorName::Blue});
  CHECK(prop(f, "colors") == R"({"type":"array","items":{"type":"string","enum":["Red","Green","Blue"]},)"
                             R"("default":["Blue"]})");
  CHECK(required_of(f) == "none");

  // A date-time, from a time point or its text.
  elicit::form<forms::Plain> p;
  p.default_value(&forms::Plain::moment, sys_seconds{sys_days{year{2025} / January / 31} + hours{9} + minutes{30}});
  CHECK(prop(p, "moment") == R"({"type":"string","format":"date-time","default":"2025-01-31T09:30:00Z"})");
  p.default_value(&forms::Plain::moment, "2025-01-31T10:30:00+01:00");
  CHECK(prop(p, "moment") == R"({"type":"string","format":"date-time","default":"2025-01-31T10:30:00+01:00"})");
  CHECK_REFUSED(p, p.default_value(&forms::Plain::moment, "2025-01-31T09:30:00"), "moment", "the default");
  p.default_value(&forms::Plain::link, elicit::uri("https://example.com/a"));
  CHECK(prop(p, "link") == R"({"type":"string","format":"uri","default":"https://example.com/a"})");

  // std::nullopt takes the run-time default away again.
  f.default_value(&rt::Kinds::text, std::nullopt);
  CHECK(prop(f, "text") == R"({"type":"string"})");
  CHECK(required_of(f) == R"(["text"])");
}

TEST_CASE("form: a default on every kind of field, written whole", "[form]") {
  // Compared as two strings: against a char array, g++ 12 at -O1 warns of a memcmp past a
  // short string's inline buffer (-Wstringop-overread) that compare() never reaches.
  CHECK(
      rt::kinds_defaults().schema_json() ==
      std::string(
          R"({"type":"object","properties":{)"
          R"("text":{"type":"string","default":"Ada"},)"
          R"("count":{"type":"integer","default":4},)"
          R"("ratio":{"type":"number","default":0.25},)"
          R"("flag":{"type":"boolean","default":true},)"
          R"("color":{"type":"string","oneOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"},)"
          R"({"const":"#0000FF","title":"Blue"}],"default":"#00FF00"},)"
          R"("pick":{"type":"string","enum":["a","b"],"default":"b"},)"
          R"("picks":{"type":"array","items":{"anyOf":[{"const":"x","title":"Ex"},{"const":"y","title":"Why"}]},)"
          R"("default":["y","x"]},)"
          R"("day":{"type":"string","format":"date","default":"2024-02-29"},)"
          R"("mail":{"type":"string","format":"email","default":"ada@example.org"},)"
          R"("colors":{"type":"array","items":{"type":"string","enum":["Red","Green","Blue"]},"default":["Blue","Red"]}}})"));
}

TEST_CASE("form: a default replaces a compile-time one", "[form]") {
  elicit::form<forms::Annotated> f;
  f.default_value(&forms::Annotated::age, 40).default_value("contact", "ops@example.org");
  CHECK(prop(f, "age") == R"({"type":"integer","minimum":18,"maximum":130,"default":40})");
  CHECK(prop(f, "contact") == R"({"type":"string","format":"email","default":"ops@example.org"})");
  elicit::form<forms::Choices> c;
  c.default_value(&forms::Choices::some, std::set<forms::Color>{forms::Color::red, forms::Color::green});
  CHECK(prop(c, "some") == R"({"type":"array","minItems":1,"items":{"anyOf":[{"const":"#FF0000","title":"Red"},)"
                           R"({"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}]},)"
                           R"("default":["#FF0000","#00FF00"]})");
}

TEST_CASE("form: prefill from a value of F, std::nullopt members are skipped", "[form]") {
  CHECK(rt::account_prefilled().schema_json() ==
        R"({"type":"object","properties":{)"
        R"("name":{"type":"string","title":"Name","minLength":1,"maxLength":80,"default":"Ada"},)"
        R"("mail":{"type":"string","format":"email","default":"ada@example.org"},)"
        R"("age":{"type":"integer","default":36},)"
        R"("nickname":{"type":"string"}}})");

  // A skipped member keeps the default it had.
  elicit::form<rt::Account> f;
  f.default_value(&rt::Account::nickname, "Countess");
  f.prefill(rt::ada());
  CHECK(prop(f, "nickname") == R"({"type":"string","default":"Countess"})");

  // All or nothing: an invalid e-mail after a valid name changes no default.
  elicit::form<rt::Account> g;
  const std::string before = g.schema_json();
  rt::Account bad = rt::ada();
  bad.mail = "not an e-mail";
  CHECK_THROWS_WITH(g.prefill(bad), Contains("field \"mail\""));
  CHECK(g.schema_json() == before);
}

TEST_CASE("form: prefill_each sets the fields that take their value and reports the others", "[form]") {
  elicit::form<rt::Account> f;
  rt::Account partly = rt::ada();
  partly.mail = "not an e-mail";
  partly.name = "";  // below the length of 1
  const std::vector<elicit::violation> refused = f.prefill_each(partly);
  REQUIRE(refused.size() == 2);
  CHECK(refused[0].pointer == "/name");
  CHECK(refused[0].keyword == "default");
  CHECK_THAT(refused[0].message, Contains("field \"name\""));
  CHECK(refused[1].pointer == "/mail");
  CHECK_THAT(refused[1].message, Contains("field \"mail\""));
  // The others are set; the refused ones have no default, so the user is asked for them.
  CHECK(prop(f, "age") == R"({"type":"integer","default":36})");
  CHECK(prop(f, "name") == R"({"type":"string","title":"Name","minLength":1,"maxLength":80})");
  CHECK(prop(f, "mail") == R"({"type":"string","format":"email"})");
  // Every field takes its value: nothing is reported, and it is prefill's result.
  elicit::form<rt::Account> g;
  CHECK(g.prefill_each(rt::ada()).empty());
  CHECK(g.schema_json() == elicit::form<rt::Account>().prefill(rt::ada()).schema_json());
}

TEST_CASE("form: prefill_valid keeps the valid fields of an answer and leaves the others", "[form]") {
  elicit::form<rt::Account> f;
  const json content{{"name", "Ada"}, {"mail", "not-an-email"}, {"age", "thirty"}, {"nickname", "A"}, {"other", 1}};
  CHECK(f.prefill_valid(content) == 2);
  CHECK(f.schema_json() == R"({"type":"object","properties":{)"
                           R"("name":{"type":"string","title":"Name","minLength":1,"maxLength":80,"default":"Ada"},)"
                           R"("mail":{"type":"string","format":"email"},)"
                           R"("age":{"type":"integer"},)"
                           R"("nickname":{"type":"string","default":"A"}},"required":["mail"]})");

  // An answer too long for the field's length is not kept; a later valid one is.
  CHECK(f.prefill_valid(json{{"name", std::string(81, 'x')}}) == 0);
  CHECK(prop(f, "name") == R"({"type":"string","title":"Name","minLength":1,"maxLength":80,"default":"Ada"})");
  CHECK(f.prefill_valid(json{{"age", 37}, {"mail", "ada@example.org"}}) == 2);
  CHECK(required_of(f) == "none");
  // Content that is not an object keeps nothing.
  CHECK(f.prefill_valid(json::array({1, 2})) == 0);
  CHECK(f.prefill_valid(json("Ada")) == 0);

  // A run-time choice keeps an answer among its options only.
  auto b = rt::booking();
  CHECK(b.prefill_valid(json{{"slot", "s-1000"}, {"party", 7}}) == 0);
  CHECK(b.prefill_valid(json{{"slot", "s-0930"}, {"party", 6}}) == 2);
  CHECK(prop(b, "slot") == R"({"type":"string","title":"Time slot","oneOf":[{"const":"s-0900","title":"9:00"},)"
                           R"({"const":"s-0930","title":"9:30"}],"default":"s-0930"})");
  CHECK(prop(b, "party") == R"({"type":"integer","title":"Party size","description":"6 seats are left",)"
                            R"("minimum":1,"maximum":6,"default":6})");
}

TEST_CASE("form: prefill_valid does not keep a null", "[form]") {
  // A null is not a value of any field type (docs/decoding.md): it is not a valid answer to keep.
  elicit::form<rt::Account> f;
  CHECK(f.prefill_valid(json{{"name", nullptr}}) == 0);
  f.default_value(&rt::Account::nickname, "Countess");
  CHECK(f.prefill_valid(json{{"nickname", nullptr}}) == 0);
  CHECK(prop(f, "nickname") == R"({"type":"string","default":"Countess"})");
}

TEST_CASE("form: prefill_valid keeps no value for a choice it cannot check yet", "[form]") {
  // Before choices() the options are unknown: a value kept then is unchecked (5 is not even a
  // string), and the choices given next are refused for not offering it.
  elicit::form<rt::Picks> f;
  CHECK(f.prefill_valid(json{{"one", 5}, {"many", {"zzz"}}}) == 0);
  CHECK_NOTHROW(f.choices(&rt::Picks::one, {"a", "b"}));
  CHECK_NOTHROW(f.choices(&rt::Picks::many, {"a", "b"}));
}

TEST_CASE("form: bounds narrowed: range, minimum, maximum", "[form]") {
  elicit::form<rt::Booking> f = rt::booking();
  CHECK(prop(f, "party") == R"({"type":"integer","title":"Party size","description":"6 seats are left",)"
                            R"("minimum":1,"maximum":6})");
  f.minimum(&rt::Booking::party, 2);
  CHECK(prop(f, "party") == R"({"type":"integer","title":"Party size","description":"6 seats are left",)"
                            R"("minimum":2,"maximum":6})");
  f.maximum("party", 2);  // a single value left
  CHECK(prop(f, "party") == R"({"type":"integer","title":"Party size","description":"6 seats are left",)"
                            R"("minimum":2,"maximum":2})");

  const auto a = rt::annotated_narrowed();
  CHECK(prop(a, "age") == R"({"type":"integer","minimum":21,"maximum":99,"default":30})");
  CHECK(prop(a, "score") == R"({"type":"number","minimum":0.5,"maximum":96.25,"default":95.5})");
  CHECK(prop(a, "rating") == R"({"type":"integer","minimum":0,"maximum":5})");  // a std::uint8_t: 0..255, then 10

  // A bound where the field had none, and a 64-bit bound kept exact.
  elicit::form<forms::Plain> p;
  p.minimum(&forms::Plain::big, std::int64_t{-9007199254740993}).maximum(&forms::Plain::big, std::uint64_t{1} << 60);
  p.minimum(&forms::Plain::ratio, 1e-7);
  CHECK(prop(p, "big") == R"({"type":"integer","minimum":-9007199254740993,"maximum":1152921504606846976})");
  // (the schema's own text: prop() would print the number through nlohmann::json, as 1e-07)
  CHECK_THAT(p.schema_json(), Contains(R"("ratio":{"type":"number","minimum":1e-7})"));
  // A whole double bound on an integer field.
  p.range(&forms::Plain::count, 1.0, 10.0);
  CHECK(prop(p, "count") == R"({"type":"integer","minimum":1,"maximum":10})");
}

TEST_CASE("form: lengths narrowed", "[form]") {
  const auto a = rt::annotated_narrowed();
  CHECK(prop(a, "name") ==
        R"({"type":"string","title":"Full name","description":"As on your passport","minLength":2,"maxLength":40})");
  CHECK(prop(a, "post-code") == R"({"type":"string","minLength":6,"maxLength":8})");

  elicit::form<rt::Booking> f = rt::booking();
  f.max_length(&rt::Booking::note, 140);
  CHECK(prop(f, "note") == R"({"type":"string","title":"Anything else?","maxLength":140})");
  f.min_length(&rt::Booking::note, 3);
  CHECK(prop(f, "note") == R"({"type":"string","title":"Anything else?","minLength":3,"maxLength":140})");
  // An e-mail is text: it takes a length.
  f.max_length(&rt::Booking::email, 40);
  CHECK(prop(f, "email") ==
        R"({"type":"string","title":"E-mail","maxLength":40,"format":"email","default":"ada@example.org"})");
  // Narrowing to the same bound is not widening.
  f.length(&rt::Booking::note, 3, 140);
  CHECK(prop(f, "note") == R"({"type":"string","title":"Anything else?","minLength":3,"maxLength":140})");
}

TEST_CASE("form: items narrowed", "[form]") {
  const auto c = rt::choices_narrowed();
  const std::string priorities =
      R"([{"const":"urgent","title":"Urgent!"},{"const":"high","title":"High"},{"const":"normal","title":"normal"}])";
  CHECK(prop(c, "few") == R"({"type":"array","minItems":1,"maxItems":1,"items":{"anyOf":)" + priorities + "}}");
  CHECK(prop(c, "some") ==
        R"({"type":"array","minItems":1,"maxItems":2,"items":{"anyOf":[{"const":"#FF0000","title":"Red"},)"
        R"({"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}]},"default":["#0000FF"]})");
  CHECK(prop(c, "priority") == R"({"type":"string","oneOf":)" + priorities + R"(,"default":"urgent"})");

  elicit::form<rt::Picks> p = rt::picks_titled();
  p.min_items(&rt::Picks::many, 2).max_items(&rt::Picks::some, 2);
  CHECK(prop(p, "many") == R"({"type":"array","minItems":2,"items":{"anyOf":[{"const":"bug","title":"Bug"},)"
                           R"({"const":"docs","title":"Docs"},{"const":"perf","title":"perf"}]}})");
  CHECK(prop(p, "some") ==
        R"({"type":"array","minItems":1,"maxItems":2,"items":{"anyOf":[{"const":"s","title":"Small"},)"
        R"({"const":"m","title":"Medium"},{"const":"l","title":"Large"}]}})");
}

TEST_CASE("form: title and description at run time", "[form]") {
  elicit::form<shipping::DeliveryAddress> f;
  f.title(&shipping::DeliveryAddress::postcode, "Eircode").description("postcode", "e.g. D02 X285");
  CHECK(prop(f, "postcode") ==
        R"({"type":"string","title":"Eircode","description":"e.g. D02 X285","minLength":5,"maxLength":8})");
  f.description(&shipping::DeliveryAddress::street, "Line \"1\"\n");  // escaped as JSON
  CHECK(prop(f, "street") ==
        R"({"type":"string","title":"Street address","description":"Line \"1\"\n","maxLength":120})");
  // Violation messages name the field by its run-time title.
  const auto r = f.decode(accept(R"({"street":"1 Main St","city":"Dublin","postcode":"D02","country_code":"IE"})"));
  REQUIRE(r.violations().size() == 1);
  CHECK(r.violations()[0].message == "Eircode must be at least 5 characters long; got 3 characters.");
  // An empty title removes the compile-time one.
  f.title("city", "");
  CHECK(prop(f, "city") == R"({"type":"string","maxLength":60})");
}

// ---- 2. Refusals ------------------------------------------------------------------------------

TEST_CASE("form: a default outside the field's bounds is refused", "[form]") {
  elicit::form<rt::Booking> f = rt::booking();
  CHECK_REFUSED(f, f.default_value(&rt::Booking::party, 7), "party", out_of_range + " (the default 7)");
  CHECK_REFUSED(f, f.default_value(&rt::Booking::party, 0), "party", out_of_range + " (the default 0)");
  CHECK_REFUSED(f, f.default_value(&rt::Booking::party, 2.5), "party", not_whole + " (the default 2.5)");
  CHECK_REFUSED(f, f.default_value(&rt::Booking::email, "ada at example.org"), "email", "the default");
  CHECK_REFUSED(f, f.default_value(&rt::Booking::note, std::string(201, 'x')), "note", out_of_length);
  CHECK_REFUSED(f, f.default_value(&rt::Booking::day, "2023-02-29"), "day", "the default");
  CHECK_REFUSED(f, f.default_value(&rt::Booking::party, "three"), "party", "the default");
  // A narrowed bound refused because it would leave the default outside it.
  elicit::form<forms::Annotated> a;
  CHECK_REFUSED(a, a.maximum(&forms::Annotated::score, 90), "score", out_of_range + " (the default 95.5)");
  CHECK_REFUSED(a, a.minimum(&forms::Annotated::age, 31), "age", out_of_range + " (the default 30)");
  CHECK_REFUSED(a, a.max_length(&forms::Annotated::contact, 10), "contact", "the default");
  elicit::form<forms::Choices> c;
  CHECK_REFUSED(c, c.min_items(&forms::Choices::some, 2), "some", "the default");
}

TEST_CASE("form: options that are empty, repeated or without a value are refused", "[form]") {
  elicit::form<rt::Picks> f = rt::picks_titled();
  CHECK_REFUSED(f, f.choices(&rt::Picks::one, std::vector<elicit::choice_option>{}), "one",
                "offer at least one choice");
  CHECK_REFUSED(f, f.choices(&rt::Picks::one, std::vector<std::string>{}), "one", "offer at least one choice");
  CHECK_REFUSED(f, f.choices(&rt::Picks::many, {"a", "b", "a"}), "many", repeated_wire + R"( ("a" is offered twice))");
  CHECK_REFUSED(f, f.choices(&rt::Picks::many, {{"a", "A"}, {"a", "Another A"}}), "many", repeated_wire);
  CHECK_REFUSED(f, f.choices(&rt::Picks::some, {"", "x"}), "some", no_wire + " (option 1)");
  CHECK_REFUSED(f, f.choices(&rt::Picks::some, {{"x", "X"}, {"", "Empty"}}), "some", no_wire + " (option 2)");
  CHECK_REFUSED(f, f.choices(&rt::Picks::one, {std::string("\xff")}), "one", not_utf8 + " (option 1)");
  CHECK_REFUSED(f, f.title(&rt::Picks::one, "\xc3"), "one", "valid UTF-8");
  // The first refusal on a fresh form: the field stays without choices.
  elicit::form<rt::Picks> fresh;
  CHECK_THROWS_WITH(fresh.choices(&rt::Picks::one, std::vector<elicit::choice_option>{}), Contains("field \"one\""));
  CHECK(fresh.fields()[0].options().empty());
  CHECK_THROWS_WITH(fresh.schema_json(), Contains("field \"one\""));
}

// "v" and the number: appended, not "v" + ..., which g++-12 -O3 warns of wrongly (-Wrestrict).
namespace {
std::string v_of(int i) {
  std::string text = "v";
  return text.append(std::to_string(i));
}
}  // namespace

TEST_CASE("form: many options are checked and found through their index", "[form]") {
  // Past a few options a pick is found through a hash index: every option is found, and no
  // other text; a repeat is found wherever it lies, and the first problem in the options' order
  // is the one named.
  std::vector<elicit::choice_option> many;
  for (int i = 0; i < 5000; ++i) many.emplace_back(v_of(i), i % 2 == 0 ? "Even" : "");
  elicit::form<rt::Picks> f = rt::picks_titled();
  f.choices(&rt::Picks::many, many);
  for (const int i : {0, 1, 8, 9, 2500, 4999}) {
    INFO(i);
    const auto r = f.decode_content(json{{"one", "r-17"}, {"many", {v_of(i)}}, {"some", {"s"}}});
    REQUIRE(r);
    CHECK(r->many == std::vector<elicit::choice>{{v_of(i)}});
  }
  for (const std::string wrong : {"v5000", "v", "", "v00", "V1", "v1 "}) {
    INFO(wrong);
    const auto r = f.decode_content(json{{"one", "r-17"}, {"many", {wrong}}, {"some", {"s"}}});
    REQUIRE_FALSE(r);
    CHECK(r.violations()[0].pointer == "/many/0");
    CHECK(r.violations()[0].keyword == "enum");
  }
  // Titled when any option is, as with few.
  CHECK(f.schema()["properties"]["many"]["items"].contains("anyOf"));

  std::vector<elicit::choice_option> repeated = many;
  repeated.emplace_back("v4321");
  CHECK_REFUSED(f, f.choices(&rt::Picks::many, repeated), "many", repeated_wire + R"( ("v4321" is offered twice))");
  repeated.insert(repeated.begin() + 3000, elicit::choice_option(""));
  CHECK_REFUSED(f, f.choices(&rt::Picks::many, repeated), "many", no_wire + " (option 3001)");
  repeated.insert(repeated.begin() + 10, elicit::choice_option("v2"));  // a repeat before the empty value
  CHECK_REFUSED(f, f.choices(&rt::Picks::many, repeated), "many", repeated_wire + R"( ("v2" is offered twice))");

  // Refinements after choices() leave the options as they were given, and so does a copy.
  f.title(&rt::Picks::many, "Labels")
      .items(&rt::Picks::many, 1, 3)
      .default_value(&rt::Picks::many, std::vector<elicit::choice>{{"v77"}});
  const elicit::form<rt::Picks> copy = f;
  for (const elicit::form<rt::Picks>* g : {&std::as_const(f), &copy}) {
    CHECK(g->fields()[1].options().size() == 5000);
    const auto r = g->decode_content(json{{"one", "r-17"}, {"many", {"v4998", "v3"}}, {"some", {"s"}}});
    REQUIRE(r);
    CHECK(r->many == std::vector<elicit::choice>{{"v4998"}, {"v3"}});
    const auto absent = g->decode_content(json{{"one", "r-17"}, {"some", {"s"}}});
    REQUIRE(absent);
    CHECK(absent->many == std::vector<elicit::choice>{{"v77"}});
  }
  CHECK_REFUSED(f, f.default_value(&rt::Picks::many, std::vector<elicit::choice>{{"v5000"}}), "many",
                not_offered + R"( (the default ["v5000"]))");
}

TEST_CASE("form: a widened bound is refused", "[form]") {
  elicit::form<rt::Booking> f = rt::booking();  // party: 1..6 (20 at compile time)
  CHECK_REFUSED(f, f.minimum(&rt::Booking::party, 0), "party",
                "a minimum of 0 would widen the form's own minimum of 1");
  CHECK_REFUSED(f, f.maximum(&rt::Booking::party, 7), "party",
                "a maximum of 7 would widen the form's own maximum of 6");
  CHECK_REFUSED(f, f.maximum(&rt::Booking::party, 21), "party", "would widen");
  CHECK_REFUSED(f, f.range(&rt::Booking::party, 0, 6), "party", "would widen");
  CHECK_REFUSED(f, f.max_length(&rt::Booking::note, 201), "note", "a maximum of 201 would widen the form's own 200");
  elicit::form<forms::Annotated> a;  // name: length 1..80
  CHECK_REFUSED(a, a.min_length(&forms::Annotated::name, 0), "name", "a minimum of 0 would widen the form's own 1");
  CHECK_REFUSED(a, a.length(&forms::Annotated::name, 1, 81), "name", "would widen");
  CHECK_REFUSED(a, a.maximum(&forms::Annotated::rating, 11), "rating", "would widen");
  CHECK_REFUSED(a, a.minimum(&forms::Annotated::score, 0.25), "score", "would widen");
  elicit::form<forms::Narrow> n;  // the C++ type's own range counts as a bound
  CHECK_REFUSED(n, n.minimum(&forms::Narrow::u8, -1), "u8", "would widen the form's own minimum of 0");
  CHECK_REFUSED(n, n.maximum(&forms::Narrow::i16, 32768), "i16", "would widen the form's own maximum of 32767");
  elicit::form<rt::Picks> p = rt::picks_titled();  // some: items 1..3
  CHECK_REFUSED(p, p.max_items(&rt::Picks::some, 4), "some", "a maximum of 4 would widen the form's own 3");
  CHECK_REFUSED(p, p.min_items(&rt::Picks::some, 0), "some", "a minimum of 0 would widen the form's own 1");
  CHECK_REFUSED(p, p.items(&rt::Picks::some, 1, 4), "some", "would widen");
  // Bounds that are not numbers a field can hold.
  CHECK_REFUSED(f, f.maximum(&rt::Booking::party, 5.5), "party", "whole number");
  elicit::form<forms::Plain> plain;
  CHECK_REFUSED(plain, plain.maximum(&forms::Plain::ratio, std::numeric_limits<double>::infinity()), "ratio", "finite");
}

TEST_CASE("form: a minimum above the maximum is refused", "[form]") {
  elicit::form<rt::Booking> f = rt::booking();
  f.maximum(&rt::Booking::party, 5);
  CHECK_REFUSED(f, f.minimum(&rt::Booking::party, 6), "party", min_above_max + " (minimum 6, maximum 5)");
  f.minimum(&rt::Booking::party, 3);
  CHECK_REFUSED(f, f.maximum(&rt::Booking::party, 2), "party", min_above_max + " (minimum 3, maximum 2)");
  elicit::form<forms::Annotated> a;
  a.max_length(&forms::Annotated::name, 10);
  CHECK_REFUSED(a, a.min_length(&forms::Annotated::name, 11), "name", length_order);
  elicit::form<rt::Picks> p = rt::picks_titled();
  p.max_items(&rt::Picks::some, 2);
  CHECK_REFUSED(p, p.min_items(&rt::Picks::some, 3), "some", items_order);
}

TEST_CASE("form: a bound the field's C++ type cannot hold is refused", "[form]") {
  // At compile time this is refused ("a minimum or maximum lies outside what the field's C++
  // type can hold"); a run-time bound must not state a range the field cannot hold either.
  elicit::form<forms::Plain> p;
  CHECK_REFUSED(p, p.maximum(&forms::Plain::count, 3000000000LL), "count", "C++ type");  // an int
  CHECK_REFUSED(p, p.minimum(&forms::Plain::weight, -1e39), "weight", "C++ type");       // a float
  elicit::form<forms::Narrow> n;
  CHECK_REFUSED(n, n.maximum(&forms::Narrow::u32, 5000000000LL), "u32", "C++ type");
}

TEST_CASE("form: a refused range, length or items call leaves the form as it was", "[form]") {
  // range(lo, hi) is one refinement: when hi is refused, lo must not stay narrowed.
  elicit::form<rt::Booking> f = rt::booking();  // party: 1..6
  CHECK_REFUSED(f, f.range(&rt::Booking::party, 4, 3), "party", min_above_max + " (minimum 4, maximum 3)");
  CHECK_REFUSED(f, f.range(&rt::Booking::party, 2, 7), "party", "would widen");
  elicit::form<forms::Annotated> a;  // name: 1..80
  CHECK_REFUSED(a, a.length(&forms::Annotated::name, 20, 10), "name", length_order);
  elicit::form<rt::Picks> p = rt::picks_titled();  // some: 1..3
  CHECK_REFUSED(p, p.items(&rt::Picks::some, 3, 2), "some", items_order);
}

TEST_CASE("form: a refinement that does not fit the field's type is refused", "[form]") {
  elicit::form<rt::Booking> f = rt::booking();
  CHECK_REFUSED(f, f.choices(&rt::Booking::party, {"1", "2"}), "party", "only an elicit::choice field takes choices()");
  CHECK_REFUSED(f, f.choices("email", {"a@b.org"}), "email", "only an elicit::choice field takes choices()");
  elicit::form<forms::Choices> c;  // an enum's options are fixed at compile time
  CHECK_REFUSED(c, c.choices(&forms::Choices::plain, {"Red"}), "plain", "fixed at compile time");
  CHECK_REFUSED(c, c.choices(&forms::Choices::many, {"Red"}), "many", "fixed at compile time");

  CHECK_REFUSED(f, f.range(&rt::Booking::note, 1, 2), "note", numeric_misfit);
  CHECK_REFUSED(f, f.minimum(&rt::Booking::slot, 1), "slot", numeric_misfit);
  CHECK_REFUSED(f, f.maximum(&rt::Booking::day, 1), "day", numeric_misfit);

  CHECK_REFUSED(f, f.length(&rt::Booking::party, 1, 2), "party", length_misfit);
  CHECK_REFUSED(f, f.max_length(&rt::Booking::day, 10), "day", length_on_date);
  CHECK_REFUSED(f, f.min_length(&rt::Booking::slot, 1), "slot", length_misfit);
  elicit::form<forms::Plain> p;
  CHECK_REFUSED(p, p.max_length(&forms::Plain::moment, 30), "moment", length_on_date);
  CHECK_REFUSED(p, p.max_length(&forms::Plain::flag, 1), "flag", length_misfit);

  CHECK_REFUSED(f, f.items(&rt::Booking::slot, 1, 1), "slot", items_misfit);
  CHECK_REFUSED(c, c.max_items(&forms::Choices::titled, 1), "titled", items_misfit);
  CHECK_REFUSED(f, f.min_items(&rt::Booking::note, 1), "note", items_misfit);
}

TEST_CASE("form: a field the form does not have is refused, by key", "[form]") {
  elicit::form<rt::Booking> f = rt::booking();
  const std::string before = f.schema_json();
  CHECK_THROWS_WITH(f.title("nope", "x"), Contains("no field \"nope\""));
  CHECK_THROWS_AS(f.range("party_size", 1, 2), elicit::form_error);
  CHECK_THROWS_WITH(f.default_value("Party size", 2), Contains("no field \"Party size\""));  // a title is no key
  CHECK(f.schema_json() == before);
  // A field with a name of its own is found by that key, and by its member's name.
  elicit::form<forms::Annotated> a;
  a.title("post-code", "A").description("postcode", "B");
  CHECK(prop(a, "post-code") == R"({"type":"string","title":"A","description":"B","minLength":5,"maxLength":8})");
}

TEST_CASE("form: a default that is not offered is refused", "[form]") {
  elicit::form<rt::Picks> f = rt::picks_titled();
  CHECK_REFUSED(f, f.default_value(&rt::Picks::one, "r-99"), "one", not_offered + " (the default \"r-99\")");
  CHECK_REFUSED(f, f.default_value(&rt::Picks::one, "elicit"), "one", not_offered);  // a title is not a value
  CHECK_REFUSED(f, f.default_value(&rt::Picks::many, std::vector<elicit::choice>{{"bug"}, {"nope"}}), "many",
                not_offered + R"( (the default ["bug","nope"]))");
  CHECK_REFUSED(f, f.default_value(&rt::Picks::one, std::vector<elicit::choice>{{"r-17"}}), "one",
                type_mismatch + R"( (the default ["r-17"]))");
  CHECK_REFUSED(f, f.default_value(&rt::Picks::some, std::set<elicit::choice>{}), "some",
                items_count + " (the default [])");  // min 1
  // An enumerator its options leave out.
  elicit::form<forms::Choices> c;
  CHECK_REFUSED(c, c.default_value(&forms::Choices::priority, forms::Priority::low), "priority",
                "not one of its options");
  // Choices given after a default must still offer it.
  elicit::form<rt::Picks> g;
  g.default_value(&rt::Picks::one, "r-42");
  g.choices(&rt::Picks::many, {"a"}).choices(&rt::Picks::some, {"s"});
  CHECK_THROWS_WITH(g.choices(&rt::Picks::one, {"r-17"}),
                    Contains("field \"one\"") && Contains(not_offered + R"( (the default "r-42"))"));
  CHECK(g.fields()[0].options().empty());  // the refused choices were not kept
  g.choices(&rt::Picks::one, {"r-17", "r-42"});
  CHECK(prop(g, "one") == R"({"type":"string","enum":["r-17","r-42"],"default":"r-42"})");
  CHECK_REFUSED(g, g.choices(&rt::Picks::one, {"r-17"}), "one", not_offered);
}

TEST_CASE("form: min_items above the number of options is refused", "[form]") {
  elicit::form<rt::Picks> f = rt::picks_titled();  // some: 3 options
  CHECK_REFUSED(f, f.min_items(&rt::Picks::many, 4), "many", above_options + " (min_items 4, 3 offered)");
  CHECK_REFUSED(f, f.min_items(&rt::Picks::some, 4), "some", items_order);  // some: items<1, 3>
  f.choices(&rt::Picks::many, {"a"});
  CHECK_REFUSED(f, f.min_items(&rt::Picks::many, 2), "many", above_options + " (min_items 2, 1 offered)");
  // Bounds given before the choices are checked when the choices come.
  elicit::form<rt::Picks> g;
  g.min_items(&rt::Picks::some, 2);
  CHECK_THROWS_WITH(g.choices(&rt::Picks::some, {"only"}),
                    Contains("field \"some\"") && Contains(above_options + " (min_items 2, 1 offered)"));
  g.choices(&rt::Picks::some, {"a", "b"});
  CHECK(g.fields()[2].min_items() == std::optional<std::size_t>(2));
}

// ---- 3. No refinement: byte for byte schema_json<F> ----------------------------------------------

TEMPLATE_TEST_CASE("form: with no refinement, byte for byte elicit::schema_json<F>", "[form]", forms::Plain,
                   forms::Narrow, forms::Optionals, forms::Annotated, forms::SpecString, forms::SpecNumber,
                   forms::SpecBoolean, forms::SpecMultipleFields, forms::SpecSingleField, forms::Choices,
                   forms::SpecUntitledSingle, forms::SpecTitledSingle, forms::SpecUntitledMulti, forms::SpecTitledMulti,
                   forms::Legacy, shipping::DeliveryAddress, shipping::ShipmentOptions, shipping::Contact,
                   edited::Booking, lint::Long, lint::Clean, rt::Account, rt::Wide, rt::PartySize,
                   elicit::confirmation) {
  const elicit::form<TestType> f;
  CHECK(f.schema_json() == elicit::schema_json<TestType>);
  CHECK(f.schema() == elicit::schema<TestType>());
  // A copy, and a form whose refinement was refused, too.
  elicit::form<TestType> g = f;
  CHECK(g.schema_json() == elicit::schema_json<TestType>);
  CHECK_THROWS_AS(g.title("no such field", "x"), elicit::form_error);
  CHECK(g.schema_json() == elicit::schema_json<TestType>);
  // The same fields as the type's.
  const auto mine = f.fields();
  const auto theirs = elicit::fields<TestType>();
  REQUIRE(mine.size() == theirs.size());
  for (std::size_t i = 0; i < mine.size(); ++i) {
    CHECK(mine[i].name() == theirs[i].name());
    CHECK(mine[i].constraints() == theirs[i].constraints());
    CHECK(mine[i].default_value() == theirs[i].default_value());
  }
}

// ---- 4. Answers checked against what was offered -----------------------------------------------

TEST_CASE("form: an option that was not offered is refused", "[form]") {
  const auto f = rt::booking();
  const auto ok = f.decode(accept(R"({"slot":"s-0930","party":2})"));
  REQUIRE(ok.accepted());
  CHECK(ok->slot->value == "s-0930");
  CHECK(ok->party == 2);

  const auto r = f.decode(accept(R"({"slot":"s-1000","party":2})"));
  CHECK(r.outcome() == elicit::outcome::invalid);
  CHECK(violation_keys(r) == strings{"/slot enum"});
  CHECK(r.violations()[0].message == R"(Time slot must be one of "9:00", "9:30"; got the text "s-1000".)");
  CHECK(violation_keys(f.decode(accept(R"({"slot":"9:00","party":2})"))) ==
        strings{"/slot enum"});  // a title is no value

  const auto p = rt::picks_titled();
  CHECK(violation_keys(p.decode(accept(R"({"one":"r-17","many":["bug","nope"],"some":["s","x"]})"))) ==
        strings{"/many/1 enum", "/some/1 enum"});
  const auto picked = p.decode(accept(R"({"one":"r-42","many":[],"some":["l","s","l"]})"));
  REQUIRE(picked.accepted());
  CHECK(picked->one.value == "r-42");
  CHECK(picked->many.empty());
  CHECK(*picked->some == std::set<elicit::choice>{{"l"}, {"s"}});
  // Defaults of a run-time choice fill an absent field.
  const auto d = rt::picks_defaults().decode(accept("{}"));
  REQUIRE(d.accepted());
  CHECK(d->one.value == "green");
  CHECK(d->many == std::vector<elicit::choice>{{"docs"}});
  CHECK(*d->some == std::set<elicit::choice>{{"m"}, {"s"}});
  CHECK(violation_keys(rt::picks_defaults().decode(accept(R"({"some":["s"]})"))) == strings{"/some minItems"});
}

TEST_CASE("form: a value inside the compile-time range but outside the narrowed one is refused", "[form]") {
  const auto f = rt::booking();
  const auto r = f.decode(accept(R"({"slot":"s-0900","party":7})"));
  CHECK(violation_keys(r) == strings{"/party maximum"});
  CHECK(r.violations()[0].message == "Party size must be at most 6; got 7.");

  // The same answer, decoded with and without the narrowed form.
  const std::string text = accept(R"({"name":"Ada","post-code":"SW1A 1AA","rating":3,"age":100})");
  CHECK(elicit::decode<forms::Annotated>(text).accepted());
  const auto narrowed = rt::annotated_narrowed();
  CHECK(violation_keys(narrowed.decode(text)) == strings{"/age maximum"});
  CHECK(violation_keys(narrowed.decode(accept(R"({"name":"Ada","post-code":"SW1A 1AA","rating":3,"age":20})"))) ==
        strings{"/age minimum"});
  CHECK(violation_keys(narrowed.decode(accept(R"({"name":"A","post-code":"SW1AA","rating":6,"score":96.5})"))) ==
        strings{"/name minLength", "/score maximum", "/post-code minLength", "/rating maximum"});
  CHECK(elicit::decode<forms::Annotated>(accept(R"({"name":"A","post-code":"SW1AA","rating":6,"score":96.5})"))
            .accepted());
  CHECK(violation_keys(rt::choices_narrowed().decode_content(json{{"plain", "Red"},
                                                                  {"titled", "#FF0000"},
                                                                  {"size", "small"},
                                                                  {"code", "A"},
                                                                  {"many", json::array()},
                                                                  {"few", {"high", "urgent"}}})) ==
        strings{"/few maxItems"});
  CHECK(violation_keys(rt::party_size_narrowed().decode(accept(R"({"party_size":7})"))) ==
        strings{"/party_size maximum"});
}

TEST_CASE("form: a prefilled default fills an absent field", "[form]") {
  const auto r = rt::booking().decode(accept(R"({"slot":"s-0900","party":2})"));
  REQUIRE(r.accepted());
  CHECK(r->email->str() == "ada@example.org");
  CHECK_FALSE(r->note.value.has_value());

  const auto a = rt::account_prefilled().decode(accept("{}"));
  REQUIRE(a.accepted());
  CHECK(*a->name == "Ada");
  CHECK(a->mail.str() == "ada@example.org");
  CHECK(a->age == std::optional<int>(36));
  CHECK_FALSE(a->nickname.has_value());  // skipped by prefill: no default
  // A value sent wins over the default.
  const auto b = rt::account_prefilled().decode(accept(R"({"age":40})"));
  REQUIRE(b.accepted());
  CHECK(b->age == std::optional<int>(40));

  const auto k = rt::kinds_defaults().decode_content(json::object());
  REQUIRE(k.has_value());
  CHECK(k->text == "Ada");
  CHECK(k->count == 4);
  CHECK(k->ratio == 0.25);
  CHECK(k->flag);
  CHECK(k->color == forms::Color::green);
  CHECK(k->pick.value == "b");
  CHECK(k->picks == std::vector<elicit::choice>{{"y"}, {"x"}});
  CHECK(k->day == std::chrono::year_month_day{std::chrono::year{2024}, std::chrono::February, std::chrono::day{29}});
  CHECK(k->mail.str() == "ada@example.org");
  CHECK(k->colors == std::vector<forms::ColorName>{forms::ColorName::Blue, forms::ColorName::Red});
}

TEST_CASE("form: decode(text), decode(json) and decode_content agree", "[form]") {
  const auto f = rt::booking();
  const std::vector<std::string> answers{
      accept(R"({"slot":"s-0900","party":1})"),
      accept(R"({"slot":"s-0930","party":6,"email":"bob@example.org","note":"window","day":"2025-01-31"})"),
      accept(R"({"slot":"s-1000","party":7,"email":"x","note":5,"day":"2025-02-30"})"),
      accept(R"({"slot":["s-0900"],"party":"2"})"),
      accept("{}"),
      accept("[]"),
      R"({"action":"decline"})",
      R"({"action":"cancel","content":{"slot":"nope"}})",
      R"({"action":"maybe"})",
      R"([1,2])",
  };
  for (const std::string& text : answers) {
    INFO(text);
    const auto from_text = f.decode(text);
    const auto from_json = f.decode(json::parse(text));
    CHECK(from_text.action() == from_json.action());
    CHECK(from_text.outcome() == from_json.outcome());
    CHECK(violation_keys(from_text) == violation_keys(from_json));
    std::vector<std::string> m1, m2;
    for (const auto& v : from_text.violations()) m1.emplace_back(v.message);
    for (const auto& v : from_json.violations()) m2.emplace_back(v.message);
    CHECK(m1 == m2);
    if (from_text.accepted() && from_json.accepted())
      CHECK(elicit::to_content(*from_text) == elicit::to_content(*from_json));
    const json parsed = json::parse(text);
    if (parsed.is_object() && parsed.value("action", "") == "accept" && parsed.contains("content")) {
      const auto content = f.decode_content(parsed["content"]);
      CHECK(content.has_value() == from_text.accepted());
      CHECK(violation_keys(content) == violation_keys(from_text));
    }
  }
  CHECK(f.decode(accept(R"({"slot":"s-0900","party":1})")).accepted());
  // Decode options pass through.
  const auto strict =
      f.decode(accept(R"({"slot":"s-0900","party":1,"extra":true})"), elicit::decode_options{.strict = true});
  CHECK(violation_keys(strict) == strings{"/extra additionalProperties"});
}

TEST_CASE("form: an elicit::choice with no choices cannot be asked or decoded", "[form]") {
  const elicit::form<rt::Booking> f;
  CHECK_THROWS_WITH(f.schema_json(), Contains("field \"slot\"") && Contains("call choices()"));
  CHECK_THROWS_AS(f.schema(), elicit::form_error);
  CHECK_THROWS_WITH(f.decode(accept(R"({"slot":"s-0900","party":1})")),
                    Contains("field \"slot\"") && Contains("call choices()"));
  CHECK_THROWS_WITH(f.decode(json::parse(accept(R"({"slot":"s-0900","party":1})"))),
                    Contains("field \"slot\"") && Contains("call choices()"));
  CHECK_THROWS_WITH(f.decode_content(json{{"slot", "s-0900"}, {"party", 1}}),
                    Contains("field \"slot\"") && Contains("call choices()"));
  CHECK_THROWS_AS(elicit::form_params(f, "Book"), elicit::form_error);
  CHECK_THROWS_AS(elicit::input_required{}.ask("booking", f, "Book"), elicit::form_error);
  // The first field without choices is the one named, whichever it is.
  elicit::form<rt::Picks> p;
  p.choices(&rt::Picks::one, {"a"});
  CHECK_THROWS_WITH(p.schema_json(), Contains("field \"many\""));
  p.choices(&rt::Picks::many, {"a"});
  CHECK_THROWS_WITH(p.decode(accept("{}")), Contains("field \"some\""));
  p.choices(&rt::Picks::some, {"a"});
  CHECK_NOTHROW(p.schema_json());
  // The fields still describe themselves.
  CHECK(f.fields()[0].constraints() == "choices given at run time");
}

TEST_CASE("form: copies are independent, and a moved-from form reads as a fresh one", "[form]") {
  const elicit::form<rt::Booking> f = rt::booking();
  const std::string original = booking_schema;
  CHECK(f.schema_json() == original);
  const std::string late = accept(R"({"slot":"s-1000","party":2})");

  elicit::form<rt::Booking> g = f;
  CHECK(g.schema_json() == original);
  g.choices(&rt::Booking::slot, {"s-1000"}).range(&rt::Booking::party, 2, 4).title(&rt::Booking::note, "Note!");
  CHECK(f.schema_json() == original);
  CHECK(prop(g, "slot") == R"({"type":"string","title":"Time slot","enum":["s-1000"]})");
  CHECK(prop(g, "party") ==
        R"({"type":"integer","title":"Party size","description":"6 seats are left","minimum":2,"maximum":4})");
  CHECK(g.decode(late).accepted());
  CHECK_FALSE(f.decode(late).accepted());
  CHECK(f.fields()[0].options().size() == 2);

  // A copy outlives its original: it owns what it offers.
  std::optional<elicit::form<rt::Booking>> temporary(rt::booking());
  temporary->title(&rt::Booking::slot, "When?");
  const elicit::form<rt::Booking> kept(*temporary);
  temporary.reset();
  CHECK(prop(kept, "slot") == R"({"type":"string","title":"When?","oneOf":[{"const":"s-0900","title":"9:00"},)"
                              R"({"const":"s-0930","title":"9:30"}]})");
  CHECK(kept.fields()[0].options()[1].title == "9:30");
  CHECK(kept.decode(accept(R"({"slot":"s-0930","party":6})")).accepted());

  // Defaults of a choice, copied: the copy's default names its own options.
  std::optional<elicit::form<rt::Picks>> with_defaults(rt::picks_defaults());
  const elicit::form<rt::Picks> copied(*with_defaults);
  with_defaults->default_value(&rt::Picks::one, "red");
  with_defaults.reset();
  CHECK(copied.schema_json() == picks_defaults_schema);
  const auto picked = copied.decode(accept("{}"));
  REQUIRE(picked.accepted());
  CHECK(picked->one.value == "green");
  CHECK(*picked->some == std::set<elicit::choice>{{"m"}, {"s"}});

  // Copy assignment, onto a refined form and onto itself.
  elicit::form<rt::Booking> h = rt::booking();
  h.range(&rt::Booking::party, 3, 3);
  h = g;
  CHECK(h.schema_json() == g.schema_json());
  h.choices(&rt::Booking::slot, {"s-1100"});
  CHECK(prop(g, "slot") == R"({"type":"string","title":"Time slot","enum":["s-1000"]})");
  const elicit::form<rt::Booking>& same = h;
  h = same;
  CHECK(prop(h, "slot") == R"({"type":"string","title":"Time slot","enum":["s-1100"]})");

  // Moved: the new form has it all; the old one reads as F at compile time, and refines again.
  elicit::form<forms::Annotated> a = rt::annotated_narrowed();
  const std::string narrowed = a.schema_json();
  elicit::form<forms::Annotated> b = std::move(a);
  CHECK(b.schema_json() == narrowed);
  CHECK(a.schema_json() == elicit::schema_json<forms::Annotated>);  // NOLINT(bugprone-use-after-move)
  CHECK(a.fields().size() == 9);
  CHECK(a.decode(accept(R"({"name":"Ada","post-code":"SW1A 1AA","rating":3,"age":100})")).accepted());
  a.maximum(&forms::Annotated::age, 50);
  CHECK(prop(a, "age") == R"({"type":"integer","minimum":18,"maximum":50,"default":30})");
  CHECK(b.schema_json() == narrowed);

  elicit::form<rt::Booking> moved_to;
  moved_to = std::move(g);
  CHECK(prop(moved_to, "slot") == R"({"type":"string","title":"Time slot","enum":["s-1000"]})");
  CHECK_THROWS_WITH(g.schema_json(), Contains("field \"slot\""));  // NOLINT(bugprone-use-after-move): fresh again
  g.choices(&rt::Booking::slot, {"s-0800"});
  CHECK(prop(g, "slot") == R"({"type":"string","title":"Time slot","enum":["s-0800"]})");
  CHECK(prop(g, "party") == R"({"type":"integer","title":"Party size","minimum":1,"maximum":20})");
}

TEST_CASE("form: the protocol builders take a form", "[form]") {
  const auto f = rt::booking();
  const ordered_json schema = ordered_json::parse(booking_schema);
  CHECK(elicit::form_params(f, "Book a table") ==
        ordered_json{{"mode", "form"}, {"message", "Book a table"}, {"requestedSchema", schema}});
  CHECK(elicit::form_request(f, "Book a table") ==
        ordered_json{{"method", "elicitation/create"},
                     {"params", {{"mode", "form"}, {"message", "Book a table"}, {"requestedSchema", schema}}}});
  CHECK(elicit::elicitation_request(7, f, "Book a table").dump() ==
        R"({"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"mode":"form","message":"Book a table",)"
        R"("requestedSchema":)" +
            booking_schema + "}}");
  const auto result = elicit::input_required{}.ask("booking", f, "Book a table").result();
  CHECK(result["inputRequests"]["booking"] == elicit::form_request(f, "Book a table"));
  const elicit::elicitation_modes url_only{.form = false, .url = true};
  CHECK_THROWS_AS(elicit::input_required{url_only}.ask("booking", f, "Book"), elicit::unsupported_mode);

  const elicit::input_responses answers(
      json{{"inputResponses",
            {{"late", {{"action", "accept"}, {"content", {{"slot", "s-1000"}, {"party", 2}}}}},
             {"big", {{"action", "accept"}, {"content", {{"slot", "s-0900"}, {"party", 7}}}}},
             {"good", {{"action", "accept"}, {"content", {{"slot", "s-0900"}, {"party", 6}}}}},
             {"no", {{"action", "decline"}}}}}});
  CHECK(violation_keys(answers.get("late", f)) == strings{"/slot enum"});
  CHECK(violation_keys(answers.get("big", f)) == strings{"/party maximum"});
  const auto good = answers.get("good", f);
  REQUIRE(good.accepted());
  CHECK(good->email->str() == "ada@example.org");
  CHECK(answers.get("no", f).outcome() == elicit::outcome::declined);
  CHECK(answers.get("absent", f).outcome() == elicit::outcome::missing);
  CHECK_THROWS_AS(answers.get("good", elicit::form<rt::Booking>()), elicit::form_error);
}

}  // namespace unit_form_form

#undef CHECK_REFUSED
