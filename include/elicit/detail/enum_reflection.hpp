// Enumerators as wire values: reflected from the enum itself, or listed by the user through
// `elicit_options`, found by argument-dependent lookup (see elicit/enums.hpp).
#pragma once

#include <elicit/detail/fixed_string.hpp>
#include <elicit/detail/fnv1a.hpp>
#include <elicit/detail/identifier.hpp>
#include <elicit/detail/indices.hpp>

#include <algorithm>
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
  std::int64_t value = 0;    // the enumerator, as its underlying value
  std::string_view wire{};   // `enum` value or `const`: what the client sends back
  std::string_view title{};  // the label; empty when the enum is untitled
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

// ---- Reflecting 32 values at once ---------------------------------------------------------
// One function templated on 32 values lists them all in its signature, so that an enum costs
// 8 instantiations instead of 256 (enum reflection was the largest compile-time cost of a
// form). The list reads "{ns::Color::red, (ns::Color)1, ...}]" (GCC) or "<ns::Color::red,
// (ns::Color)1, ...>]" (Clang): each value a qualified enumerator, or a cast when it names
// none. It is read from the end, item by item; should a compiler spell it in a way this does
// not follow, the chunk falls back to one value at a time (name_of_value, above).

template <auto... V>
struct enumerators_signature {
  static constexpr auto& text() noexcept { return __PRETTY_FUNCTION__; }
};

inline constexpr std::size_t reflect_chunk = 32;
inline constexpr std::size_t not_found = static_cast<std::size_t>(-1);

// Where the bracket closing at text[end - 1] opens, or not_found.
constexpr std::size_t opening_of(const char* text, std::size_t end, char open, char close) noexcept {
  std::size_t depth = 0;
  for (std::size_t i = end; i > 0; --i) {
    if (text[i - 1] == close) ++depth;
    else if (text[i - 1] == open && --depth == 0) return i - 1;
  }
  return not_found;
}

// Steps back over one item ending at `end`; its enumerator name, or "" for a cast, goes to
// `name`. Returns where the item begins, or not_found when it is not spelled as expected.
constexpr std::size_t item_before(const char* text, std::size_t end, std::string_view& name) noexcept {
  std::size_t pos = end;
  name = {};
  while (pos > 0 && is_identifier_char(text[pos - 1])) --pos;
  if (pos == end) return not_found;
  if (text[pos] >= '0' && text[pos] <= '9') {  // a number: "(T)5" or "(T)-5"
    if (pos > 0 && text[pos - 1] == '-') --pos;
    if (pos == 0 || text[pos - 1] != ')') return not_found;
    return opening_of(text, pos, '(', ')');
  }
  name = {text + pos, end - pos};
  // The qualifiers: "ns::", "Outer<int, 2>::", "<unnamed>::", "(anonymous namespace)::", "f()::".
  while (pos >= 2 && text[pos - 1] == ':' && text[pos - 2] == ':') {
    pos -= 2;
    if (pos > 0 && text[pos - 1] == '>') pos = opening_of(text, pos, '<', '>');
    else if (pos > 0 && text[pos - 1] == ')') pos = opening_of(text, pos, '(', ')');
    if (pos == not_found) return not_found;
    while (pos > 0 && is_identifier_char(text[pos - 1])) --pos;
  }
  return pos;
}

template <std::size_t N>
struct chunk_names {
  bool ok = false;
  std::array<std::string_view, N> names{};
};

// The names of the N values listed in a signature, read from its end.
template <std::size_t N>
constexpr chunk_names<N> names_in(const char* text, std::size_t size) noexcept {
  chunk_names<N> out;
  if (size < 3 || text[size - 1] != ']' || (text[size - 2] != '}' && text[size - 2] != '>')) return out;
  std::size_t end = size - 2;
  for (std::size_t i = N; i > 0; --i) {
    end = item_before(text, end, out.names[i - 1]);
    if (end == not_found) return out;
    if (i > 1) {
      if (end < 2 || text[end - 1] != ' ' || text[end - 2] != ',') return out;
      end -= 2;
    }
  }
  out.ok = end > 0 && (text[end - 1] == '{' || text[end - 1] == '<');
  return out;
}

// The values elicit tries for E: [-128, 127], within what E's underlying type holds.
template <class E>
inline constexpr int reflect_first = [] {
  using U = std::underlying_type_t<E>;
  return static_cast<long long>(std::numeric_limits<U>::min()) > reflected_min
             ? static_cast<int>(std::numeric_limits<U>::min())
             : reflected_min;
}();
template <class E>
inline constexpr int reflect_last = [] {
  using U = std::underlying_type_t<E>;
  return static_cast<unsigned long long>(std::numeric_limits<U>::max()) < static_cast<unsigned long long>(reflected_max)
             ? static_cast<int>(std::numeric_limits<U>::max())
             : reflected_max;
}();

template <class E, int First, std::size_t... I>
constexpr void name_chunk(std::array<std::string_view, reflected_max - reflected_min + 1>& names,
                          std::index_sequence<I...>) noexcept {
  constexpr auto& text = enumerators_signature<static_cast<E>(First + static_cast<int>(I))...>::text();
  constexpr chunk_names<sizeof...(I)> chunk = names_in<sizeof...(I)>(text, sizeof(text) - 1);
  if constexpr (chunk.ok) {
    ((names[First - reflected_min + I] = chunk.names[I]), ...);
  } else {
    ((names[First - reflected_min + I] = name_of_value<E, First + static_cast<int>(I)>()), ...);
  }
}

template <class E>
constexpr auto reflect_names() noexcept {
  constexpr int first = reflect_first<E>, last = reflect_last<E>;
  constexpr std::size_t count = static_cast<std::size_t>(last - first) + 1;
  std::array<std::string_view, reflected_max - reflected_min + 1> names{};
  for (std::string_view& name : names) name = {};  // GCC 12 needs every element written here
  for_each_index<(count + reflect_chunk - 1) / reflect_chunk>([&]<std::size_t C>() {
    name_chunk<E, first + static_cast<int>(C * reflect_chunk)>(
        names, std::make_index_sequence<std::min(reflect_chunk, count - C * reflect_chunk)>{});
  });
  return names;
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
