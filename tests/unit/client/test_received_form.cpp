// A requestedSchema as a host receives it (<elicit/client/received_form.hpp>): every form the
// library writes reads back into the field model it was written from and writes again byte for
// byte; the spec's examples and a conformance suite server's form read; every schema outside the
// restricted dialect refused, each problem at its pointer in its words.
#include "../../../samples/forms.hpp"
#include "../support/forms.hpp"
#include "../support/runtime_forms.hpp"
#include "../support/test_support.hpp"

#include <elicit/client/received_form.hpp>
#include <elicit/elicit.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_client_received_form {

using nlohmann::ordered_json;
using test_support::spec_example;

namespace {

// Two descriptions of the same fields agree on everything a host shows and checks.
void same_fields(std::span<const elicit::field_info> declared, std::span<const elicit::field_info> received) {
  REQUIRE(declared.size() == received.size());
  for (std::size_t i = 0; i < declared.size(); ++i) {
    const elicit::field_info& d = declared[i];
    const elicit::field_info& r = received[i];
    INFO("field " << d.name());
    CHECK(d.name() == r.name());
    CHECK(d.type() == r.type());
    CHECK(d.format() == r.format());
    CHECK(d.title() == r.title());
    CHECK(d.description() == r.description());
    CHECK(d.required() == r.required());
    CHECK(d.minimum() == r.minimum());
    CHECK(d.maximum() == r.maximum());
    CHECK(d.min_length() == r.min_length());
    CHECK(d.max_length() == r.max_length());
    CHECK(d.min_items() == r.min_items());
    CHECK(d.max_items() == r.max_items());
    CHECK(d.default_value() == r.default_value());
    CHECK(d.titled() == r.titled());
    CHECK(d.legacy_enum_names() == r.legacy_enum_names());
    const auto d_options = d.options(), r_options = r.options();
    REQUIRE(d_options.size() == r_options.size());
    for (std::size_t k = 0; k < d_options.size(); ++k) {
      CHECK(d_options[k].value == r_options[k].value);
      // An option with no title is written with its value as its title when others have one.
      const std::string_view shown = d_options[k].title.empty() && d.titled() ? d_options[k].value : d_options[k].title;
      CHECK(shown == r_options[k].title);
    }
  }
}

template <class Form>
void round_trip() {
  const std::string written(elicit::schema_json<Form>);
  const elicit::read_form_result read = elicit::read_form(std::string_view(written));
  INFO(written);
  for (const auto& p : read.problems) INFO(p.pointer << ": " << p.message);
  REQUIRE(read);
  CHECK(read.form->schema_json() == written);
  const auto declared = elicit::fields<Form>();
  same_fields(declared, read.form->fields());
}

// The problems of a schema, as "pointer keyword: message" lines.
std::vector<std::string> problems_of(std::string_view schema) {
  std::vector<std::string> out;
  for (const auto& p : elicit::read_form(schema).problems)
    out.push_back(std::string(p.pointer) + " " + std::string(p.keyword) + ": " + std::string(p.message));
  return out;
}

}  // namespace

TEST_CASE("received form: every form the library writes reads back and writes again byte for byte", "[client]") {
  round_trip<shipping::DeliveryAddress>();
  round_trip<shipping::ShipmentOptions>();
  round_trip<shipping::Contact>();
  round_trip<forms::Plain>();
  round_trip<forms::Narrow>();
  round_trip<forms::Optionals>();
  round_trip<forms::OddKeys>();
  round_trip<forms::Annotated>();
  round_trip<forms::SpecString>();
  round_trip<forms::SpecNumber>();
  round_trip<forms::SpecBoolean>();
  round_trip<forms::SpecMultipleFields>();
  round_trip<forms::SpecSingleField>();
  round_trip<forms::Choices>();
  round_trip<forms::SpecUntitledSingle>();
  round_trip<forms::SpecTitledSingle>();
  round_trip<forms::SpecUntitledMulti>();
  round_trip<forms::SpecTitledMulti>();
  round_trip<forms::Legacy>();
}

TEST_CASE("received form: a form refined at run time reads back as refined", "[client]") {
  elicit::form<rt::Booking> booking;
  booking.choices(&rt::Booking::slot, {{"s-0900", "9:00"}, {"s-0930", "9:30"}})
      .range(&rt::Booking::party, 2, 6)
      .default_value(&rt::Booking::email, std::string("ada@example.com"));
  const std::string written = booking.schema_json();
  const elicit::read_form_result read = elicit::read_form(std::string_view(written));
  REQUIRE(read);
  CHECK(read.form->schema_json() == written);
  same_fields(booking.fields(), read.form->fields());
  const elicit::form<rt::Picks> picks = rt::picks_titled();
  const elicit::read_form_result read_picks = elicit::read_form(std::string_view(picks.schema_json()));
  REQUIRE(read_picks);
  CHECK(read_picks.form->schema_json() == picks.schema_json());
  same_fields(picks.fields(), read_picks.form->fields());
}

