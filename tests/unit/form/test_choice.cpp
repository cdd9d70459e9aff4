// Run-time choices (<elicit/form/choice.hpp>): elicit::choice, the wire value picked, and
// choice_option, made from a wire value, a {value, title} pair, a map entry or a row of the
// server's own; option_like says what form<F>::choices takes. (Choices offered and checked
// through a form: test_form.cpp.)
#include <elicit/elicit.hpp>

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_form_choice {

namespace {
struct Row {
  std::string value;
  std::string title;
};
struct NoTitle {
  std::string value;
};
struct Pick {
  elicit::field<elicit::choice, elicit::title<"Repository">> repo;
};
}  // namespace

static_assert(elicit::option_like<const char*>);
static_assert(elicit::option_like<std::string>);
static_assert(elicit::option_like<std::pair<std::string, std::string>>);
static_assert(elicit::option_like<std::pair<const std::string, std::string>>);  // a std::map entry
static_assert(elicit::option_like<Row>);
static_assert(elicit::option_like<elicit::choice_option>);
static_assert(!elicit::option_like<NoTitle>);
static_assert(!elicit::option_like<int>);
static_assert(elicit::has_runtime_choices<Pick>);

TEST_CASE("choice_option: a wire value, a pair, a map entry or a row, its title empty when not given") {
  const elicit::choice_option plain("r-17");
  CHECK(plain.value == "r-17");
  CHECK(plain.title.empty());
  const elicit::choice_option titled("r-17", "elicit");
  CHECK(titled.title == "elicit");
  const elicit::choice_option from_pair(std::pair<std::string, std::string>{"r-42", "glaze"});
  CHECK(from_pair.value == "r-42");
  CHECK(from_pair.title == "glaze");
  const std::map<std::string, std::string> table{{"b", "Bee"}};
  const elicit::choice_option from_entry(*table.begin());
  CHECK(from_entry.value == "b");
  CHECK(from_entry.title == "Bee");
  const elicit::choice_option from_row(Row{"x", "Ex"});
  CHECK(from_row.value == "x");
  CHECK(from_row.title == "Ex");
}

TEST_CASE("choice: compared and ordered by its wire value") {
  const elicit::choice a{"a"}, b{"b"};
  CHECK(a == elicit::choice{"a"});
  CHECK(a != b);
  CHECK(a < b);
  const std::set<elicit::choice> picked{b, a, b};
  CHECK(picked.size() == 2);
  CHECK(picked.begin()->value == "a");
}

TEST_CASE("choice: the answer holds the wire value picked among the offered ones") {
  const auto f = elicit::form<Pick>().choices(&Pick::repo, {{"r-17", "elicit"}, {"r-42", "glaze"}});
  const auto picked = f.decode(R"({"action":"accept","content":{"repo":"r-42"}})");
  REQUIRE(picked.accepted());
  CHECK(picked->repo->value == "r-42");
  const auto title = f.decode(R"({"action":"accept","content":{"repo":"glaze"}})");  // a title is no value
  CHECK_FALSE(title.accepted());
  CHECK(title.outcome() == elicit::outcome::invalid);
}

}  // namespace unit_form_choice
