// The requestedSchema of every field type and annotation, as exact text, and the spec's own
// examples reproduced.
#include "../support/forms.hpp"
#include "../support/test_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_form_schema {

using namespace std::string_view_literals;

using test_support::property_text;
using test_support::spec_example;

namespace {

// schema_json is usable in constant expressions.
static_assert(elicit::schema_json<forms::SpecSingleField> ==
              R"({"type":"object","properties":{"name":{"type":"string"}},"required":["name"]})"sv);
static_assert(elicit::schema_json<forms::Plain>.starts_with(R"({"type":"object","properties":{)"));

template <class Form>
nlohmann::json property(std::string_view key) {
  return nlohmann::json::parse(elicit::schema_json<Form>)["properties"][std::string(key)];
}

}  // namespace

TEST_CASE("plain members map to their JSON types") {
  using F = forms::Plain;
  CHECK(property_text<F>("flag") == R"({"type":"boolean"})");
  CHECK(property_text<F>("count") == R"({"type":"integer"})");
  CHECK(property_text<F>("big") == R"({"type":"integer"})");
  CHECK(property_text<F>("ratio") == R"({"type":"number"})");
  CHECK(property_text<F>("weight") == R"({"type":"number"})");
  CHECK(property_text<F>("text") == R"({"type":"string"})");
  CHECK(property_text<F>("day") == R"({"type":"string","format":"date"})");
  CHECK(property_text<F>("moment") == R"({"type":"string","format":"date-time"})");
  CHECK(property_text<F>("mail") == R"({"type":"string","format":"email"})");
  CHECK(property_text<F>("link") == R"({"type":"string","format":"uri"})");
}

TEST_CASE("properties and required keep declaration order") {
  const auto schema = elicit::schema<forms::Plain>();
  std::vector<std::string> keys;
  for (const auto& [key, value] : schema["properties"].items()) keys.push_back(key);
  const std::vector<std::string> expected{"flag", "count", "big",    "ratio", "weight",
                                          "text", "day",   "moment", "mail",  "link"};
  CHECK(keys == expected);
  CHECK(schema["required"] == nlohmann::ordered_json(expected));
  std::vector<std::string> top;
  for (const auto& [key, value] : schema.items()) top.push_back(key);
  CHECK(top == std::vector<std::string>{"type", "properties", "required"});
}

TEST_CASE("integers narrower than 32 bits carry their range, unsigned types carry minimum 0") {
  using F = forms::Narrow;
  CHECK(property_text<F>("i8") == R"({"type":"integer","minimum":-128,"maximum":127})");
  CHECK(property_text<F>("u8") == R"({"type":"integer","minimum":0,"maximum":255})");
  CHECK(property_text<F>("i16") == R"({"type":"integer","minimum":-32768,"maximum":32767})");
  CHECK(property_text<F>("u16") == R"({"type":"integer","minimum":0,"maximum":65535})");
  CHECK(property_text<F>("i32") == R"({"type":"integer"})");
  CHECK(property_text<F>("u32") == R"({"type":"integer","minimum":0})");
  CHECK(property_text<F>("u64") == R"({"type":"integer","minimum":0})");
  // An annotation tighter than the type wins.
  CHECK(property_text<forms::Annotated>("rating") == R"({"type":"integer","minimum":0,"maximum":10})");
}

TEST_CASE("optionals have their value's schema and are not required") {
  using F = forms::Optionals;
  CHECK(property_text<F>("maybe_flag") == R"({"type":"boolean"})");
  CHECK(property_text<F>("maybe_count") == R"({"type":"integer"})");
  CHECK(property_text<F>("maybe_text") == R"({"type":"string"})");
  CHECK(property_text<F>("maybe_day") == R"({"type":"string","format":"date"})");
  CHECK(elicit::schema<F>()["required"] == nlohmann::ordered_json{"always"});
}

TEST_CASE("annotations give keywords in a fixed order: type, title, description, constraints, format, default") {
  using F = forms::Annotated;
  CHECK(property_text<F>("name") ==
        R"({"type":"string","title":"Full name","description":"As on your passport","minLength":1,"maxLength":80})");
  CHECK(property_text<F>("age") == R"({"type":"integer","minimum":18,"maximum":130,"default":30})");
  CHECK(property_text<F>("score") == R"({"type":"number","minimum":0.5,"maximum":99.5,"default":95.5})");
  CHECK(property_text<F>("post-code") == R"({"type":"string","minLength":5,"maxLength":8})");
  CHECK(property_text<F>("subscribe") == R"({"type":"boolean","default":true})");
  // Checked on the text itself: a JSON library may print 1e-7 as 1e-07 when it dumps again.
  CHECK(elicit::schema_json<F>.find(R"("tiny":{"type":"number","minimum":-1e+300,"maximum":1e-7})") !=
        std::string_view::npos);
  CHECK(property_text<F>("contact") == R"({"type":"string","format":"email","default":"user@example.com"})");
}

