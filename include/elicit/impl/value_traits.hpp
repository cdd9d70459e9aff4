// What each C++ value type means in a form: its JSON type, its format, and for integers
// narrower than 32 bits the range the type itself can hold.
#pragma once

#include <elicit/choice.hpp>
#include <elicit/detail/number.hpp>
#include <elicit/enums.hpp>
#include <elicit/formats.hpp>
#include <elicit/impl/field_spec.hpp>

#include <chrono>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

namespace elicit::detail {

// Character types hold text, not numbers. signed char and unsigned char are left out: they
// are std::int8_t and std::uint8_t, the narrowest integers.
template <class T>
concept character = std::is_same_v<T, char> || std::is_same_v<T, wchar_t> || std::is_same_v<T, char8_t> ||
    std::is_same_v<T, char16_t> || std::is_same_v<T, char32_t>;

template <class T>
struct value_traits {
  static constexpr bool known = false;
};

template <value_type Type, format Fmt = format::none>
struct simple_traits {
  static constexpr bool known = true;
  static constexpr value_type type = Type;
  static constexpr format fmt = Fmt;
  static constexpr bound<number> lowest{};
  static constexpr bound<number> highest{};
};

template <>
struct value_traits<bool> : simple_traits<value_type::boolean> {};

template <plain_integer T>
  requires(!character<T>)
struct value_traits<T> : simple_traits<value_type::integer> {
  // What the C++ type can hold; the schema states it when it is not the whole JSON range a
  // client would assume (narrow types, and 0 for unsigned).
  static constexpr number type_min = std::numeric_limits<T>::min();
  static constexpr number type_max = std::numeric_limits<T>::max();
  static constexpr bound<number> lowest =
      sizeof(T) < 4 || std::is_unsigned_v<T> ? bound<number>(type_min) : bound<number>();
  static constexpr bound<number> highest = sizeof(T) < 4 ? bound<number>(type_max) : bound<number>();
};

template <>
struct value_traits<float> : simple_traits<value_type::number> {
  // What a float holds; not stated in the schema (a client would not expect it), but bounds
  // and defaults must lie within it, and answers beyond it are refused.
  static constexpr number type_min = -std::numeric_limits<float>::max();
  static constexpr number type_max = std::numeric_limits<float>::max();
};
template <>
struct value_traits<double> : simple_traits<value_type::number> {};
template <>
struct value_traits<std::string> : simple_traits<value_type::string> {};
template <>
struct value_traits<email> : simple_traits<value_type::string, format::email> {};
template <>
struct value_traits<uri> : simple_traits<value_type::string, format::uri> {};
template <>
struct value_traits<std::chrono::year_month_day> : simple_traits<value_type::string, format::date> {};
template <>
struct value_traits<std::chrono::sys_seconds> : simple_traits<value_type::string, format::date_time> {};

// Enums: a single-select; a vector or set of them: a multi-select.
template <class E>
  requires(std::is_enum_v<E>)
struct value_traits<E> : simple_traits<value_type::single_select> {
  using enum_type = E;
};
template <class E>
  requires(std::is_enum_v<E>)
struct value_traits<std::vector<E>> : simple_traits<value_type::multi_select> {
  using enum_type = E;
};
template <class E>
  requires(std::is_enum_v<E>)
struct value_traits<std::set<E>> : simple_traits<value_type::multi_select> {
  using enum_type = E;
};

// Run-time choices: their options come with the form<F> that asks, per request.
template <>
struct value_traits<choice> : simple_traits<value_type::single_select> {
  static constexpr bool runtime_options = true;
};
template <>
struct value_traits<std::vector<choice>> : simple_traits<value_type::multi_select> {
  static constexpr bool runtime_options = true;
};
template <>
struct value_traits<std::set<choice>> : simple_traits<value_type::multi_select> {
  static constexpr bool runtime_options = true;
};

template <class T>
struct without_optional {
  using type = T;
};
template <class T>
struct without_optional<std::optional<T>> {
  using type = T;
};
template <class T>
using without_optional_t = typename without_optional<T>::type;

}  // namespace elicit::detail
