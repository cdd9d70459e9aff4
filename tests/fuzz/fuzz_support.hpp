// What the JSON fuzz targets check of every answer, whatever the input. A parsed value may nest
// tens of thousands of levels deep: copying, comparing or printing it would recurse once per
// level, so these only walk it with a stack of their own and otherwise hand it to elicit.
#pragma once

#include "../../samples/forms.hpp"
#include "../unit/support/forms.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fuzz {

// Stops the fuzzer with a reason it prints beside the stack.
[[noreturn]] inline void fail(const char* why, std::string_view detail = {}) {
  std::fprintf(stderr, "fuzz check failed: %s %.*s\n", why,
               static_cast<int>(std::min<std::size_t>(detail.size(), 200000)), detail.data());
  std::abort();
}
inline void check(bool ok, const char* why, std::string_view detail = {}) {
  if (!ok) fail(why, detail);
}

// How many lists and objects nest in `value` at the deepest (a scalar: 0), walked without recursion.
inline std::size_t nesting(const nlohmann::json& value) {
  std::vector<std::pair<const nlohmann::json*, std::size_t>> todo{{&value, 0}};
  std::size_t deepest = 0;
  while (!todo.empty()) {
    const auto [j, depth] = todo.back();
    todo.pop_back();
    if (!j->is_structured()) continue;
    deepest = std::max(deepest, depth + 1);
    for (const nlohmann::json& child : *j) todo.push_back({&child, depth + 1});
  }
  return deepest;
}

// The value parsed from `text`, and its "content" member when it has one, measured once.
struct input {
  std::string_view text;
  const nlohmann::json& value;
  std::size_t depth = nesting(value);
  const nlohmann::json* content = content_of(value);
  std::size_t content_depth = content != nullptr ? nesting(*content) : 0;

  static const nlohmann::json* content_of(const nlohmann::json& j) {
    if (!j.is_object()) return nullptr;
    const auto c = j.find("content");
    return c != j.end() ? &*c : nullptr;
  }
};

inline bool is_limit(const elicit::violation_view v) { return v.keyword == "maxDepth" || v.keyword == "maxBytes"; }

// True when `violations` is the one violation a value beyond the limits is refused with.
inline bool refused(const elicit::violation_list& violations) {
  return violations.size() == 1 && violations[0].pointer.empty() && is_limit(violations[0]);
}

// Whether `value` (parsed from in.text) had to be refused under `limits`, against whether it was.
// Deeper than max_depth must be refused; refused for depth must be deeper; refused for length
// must come from text longer than max_bytes (the value as text is never longer than the text
// it was parsed from, and the measure is a lower bound on it).
inline void check_refusal(const input& in, const nlohmann::json& value, bool was_refused,
                          std::optional<elicit::violation_view> why, const elicit::json_limits& limits) {
  const std::size_t depth = &value == &in.value ? in.depth : &value == in.content ? in.content_depth : nesting(value);
  if (depth > limits.max_depth && !was_refused) fail("a value deeper than max_depth was read", in.text);
  if (!was_refused) return;
  if (!why || !is_limit(*why)) fail("refused without a limit's keyword", in.text);
  if (why->keyword == "maxDepth" && depth <= limits.max_depth) fail("refused for depth within max_depth", in.text);
  if (why->keyword == "maxBytes" && in.text.size() <= limits.max_bytes)
    fail("refused for length within max_bytes", in.text);
}

// Every list of violations: at most max_violations and then one "maxViolations" summary, last;
// each violation short; and the error that carries them always printable as JSON.
inline void check_violations(const elicit::violation_list& violations, const elicit::decode_options& options,
                             std::string_view question = {}) {
  check(violations.size() <= options.max_violations + 1, "more violations than max_violations + 1");
  for (std::size_t i = 0; i < violations.size(); ++i) {
    const elicit::violation_view v = violations[i];
    if (v.keyword == "maxViolations") check(i + 1 == violations.size(), "maxViolations is not the last violation");
    check(v.message.size() <= 1024, "a violation's message longer than 1024 bytes", v.message);
    check(v.pointer.size() <= 512, "a violation's pointer longer than 512 bytes", v.pointer);
    check(!v.keyword.empty() && !v.message.empty(), "a violation without keyword or message");
  }
  if (violations.size() == options.max_violations + 1)
    check(violations[options.max_violations].keyword == "maxViolations", "max_violations + 1 without a summary");
  if (violations.empty()) return;
  try {
    const std::string text = elicit::invalid_params_error(7, violations, question).dump();
    check(!text.empty(), "an empty error");
  } catch (const std::exception& e) {
    fail("invalid_params_error does not print as JSON", e.what());
  }
}

// An accepted value survives to_content -> text -> decode_content unchanged.
template <class Form>
void check_round_trip(const Form& value) {
  const nlohmann::ordered_json content = elicit::to_content(value);
  std::string text;
  try {
    text = content.dump();
  } catch (const std::exception& e) {
    fail("an accepted value's content does not print as JSON", e.what());
  }
  const nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
  check(!parsed.is_discarded(), "an accepted value's content does not parse back", text);
  const elicit::decoded<Form> again = elicit::decode_content<Form>(parsed);
  if (!again) fail("an accepted value's content is not accepted again", text);
  check(elicit::to_content(*again) == content, "an accepted value changes on the round trip", text);
}

// Every form of tests/unit/support/forms.hpp and samples/forms.hpp the targets decode into, one call each.
template <class F>
void for_each_form(F&& f) {
  f.template operator()<forms::Plain>();
  f.template operator()<forms::Narrow>();
  f.template operator()<forms::Optionals>();
  f.template operator()<forms::Annotated>();
  f.template operator()<forms::Choices>();
  f.template operator()<forms::SpecMultipleFields>();
  f.template operator()<shipping::DeliveryAddress>();
  f.template operator()<shipping::ShipmentOptions>();
  f.template operator()<shipping::Contact>();
}

// The options the targets decode with: the defaults, and tight ones that the fuzzer reaches
// often (strict, 2 KiB, 3 levels, 2 violations listed).
inline const elicit::decode_options option_sets[] = {
    {},
    {.strict = true, .max_bytes = 2048, .max_depth = 3, .max_violations = 2},
};

}  // namespace fuzz
