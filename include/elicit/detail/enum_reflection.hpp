// Enumerators as wire values: reflected from the enum itself, or listed by the user through
// `elicit_options`, found by argument-dependent lookup (see elicit/form/enums.hpp).
#pragma once

#include <elicit/detail/fixed_string.hpp>
#include <elicit/detail/fnv1a.hpp>
#include <elicit/detail/identifier.hpp>
#include <elicit/detail/indices.hpp>

#include <algorithm>
#include <array>
#include <bit>
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

// Bit 63 of a chunk's mask: the signature is not spelled as expected.
inline constexpr std::uint64_t unread_chunk = std::uint64_t{1} << 63;

// Walks the N items listed at the end of a signature (read as signature_chars says), from the
// last, keeping positions only: every value an aggregate takes in GCC's constant evaluation is
// kept too, so the names are taken afterwards, one per enumerator. Returns which are
// enumerators (bit k for the k-th), or unread_chunk; with `at` < N, stops at item `at`, an
// enumerator, with its name at [name, end). One function, no helpers: with GCC each would be
// instantiated for every signature's length.
template <std::size_t N, class Text>
constexpr std::uint64_t walk_items(const Text& text, std::size_t size, std::size_t at, std::size_t& name,
                                   std::size_t& end) noexcept {
  static_assert(N < 63, "elicit: a chunk of reflected values fits in a 64-bit mask");
  // Steps back from `pos` over an identifier, or over the bracketed text closing at pos - 1.
  const auto identifier = [&](std::size_t pos) {
    while (pos > 0 && is_identifier_char(text[pos - 1])) --pos;
    return pos;
  };
  const auto bracket = [&](std::size_t pos, char open, char close) {
    for (std::size_t depth = 0; pos > 0; --pos)
      if (text[pos - 1] == close) ++depth;
      else if (text[pos - 1] == open && --depth == 0) return pos - 1;
    return not_found;
  };
  if (size < 3 || text[size - 1] != ']' || (text[size - 2] != '}' && text[size - 2] != '>')) return unread_chunk;
  std::uint64_t mask = 0;
  end = size - 2;
  for (std::size_t i = N; i > 0; --i) {
    // One item: "ns::Color::red", or a value that names none, "(ns::Color)3" or "(ns::Color)-3".
    std::size_t pos = identifier(end);
    if (pos == end) return unread_chunk;
    if (text[pos] >= '0' && text[pos] <= '9') {
      if (pos > 0 && text[pos - 1] == '-') --pos;
      if (pos == 0 || text[pos - 1] != ')') return unread_chunk;
      pos = bracket(pos, '(', ')');
    } else {
      mask |= std::uint64_t{1} << (i - 1);
      if (i - 1 == at) {
        name = pos;
        return mask;
      }
      // The qualifiers: "ns::", "Outer<int, 2>::", "<unnamed>::", "(anonymous namespace)::", "f()::".
      while (pos != not_found && pos >= 2 && text[pos - 1] == ':' && text[pos - 2] == ':') {
        pos -= 2;
        if (pos > 0 && text[pos - 1] == '>') pos = bracket(pos, '<', '>');
        else if (pos > 0 && text[pos - 1] == ')') pos = bracket(pos, '(', ')');
        if (pos != not_found) pos = identifier(pos);
      }
    }
    if (pos == not_found) return unread_chunk;
    end = pos;
    if (i > 1) {
      if (end < 2 || text[end - 1] != ' ' || text[end - 2] != ',') return unread_chunk;
      end -= 2;
    }
  }
  return end > 0 && (text[end - 1] == '{' || text[end - 1] == '<') ? mask : unread_chunk;
}

// Which of the N values listed in a signature are enumerators (bit k for the k-th), or
// unread_chunk when the list is not spelled as expected.
template <std::size_t N, std::size_t S>
constexpr std::uint64_t names_mask(const char (&text)[S]) noexcept {
  std::size_t name = 0, end = 0;
  return walk_items<N>(signature_chars(text), S - 1, N, name, end);
}

