// A person's answer to a received form (<elicit/client/form_answer.hpp>): what they type read by
// each field's type, checked by the server's own rules in the server's own words (both
// catalogues), defaults prefilled, and what the host sends accepted by the server's decoder.
#include "../../../samples/forms.hpp"

#include <elicit/client/form_answer.hpp>
#include <elicit/elicit.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_client_form_answer {

using nlohmann::json;

namespace {

constexpr std::string_view order_schema =
    R"({"type":"object","properties":{)"
    R"("name":{"type":"string","title":"Name","minLength":2},)"
    R"("age":{"type":"integer","title":"Age","minimum":0,"maximum":150,"default":30},)"
    R"("speed":{"type":"string","title":"Speed","oneOf":[{"const":"std","title":"Standard"},{"const":"exp","title":"Express"}]},)"
    R"("tags":{"type":"array","title":"Tags","items":{"type":"string","enum":["a","b","c"]},"maxItems":2},)"
    R"("ok":{"type":"boolean","title":"OK"},)"
    R"("weight":{"type":"number","title":"Weight"},)"
    R"("day":{"type":"string","title":"Day","format":"date"}},)"
    R"("required":["name","speed"]})";

elicit::received_form order_form() {
  auto read = elicit::read_form(order_schema);
  REQUIRE(read);
  return *read.form;
}

// "pointer keyword: message" of each violation.
std::vector<std::string> said(const elicit::violation_list& list) {
  std::vector<std::string> out;
  for (const auto& v : list)
    out.push_back(std::string(v.pointer) + " " + std::string(v.keyword) + ": " + std::string(v.message));
  return out;
}

}  // namespace

TEST_CASE("form answer: starts from the defaults and says what is still missing", "[client]") {
  const elicit::received_form form = order_form();
  elicit::form_answer answer(form);
  CHECK(answer.content() == json{{"age", 30}});
  CHECK(said(answer.check()) ==
        std::vector<std::string>{"/name required: Name is required.", "/speed required: Speed is required."});
  elicit::form_answer bare(form, {.prefill_defaults = false});
  CHECK(bare.content() == json::object());
  CHECK(said(bare.check()).size() == 2);  // a field with a default may be left out: the server applies it
}

TEST_CASE("form answer: text as typed, read by each field's type, refused in the server's words", "[client]") {
  const elicit::received_form form = order_form();
  elicit::form_answer a(form);
  CHECK(said(a.set("age", "forty")) ==
        std::vector<std::string>{R"(/age type: Age must be a whole number; got the text "forty".)"});
  CHECK(said(a.set("age", "200")) == std::vector<std::string>{"/age maximum: Age must be at most 150; got 200."});
  CHECK(a.set("age", " 41 ").empty());
  CHECK(a.set("speed", "Express").empty());   // by the title shown
  CHECK(a.content()["speed"] == "exp");       // sent as its value
  CHECK(a.set("speed", "standard").empty());  // a title in any case
  CHECK(said(a.set("speed", "warp")) ==
        std::vector<std::string>{R"(/speed enum: Speed must be one of "Standard", "Express"; got the text "warp".)"});
  CHECK(a.set("speed", "std").empty());
  CHECK(said(a.set("tags", "a, b, c")) == std::vector<std::string>{"/tags maxItems: Pick at most 2 for Tags; got 3."});
  CHECK(said(a.set("tags", "a, d")) ==
        std::vector<std::string>{R"(/tags/1 enum: Tags must be one of "a", "b", "c"; got the text "d".)"});
  CHECK(a.set("tags", "c,a").empty());
  CHECK(said(a.set("ok", "maybe")) ==
        std::vector<std::string>{R"(/ok type: OK must be true or false; got the text "maybe".)"});
  CHECK(a.set("ok", "Yes").empty());
  CHECK(a.set("weight", "2,5").empty());  // a decimal comma
  CHECK(a.content()["weight"] == 2.5);
  // A comma with three digits after it may separate thousands: not read as a fraction, nor in
  // an integer field at all.
  CHECK(said(a.set("weight", "2,500")) ==
        std::vector<std::string>{R"(/weight type: Weight must be a number; got the text "2,500".)"});
  CHECK(said(a.set("age", "1,5")) ==
        std::vector<std::string>{R"(/age type: Age must be a whole number; got the text "1,5".)"});
  CHECK(a.set("age", "41").empty());
  CHECK(a.set("weight", "2,5").empty());
  CHECK(said(a.set("day", "2025-02-30")).size() == 1);
  CHECK(a.set("day", "2025-02-28").empty());
  CHECK(said(a.set("name", "A")) ==
        std::vector<std::string>{"/name minLength: Name must be at least 2 characters long; got 1 character."});
  CHECK(said(a.set("nope", "x")) ==
        std::vector<std::string>{R"(/nope additionalProperties: The form has no field "nope".)"});
  CHECK(said(a.check()) ==
        std::vector<std::string>{"/name minLength: Name must be at least 2 characters long; got 1 character."});
  CHECK(a.set("name", "Ada").empty());
  CHECK(a.check().empty());
  CHECK(a.accept() == json{{"action", "accept"},
                           {"content",
                            {{"age", 41},
                             {"name", "Ada"},
                             {"speed", "std"},
                             {"tags", {"c", "a"}},
                             {"ok", true},
                             {"weight", 2.5},
                             {"day", "2025-02-28"}}}});
  a.clear("day");  // optional: left empty, not sent
  CHECK(a.check().empty());
  CHECK_FALSE(a.content().contains("day"));
  CHECK(a.set("age", "").empty());  // empty text is no value: the server's default applies
  CHECK_FALSE(a.content().contains("age"));
  CHECK(elicit::form_answer::decline() == json{{"action", "decline"}});
  CHECK(elicit::form_answer::cancel() == json{{"action", "cancel"}});
}