TEST_CASE("received form: the spec's examples and a suite server's form read, in their order", "[client]") {
  for (const char* example :
       {"ElicitRequestFormParams/elicit-multiple-fields.json", "ElicitRequestFormParams/elicit-single-field.json"}) {
    INFO(example);
    const ordered_json schema = spec_example(example)["requestedSchema"];
    const elicit::read_form_result read = elicit::read_form(schema);
    REQUIRE(read);
    std::vector<std::string> keys;
    for (const auto& [key, value] : schema["properties"].items()) keys.push_back(key);
    const auto fields = read.form->fields();
    REQUIRE(fields.size() == keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) CHECK(fields[i].name() == keys[i]);
    // Written back by the library: the same JSON value, whatever order its keywords come in.
    CHECK(nlohmann::json::parse(read.form->schema_json()) == nlohmann::json(schema));
  }
  // A single property schema of each kind the spec shows, as the only field of a form.
  for (const char* example :
       {"StringSchema/email-input-schema.json", "NumberSchema/number-input-schema.json",
        "BooleanSchema/boolean-input-schema.json", "UntitledSingleSelectEnumSchema/color-select-schema.json",
        "TitledSingleSelectEnumSchema/titled-color-select-schema.json",
        "UntitledMultiSelectEnumSchema/color-multi-select-schema.json",
        "TitledMultiSelectEnumSchema/titled-color-multi-select-schema.json"}) {
    INFO(example);
    const ordered_json schema{{"type", "object"}, {"properties", {{"value", spec_example(example)}}}};
    const elicit::read_form_result read = elicit::read_form(schema);
    for (const auto& p : read.problems) INFO(p.pointer << ": " << p.message);
    REQUIRE(read);
    CHECK(nlohmann::json::parse(read.form->schema_json()) == nlohmann::json(schema));
  }
  // The form the conformance suite's defaults scenario sends (the TypeScript SDK's server).
  const auto sep1034 = elicit::read_form(std::string_view(
      R"({"type":"object","properties":{"name":{"type":"string","description":"User name","default":"John Doe"},)"
      R"("age":{"type":"integer","description":"User age","default":30},)"
      R"("score":{"type":"number","description":"User score","default":95.5},)"
      R"("status":{"type":"string","description":"User status","enum":["active","inactive","pending"],"default":"active"},)"
      R"("verified":{"type":"boolean","description":"Verification status","default":true}},"required":[]})"));
  REQUIRE(sep1034);
  const auto f = sep1034.form->fields();
  REQUIRE(f.size() == 5);
  CHECK(f[0].name() == "name");
  CHECK(f[4].name() == "verified");
  CHECK(f[3].type() == elicit::value_type::single_select);
  CHECK(f[3].options().size() == 3);
  CHECK(*f[1].default_value() == 30);
  CHECK(*f[2].default_value() == 95.5);
  for (const elicit::field_info& field : f) CHECK_FALSE(field.required());
}

