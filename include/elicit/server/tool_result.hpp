// What a tool answers, as a tools/call result (MCP's CallToolResult): its text, and whether it
// is an error the model should see (isError: true), not a failure of the call. CMake target
// elicit::server.
//
//   elicit::tool<elicit::tool_result> book(...) {
//     ...
//     if (!slot.accepted()) co_return elicit::tool_result::error("Nothing was booked: no slot was given.");
//     co_return elicit::tool_result{"Booked for " + slot->slot->value + "."};
//   }
//
// A tool may return any type R that has a to_tool_result(const R&) found by argument-dependent
// lookup (beside R, in its namespace), giving a tool_result or a whole CallToolResult object;
// tool_result, std::string (a text that is no error) and nlohmann::ordered_json (a
// CallToolResult as it is) need none.
#pragma once

#include <nlohmann/json.hpp>

#include <concepts>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace elicit {

// A tools/call result of one text block.
struct tool_result {
  std::string text;
  bool is_error = false;  // the tool failed in a way the model should read (CallToolResult.isError)

  // A result that is an error: the text says what went wrong.
  [[nodiscard]] static tool_result error(std::string text) { return {std::move(text), true}; }

  // {"content":[{"type":"text","text":...}]}, with "isError":true when it is an error (false is
  // the spec's default, left out). Throws only std::bad_alloc.
  [[nodiscard]] nlohmann::ordered_json to_json() const {
    nlohmann::ordered_json r = {{"content", nlohmann::ordered_json::array({{{"type", "text"}, {"text", text}}})}};
    if (is_error) r["isError"] = true;
    return r;
  }
};

namespace detail {

// The customization point: to_tool_result(r) found beside R (argument-dependent lookup).
template <class R>
concept has_tool_result_hook = requires(const R& r) {
  to_tool_result(r);
};

template <class R>
concept tool_result_type = std::same_as<R, tool_result> || std::same_as<R, std::string> ||
    std::same_as<R, nlohmann::ordered_json> || has_tool_result_hook<R>;

}  // namespace detail

// The CallToolResult of what a tool returned: a tool_result's JSON, a string as one text block,
// an ordered_json as it is (it must be an object), else to_tool_result(value)'s. Throws
// std::invalid_argument for JSON that is not an object, and what the hook throws.
template <class R>
[[nodiscard]] nlohmann::ordered_json call_tool_result(const R& value) {
  if constexpr (!detail::tool_result_type<R>) {
    // One message, and nothing after it that would fail too.
    static_assert(detail::tool_result_type<R>,
                  "elicit::call_tool_result: return an elicit::tool_result, a std::string or a CallToolResult JSON, or "
                  "declare to_tool_result(const R&) beside R");
    return {};
  } else if constexpr (std::same_as<R, tool_result>) {
    return value.to_json();
  } else if constexpr (std::same_as<R, std::string>) {
    return tool_result{value}.to_json();
  } else if constexpr (std::same_as<R, nlohmann::ordered_json>) {
    if (!value.is_object()) throw std::invalid_argument("elicit::call_tool_result: a CallToolResult is a JSON object");
    return value;
  } else {
    return call_tool_result(to_tool_result(value));
  }
}

}  // namespace elicit