TEST_CASE("form answer: a choice typed as the title shown is that option, whatever the values", "[client]") {
  // A server that gave one option a value that is another option's title.
  const auto read = elicit::read_form(
      std::string_view(R"({"type":"object","properties":{"what":{"type":"string","title":"What","oneOf":[)"
                       R"({"const":"Keep","title":"Delete everything"},{"const":"del","title":"Keep"}]}}})"));
  REQUIRE(read);
  elicit::form_answer a(*read.form);
  CHECK(a.set("what", "Keep").empty());
  CHECK(a.content()["what"] == "del");  // the option whose title the person read
  CHECK(a.set("what", "delete EVERYTHING").empty());
  CHECK(a.content()["what"] == "Keep");
}

TEST_CASE("form answer: the French catalogue says the same in French", "[client]") {
  const elicit::received_form form = order_form();
  elicit::form_answer a(form, {.decode = {.words = &elicit::messages::french()}});
  CHECK(said(a.set("age", "forty")) ==
        std::vector<std::string>{"/age type: Age doit être un nombre entier ; reçu le texte « forty »."});
  CHECK(said(a.check()) ==
        std::vector<std::string>{"/name required: Name est obligatoire.",
                                 "/age type: Age doit être un nombre entier ; reçu le texte « forty ».",
                                 "/speed required: Speed est obligatoire."});
}

TEST_CASE("form answer: what the host accepts, the server's decoder accepts, and the same refusals", "[client]") {
  const auto read = elicit::read_form(std::string_view(elicit::schema_json<shipping::DeliveryAddress>));
  REQUIRE(read);
  elicit::form_answer a(*read.form);
  CHECK(a.set("street", "1 Main St").empty());
  CHECK(a.set("city", "London").empty());
  CHECK(a.set("postcode", "SW1").size() == 1);
  CHECK(a.set("country_code", "France").empty());
  // The host's refusals are the server's, word for word.
  const auto server = elicit::decode<shipping::DeliveryAddress>(a.accept().dump());
  REQUIRE(server.violations().size() == 1);
  CHECK(server.violations()[0].message == a.check()[0].message);
  CHECK(a.set("postcode", "SW1A 1AA").empty());
  const auto accepted = elicit::decode<shipping::DeliveryAddress>(a.accept().dump());
  REQUIRE(accepted.has_value());
  CHECK(accepted->country_code.value == shipping::Country::FR);
}

}  // namespace unit_client_form_answer
