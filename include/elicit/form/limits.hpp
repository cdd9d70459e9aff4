// Limits on what a client sends: how long JSON text may be and how deeply it may nest.
//
// nlohmann::json parses deep nesting without recursion, but copying, comparing or printing a
// value recurses once per level: 100,000 levels of `[[[...]]]` (200 KB of text) overflow the
// stack of whatever copies them. Everything that comes from a client goes through one of these
// first, and everything in elicit that takes a parsed value checks it with exceeds() before it
// copies or walks it.
//
//   elicit::parsed_json request = elicit::parse_json(body, {.max_bytes = 4 << 20, .max_depth = 64});
//   if (!request) return reply_error(-32700, request.error()->message);  // never crashes
//   handle(request.value());
#pragma once

#include <elicit/answer/json_limits.hpp>
#include <elicit/answer/result.hpp>
#include <elicit/answer/violation.hpp>
#include <elicit/detail/json_builder.hpp>
#include <elicit/detail/maybe_value.hpp>
#include <elicit/detail/model/limits.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace elicit {

// Why `value` is beyond `limits` (keyword "maxDepth" or "maxBytes"), or nothing when it is
// within them. Never recurses and never throws but std::bad_alloc; linear in the value's size.
[[nodiscard]] inline std::optional<violation> exceeds(const nlohmann::json& value, const json_limits& limits = {}) {
  return detail::walk_limits(value, limits);
}

// JSON text parsed within limits: the value, or the violation that kept it from being one.
class parsed_json {
 public:
  explicit parsed_json(nlohmann::json value) : value_(std::move(value)) {}
  explicit parsed_json(violation error) : error_(std::move(error)) {}

  [[nodiscard]] bool has_value() const noexcept { return value_.has_value(); }
  explicit operator bool() const noexcept { return has_value(); }
  // Throws bad_answer_access (a std::logic_error) when the text was refused.
  [[nodiscard]] const nlohmann::json& value() const& {
    return value_.get<bad_answer_access>([this] { return why(); });
  }
  [[nodiscard]] nlohmann::json&& value() && {
    return std::move(value_).get<bad_answer_access>([this] { return why(); });
  }
  const nlohmann::json& operator*() const& { return value(); }
  const nlohmann::json* operator->() const { return &value(); }
  // Why the text was refused: keyword "maxBytes", "maxDepth", "maxValues" or "json". Empty when it was not.
  [[nodiscard]] const std::optional<violation>& error() const noexcept { return error_; }

 private:
  [[nodiscard]] std::string why() const { return "elicit: the JSON text was refused: " + error_->message; }

  detail::maybe_value<nlohmann::json> value_;
  std::optional<violation> error_;
};

// Parses `text` as nlohmann::json::parse would, within `limits`: longer text is refused
// unread, and a list or object that opens deeper than max_depth, or a value past the first
// max_values, stops the parse at once, so that no value beyond the limits is ever built. Linear
// in the text's length, whatever its shape: read by the scanner decode(text) reads with and
// built by a builder of elicit's own (detail/json_builder.hpp says why not nlohmann's parser).
// Never throws but std::bad_alloc. A refusal names the byte where the text stopped being JSON,
// never the bytes there (they need not be UTF-8), so that it can always be sent on as JSON. (A
// template only so that the builder is compiled where parse_json is called, not in every file
// that includes this header: call it as parse_json(text, limits).)
template <class Json = nlohmann::json>
[[nodiscard]] parsed_json parse_json(std::string_view text, const json_limits& limits = {}) {
  static_assert(std::is_same_v<Json, nlohmann::json>, "elicit::parse_json parses into nlohmann::json");
  if (auto refused = detail::text_limits(text, limits)) return parsed_json(std::move(*refused));
  Json value;
  std::size_t error_byte = 0;
  switch (detail::build_json(text, value, limits.max_depth, limits.max_values, error_byte)) {
    case detail::json_refusal::none: return parsed_json(std::move(value));
    case detail::json_refusal::too_deep: return parsed_json(detail::too_deep(limits.max_depth));
    case detail::json_refusal::too_many_values: return parsed_json(detail::too_many_values(limits.max_values));
    case detail::json_refusal::number_too_large: return parsed_json(detail::number_too_large("text"));
    default: return parsed_json(detail::not_json("text", error_byte));
  }
}

}  // namespace elicit
