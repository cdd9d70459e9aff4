// elicit::field<T, A...>: a member of a form with annotations, that reads like its value.
//
//   struct Signup {
//     elicit::field<std::string, elicit::title<"Name">, elicit::length<1, 80>> name;
//     elicit::field<int, elicit::range<18, 130>, elicit::default_value<30>> age;
//   };
//   Signup s;            // s.age == 30: a field starts from its default
//   int years = s.age;   // reads as const int&; also *s.age, s.age.value, s.name->size()
//   s.age = 42;
#pragma once

#include <elicit/detail/declaration/field_parts.hpp>
#include <elicit/detail/maybe_value.hpp>
#include <elicit/form/annotations.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace elicit {

template <class T, class... A>
class field {
  static constexpr bool optional = detail::is_optional<T>::value;

 public:
  using value_type = T;

  T value = detail::initial_value<T, A...>();

  field() = default;
  field(const T& v) : value(v) {}                 // NOLINT: a field reads like its value
  field(T&& v) noexcept : value(std::move(v)) {}  // NOLINT

  field& operator=(const T& v) {
    value = v;
    return *this;
  }
  field& operator=(T&& v) noexcept {
    value = std::move(v);
    return *this;
  }

  operator const T&() const noexcept { return value; }  // NOLINT

  // The value: `*f`, `f->size()`. For an optional field, the value inside, in one step as with
  // std::optional itself (`if (f) use(*f)`, `f->size()`, `f.value_or(0)`); `f.value` is the
  // std::optional. Throws std::bad_optional_access when an optional field is empty.
  decltype(auto) operator*() const {
    if constexpr (optional) return value.value();
    else return (value);
  }
  decltype(auto) operator*() {
    if constexpr (optional) return value.value();
    else return (value);
  }
  auto operator->() const { return &**this; }
  auto operator->() { return &**this; }

  // An optional field: whether it holds a value, and its value or a fallback.
  explicit operator bool() const noexcept requires(optional) { return value.has_value(); }
  [[nodiscard]] bool has_value() const noexcept requires(optional) { return value.has_value(); }
  template <class U>
    requires(optional)
  [[nodiscard]] auto value_or(U&& fallback) const { return value.value_or(std::forward<U>(fallback)); }

  friend bool operator==(const field& a, const field& b) { return a.value == b.value; }
  friend bool operator==(const field& a, const T& b) { return a.value == b; }
};

// Annotations written beside a struct whose members stay plain, by member name: for a domain
// type you would rather not change. Declare (no definition needed) a function
// `elicit_annotations` in the struct's namespace, found by argument-dependent lookup:
//
//   namespace shop {
//   struct Address { std::string street; std::optional<int> floor; };
//   elicit::members<elicit::member<"street", elicit::title<"Street">, elicit::max_length<120>>,
//                   elicit::member<"floor", elicit::title<"Floor">, elicit::range<0, 200>>>
//   elicit_annotations(const Address&);
//   }
//
// A name the struct has no member of, or an annotation that does not fit the member's type, is
// a compile error naming it. On an elicit::field member, these come after the field's own.
template <detail::fixed_string Name, class... A>
struct member {
  static constexpr std::string_view name() noexcept { return Name.view(); }
};
template <class... M>
struct members {};

}  // namespace elicit
