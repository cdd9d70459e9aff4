// Numbers as JSON text, at compile time and at run time: integers, and doubles as the shortest
// decimal that reads back to the same double (95.5, never 95.500000), with the exact
// big-integer method of Steele & White / Burger & Dybvig, since std::to_chars is not
// constexpr in C++20.
#pragma once

#include <elicit/detail/json_escape.hpp>
#include <elicit/detail/number.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

namespace elicit::detail {

// "00" to "99": an integer is written two digits per division.
inline constexpr char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

template <class Sink>
constexpr void write_unsigned(Sink& out, std::uint64_t v) {
  char digits[20]{};  // written from the end, then put at once
  std::size_t first = sizeof digits;
  while (v >= 100) {
    const auto pair = static_cast<std::size_t>(v % 100) * 2;
    v /= 100;
    digits[--first] = digit_pairs[pair + 1];
    digits[--first] = digit_pairs[pair];
  }
  if (v >= 10) {
    digits[--first] = digit_pairs[v * 2 + 1];
    digits[--first] = digit_pairs[v * 2];
  } else {
    digits[--first] = static_cast<char>('0' + v);
  }
  put_known(out, std::string_view(digits + first, sizeof digits - first), 0);  // digits: nothing to escape
}

template <class Sink>
constexpr void write_signed(Sink& out, std::int64_t v) {
  if (v < 0) {
    out.put('-');
    write_unsigned(out, static_cast<std::uint64_t>(-(v + 1)) + 1);  // no overflow at INT64_MIN
  } else {
    write_unsigned(out, static_cast<std::uint64_t>(v));
  }
}

// A fixed-width unsigned big integer, just wide enough for the exact shortest-digits method
// on any double (values up to about 2^1085).
class big_uint {
 public:
  static constexpr int words = 36;

  constexpr explicit big_uint(std::uint64_t v = 0) noexcept {
    w_[0] = static_cast<std::uint32_t>(v);
    w_[1] = static_cast<std::uint32_t>(v >> 32);
  }
  constexpr big_uint& shift_left(int bits) noexcept {
    const int word_shift = bits / 32, bit_shift = bits % 32;
    for (int k = words - 1; k >= 0; --k) {
      std::uint64_t v = k - word_shift >= 0 ? std::uint64_t{w_[k - word_shift]} << bit_shift : 0;
      if (bit_shift != 0 && k - word_shift - 1 >= 0) v |= w_[k - word_shift - 1] >> (32 - bit_shift);
      w_[k] = static_cast<std::uint32_t>(v);
    }
    return *this;
  }
  constexpr big_uint& multiply(std::uint32_t m) noexcept {
    std::uint64_t carry = 0;
    for (auto& word : w_) {
      const std::uint64_t v = std::uint64_t{word} * m + carry;
      word = static_cast<std::uint32_t>(v);
      carry = v >> 32;
    }
    return *this;
  }
  constexpr big_uint& add(const big_uint& o) noexcept {
    std::uint64_t carry = 0;
    for (int k = 0; k < words; ++k) {
      const std::uint64_t v = std::uint64_t{w_[k]} + o.w_[k] + carry;
      w_[k] = static_cast<std::uint32_t>(v);
      carry = v >> 32;
    }
    return *this;
  }
  constexpr big_uint& subtract(const big_uint& o) noexcept {  // requires *this >= o
    std::int64_t borrow = 0;
    for (int k = 0; k < words; ++k) {
      std::int64_t v = std::int64_t{w_[k]} - o.w_[k] - borrow;
      borrow = v < 0 ? 1 : 0;
      w_[k] = static_cast<std::uint32_t>(v + (borrow << 32));
    }
    return *this;
  }
  friend constexpr int compare(const big_uint& a, const big_uint& b) noexcept {
    for (int k = words - 1; k >= 0; --k)
      if (a.w_[k] != b.w_[k]) return a.w_[k] < b.w_[k] ? -1 : 1;
    return 0;
  }
  friend constexpr big_uint operator+(big_uint a, const big_uint& b) noexcept { return a.add(b); }

