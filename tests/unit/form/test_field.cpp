// elicit::field reads like its value; members are named by reflection.
#include "../support/forms.hpp"

#include <elicit/detail/reflection.hpp>

#include <catch2/catch.hpp>

#include <string>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_form_field {

TEST_CASE("a field reads like its value") {
  elicit::field<std::string, elicit::title<"Name">> name{std::string("Ada")};
  const std::string& ref = name;  // implicit conversion
  CHECK(ref == "Ada");
  CHECK(*name == "Ada");
  CHECK(name->size() == 3);
  CHECK(name.value == "Ada");
  CHECK(name == std::string("Ada"));
  name = std::string("Grace");
  CHECK(name.value == "Grace");
  name = "Hopper";  // assignment from anything T takes
  CHECK(*name == "Hopper");
  *name += "!";
  CHECK(name.value == "Hopper!");

  elicit::field<std::string, elicit::title<"Name">> same{std::string("Hopper!")};
  CHECK(name == same);
}

TEST_CASE("a field starts from its default") {
  forms::Annotated a;
  CHECK(*a.age == 30);
  CHECK(*a.score == 95.5);
  CHECK(*a.subscribe == true);
  CHECK(a.contact->str() == "user@example.com");  // email is built from its text
  CHECK(a.name->empty());
  CHECK_FALSE(a.tiny.has_value());
}

TEST_CASE("an optional field reads its value in one step") {
  elicit::field<std::optional<std::string>, elicit::title<"Note">> note;
  CHECK_FALSE(note);
  CHECK_FALSE(note.has_value());
  CHECK(note.value_or("none") == "none");
  CHECK_THROWS_AS(*note, std::bad_optional_access);
  note = std::optional<std::string>("leave at the door");
  REQUIRE(note);
  CHECK(*note == "leave at the door");  // the string, not the optional
  CHECK(note->size() == 17);
  CHECK(note.value_or("none") == "leave at the door");
  CHECK(note.value == std::optional<std::string>("leave at the door"));  // the optional itself
  *note = "ring twice";
  CHECK(note.value == std::optional<std::string>("ring twice"));
}

TEST_CASE("member names come from reflection") {
  using elicit::detail::member_name;
  STATIC_REQUIRE(member_name<forms::Plain, 0>() == "flag");
  STATIC_REQUIRE(member_name<forms::Plain, 9>() == "link");
  STATIC_REQUIRE(member_name<forms::Annotated, 3>() == "postcode");
  STATIC_REQUIRE(member_name<forms::Narrow, 6>() == "u64");
}

namespace {
struct Hidden {  // internal linkage
  std::string city;
  int guests;
};
}  // namespace

TEST_CASE("forms with internal linkage and local forms work too") {
  struct Local {
    bool confirm;
    elicit::field<int, elicit::range<1, 9>> seats;
  };
  CHECK(
      elicit::schema_json<Hidden> ==
      R"({"type":"object","properties":{"city":{"type":"string"},"guests":{"type":"integer"}},"required":["city","guests"]})");
  CHECK(
      elicit::schema_json<Local> ==
      R"({"type":"object","properties":{"confirm":{"type":"boolean"},"seats":{"type":"integer","minimum":1,"maximum":9}},"required":["confirm","seats"]})");
}

TEST_CASE("last_identifier reads the member out of both compilers' signatures") {
  using elicit::detail::last_identifier;
  CHECK(last_identifier("[with auto P = member_probe<const int*>{(& x<F>.reflected<F>::value.F::street_2)}]") ==
        "street_2");
  CHECK(last_identifier("[Probe = {&reflected_object.value.city}]") == "city");
}

namespace shop {
// A domain type whose members stay plain; its form is described beside it, by member name.
struct Address {
  std::string street;
  std::optional<int> floor;
  elicit::field<std::string, elicit::title<"City">> city;
  bool gift = false;
};
elicit::members<elicit::member<"street", elicit::title<"Street">, elicit::max_length<120>>,
                elicit::member<"floor", elicit::title<"Floor">, elicit::range<0, 200>>,
                elicit::member<"city", elicit::max_length<60>>>
elicit_annotations(const Address&);
}  // namespace shop

TEST_CASE("annotations written beside a struct, by member name") {
  CHECK(elicit::schema_json<shop::Address> ==
        R"({"type":"object","properties":{"street":{"type":"string","title":"Street","maxLength":120},)"
        R"("floor":{"type":"integer","title":"Floor","minimum":0,"maximum":200},)"
        R"("city":{"type":"string","title":"City","maxLength":60},"gift":{"type":"boolean"}},)"
        R"("required":["street","city","gift"]})");
  const auto bad = elicit::decode<shop::Address>(
      R"({"action":"accept","content":{"street":"1 High St","floor":201,"city":"London","gift":false}})");
  REQUIRE(bad.violations().size() == 1);
  CHECK(bad.violations()[0].pointer == "/floor");
  CHECK(bad.violations()[0].message == "Floor must be at most 200; got 201.");
  const auto good = elicit::decode<shop::Address>(
      R"({"action":"accept","content":{"street":"1 High St","floor":2,"city":"London","gift":true}})");
  REQUIRE(good.accepted());
  CHECK(good->street == "1 High St");  // a plain member, read as it is
  CHECK(*good->floor == 2);
  CHECK(*good->city == "London");
  CHECK(good->gift);
}

}  // namespace unit_form_field
