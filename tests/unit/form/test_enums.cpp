// Enums: the five shapes of a choice, as the spec's examples spell them.
#include "../support/forms.hpp"
#include "../support/test_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <string>

#include "thousand_options.hpp"

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_form_enums {

using test_support::property_text;
using test_support::spec_example;

TEST_CASE("the spec's four enum examples are reproduced exactly, key order included") {
  CHECK(property_text<forms::SpecUntitledSingle>("value") ==
        spec_example("UntitledSingleSelectEnumSchema/color-select-schema.json").dump());
  CHECK(property_text<forms::SpecTitledSingle>("value") ==
        spec_example("TitledSingleSelectEnumSchema/titled-color-select-schema.json").dump());
  CHECK(property_text<forms::SpecUntitledMulti>("value") ==
        spec_example("UntitledMultiSelectEnumSchema/color-multi-select-schema.json").dump());
  CHECK(property_text<forms::SpecTitledMulti>("value") ==
        spec_example("TitledMultiSelectEnumSchema/titled-color-multi-select-schema.json").dump());
}

TEST_CASE("the deprecated enum + enumNames shape") {
  CHECK(property_text<forms::Legacy>("value") ==
        R"({"type":"string","title":"Color","enum":["#FF0000","#00FF00","#0000FF"],)"
        R"("enumNames":["Red","Green","Blue"],"default":"#00FF00"})");
}

TEST_CASE("an enum needs nothing else: its enumerators' names are the values") {
  using F = forms::Choices;
  CHECK(property_text<F>("plain") == R"({"type":"string","enum":["Red","Green","Blue"]})");
  // An unscoped enum with a fixed underlying type, in value order.
  CHECK(property_text<F>("size") == R"({"type":"string","enum":["small","medium","large"]})");
  CHECK(property_text<F>("maybe") == R"({"type":"string","enum":["Red","Green","Blue"]})");
  CHECK(property_text<F>("many") == R"({"type":"array","items":{"type":"string","enum":["Red","Green","Blue"]}})");
}

TEST_CASE("options choose wire values, titles, a subset and its order") {
  using F = forms::Choices;
  CHECK(property_text<F>("titled") ==
        R"({"type":"string","oneOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"},)"
        R"({"const":"#0000FF","title":"Blue"}]})");
  // Priority::low is not offered; an option without a title shows its wire value.
  CHECK(property_text<F>("priority") ==
        R"({"type":"string","oneOf":[{"const":"urgent","title":"Urgent!"},{"const":"high","title":"High"},)"
        R"({"const":"normal","title":"normal"}],"default":"high"})");
  // Enumerators outside [-128, 127] are named by their options.
  CHECK(property_text<F>("code") ==
        R"({"type":"string","oneOf":[{"const":"A","title":"Alpha"},{"const":"B","title":"Beta"}]})");
}

TEST_CASE("multi-selects: std::vector and std::set of an enum, items bounds and defaults") {
  using F = forms::Choices;
  CHECK(property_text<F>("some") ==
        R"({"type":"array","minItems":1,"items":{"anyOf":[{"const":"#FF0000","title":"Red"},)"
        R"({"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}]},"default":["#0000FF"]})");
  CHECK(property_text<F>("few") ==
        R"({"type":"array","maxItems":2,"items":{"anyOf":[{"const":"urgent","title":"Urgent!"},)"
        R"({"const":"high","title":"High"},{"const":"normal","title":"normal"}]}})");
  const auto required = elicit::schema<F>()["required"];
  CHECK(required == nlohmann::ordered_json{"plain", "titled", "size", "code", "many", "few"});
}

TEST_CASE("select fields start from their defaults") {
  forms::Choices c;
  CHECK(*c.priority == forms::Priority::high);
  CHECK(*c.some == std::set<forms::Color>{forms::Color::blue});
  forms::SpecTitledMulti m;
  CHECK(*m.value == std::vector<forms::Color>{forms::Color::red, forms::Color::green});
}

TEST_CASE("enumerator names are reflected at compile time") {
  using elicit::detail::enumerator_name;
  STATIC_REQUIRE(enumerator_name(forms::ColorName::Blue) == "Blue");
  STATIC_REQUIRE(enumerator_name(forms::large) == "large");
  STATIC_REQUIRE(enumerator_name(forms::Priority::low) == "low");
  STATIC_REQUIRE(enumerator_name(static_cast<forms::ColorName>(7)).empty());
  STATIC_REQUIRE(enumerator_name(forms::Code::alpha).empty());  // outside [-128, 127]
}

