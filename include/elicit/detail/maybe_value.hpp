// The value an operation produced, if it did: what decoded, response, opened and parsed_json
// hold, and the one way each of them reads it (result.hpp has their shape). Reading an absent
// value throws E with the text `why()` gives, built only then.
#pragma once

#include <optional>
#include <type_traits>
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

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

// What `->` on an answer gives: the form, or for a one-question form (elicit::single) its one
// value, so that `r->size()` reads the text the user gave.
template <class Form>
const auto* arrow_of(const Form& form) noexcept {
  if constexpr (requires { typename Form::elicit_one_value; }) return &form.get();
  else return &form;
}

}  // namespace elicit::detail