TEST_CASE("name<> changes the property key and required uses it") {
  const auto schema = elicit::schema<forms::Annotated>();
  CHECK(schema["properties"].contains("post-code"));
  CHECK_FALSE(schema["properties"].contains("postcode"));
  // Fields with a default or optional are left out of required.
  CHECK(schema["required"] == nlohmann::ordered_json{"name", "post-code", "rating"});
}

TEST_CASE("text is escaped as JSON and UTF-8 is kept as is") {
  const auto unicode = property<forms::Annotated>("unicode");
  CHECK(unicode["title"] == "Café \"Zoë\"");
  CHECK(unicode["description"] == "Line one\nline\ttwo \\ end");
  CHECK(unicode["default"] == "ÀÉÎÕÜàéî");  // 8 code points, 16 bytes: fits maxLength 8
  CHECK(elicit::schema_json<forms::Annotated>.find(R"("Line one\nline\ttwo \\ end")") != std::string_view::npos);
}

TEST_CASE("the spec's primitive schema examples are reproduced exactly") {
  CHECK(property_text<forms::SpecString>("value") == spec_example("StringSchema/email-input-schema.json").dump());
  CHECK(property_text<forms::SpecNumber>("value") == spec_example("NumberSchema/number-input-schema.json").dump());
  CHECK(property_text<forms::SpecBoolean>("value") == spec_example("BooleanSchema/boolean-input-schema.json").dump());
}

TEST_CASE("the spec's requestedSchema examples are reproduced") {
  // The examples list a property's keys in another order; the values must be equal.
  auto unordered = [](const nlohmann::ordered_json& j) { return nlohmann::json::parse(j.dump()); };
  CHECK(nlohmann::json::parse(elicit::schema_json<forms::SpecMultipleFields>) ==
        unordered(spec_example("ElicitRequestFormParams/elicit-multiple-fields.json")["requestedSchema"]));
  CHECK(elicit::schema_json<forms::SpecSingleField> ==
        spec_example("ElicitRequestFormParams/elicit-single-field.json")["requestedSchema"].dump());
}

TEST_CASE("schema() and schema_json both give the whole schema, as written here by hand") {
  constexpr std::string_view plain =
      R"({"type":"object","properties":{"flag":{"type":"boolean"},"count":{"type":"integer"},"big":{"type":"integer"},)"
      R"("ratio":{"type":"number"},"weight":{"type":"number"},"text":{"type":"string"},)"
      R"("day":{"type":"string","format":"date"},"moment":{"type":"string","format":"date-time"},)"
      R"("mail":{"type":"string","format":"email"},"link":{"type":"string","format":"uri"}},)"
      R"("required":["flag","count","big","ratio","weight","text","day","moment","mail","link"]})";
  CHECK(elicit::schema_json<forms::Plain> == plain);
  CHECK(elicit::schema<forms::Plain>().dump() == plain);

  constexpr std::string_view annotated =
      R"({"type":"object","properties":{)"
      R"("name":{"type":"string","title":"Full name","description":"As on your passport","minLength":1,"maxLength":80},)"
      R"("age":{"type":"integer","minimum":18,"maximum":130,"default":30},)"
      R"("score":{"type":"number","minimum":0.5,"maximum":99.5,"default":95.5},)"
      R"("post-code":{"type":"string","minLength":5,"maxLength":8},)"
      R"("subscribe":{"type":"boolean","default":true},)"
      R"("rating":{"type":"integer","minimum":0,"maximum":10},)"
      R"("tiny":{"type":"number","minimum":-1e+300,"maximum":1e-7},)"
      R"("contact":{"type":"string","format":"email","default":"user@example.com"},)"
      R"("unicode":{"type":"string","title":"Café \"Zoë\"","description":"Line one\nline\ttwo \\ end","maxLength":8,)"
      R"("default":"ÀÉÎÕÜàéî"}},"required":["name","post-code","rating"]})";
  CHECK(elicit::schema_json<forms::Annotated> == annotated);
  // schema() is the same value, keys in the same order (ordered_json compares them in order);
  // its dump() may spell a number differently (1e-07), so it is compared as a value.
  CHECK(elicit::schema<forms::Annotated>() == nlohmann::ordered_json::parse(annotated));
  const nlohmann::ordered_json schema = elicit::schema<forms::Annotated>();
  std::vector<std::string> keys;
  for (const auto& [key, value] : schema["properties"]["unicode"].items()) keys.push_back(key);
  CHECK(keys == std::vector<std::string>{"type", "title", "description", "maxLength", "default"});
}

namespace {
enum class Couleur { rouge, é_bleu };
struct Année {
  int année;
  Couleur couleur;
};
}  // namespace

TEST_CASE("names spelled in UTF-8 are read whole, not from their ASCII tail") {
  CHECK(
      elicit::schema_json<Année> ==
      R"({"type":"object","properties":{"année":{"type":"integer"},"couleur":{"type":"string","enum":["rouge","é_bleu"]}},)"
      R"("required":["année","couleur"]})"sv);
}

}  // namespace unit_form_schema
