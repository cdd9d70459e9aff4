// Each rule has one source (detail/engine/rules.hpp, ELICIT_FORM_RULES): the words a static_assert gives
// for a declaration that breaks it, and the words of the form_error that form<F> throws for a
// refinement that breaks it, are the same text, about the same field; and the compile-fail case
// of the rule expects that text.
#include "../../support/runtime_forms.hpp"

#include <elicit/elicit.hpp>

#include <catch2/catch.hpp>

#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_detail_engine_rules {

namespace {

using elicit::detail::problem;
using elicit::detail::rule_text;

// The text of a compile-fail case's `// expect:` line.
std::string expected_by(const std::string& compile_fail_case) {
  std::ifstream in(std::string(ELICIT_COMPILE_FAIL_DIR) + "/" + compile_fail_case);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("// expect: ", 0) == 0) return line.substr(11);
  return "(no // expect: line in " + compile_fail_case + ")";
}

// What a refinement threw, or "" when it threw nothing.
template <class Refine>
std::string refusal(Refine&& refine) {
  try {
    refine();
  } catch (const elicit::form_error& e) {
    return e.what();
  }
  return "";
}

// The form_error for `field` breaking `rule`, with the detail of what was given.
std::string run_time(const std::string& field, problem rule, const std::string& detail = "") {
  return "elicit::form: field \"" + field + "\": " + std::string(rule_text(rule)) +
         (detail.empty() ? "" : " (" + detail + ")");
}

// The compile-time diagnostic: the same words, after "elicit: ".
std::string compile_time(problem rule) { return "elicit: " + std::string(rule_text(rule)); }

}  // namespace

TEST_CASE("rules: every rule has its words, and the static_assert and the form_error say them", "[rules]") {
  // Every entry of the table has words, each its own.
  constexpr auto last = static_cast<unsigned>(problem::default_items_count);
  std::vector<std::string_view> seen;
  for (unsigned p = 1; p <= last; ++p) {
    const std::string_view text = rule_text(static_cast<problem>(p));
    CHECK_FALSE(text.empty());
    CHECK(std::find(seen.begin(), seen.end(), text) == seen.end());
    seen.push_back(text);
  }
  CHECK(rule_text(problem::none).empty());
  // The words are there at compile time, as the static_assert has them.
  static_assert(rule_text(problem::min_above_max) == "the minimum is greater than the maximum: swap them");
}

TEST_CASE("rules: bounds and keywords, at compile time and at run time", "[rules]") {
  struct rule_case {
    problem rule;
    const char* compile_fail;  // the case that breaks it at compile time
  };
  elicit::form<rt::Booking> f;
  f.range(&rt::Booking::party, 1, 5);
  CHECK(refusal([&] { f.minimum(&rt::Booking::party, 6); }) ==
        run_time("party", problem::min_above_max, "minimum 6, maximum 5"));
  CHECK(refusal([&] { f.min_length(&rt::Booking::note, 201); }) ==
        run_time("note", problem::min_length_above_max_length));
  CHECK(refusal([&] { f.range(&rt::Booking::note, 1, 2); }) == run_time("note", problem::numeric_misfit));
  CHECK(refusal([&] { f.length(&rt::Booking::party, 1, 2); }) == run_time("party", problem::length_misfit));
  CHECK(refusal([&] { f.max_length(&rt::Booking::day, 10); }) == run_time("day", problem::length_on_date));
  CHECK(refusal([&] { f.items(&rt::Booking::slot, 1, 1); }) == run_time("slot", problem::items_misfit));
  CHECK(refusal([&] { f.minimum(&rt::Booking::party, std::numeric_limits<double>::infinity()); }) ==
        run_time("party", problem::bound_not_finite));
  CHECK(refusal([&] { f.title(&rt::Booking::party, "\xff"); }) == run_time("party", problem::text_not_utf8));

  elicit::form<rt::Picks> p;
  CHECK(refusal([&] { p.min_items(&rt::Picks::some, 4); }) == run_time("some", problem::min_items_above_max_items));
  p.choices(&rt::Picks::many, {"a", "b", "c"});
  CHECK(refusal([&] { p.min_items(&rt::Picks::many, 4); }) ==
        run_time("many", problem::min_items_above_options, "min_items 4, 3 offered"));

  for (const rule_case c : {rule_case{problem::min_above_max, "min_above_max.cpp"},
                            {problem::min_length_above_max_length, "min_length_above_max_length.cpp"},
                            {problem::numeric_misfit, "range_on_string.cpp"},
                            {problem::length_misfit, "length_on_integer.cpp"},
                            {problem::length_on_date, "length_on_date.cpp"},
                            {problem::items_misfit, "items_on_non_array.cpp"},
                            {problem::min_items_above_options, "min_items_above_options.cpp"}}) {
    INFO(c.compile_fail);
    CHECK(compile_time(c.rule).find(expected_by(c.compile_fail)) != std::string::npos);
  }
}