namespace {
// Values at both ends of the reflected range and on both sides of each 32-value chunk.
enum class Edges : short {
  lowest = -128,
  a = -97,
  b = -96,
  c = -1,
  d = 0,
  e = 31,
  f = 32,
  g = 95,
  h = 96,
  highest = 127,
  beyond = 128
};
enum class Tiny : bool { no, yes };
enum class Small : unsigned char { zero, top = 127, beyond = 200 };
}  // namespace

TEST_CASE("enumerators are reflected 32 at a time, at every chunk boundary") {
  using elicit::detail::reflected_entries;
  constexpr auto edges = reflected_entries<Edges>;
  STATIC_REQUIRE(edges.size() == 10);  // `beyond` is outside [-128, 127]
  STATIC_REQUIRE(edges.front().wire == "lowest");
  STATIC_REQUIRE(edges[2].wire == "b");
  STATIC_REQUIRE(edges[6].wire == "f");
  STATIC_REQUIRE(edges.back().wire == "highest");
  STATIC_REQUIRE(reflected_entries<Tiny>.size() == 2);
  STATIC_REQUIRE(reflected_entries<Tiny>[1].wire == "yes");
  STATIC_REQUIRE(reflected_entries<Small>.size() == 2);
  STATIC_REQUIRE(reflected_entries<Small>[1].wire == "top");
}

TEST_CASE("a list of values is read from either compiler's signature") {
  using elicit::detail::name_at;
  using elicit::detail::names_mask;
  using elicit::detail::unread_chunk;
  // GCC 12
  constexpr const char gcc[] = "f() [with auto ...V = {<unnamed>::Anon::a, (ns::W<int, 2>::E)-5, main()::Local::l1}]";
  STATIC_REQUIRE(names_mask<3>(gcc) == 0b101);
  STATIC_REQUIRE(name_at<3>(gcc, 0) == "a");
  STATIC_REQUIRE(name_at<3>(gcc, 2) == "l1");
  // Clang 14
  constexpr const char clang[] =
      "f() [V = <(anonymous namespace)::Anon::b, ((anonymous namespace)::Anon)7, ns::W<int, 2>::E::x>]";
  STATIC_REQUIRE(names_mask<3>(clang) == 0b101);
  STATIC_REQUIRE(name_at<3>(clang, 0) == "b");
  STATIC_REQUIRE(name_at<3>(clang, 2) == "x");
  constexpr const char casts[] = "f() [V = <(E)-1, (E)0, (E)1>]";
  STATIC_REQUIRE(names_mask<3>(casts) == 0);
  // Anything else is not guessed at: the chunk is then reflected one value at a time.
  STATIC_REQUIRE(names_mask<3>("f() [with auto ...V = {E::a, E::b}]") == unread_chunk);  // two, not three
  STATIC_REQUIRE(names_mask<3>("f() [with auto ...V = {E::a, E::b, 'c'}]") ==
                 unread_chunk);  // a spelling it does not know
  STATIC_REQUIRE(names_mask<3>("f() [with auto ...V = {E::a; E::b, E::c}]") == unread_chunk);
  STATIC_REQUIRE(names_mask<3>("") == unread_chunk);
}

namespace {
struct Trip {
  thousand::Place place;
};
}  // namespace

TEST_CASE("a titled enum of 1,000 options: all offered, the last accepted, an unknown refused") {
  // schema_json is a compile-time constant: its length is known, and all 1,000 options are in it.
  const auto schema = nlohmann::ordered_json::parse(elicit::schema_json<Trip>);
  const auto& options = schema["properties"]["place"]["oneOf"];
  REQUIRE(options.size() == 1000);
  for (std::size_t i = 0; i < options.size(); i += 111) {
    // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict) on "literal" + std::string&&.
    const std::string n = std::to_string(i);
    std::string wire = "P";
    wire.append(3 - n.size(), '0');
    wire += n;
    CHECK(options[i]["const"] == wire);
  }
  CHECK(options[999] == nlohmann::ordered_json{{"const", "P999"}, {"title", "Place 999"}});
  CHECK(options[100]["title"] == "Place \"100\" \u00e9");  // escaped in the text, read back whole
  CHECK(elicit::schema<Trip>() == schema);
  const elicit::form<Trip> form;
  CHECK(form.schema() == schema);

  const auto last = elicit::decode<Trip>(R"({"action":"accept","content":{"place":"P999"}})");
  REQUIRE(last.accepted());
  CHECK(last->place == thousand::Place::P999);
  CHECK(form.decode(R"({"action":"accept","content":{"place":"P500"}})")->place == thousand::Place::P500);
  for (const char* unknown : {"P1000", "Place 999", "p999", ""}) {
    const auto r = elicit::decode<Trip>(nlohmann::json{{"action", "accept"}, {"content", {{"place", unknown}}}});
    CHECK_FALSE(r.accepted());
    REQUIRE(r.violations().size() == 1);
    CHECK(r.violations()[0].pointer == "/place");
  }
}