TEST_CASE("received form: the shapes the SDKs' schema generators give a form read", "[client]") {
  // A Pydantic model (the Python SDK): the model's title at the top, a title on every property.
  const auto python = elicit::read_form(std::string_view(
      R"({"properties":{"name":{"title":"Name","type":"string"},"check_alternative":{"default":true,)"
      R"("title":"Check Alternative","type":"boolean"},"alternative_date":{"default":"2024-12-26","format":"date",)"
      R"("title":"Alternative Date","type":"string"}},"required":["name"],"title":"BookingPreferences","type":"object"})"));
  REQUIRE(python);
  CHECK(python.form->fields()[2].format() == elicit::format::date);
  // zod through zod-to-json-schema (the TypeScript SDK v1): draft-07, a closed object.
  const auto typescript = elicit::read_form(std::string_view(
      R"({"type":"object","properties":{"email":{"type":"string","format":"email"},"age":{"type":"integer",)"
      R"("minimum":0,"maximum":150},"plan":{"type":"string","enum":["free","pro"],"default":"free"}},)"
      R"("required":["email","age"],"additionalProperties":false,"$schema":"http://json-schema.org/draft-07/schema#"})"));
  REQUIRE(typescript);
  CHECK(typescript.form->fields()[1].maximum() == nlohmann::json(150));
  // A Go struct through its JSON Schema package: descriptions, a closed object, no title.
  const auto go = elicit::read_form(
      std::string_view(R"({"type":"object","properties":{"confirm":{"type":"boolean","description":"Proceed?"},)"
                       R"("tags":{"type":"array","items":{"type":"string","enum":["a","b"]},"maxItems":2}},)"
                       R"("required":["confirm"],"additionalProperties":false})"));
  REQUIRE(go);
  CHECK(go.form->fields()[1].type() == elicit::value_type::multi_select);
}

TEST_CASE("received form: required with a default stays required when written back", "[client]") {
  const std::string_view schema =
      R"({"type":"object","properties":{"n":{"type":"integer","default":3}},"required":["n"]})";
  const auto read = elicit::read_form(schema);
  REQUIRE(read);
  CHECK(read.form->fields()[0].required());
  CHECK(read.form->schema_json() == schema);
}

TEST_CASE("received form: what is not the restricted dialect is refused, each problem in words", "[client]") {
  CHECK(problems_of(R"([1,2])") == std::vector<std::string>{" type: A requestedSchema must be a JSON object."});
  CHECK(problems_of(R"({"type":"array","properties":{}})") ==
        std::vector<std::string>{R"(/type type: A requestedSchema's "type" must be "object".)"});
  CHECK(problems_of(R"({"type":"object"})") ==
        std::vector<std::string>{
            R"(/properties properties: A requestedSchema needs "properties": an object of its fields.)"});
  CHECK(
      problems_of(R"({"type":"object","properties":{},"allOf":[]})") ==
      std::vector<std::string>{
          R"(/allOf allOf: A requestedSchema has no keyword "allOf": only "type", "properties", "required", "$schema", "title", "description" and "additionalProperties".)"});
  // What generators add around a form, read past: a model's title, a closed object.
  CHECK(problems_of(R"({"title":"Contact","description":"Who","type":"object","additionalProperties":false,)"
                    R"("properties":{"name":{"type":"string","title":"Name"}},"required":["name"]})")
            .empty());
  CHECK(problems_of(R"({"type":"object","properties":{"a":{"type":"string"}},"required":["b"]})") ==
        std::vector<std::string>{R"(/required required: "required" lists a key that is not one of the properties.)"});
  CHECK(problems_of(R"({"type":"object","properties":{"address":{"type":"object","properties":{}}}})") ==
        std::vector<std::string>{"/properties/address/type type: A form is flat: a property cannot be an object."});
  CHECK(
      problems_of(R"({"type":"object","properties":{"a":{"type":"null"}}})") ==
      std::vector<std::string>{
          R"(/properties/a/type type: A property's type must be "string", "number", "integer", "boolean" or "array"; got "null".)"});
  CHECK(problems_of(R"({"type":"object","properties":{"a":{"type":"string","pattern":"^x"}}})") ==
        std::vector<std::string>{R"(/properties/a/pattern pattern: A string property has no keyword "pattern".)"});
  CHECK(
      problems_of(R"({"type":"object","properties":{"a":{"type":"integer","minLength":2}}})") ==
      std::vector<std::string>{R"(/properties/a/minLength minLength: A integer property has no keyword "minLength".)"});
  CHECK(problems_of(R"({"type":"object","properties":{"a":{"type":"string","format":"ipv4"}}})") ==
        std::vector<std::string>{
            R"(/properties/a/format format: A string's format must be "date", "date-time", "email" or "uri".)"});
  CHECK(
      problems_of(R"({"type":"object","properties":{"a":{"type":"integer","default":"3"}}})") ==
      std::vector<std::string>{
          R"(/properties/a/default default: The field "a": its default is not of the field's type (the default "3").)"});
  CHECK(
      problems_of(R"({"type":"object","properties":{"a":{"type":"integer","maximum":5,"default":7}}})") ==
      std::vector<std::string>{
          R"(/properties/a/default default: The field "a": its default is outside its minimum and maximum (the default 7).)"});
  CHECK(
      problems_of(R"({"type":"object","properties":{"a":{"type":"string","enum":["x","y"],"default":"z"}}})") ==
      std::vector<std::string>{
          R"(/properties/a/default default: The field "a": its default is not one of its options (the default "z").)"});
  CHECK(
      problems_of(R"({"type":"object","properties":{"a":{"type":"string","oneOf":[{"const":"x"}]}}})") ==
      std::vector<std::string>{
          R"(/properties/a/oneOf oneOf: "oneOf" must list the options as {"const": value, "title": label}, both text.)"});
  CHECK(
      problems_of(R"({"type":"object","properties":{"a":{"type":"array","items":{"type":"integer"}}}})") ==
      std::vector<std::string>{
          R"(/properties/a/items items: "items" must be {"type": "string", "enum": [...]} or {"anyOf": [{"const": value, "title": label}, ...]}.)"});
  CHECK(problems_of(R"({"type":"object","properties":{"a":{"type":"string","enum":[]}}})").size() == 1);
  CHECK(problems_of(R"({"type":"object","properties":{"a":{"type":"string","enum":["x"],"format":"email"}}})") ==
        std::vector<std::string>{
            R"(/properties/a/format format: A choice has no keyword "format": its options say what it takes.)"});
  CHECK(problems_of(R"({"type":"object","properties":{"a":{"type":"string","oneOf":[{"const":"x","title":"X"}],)"
                    R"("maxLength":0}}})")
            .size() == 1);
  CHECK(problems_of(R"({"type":"object","properties":{"a":{"type":"string","default":null}}})") ==
        std::vector<std::string>{
            R"(/properties/a/default default: A default must be a value of the field's type, not null.)"});
  CHECK(problems_of(R"({"type":"object","properties":{"a":{"type":"integer","minimum":5,"maximum":1}}})").size() == 1);
  CHECK(
      problems_of(R"({"type":"object","properties":{"a":{"type":"string","minLength":-1}}})") ==
      std::vector<std::string>{R"(/properties/a/minLength minLength: "minLength" must be a whole number from 0 up.)"});
}

TEST_CASE("received form: a form that asks for a credential is refused", "[client]") {
  const auto found =
      problems_of(R"({"type":"object","properties":{"user":{"type":"string"},"apiKey":{"type":"string"}}})");
  REQUIRE(found.size() == 1);
  CHECK(found[0].starts_with("/properties/apiKey property: The field \"apiKey\": its name says it is a credential"));
}

TEST_CASE("received form: the limits every input meets hold here too", "[client]") {
  std::string deep(40, '[');
  deep += std::string(40, ']');
  auto found = problems_of(deep);
  REQUIRE(found.size() == 1);
  CHECK(found[0].starts_with(" maxDepth:"));
  std::string many = R"({"type":"object","properties":{)";
  for (int i = 0; i < 101; ++i)
    many += (i ? "," : "") + std::string("\"f") + std::to_string(i) + R"(":{"type":"boolean"})";
  many += "}}";
  CHECK(problems_of(many) ==
        std::vector<std::string>{"/properties properties: A form has at most 100 fields; this one has 101."});
  std::string repeated = R"({"type":"object","properties":{"a":{"type":"string"}},"required":[)";
  for (int i = 0; i < 60000; ++i) repeated += (i ? ",\"a\"" : "\"a\"");
  repeated += "]}";
  CHECK(problems_of(repeated) ==
        std::vector<std::string>{
            R"(/required required: "required" lists more keys than there are properties (or a key twice).)"});
  const std::string long_text(2 << 20, ' ');
  found = problems_of(long_text);
  REQUIRE(found.size() == 1);
  CHECK(found[0].starts_with(" maxBytes:"));
  CHECK(problems_of("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"title\":\"\xff\"}}}").size() ==
        1);
  std::string values = R"({"type":"object","properties":{"a":{"type":"string","enum":[)";
  for (int i = 0; i < 70000; ++i) values += (i ? ",\"x\"" : "\"x\"");
  values += "]}}}";
  found = problems_of(values);
  REQUIRE(found.size() == 1);
  CHECK(found[0].starts_with(" maxValues:"));
  const std::string with_nul("{\"type\":\"object\",\"properties\":{}}\0", 34);
  found = problems_of(with_nul);
  REQUIRE(found.size() == 1);
  CHECK(found[0].starts_with(" json:"));
  // An object wider than a form needs is refused before the ordered parse (its cost: the square
  // of its width).
  std::string wide = R"({"type":"object","properties":{},"x":{)";
  for (int i = 0; i < 5000; ++i) wide += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
  wide += "}}";
  CHECK(problems_of(wide) ==
        std::vector<std::string>{
            " maxProperties: The schema holds an object of 5000 members: a form has at most 100 fields."});
  // A value already parsed is held to the limits as well.
  ordered_json nested = ordered_json::array();
  for (int i = 0; i < 40; ++i) nested = ordered_json::array({nested});
  const auto read = elicit::read_form(nested);
  REQUIRE(read.problems.size() == 1);
  CHECK(read.problems[0].keyword == "maxDepth");
}

TEST_CASE("received form: a copy owns its texts", "[client]") {
  std::optional<elicit::received_form> copy;
  {
    const auto read = elicit::read_form(std::string_view(elicit::schema_json<shipping::DeliveryAddress>));
    REQUIRE(read);
    copy = *read.form;
  }
  CHECK(copy->schema_json() == elicit::schema_json<shipping::DeliveryAddress>);
  CHECK(copy->field("postcode")->description() == "UK format, e.g. SW1A 1AA");
  CHECK_FALSE(copy->field("nope").has_value());
}

}  // namespace unit_client_received_form
