// The vocabulary of a field's kind (<elicit/form/value_type.hpp>): each value_type and format as
// the schema writes it, and the kinds a form's description reports.
#include <elicit/elicit.hpp>

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_form_value_type {

namespace {
enum class Size { s, m, l };
struct Kinds {
  bool b;
  int i;
  double d;
  std::string s;
  Size one;
  std::vector<Size> many;
  elicit::uri link;
};
}  // namespace

TEST_CASE("value_type and format: the keyword the schema writes for each") {
  static_assert(elicit::type_keyword(elicit::value_type::boolean) == "boolean");
  CHECK(elicit::type_keyword(elicit::value_type::integer) == "integer");
  CHECK(elicit::type_keyword(elicit::value_type::number) == "number");
  CHECK(elicit::type_keyword(elicit::value_type::string) == "string");
  CHECK(elicit::type_keyword(elicit::value_type::single_select) == "string");  // a choice is a string
  CHECK(elicit::type_keyword(elicit::value_type::multi_select) == "array");
  static_assert(elicit::format_keyword(elicit::format::none).empty());
  CHECK(elicit::format_keyword(elicit::format::date) == "date");
  CHECK(elicit::format_keyword(elicit::format::date_time) == "date-time");
  CHECK(elicit::format_keyword(elicit::format::email) == "email");
  CHECK(elicit::format_keyword(elicit::format::uri) == "uri");
}

TEST_CASE("value_type: a form's description reports each field's kind, as its schema's type") {
  const auto f = elicit::fields<Kinds>();
  REQUIRE(f.size() == 7);
  const std::vector<elicit::value_type> expected{elicit::value_type::boolean,       elicit::value_type::integer,
                                                 elicit::value_type::number,        elicit::value_type::string,
                                                 elicit::value_type::single_select, elicit::value_type::multi_select,
                                                 elicit::value_type::string};
  for (std::size_t i = 0; i < f.size(); ++i) {
    CAPTURE(i);
    CHECK(f[i].type() == expected[i]);
  }
  CHECK(f[0].format() == elicit::format::none);
  CHECK(f[6].format() == elicit::format::uri);
}

}  // namespace unit_form_value_type
