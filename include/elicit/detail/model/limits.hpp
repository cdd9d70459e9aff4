// The limits of limits.hpp checked (a parsed value walked, a text measured) and their violations
// worded, once for every path that checks them (decode, parse_json, exceeds).
#pragma once

#include <elicit/answer/json_limits.hpp>
#include <elicit/answer/violation.hpp>
#include <elicit/detail/message.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elicit::detail {

// The violations of a value nested too deep and of a text too long, worded once for every path
// (decode, parse_json, exceeds).
inline violation too_deep(std::size_t max_depth) {
  return {"", "maxDepth", message("The JSON nests lists and objects more than ", max_depth, " levels deep.")};
}
inline violation too_long(std::size_t bytes, std::size_t max_bytes) {
  return {"", "maxBytes",
          message("The JSON is ", bytes, " bytes long, more than the ", max_bytes, " this server reads.")};
}
// The same, for a value whose length is not counted to its end (it stops past the limit).
inline violation too_long(std::size_t max_bytes) {
  return {"", "maxBytes", message("The JSON is more than ", max_bytes, " bytes long, more than this server reads.")};
}
inline violation too_many_values(std::size_t max_values) {
  return {"", "maxValues",
          message("The JSON holds more than ", max_values,
                  " values (lists, objects, items and members), more than "
                  "this server reads.")};
}
// Text that is not JSON, and JSON with a number past a double, worded once for every path:
// `what` is "text" (parse_json) or "answer" (decode). The message says where the text stopped
// being JSON, never what it held there: those bytes need not be UTF-8.
inline violation not_json(std::string_view what, std::size_t byte) {
  return {"", "json", message("The ", what, " is not valid JSON (at byte ", byte, ").")};
}
inline violation number_too_large(std::string_view what) {
  return {"", "json", message("The ", what, " holds a number too large to read.")};
}

// A lower bound on the length of `j` as JSON text: strings and keys by their bytes and quotes,
// any other value one byte. Walked with a stack of its own, never by recursion; stops as soon
// as a limit is passed, so it costs at most linear time in the value's size.
// Any nlohmann::basic_json: a received form keeps its properties' order (nlohmann::ordered_json).
template <class Json = nlohmann::json>
std::optional<violation> walk_limits(const Json& root, const json_limits& limits) {
  struct frame {
    const Json* value;
    std::size_t depth;  // lists and objects around it
  };
  // The values still to visit: in place up to 32 (an answer's content and its lists need no
  // allocation), beyond that in `far`, which holds todo[32], todo[33]...
  std::array<frame, 32> near;  // NOLINT(cppcoreguidelines-pro-type-member-init): written before read
  std::vector<frame> far;
  std::size_t count = 0;
  auto push = [&](frame f) {
    if (count < near.size()) near[count] = f;
    else far.push_back(f);
    ++count;
  };
  auto pop = [&] {
    --count;
    if (count < near.size()) return near[count];
    const frame f = far.back();
    far.pop_back();
    return f;
  };
  push({&root, 0});
  std::size_t bytes = 0;
  while (count != 0) {
    const auto [j, depth] = pop();
    if (j->is_structured() && depth + 1 > limits.max_depth) return too_deep(limits.max_depth);
    if (j->is_string()) bytes += j->template get_ref<const std::string&>().size() + 2;
    else bytes += 1;
    if (j->is_object()) {
      for (const auto& [key, value] : j->template get_ref<const typename Json::object_t&>()) {
        bytes += key.size() + 3;
        push({&value, depth + 1});
      }
    } else if (j->is_array()) {
      for (const Json& item : j->template get_ref<const typename Json::array_t&>()) push({&item, depth + 1});
    }
    if (bytes > limits.max_bytes) return too_long(limits.max_bytes);
  }
  return std::nullopt;
}

// The most members any object of `root` has, walked without recursion. A reader that builds
// an ordered value (nlohmann::ordered_json finds a key by walking the keys before it, so an
// object of n members costs n^2) bounds it first.
inline std::size_t widest_object(const nlohmann::json& root) {
  std::vector<const nlohmann::json*> todo{&root};
  std::size_t widest = 0;
  while (!todo.empty()) {
    const nlohmann::json* j = todo.back();
    todo.pop_back();
    if (j->is_object()) widest = std::max(widest, j->size());
    if (j->is_structured())
      for (const nlohmann::json& item : *j) todo.push_back(&item);
  }
  return widest;
}

// Text that cannot be JSON before it is parsed: too long, or with a NUL byte (the parser would
// stop there and take what came before for the whole text).
inline std::optional<violation> text_limits(std::string_view text, const json_limits& limits) {
  if (text.size() > limits.max_bytes) return too_long(text.size(), limits.max_bytes);
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) return not_json("text", nul + 1);
  return std::nullopt;
}

}  // namespace elicit::detail
