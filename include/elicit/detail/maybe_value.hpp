// The value an operation produced, if it did: what decoded, response, opened and parsed_json
// hold, and the one way each of them reads it. Reading an absent value throws E with the text
// `why()` gives, built only then.
#pragma once

#include <optional>
#include <utility>

namespace elicit::detail {

template <class T>
class maybe_value {
 public:
  maybe_value() = default;
  explicit maybe_value(T value) : value_(std::move(value)) {}
  explicit maybe_value(std::optional<T>&& value) : value_(std::move(value)) {}
  explicit maybe_value(const std::optional<T>& value) : value_(value) {}

  [[nodiscard]] bool has_value() const noexcept { return value_.has_value(); }

  template <class E, class Why>
  [[nodiscard]] const T& get(Why&& why) const& {
    if (!value_) throw E(std::forward<Why>(why)());
    return *value_;
  }
  template <class E, class Why>
  [[nodiscard]] T&& get(Why&& why) && {
    if (!value_) throw E(std::forward<Why>(why)());
    return std::move(*value_);
  }

 private:
  std::optional<T> value_;
};

}  // namespace elicit::detail
