// One JSON value as decoding reads it, wherever it came from: a node of a parsed document
// (nlohmann::json), or a value read straight from the answer's text (detail::text_value, filled
// by detail::json_scanner). The field readers (read_value.hpp) and the messages (reporter.hpp)
// read only this view, so that an answer is judged by the same code whichever way it arrived.
#pragma once

#include <elicit/detail/json_scanner.hpp>
#include <elicit/detail/number.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace elicit::detail {

class value_view {
 public:
  value_view() = default;                                      // nothing: an absent value
  value_view(const nlohmann::json& j) noexcept : json_(&j) {}  // NOLINT(google-explicit-constructor): a view of it
  // A value read from text; `items` is where the items of a list start (text_value::first_item).
  value_view(const text_value& v, const text_value* items) noexcept : text_(&v), items_(items) {}

  [[nodiscard]] bool present() const noexcept { return json_ != nullptr || text_ != nullptr; }

  [[nodiscard]] json_kind kind() const noexcept {
    if (text_ != nullptr) return text_->kind;
    switch (json_->type()) {
      case nlohmann::json::value_t::null: return json_kind::null;
      case nlohmann::json::value_t::boolean: return json_kind::boolean;
      case nlohmann::json::value_t::string: return json_kind::string;
      case nlohmann::json::value_t::array: return json_kind::array;
      case nlohmann::json::value_t::object: return json_kind::object;
      case nlohmann::json::value_t::number_integer:
      case nlohmann::json::value_t::number_unsigned: return json_kind::number;
      case nlohmann::json::value_t::number_float:
        return std::isfinite(*json_->get_ptr<const double*>()) ? json_kind::number : json_kind::bad_number;
      case nlohmann::json::value_t::binary: return json_kind::binary;
      default: return json_kind::nothing;  // discarded: what parse(text, nullptr, false) gives for bad text
    }
  }
  [[nodiscard]] bool is(json_kind k) const noexcept { return kind() == k; }

  // The value of a boolean.
  [[nodiscard]] bool boolean() const noexcept {
    return text_ != nullptr ? text_->boolean : *json_->get_ptr<const bool*>();
  }

  // The value as an exact number, or nothing when it is not a finite number.
  [[nodiscard]] std::optional<number> as_number() const noexcept {
    if (text_ != nullptr) return text_->kind == json_kind::number ? std::optional<number>(text_->num) : std::nullopt;
    if (const auto* u = json_->get_ptr<const std::uint64_t*>()) return number{*u};
    if (const auto* i = json_->get_ptr<const std::int64_t*>()) return number{*i};
    if (const auto* d = json_->get_ptr<const double*>(); d != nullptr && std::isfinite(*d)) return number{*d};
    return std::nullopt;
  }

  // Whether text() is known to be valid UTF-8: text read from an answer's text was checked as
  // it was read; a parsed value's may have been built in the program.
  [[nodiscard]] bool utf8_checked() const noexcept { return text_ != nullptr; }

  // The text of a string, unescaped (empty for anything else).
  [[nodiscard]] std::string_view text() const noexcept {
    if (text_ != nullptr) return text_->text;
    const std::string* s = json_->get_ptr<const std::string*>();
    return s != nullptr ? std::string_view(*s) : std::string_view();
  }

  // The number of items of a list, and one of them.
  [[nodiscard]] std::size_t size() const noexcept { return text_ != nullptr ? text_->item_count : json_->size(); }
  [[nodiscard]] value_view operator[](std::size_t i) const {
    if (text_ != nullptr) return {items_[text_->first_item + i], items_};
    return {(*json_)[i]};
  }

 private:
  const nlohmann::json* json_ = nullptr;
  const text_value* text_ = nullptr;
  const text_value* items_ = nullptr;
};

}  // namespace elicit::detail
