// UTF-8: sequence lengths, validity and code-point counts, shared by the compile-time rules
// (a default's length) and the run-time checks (an answer's length). JSON Schema counts lengths
// in code points.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace elicit::detail {

// Length of the UTF-8 sequence starting with `lead`, or 0 when `lead` cannot start one.
constexpr std::size_t utf8_sequence_length(unsigned char lead) noexcept {
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

// Number of code points in `text`, or npos when it is not valid UTF-8 (overlong forms,
// surrogates and values past U+10FFFF included). JSON Schema counts lengths in code points.
inline constexpr std::size_t invalid_utf8 = static_cast<std::size_t>(-1);

// How many bytes at the start of `text` are ASCII. At run time it reads eight at a time:
// answers are mostly ASCII, and every text field of every answer is measured. The last bytes
// are read as one word that overlaps the one before (4 to 7 bytes, as two of four): most
// values are short, and all-ASCII text is then known so without a byte at a time.
constexpr std::size_t ascii_prefix(std::string_view text) noexcept {
  std::size_t i = 0;
  if (!std::is_constant_evaluated()) {
    constexpr std::uint64_t high_bits = 0x8080808080808080ull;
    const std::size_t n = text.size();
    const char* const p = text.data();
    if (n >= 8) {
      std::uint64_t word = 0;
      for (; i + 8 <= n; i += 8) {
        std::memcpy(&word, p + i, 8);
        if ((word & high_bits) != 0) break;
      }
      if (i + 8 > n) {  // every whole word ASCII: the last bytes, as a word that overlaps
        std::memcpy(&word, p + n - 8, 8);
        if ((word & high_bits) == 0) return n;
      }
    } else if (n >= 4) {
      std::uint32_t head = 0, tail = 0;
      std::memcpy(&head, p, 4);
      std::memcpy(&tail, p + n - 4, 4);
      if (((head | tail) & 0x80808080u) == 0) return n;
    }
  }
  // Through the pointer: at compile time, string_view's operator[] costs clang++-14 several
  // constexpr steps a byte (a call and its checks), and the rules measure every option's title.
  const char* const bytes = text.data();
  while (i < text.size() && static_cast<unsigned char>(bytes[i]) < 0x80) ++i;
  return i;
}

constexpr std::size_t code_points(std::string_view text) noexcept {
  const char* const bytes = text.data();  // not text[i]: see ascii_prefix
  std::size_t count = 0;
  for (std::size_t i = 0; i < text.size(); ++count) {
    const auto lead = static_cast<unsigned char>(bytes[i]);
    if (lead < 0x80) {  // a run of ASCII, one code point a byte
      const std::size_t run = ascii_prefix(text.substr(i));
      i += run;
      count += run - 1;
      continue;
    }
    const std::size_t len = utf8_sequence_length(lead);
    if (len == 0 || i + len > text.size()) return invalid_utf8;
    std::uint32_t cp = len == 1 ? lead : lead & (0x7F >> len);
    for (std::size_t k = 1; k < len; ++k) {
      const auto cont = static_cast<unsigned char>(bytes[i + k]);
      if ((cont & 0xC0) != 0x80) return invalid_utf8;
      cp = (cp << 6) | (cont & 0x3F);
    }
    const bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    if (overlong || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return invalid_utf8;
    i += len;
  }
  return count;
}

constexpr bool is_utf8(std::string_view text) noexcept { return code_points(text) != invalid_utf8; }

// Number of code points in `text`, known to be valid UTF-8 (an answer's text, checked as it
// was read): its bytes but the continuation bytes (10xxxxxx), counted eight at a time.
constexpr std::size_t utf8_code_points(std::string_view text) noexcept {
  const char* const bytes = text.data();
  const std::size_t n = text.size();
  std::size_t i = 0, continuations = 0;
  if (!std::is_constant_evaluated()) {
    constexpr std::uint64_t ones = 0x0101010101010101ull;
    for (; i + 8 <= n; i += 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, bytes + i, 8);
      // Bit 7 of each byte that is 10xxxxxx (bit 6 of a byte moves to its bit 7 in word << 1),
      // then as one per byte, summed into the top byte by the multiplication.
      const std::uint64_t marks = ((word & ~(word << 1)) >> 7) & ones;
      continuations += static_cast<std::size_t>((marks * ones) >> 56);
    }
  }
  for (; i < n; ++i) continuations += (static_cast<unsigned char>(bytes[i]) & 0xC0) == 0x80 ? 1 : 0;
  return n - continuations;
}

}  // namespace elicit::detail
