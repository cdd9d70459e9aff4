// What a prompt answers, as a prompts/get result (MCP's GetPromptResult): a description, and the
// messages the client puts in front of the model. CMake target elicit::server.
//
//   elicit::tool<elicit::prompt_result> review(const elicit::tool_call&) {
//     const auto focus = co_await elicit::question<Focus>("focus", "What should the review look at?");
//     if (!focus.accepted()) co_return elicit::prompt_result{"A code review", "Review this code."};
//     co_return elicit::prompt_result{"A code review", "Review this code for " + *focus->area + "."};
//   }
//
// A prompt may return any type R that has a to_prompt_result(const R&) found by
// argument-dependent lookup (beside R, in its namespace), giving a prompt_result or a whole
// GetPromptResult object; prompt_result and nlohmann::ordered_json (a GetPromptResult as it is:
// several messages, images, embedded resources) need none.
#pragma once

#include <nlohmann/json.hpp>

#include <concepts>
#include <stdexcept>
#include <string>

namespace elicit {

// A prompts/get result of one user message of text.
struct prompt_result {
  std::string description;  // GetPromptResult.description; left out when empty
  std::string text;         // the user message's text

  // {"description":...,"messages":[{"role":"user","content":{"type":"text","text":...}}]}.
  // Throws only std::bad_alloc.
  [[nodiscard]] nlohmann::ordered_json to_json() const {
    nlohmann::ordered_json r = nlohmann::ordered_json::object();
    if (!description.empty()) r["description"] = description;
    r["messages"] =
        nlohmann::ordered_json::array({{{"role", "user"}, {"content", {{"type", "text"}, {"text", text}}}}});
    return r;
  }
};

namespace detail {

// The customization point: to_prompt_result(r) found beside R (argument-dependent lookup).
template <class R>
concept has_prompt_result_hook = requires(const R& r) {
  to_prompt_result(r);
};

template <class R>
concept prompt_result_type =
    std::same_as<R, prompt_result> || std::same_as<R, nlohmann::ordered_json> || has_prompt_result_hook<R>;

}  // namespace detail

// The GetPromptResult of what a prompt returned: a prompt_result's JSON, an ordered_json as it
// is (it must be an object), else to_prompt_result(value)'s. Throws std::invalid_argument for
// JSON that is not an object, and what the hook throws.
template <class R>
[[nodiscard]] nlohmann::ordered_json get_prompt_result(const R& value) {
  if constexpr (!detail::prompt_result_type<R>) {
    // One message, and nothing after it that would fail too.
    static_assert(detail::prompt_result_type<R>,
                  "elicit::get_prompt_result: return an elicit::prompt_result or a GetPromptResult JSON, or declare "
                  "to_prompt_result(const R&) beside R");
    return {};
  } else if constexpr (std::same_as<R, prompt_result>) {
    return value.to_json();
  } else if constexpr (std::same_as<R, nlohmann::ordered_json>) {
    if (!value.is_object())
      throw std::invalid_argument("elicit::get_prompt_result: a GetPromptResult is a JSON object");
    return value;
  } else {
    return get_prompt_result(to_prompt_result(value));
  }
}

}  // namespace elicit
