// Enumerators as wire values: reflected from the enum itself, or listed by the user through
// `elicit_options`, found by argument-dependent lookup (see elicit/enums.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>
#include <utility>

namespace elicit::detail {

// One choice of a select field, as the schema and the validator see it.
struct enum_entry {
  std::int64_t value = 0;   // the enumerator, as its underlying value
  std::string_view wire{};  // `enum` value or `const`: what the client sends back
  std::string_view title{}; // the label; empty when the enum is untitled
};

template <class E>
constexpr std::int64_t underlying(E e) noexcept {
  return static_cast<std::int64_t>(static_cast<std::underlying_type_t<E>>(e));
}

// The range of values elicit tries as enumerators when no options are given.
inline constexpr int reflected_min = -128;
inline constexpr int reflected_max = 127;

template <auto V>
struct enumerator_signature {
  static constexpr const char* text() noexcept { return __PRETTY_FUNCTION__; }
};

// "... [with auto V = ns::Color::red]" (GCC) or "... [V = ns::Color::red]" (Clang) for an
// enumerator; "(ns::Color)3" for a value that names none.
constexpr std::string_view enumerator_name_in(std::string_view text) noexcept {
  const std::size_t end = text.rfind(']');
  const std::size_t start = text.rfind("= ", end);
  if (end == std::string_view::npos || start == std::string_view::npos) return {};
  const std::string_view value = text.substr(start + 2, end - start - 2);
  if (value.empty() || value.front() == '(') return {};
  const std::size_t colon = value.rfind(':');
  return colon == std::string_view::npos ? value : value.substr(colon + 1);
}

template <class E, int V>
constexpr std::string_view name_of_value() noexcept {
  using U = std::underlying_type_t<E>;
  if constexpr (std::is_unsigned_v<U> && V < 0) {
    return {};
  } else if constexpr (V < static_cast<long long>(std::numeric_limits<U>::min()) ||
                       V > static_cast<long long>(std::numeric_limits<U>::max())) {
    return {};
  } else {
    return enumerator_name_in(enumerator_signature<static_cast<E>(V)>::text());
  }
}

template <class E>
constexpr auto reflect_names() noexcept {
  return []<int... I>(std::integer_sequence<int, I...>) {
    return std::array<std::string_view, sizeof...(I)>{name_of_value<E, I + reflected_min>()...};
  }(std::make_integer_sequence<int, reflected_max - reflected_min + 1>{});
}

template <class E>
inline constexpr auto reflected_names = reflect_names<E>();

template <class E>
inline constexpr std::size_t reflected_count = [] {
  std::size_t n = 0;
  for (std::string_view name : reflected_names<E>) n += name.empty() ? 0 : 1;
  return n;
}();

// The enumerators found in [reflected_min, reflected_max], in value order, untitled.
template <class E>
inline constexpr auto reflected_entries = [] {
  std::array<enum_entry, reflected_count<E>> entries{};
  std::size_t n = 0;
  for (int v = reflected_min; v <= reflected_max; ++v) {
    const std::string_view name = reflected_names<E>[static_cast<std::size_t>(v - reflected_min)];
    if (!name.empty()) entries[n++] = {v, name, {}};
  }
  return entries;
}();

// The name of an enumerator in the reflected range, or "" when it has none there.
template <class E>
constexpr std::string_view enumerator_name(E e) noexcept {
  const std::int64_t v = underlying(e);
  if (v < reflected_min || v > reflected_max) return {};
  return reflected_names<E>[static_cast<std::size_t>(v - reflected_min)];
}

// An identity for a type, comparable at compile time: a hash of its spelled name.
template <class T>
struct type_signature {
  static constexpr const char* text() noexcept { return __PRETTY_FUNCTION__; }
};
template <class T>
inline constexpr std::uint64_t type_id = [] {
  std::uint64_t h = 14695981039346656037ull;
  for (std::string_view s = type_signature<T>::text(); char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}();

}  // namespace elicit::detail