TEST_CASE("rules: options, at compile time and at run time", "[rules]") {
  elicit::form<rt::Picks> p;
  CHECK(refusal([&] { p.choices(&rt::Picks::one, std::vector<elicit::choice_option>{}); }) ==
        run_time("one", problem::empty_options));
  CHECK(refusal([&] {
          p.choices(&rt::Picks::some, {"x", ""});
        }) == run_time("some", problem::option_without_wire, "option 2"));
  CHECK(refusal([&] {
          p.choices(&rt::Picks::many, {"a", "b", "a"});
        }) == run_time("many", problem::repeated_option_wire, "\"a\" is offered twice"));
  CHECK(refusal([&] {
          p.choices(&rt::Picks::many, {"a", "\xff"});
        }) == run_time("many", problem::text_not_utf8, "option 2"));
  CHECK(compile_time(problem::empty_options).find(expected_by("empty_options.cpp")) != std::string::npos);
  CHECK(compile_time(problem::option_without_wire).find(expected_by("option_without_wire.cpp")) != std::string::npos);
  CHECK(compile_time(problem::repeated_option_wire).find(expected_by("repeated_option_wire.cpp")) != std::string::npos);
}

TEST_CASE("rules: defaults, at compile time and at run time", "[rules]") {
  elicit::form<rt::Booking> f;
  f.range(&rt::Booking::party, 1, 6);
  CHECK(refusal([&] { f.default_value(&rt::Booking::party, 7); }) ==
        run_time("party", problem::default_out_of_range, "the default 7"));
  CHECK(refusal([&] { f.default_value(&rt::Booking::party, 2.5); }) ==
        run_time("party", problem::default_not_whole, "the default 2.5"));
  CHECK(refusal([&] { f.default_value(&rt::Booking::party, "seven"); }) ==
        run_time("party", problem::default_type_mismatch, "the default \"seven\""));
  CHECK(refusal([&] { f.default_value(&rt::Booking::note, std::string(201, 'x')); }) ==
        run_time("note", problem::default_out_of_length, "the default \"" + std::string(201, 'x') + "\""));
  CHECK(refusal([&] { f.default_value(&rt::Booking::email, "not an address"); }) ==
        run_time("email", problem::default_format, "the default \"not an address\""));
  f.choices(&rt::Booking::slot, {"s-0900", "s-0930"});
  CHECK(refusal([&] { f.default_value(&rt::Booking::slot, "s-1000"); }) ==
        run_time("slot", problem::default_not_offered, "the default \"s-1000\""));

  for (const auto& [rule, compile_fail] :
       std::vector<std::pair<problem, const char*>>{{problem::default_out_of_range, "default_out_of_range.cpp"},
                                                    {problem::default_not_whole, "default_not_whole.cpp"},
                                                    {problem::default_type_mismatch, "default_type_mismatch.cpp"},
                                                    {problem::default_out_of_length, "default_out_of_length.cpp"},
                                                    {problem::default_format, "default_bad_email.cpp"},
                                                    {problem::default_not_offered, "enum_default_not_offered.cpp"}}) {
    INFO(compile_fail);
    CHECK(compile_time(rule).find(expected_by(compile_fail)) != std::string::npos);
  }
}

}  // namespace unit_detail_engine_rules