// The name of the k-th of the N values listed in a signature, an enumerator.
template <std::size_t N, std::size_t S>
constexpr std::string_view name_at(const char (&text)[S], std::size_t k) noexcept {
  std::size_t name = 0, end = 0;
  walk_items<N>(signature_chars(text), S - 1, k, name, end);
  return {text + name, end - name};
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
template <class E>
inline constexpr std::size_t reflect_values = static_cast<std::size_t>(reflect_last<E> - reflect_first<E>) + 1;
template <class E>
inline constexpr std::size_t reflect_chunks = (reflect_values<E> + reflect_chunk - 1) / reflect_chunk;

// Chunk C of E: up to 32 values from chunk_first, listed in one signature. What is read from
// it is kept in variables, so that each compiler reads each signature once.
template <class E, std::size_t C>
inline constexpr int chunk_first = reflect_first<E> + static_cast<int>(std::size_t{C} * reflect_chunk);
template <class E, std::size_t C>
inline constexpr std::size_t chunk_size = std::min(reflect_chunk, reflect_values<E> - reflect_chunk * C);

template <class E, int First, std::size_t... I>
constexpr auto& chunk_signature(std::index_sequence<I...>) noexcept {
  return enumerators_signature<static_cast<E>(First + static_cast<int>(I))...>::text();
}
template <class E, std::size_t C>
inline constexpr auto& chunk_text = chunk_signature<E, chunk_first<E, C>>(std::make_index_sequence<chunk_size<E, C>>{});
template <class E, std::size_t C>
inline constexpr std::uint64_t chunk_read = names_mask<chunk_size<E, C>>(chunk_text<E, C>);

// A signature spelled otherwise: the chunk's values one at a time (name_of_value, above).
template <class E, int First, std::size_t... I>
constexpr std::uint64_t mask_by_value(std::index_sequence<I...>) noexcept {
  return ((name_of_value<E, First + static_cast<int>(I)>().empty() ? 0 : std::uint64_t{1} << I) | ... | 0);
}
template <class E, int First, std::size_t... I>
constexpr std::string_view name_by_value(std::size_t k, std::index_sequence<I...>) noexcept {
  std::string_view found;
  ((found = I == k ? name_of_value<E, First + static_cast<int>(I)>() : found), ...);
  return found;
}

// Which values of the chunk are enumerators: bit k for chunk_first + k.
template <class E, std::size_t C>
inline constexpr std::uint64_t chunk_mask = [] {
  if constexpr (chunk_read<E, C> != unread_chunk) return chunk_read<E, C>;
  else return mask_by_value<E, chunk_first<E, C>>(std::make_index_sequence<chunk_size<E, C>>{});
}();

// The name of value chunk_first + k, an enumerator.
template <class E, std::size_t C>
constexpr std::string_view chunk_name(std::size_t k) noexcept {
  if constexpr (chunk_read<E, C> != unread_chunk) return name_at<chunk_size<E, C>>(chunk_text<E, C>, k);
  else return name_by_value<E, chunk_first<E, C>>(k, std::make_index_sequence<chunk_size<E, C>>{});
}

template <class E, std::size_t... C>
constexpr std::size_t count_reflected(std::index_sequence<C...>) noexcept {
  return (static_cast<std::size_t>(std::popcount(chunk_mask<E, C>)) + ... + 0);
}
template <class E>
inline constexpr std::size_t reflected_count = count_reflected<E>(std::make_index_sequence<reflect_chunks<E>>{});

// The enumerators found in [reflected_min, reflected_max], in value order, untitled.
template <class E>
inline constexpr auto reflected_entries = [] {
  std::array<enum_entry, reflected_count<E>> entries{};
  std::size_t n = 0;
  for_each_index<reflect_chunks<E>>([&]<std::size_t C>() {
    constexpr std::uint64_t mask = chunk_mask<E, C>;
    for (std::size_t k = 0; k < chunk_size<E, C>; ++k)
      if ((mask >> k) & 1) entries[n++] = {chunk_first<E, C> + static_cast<int>(k), chunk_name<E, C>(k), {}};
  });
  return entries;
}();

// ---- Enumerators past the reflected range ------------------------------------------------
// Enumerators outside [-128, 127] cannot be named, and reflection alone would leave them out
// of the choices without a word (an enum of 200 countries would offer 128). So a form refuses
// an enum without elicit_options that may have some: one with an enumerator at an end of the
// range that its underlying type extends past (it likely goes on), or with one at a value
// tried past the range: -129 and 128 just beyond its ends, the powers of two from 256 (flags),
// and the least and greatest values of its underlying type ("all bits" markers). Those are one
// more signature per enum; other values past the range are not tried, and docs/forms.md says so.

template <class E>
struct beyond_values {
  using U = std::underlying_type_t<E>;
  static constexpr std::size_t most = 64;
  U values[most]{};
  std::size_t size = 0;
  constexpr beyond_values() noexcept {
    using limits = std::numeric_limits<U>;
    if (static_cast<long long>(limits::min()) < reflected_min) {
      values[size++] = static_cast<U>(reflected_min - 1);
      if (static_cast<long long>(limits::min()) < reflected_min - 1) values[size++] = limits::min();
    }
    if (static_cast<unsigned long long>(limits::max()) > static_cast<unsigned long long>(reflected_max)) {
      values[size++] = static_cast<U>(reflected_max + 1);
      for (int bit = 8; bit < limits::digits; ++bit) values[size++] = static_cast<U>(std::uint64_t{1} << bit);
      if (static_cast<unsigned long long>(limits::max()) > static_cast<unsigned long long>(reflected_max) + 1)
        values[size++] = limits::max();
    }
  }
};
template <class E>
inline constexpr beyond_values<E> beyond{};

template <class E, std::size_t... I>
constexpr auto& beyond_signature(std::index_sequence<I...>) noexcept {
  return enumerators_signature<static_cast<E>(beyond<E>.values[I])...>::text();
}

// Whether E has an enumerator at one of the values tried past the range. A signature spelled
// otherwise (unread_chunk) is not taken for one: the check at the ends still applies.
template <class E>
inline constexpr bool enumerator_beyond = [] {
  if constexpr (beyond<E>.size == 0) {
    return false;
  } else {
    constexpr auto& text = beyond_signature<E>(std::make_index_sequence<beyond<E>.size>{});
    constexpr std::uint64_t mask = names_mask<beyond<E>.size>(text);
    return mask != unread_chunk && mask != 0;
  }
}();

// Whether reflection may have left enumerators of E out: one at an end of [-128, 127] that E's
// underlying type goes past, or one found past the range.
template <class E>
inline constexpr bool reflection_incomplete = [] {
  using limits = std::numeric_limits<std::underlying_type_t<E>>;
  const auto& entries = reflected_entries<E>;
  const bool at_low_end = static_cast<long long>(limits::min()) < reflected_min && !entries.empty() &&
                          entries.front().value == reflected_min;
  const bool at_high_end =
      static_cast<unsigned long long>(limits::max()) > static_cast<unsigned long long>(reflected_max) &&
      !entries.empty() && entries.back().value == reflected_max;
  return at_low_end || at_high_end || enumerator_beyond<E>;
}();

// The name of an enumerator in the reflected range, or "" when it has none there.
template <class E>
constexpr std::string_view enumerator_name(E e) noexcept {
  const std::int64_t v = underlying(e);
  for (const enum_entry& entry : reflected_entries<E>)
    if (entry.value == v) return entry.wire;
  return {};
}

// An identity for a type, comparable at compile time: a hash of its spelled name.
template <class T>
struct type_signature {
  static constexpr const char* text() noexcept { return __PRETTY_FUNCTION__; }
};
template <class T>
inline constexpr std::uint64_t type_id = fnv1a(type_signature<T>::text());

}  // namespace elicit::detail