 private:
  std::uint32_t w_[words]{};
};

// The shortest decimal digits that read back to `v` (finite, > 0): digits[0..count) and the
// decimal exponent `point`, meaning v == 0.d1d2d3... x 10^point.
struct decimal_digits {
  char digits[18]{};
  int count = 0;
  int point = 0;
};

constexpr decimal_digits shortest_digits(double v) noexcept {
  const auto bits = std::bit_cast<std::uint64_t>(v);
  const auto biased = static_cast<int>((bits >> 52) & 0x7FF);
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  const std::uint64_t hidden = std::uint64_t{1} << 52;
  const std::uint64_t f = biased == 0 ? fraction : fraction | hidden;
  const int e = biased == 0 ? -1074 : biased - 1075;
  const bool even = f % 2 == 0;  // round-half-even reading accepts the interval's ends

  // v = r / s; the neighbours of v are at distance m_plus above and m_minus below.
  big_uint r, s, m_plus, m_minus;
  const bool uneven_gap = f == hidden && biased > 1;  // the gap below a power of two is half
  if (e >= 0) {
    r = big_uint(f).shift_left(e + (uneven_gap ? 2 : 1));
    s = big_uint(uneven_gap ? 4 : 2);
    m_plus = big_uint(1).shift_left(e + (uneven_gap ? 1 : 0));
    m_minus = big_uint(1).shift_left(e);
  } else {
    r = big_uint(f).shift_left(uneven_gap ? 2 : 1);
    s = big_uint(1).shift_left((uneven_gap ? 2 : 1) - e);
    m_plus = big_uint(uneven_gap ? 2 : 1);
    m_minus = big_uint(1);
  }
  auto high_reaches = [&](const big_uint& rr, const big_uint& ss) {
    const int c = compare(rr + m_plus, ss);
    return even ? c >= 0 : c > 0;
  };
  decimal_digits out;
  while (high_reaches(r, s)) {
    s.multiply(10);
    ++out.point;
  }
  for (;;) {
    big_uint scaled = r + m_plus;
    scaled.multiply(10);
    const int c = compare(scaled, s);
    if (even ? c >= 0 : c > 0) break;
    r.multiply(10);
    m_plus.multiply(10);
    m_minus.multiply(10);
    --out.point;
  }
  for (;;) {
    r.multiply(10);
    m_plus.multiply(10);
    m_minus.multiply(10);
    int digit = 0;
    while (compare(r, s) >= 0) {
      r.subtract(s);
      ++digit;
    }
    const int low_c = compare(r, m_minus);
    const bool low = even ? low_c <= 0 : low_c < 0;
    const bool high = high_reaches(r, s);
    if (!low && !high) {
      out.digits[out.count++] = static_cast<char>('0' + digit);
      continue;
    }
    if (low && high) {  // both d and d+1 read back: take the nearer, the even one on a tie
      const int c = compare(r + r, s);
      if (c > 0 || (c == 0 && digit % 2 == 1)) ++digit;
    } else if (high) {
      ++digit;
    }
    out.digits[out.count++] = static_cast<char>('0' + digit);
    return out;
  }
}

// Writes a finite double as JSON, laid out as JavaScript's Number#toString does, so that
// the text matches what the TypeScript SDK and most clients print for the same value.
template <class Sink>
constexpr void write_double(Sink& out, double v) {
  if (v == 0) {
    out.put('0');
    return;
  }
  if (v < 0) {
    out.put('-');
    v = -v;
  }
  const decimal_digits d = shortest_digits(v);
  const int n = d.count, k = d.point;
  if (k > 0 && k <= 21) {
    for (int i = 0; i < (n < k ? n : k); ++i) out.put(d.digits[i]);
    for (int i = n; i < k; ++i) out.put('0');
    if (n > k) {
      out.put('.');
      for (int i = k; i < n; ++i) out.put(d.digits[i]);
    }
  } else if (k <= 0 && k > -6) {
    out.put('0');
    out.put('.');
    for (int i = k; i < 0; ++i) out.put('0');
    for (int i = 0; i < n; ++i) out.put(d.digits[i]);
  } else {
    out.put(d.digits[0]);
    if (n > 1) {
      out.put('.');
      for (int i = 1; i < n; ++i) out.put(d.digits[i]);
    }
    out.put('e');
    out.put(k - 1 < 0 ? '-' : '+');
    write_unsigned(out, static_cast<std::uint64_t>(k - 1 < 0 ? 1 - k : k - 1));
  }
}

template <class Sink>
constexpr void write_number(Sink& out, const number& v) {
  switch (v.kind) {
    case number::kind_t::signed_int: write_signed(out, v.i); break;
    case number::kind_t::unsigned_int: write_unsigned(out, v.u); break;
    default: write_double(out, v.as_double()); break;
  }
}

}  // namespace elicit::detail
