// Numbers as template arguments: `number`, and exact comparisons between its kinds.
//
// Clang 14 does not accept floating-point template arguments, so bounds and defaults are
// carried by `number`, a structural type that stores a double by its bits. Its text is
// written by number_text.hpp.
#pragma once

#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

namespace elicit::detail {

template <class T>
concept plain_integer = std::integral<T> && !std::same_as<std::remove_cv_t<T>, bool>;

struct number {
  enum class kind_t : unsigned char { signed_int, unsigned_int, floating };
  kind_t kind = kind_t::signed_int;
  std::int64_t i = 0;   // signed_int
  std::uint64_t u = 0;  // unsigned_int, or the bits of the double for floating

  constexpr number() = default;
  template <plain_integer T>
  constexpr number(T v) noexcept {  // NOLINT: implicit on purpose, `minimum<5>`
    if constexpr (std::is_signed_v<T>) {
      kind = kind_t::signed_int;
      i = v;
    } else {
      kind = kind_t::unsigned_int;
      u = v;
    }
  }
  template <std::floating_point T>
  constexpr number(T v) noexcept  // NOLINT: implicit on purpose, `minimum<0.5>`
      : kind(kind_t::floating), u(std::bit_cast<std::uint64_t>(static_cast<double>(v))) {}

  [[nodiscard]] constexpr bool is_floating() const noexcept { return kind == kind_t::floating; }
  [[nodiscard]] constexpr double as_double() const noexcept {
    switch (kind) {
      case kind_t::signed_int: return static_cast<double>(i);
      case kind_t::unsigned_int: return static_cast<double>(u);
      default: return std::bit_cast<double>(u);
    }
  }
  [[nodiscard]] constexpr bool is_finite() const noexcept {
    return !is_floating() || (u & 0x7FF0000000000000ULL) != 0x7FF0000000000000ULL;
  }
  // True when the value is a whole number (an integer, or a double without fraction).
  [[nodiscard]] constexpr bool is_whole() const noexcept {
    if (!is_floating()) return true;
    const double d = as_double();
    if (!is_finite()) return false;
    if (d >= 0x1p52 || d <= -0x1p52) return true;
    return static_cast<double>(static_cast<std::int64_t>(d)) == d;
  }
};

// Exact three-way comparison of a double with a 64-bit integer (no rounding of the integer).
constexpr int compare_double_int(double d, std::int64_t v) noexcept {
  if (d < -0x1p63) return -1;
  if (d >= 0x1p63) return 1;
  const auto whole = static_cast<std::int64_t>(d);  // truncates toward zero
  if (whole != v) return whole < v ? -1 : 1;
  const double rest = d - static_cast<double>(whole);
  return rest > 0 ? 1 : (rest < 0 ? -1 : 0);
}
constexpr int compare_double_uint(double d, std::uint64_t v) noexcept {
  if (d < 0) return -1;
  if (d >= 0x1p64) return 1;
  const auto whole = static_cast<std::uint64_t>(d);
  if (whole != v) return whole < v ? -1 : 1;
  return d - static_cast<double>(whole) > 0 ? 1 : 0;
}

// Exact comparison of two numbers of any kinds: <0, 0 or >0. Both must be finite.
constexpr int compare(const number& a, const number& b) noexcept {
  using k = number::kind_t;
  auto three_way = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  if (a.kind == k::floating && b.kind == k::floating) return three_way(a.as_double(), b.as_double());
  if (a.kind == k::floating)
    return b.kind == k::signed_int ? compare_double_int(a.as_double(), b.i) : compare_double_uint(a.as_double(), b.u);
  if (b.kind == k::floating) return -compare(b, a);
  if (a.kind == b.kind) return a.kind == k::signed_int ? three_way(a.i, b.i) : three_way(a.u, b.u);
  if (a.kind == k::signed_int) return a.i < 0 ? -1 : three_way(static_cast<std::uint64_t>(a.i), b.u);
  return -compare(b, a);
}

}  // namespace elicit::detail
