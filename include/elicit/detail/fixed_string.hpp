// Compile-time text: string literals carried as template arguments, and UTF-8 helpers
// shared by the compile-time checks and the run-time validator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <string_view>

namespace elicit::detail {

// A string literal as a structural type, so that `title<"Name">` can carry it.
// `chars` keeps the terminating NUL; view() leaves it out.
template <std::size_t N>
struct fixed_string {
  char chars[N]{};

  constexpr fixed_string(const char (&text)[N]) noexcept {
    for (std::size_t i = 0; i < N; ++i) chars[i] = text[i];
  }
  [[nodiscard]] constexpr std::string_view view() const noexcept { return {chars, N - 1}; }
};

// A byte of a C++ identifier: how member and enumerator names are read out of compiler
// signatures. Bytes past ASCII are taken too: GCC and Clang spell an identifier such as
// `año` in UTF-8, and reading only its ASCII tail would name the member "o".
constexpr bool is_identifier_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// FNV-1a over text, continuing from `hash`: a compile-time identity for types and schemas.
constexpr std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = 14695981039346656037ull) noexcept {
  for (char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return hash;
}

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
// answers are mostly ASCII, and every text field of every answer is measured.
constexpr std::size_t ascii_prefix(std::string_view text) noexcept {
  std::size_t i = 0;
  if (!std::is_constant_evaluated()) {
    for (; i + 8 <= text.size(); i += 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, text.data() + i, 8);
      if ((word & 0x8080808080808080ull) != 0) break;
    }
  }
  while (i < text.size() && static_cast<unsigned char>(text[i]) < 0x80) ++i;
  return i;
}

constexpr std::size_t code_points(std::string_view text) noexcept {
  std::size_t count = 0;
  for (std::size_t i = 0; i < text.size(); ++count) {
    const auto lead = static_cast<unsigned char>(text[i]);
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
      const auto cont = static_cast<unsigned char>(text[i + k]);
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

}  // namespace elicit::detail
