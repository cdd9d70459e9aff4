// A user's own type as a form field (<elicit/form/value_as.hpp>): mapped onto a value type elicit
// knows, by a function beside it (held_as, found by argument-dependent lookup) or by a
// specialization of elicit::value_as; its schema, defaults, decoding, to_content and prefill are
// the held type's.
#include "../support/test_support.hpp"

#include <elicit/elicit.hpp>

#include <boost/pfr/ops.hpp>
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_form_value_as {

using nlohmann::json;

using test_support::content_violations;

namespace {

using strings = std::vector<std::string>;

// to_content writes exactly `wire`, and decoding it, from text and from a parsed document, gives
// the value back.
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

}  // namespace

namespace strong {
// A strong type beside which its mapping is declared, found by argument-dependent lookup.
struct Email {
  std::string v;
  friend bool operator==(const Email&, const Email&) = default;
};
elicit::held_as<elicit::email, &Email::v> elicit_value_as(const Email&);

// A type "of another library": mapped by specialization, through a conversion of its own.
struct Percent {
  int hundredths = 0;
  friend bool operator==(const Percent&, const Percent&) = default;
};

struct Signup {
  Email contact;
  elicit::field<std::optional<Email>, elicit::title<"Backup">, elicit::max_length<20>> backup;
  elicit::field<Email, elicit::default_value<"desk@example.org">> desk;
  elicit::field<Percent, elicit::range<0, 100>> share;
};
}  // namespace strong

}  // namespace unit_form_value_as

// A specialization of elicit's own template: declared outside this file's namespace.
template <>
struct elicit::value_as<unit_form_value_as::strong::Percent> {
  using held = int;
  static int to(const unit_form_value_as::strong::Percent& p) { return p.hundredths / 100; }
  static unit_form_value_as::strong::Percent from(int&& whole) { return {whole * 100}; }
};

namespace unit_form_value_as {

TEST_CASE("value_as: a strong type has its held type's schema and annotations") {
  CHECK(elicit::schema_json<strong::Signup> ==
        R"({"type":"object","properties":{"contact":{"type":"string","format":"email"},)"
        R"("backup":{"type":"string","title":"Backup","maxLength":20,"format":"email"},)"
        R"("desk":{"type":"string","format":"email","default":"desk@example.org"},)"
        R"("share":{"type":"integer","minimum":0,"maximum":100}},"required":["contact","share"]})");
  const auto f = elicit::fields<strong::Signup>();
  CHECK(f[0].type() == elicit::value_type::string);
  CHECK(f[0].format() == elicit::format::email);
  CHECK(f[3].constraints() == ">= 0; <= 100");
}

TEST_CASE("value_as: a strong type starts from its default, decodes, and is refused as its held type") {
  const strong::Signup fresh;
  CHECK(fresh.desk->v == "desk@example.org");
  const auto d = elicit::decode_content<strong::Signup>(json{{"contact", "ada@example.org"}, {"share", 40}});
  REQUIRE(d);
  CHECK(d->contact.v == "ada@example.org");
  CHECK(!d->backup.has_value());
  CHECK(d->desk->v == "desk@example.org");
  CHECK(d->share->hundredths == 4000);
  CHECK(content_violations<strong::Signup>(json{{"contact", "not an address"}, {"share", 101}}) ==
        strings{"/contact format", "/share maximum"});
  CHECK(content_violations<strong::Signup>(
            json{{"contact", 7}, {"backup", "a-very-long-name@example.org"}, {"share", 1}}) ==
        strings{"/contact type", "/backup maxLength"});
  const auto wrong = elicit::decode_content<strong::Signup>(json{{"contact", 7}, {"share", 1}});
  REQUIRE(!wrong.violations().empty());
  CHECK(wrong.violations()[0].message == "contact must be text; got the number 7.");
}

TEST_CASE("value_as: a strong type is written back, prefilled and kept when asked again") {
  const strong::Signup value{{"ada@example.org"}, {strong::Email{"b@example.org"}}, {{"d@example.org"}}, {{2500}}};
  round_trip(value, R"({"contact":"ada@example.org","backup":"b@example.org","desk":"d@example.org","share":25})");

  auto prefilled = elicit::form<strong::Signup>().prefill(value).schema();
  CHECK(prefilled["properties"]["contact"]["default"] == "ada@example.org");
  CHECK(prefilled["properties"]["share"]["default"] == 25);

  const json answer = {{"action", "accept"}, {"content", {{"contact", "grace@example.org"}, {"share", 300}}}};
  const auto d = elicit::decode_content<strong::Signup>(answer["content"]);
  REQUIRE(!d);
  const auto next = elicit::reask(elicit::form<strong::Signup>(), "Please fix:", answer, d.violations());
  const auto again = next.form.schema();
  CHECK(again["properties"]["contact"]["default"] == "grace@example.org");  // valid: kept
  CHECK(!again["properties"]["share"].contains("default"));                 // out of range: dropped
}

template <class T>
concept unmapped = requires {
  typename elicit::value_as<T>::elicit_unmapped;
};

namespace shop {
// held_as alone: the member's type converted to and from the held type.
struct Code {
  std::string text;
};
}  // namespace shop

TEST_CASE("value_as: held_as converts through the member it names, an unmapped type has no mapping") {
  using mapping = elicit::held_as<std::string, &shop::Code::text>;
  static_assert(std::is_same_v<mapping::held, std::string>);
  static_assert(std::is_same_v<mapping::owner, shop::Code>);
  static_assert(std::is_same_v<mapping::member, std::string>);
  CHECK(mapping::to(shop::Code{"A-17"}) == "A-17");
  CHECK(mapping::from(std::string("B-2")).text == "B-2");
  static_assert(unmapped<shop::Code>);        // a mapping beside it would be found by ADL instead
  static_assert(!unmapped<strong::Percent>);  // specialized
}

}  // namespace unit_form_value_as
