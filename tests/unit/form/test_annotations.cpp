// Annotations (<elicit/form/annotations.hpp>): what each says in the schema, in the schema's fixed
// keyword order, the rules a decode enforces from them, and is_annotation.
#include <elicit/elicit.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_form_annotations {

using namespace std::string_view_literals;

namespace {
enum class Size { s, m, l };
struct Annotated {
  elicit::field<int, elicit::title<"Age">, elicit::description<"In years">, elicit::range<18, 130>> age;
  elicit::field<std::string, elicit::name<"full-name">, elicit::length<2, 40>> name;
  elicit::field<double, elicit::minimum<0.5>, elicit::default_value<1.5>> ratio;
  elicit::field<std::set<Size>, elicit::items<1, 2>, elicit::default_value<Size::m>> sizes;
  elicit::field<std::string, elicit::not_secret> bowling_pin;
};
}  // namespace

static_assert(elicit::is_annotation<elicit::title<"x">>);
static_assert(elicit::is_annotation<elicit::range<1, 2>>);
static_assert(elicit::is_annotation<elicit::not_secret>);
static_assert(!elicit::is_annotation<int>);
static_assert(!elicit::is_annotation<std::string>);

TEST_CASE("annotations: each keyword in the schema, type, title, description, constraints, default in order") {
  CHECK(
      elicit::schema_json<Annotated> ==
      R"({"type":"object","properties":{)"
      R"("age":{"type":"integer","title":"Age","description":"In years","minimum":18,"maximum":130},)"
      R"("full-name":{"type":"string","minLength":2,"maxLength":40},)"
      R"("ratio":{"type":"number","minimum":0.5,"default":1.5},)"
      R"("sizes":{"type":"array","minItems":1,"maxItems":2,"items":{"type":"string","enum":["s","m","l"]},"default":["m"]},)"
      R"("bowling_pin":{"type":"string"}},)"
      R"("required":["age","full-name","bowling_pin"]})"sv);
}

TEST_CASE("annotations: the bounds they set are what a decode enforces, at their edges") {
  const auto at_edges = elicit::decode_content<Annotated>(
      nlohmann::json{{"age", 18}, {"full-name", "Al"}, {"ratio", 0.5}, {"sizes", {"s", "l"}}, {"bowling_pin", "7"}});
  REQUIRE(at_edges);
  CHECK(*at_edges->age == 18);
  CHECK(*at_edges->name == "Al");
  const auto past = elicit::decode_content<Annotated>(nlohmann::json{
      {"age", 131}, {"full-name", "A"}, {"ratio", 0.4}, {"sizes", {"s", "m", "l"}}, {"bowling_pin", ""}});
  REQUIRE_FALSE(past);
  std::string keywords;
  for (const auto& v : past.violations()) keywords += std::string(v.pointer) + " " + std::string(v.keyword) + "; ";
  CHECK(keywords == "/age maximum; /full-name minLength; /ratio minimum; /sizes maxItems; ");
  const Annotated fresh;
  CHECK(*fresh.ratio == 1.5);  // default_value is the field's starting value
  CHECK(fresh.sizes->size() == 1);
}

}  // namespace unit_form_annotations
