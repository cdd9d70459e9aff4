// Enumerators as wire values: reflected from the enum itself, or listed by the user through
// `elicit_options`, found by argument-dependent lookup (see elicit/enums.hpp).
#pragma once

#include <elicit/detail/fixed_string.hpp>

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

// The signature of a function templated on a value of the enum, as an array whose size is
// known at compile time (no strlen over it: this runs 256 times per enum).
template <auto V>
struct enumerator_signature {
  static constexpr auto& text() noexcept { return __PRETTY_FUNCTION__; }
};

// The signature ends "= ns::Color::red]" (GCC: "[with auto V = ...]", Clang: "[V = ...]") for
// an enumerator, and "(ns::Color)3]" or "(ns::Color)-3]" for a value that names none: the
// name is the identifier before the final ']', unless a cast or a number stands there.
constexpr std::string_view enumerator_name_in(const char* text, std::size_t size) noexcept {
  if (size < 2 || text[size - 1] != ']') return {};
  const std::size_t end = size - 1;
  std::size_t begin = end;
  while (begin > 0 && is_identifier_char(text[begin - 1])) --begin;
  if (begin == end || begin == 0 || text[begin - 1] == ')' || text[begin - 1] == '-') return {};
  if (text[begin] >= '0' && text[begin] <= '9') return {};
  return {text + begin, end - begin};
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
    constexpr auto& text = enumerator_signature<static_cast<E>(V)>::text();
    return enumerator_name_in(text, sizeof(text) - 1);
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
inline constexpr std::uint64_t type_id = fnv1a(type_signature<T>::text());

}  // namespace elicit::detail
