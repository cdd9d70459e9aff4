// The kinds of message a person reads (<elicit/answer/message_kind.hpp>): the table of kinds in the
// enum's order, the parts each sentence names in its English template, and the French catalogue
// beside it, a template for every kind with the same parts.
#include <elicit/answer/message_kind.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_answer_message_kind {

namespace {
// The parts a template names, `{name}` or `{name?one|many}`, in order; `{{` is a brace.
std::vector<std::string> parts_named(std::string_view text) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i, 2) == "{{" || text.substr(i, 2) == "}}") {
      ++i;
      continue;
    }
    if (text[i] != '{') continue;
    const std::size_t end = text.find_first_of("?}", i);
    out.emplace_back(text.substr(i + 1, end - i - 1));
    i = text.find('}', i);
  }
  return out;
}
// The names of a kind's parts ("field,limit#,got#"), without their count marks.
std::vector<std::string> declared(std::string_view parts) {
  std::vector<std::string> out;
  while (!parts.empty()) {
    const std::size_t comma = parts.find(',');
    std::string name(parts.substr(0, comma));
    if (!name.empty() && name.back() == '#') name.pop_back();
    out.push_back(name);
    parts = comma == std::string_view::npos ? std::string_view{} : parts.substr(comma + 1);
  }
  return out;
}
}  // namespace

using elicit::message_kind;
namespace detail = elicit::detail;

TEST_CASE("message_kind: the table lists each kind once, in the enum's order, with its parts") {
  static_assert(detail::kinds_in_order());
  CHECK(detail::entry_of(message_kind::required).name == "required");
  CHECK(detail::entry_of(message_kind::minimum).english == "{field} must be at least {limit}; got {got}.");
  CHECK(detail::part_count(message_kind::required) == 1);
  CHECK(detail::part_count(message_kind::outside_type) == 4);
  CHECK(detail::part_count(message_kind::reask_one) == 0);
  static_assert(decltype(detail::say<message_kind::type>)::value == message_kind::type);
}

TEST_CASE("message_kind: every English and French template names only its kind's parts") {
  for (std::size_t i = 0; i < detail::kind_count; ++i) {
    const auto& e = detail::kind_table[i];
    CAPTURE(e.name);
    const auto names = declared(e.parts);
    CHECK(names.size() == detail::part_count(e.kind));
    for (const std::string_view text : {e.english, detail::french_table[i]}) {
      CAPTURE(text);
      CHECK_FALSE(text.empty());
      for (const auto& used : parts_named(text)) CHECK(std::find(names.begin(), names.end(), used) != names.end());
    }
  }
}

}  // namespace unit_answer_message_kind