namespace {
// Reflected enums, and what reflection can tell of enumerators past [-128, 127].
enum class Plain { a, b, c };
enum class NearEnds { low = -127, high = 126 };
enum class Negative { minus3 = -3, minus2, minus1 };
enum class Flags { a = 1, b = 2, c = 4, d = 8, e = 16, f = 32, g = 64 };
enum class AtTop { a, top = 127 };
enum class AtBottom { bottom = -128, a };
enum class JustPast { a, b = 128 };
enum class JustUnder { a, b = -129 };
enum class Flag1024 { a = 1, k = 1024 };
enum class AllBits : unsigned { a = 1, all = 0xFFFFFFFFu };
enum class Lowest64 : std::int64_t { a = 1, lowest = std::numeric_limits<std::int64_t>::min() };
enum class HighBit64 : std::uint64_t { a = 1, high = std::uint64_t{1} << 63 };
enum class WholeInt8 : std::int8_t { lowest = -128, highest = 127 };  // its type ends where the range does
enum class TopOfUint8 : std::uint8_t { a, top = 127 };
enum Unfixed { u0, u1, u2 };  // unscoped, no fixed type
struct Normal {
  Flags flags;
  NearEnds near;
  Negative negative;
  WholeInt8 whole;
  Unfixed unfixed;
};
}  // namespace

TEST_CASE("an enum that may have enumerators past [-128, 127] is told apart from one that cannot") {
  using elicit::detail::reflection_incomplete;
  STATIC_REQUIRE_FALSE(reflection_incomplete<Plain>);
  STATIC_REQUIRE_FALSE(reflection_incomplete<NearEnds>);
  STATIC_REQUIRE_FALSE(reflection_incomplete<Negative>);
  STATIC_REQUIRE_FALSE(reflection_incomplete<Flags>);
  STATIC_REQUIRE_FALSE(reflection_incomplete<WholeInt8>);
  STATIC_REQUIRE_FALSE(reflection_incomplete<Tiny>);
  STATIC_REQUIRE_FALSE(reflection_incomplete<forms::ColorName>);
  STATIC_REQUIRE_FALSE(reflection_incomplete<forms::Size>);  // unscoped, fixed type
  STATIC_REQUIRE_FALSE(reflection_incomplete<Unfixed>);
  // At an end of the range, where the type goes on: the enum probably does too.
  STATIC_REQUIRE(reflection_incomplete<AtTop>);
  STATIC_REQUIRE(reflection_incomplete<AtBottom>);
  STATIC_REQUIRE(reflection_incomplete<TopOfUint8>);
  STATIC_REQUIRE(reflection_incomplete<Edges>);
  STATIC_REQUIRE(reflection_incomplete<Small>);
  // Past the range, at a value tried there: -129, 128, a power of two, the type's least or greatest.
  STATIC_REQUIRE(reflection_incomplete<JustPast>);
  STATIC_REQUIRE(reflection_incomplete<JustUnder>);
  STATIC_REQUIRE(reflection_incomplete<Flag1024>);
  STATIC_REQUIRE(reflection_incomplete<AllBits>);
  STATIC_REQUIRE(reflection_incomplete<Lowest64>);
  STATIC_REQUIRE(reflection_incomplete<HighBit64>);
  // Those that cannot still make forms: all their enumerators, in value order.
  CHECK(property_text<Normal>("flags") == R"({"type":"string","enum":["a","b","c","d","e","f","g"]})");
  CHECK(property_text<Normal>("near") == R"({"type":"string","enum":["low","high"]})");
  CHECK(property_text<Normal>("negative") == R"({"type":"string","enum":["minus3","minus2","minus1"]})");
  CHECK(property_text<Normal>("whole") == R"({"type":"string","enum":["lowest","highest"]})");
  CHECK(property_text<Normal>("unfixed") == R"({"type":"string","enum":["u0","u1","u2"]})");
}

}  // namespace unit_form_enums
