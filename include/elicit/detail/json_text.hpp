// Compile-time JSON text: sinks that count or store characters, and string escaping.
//
// A schema is written twice at compile time: once into a counter, to learn its length, and
// once into a buffer of exactly that length, which becomes the program's constant.
#pragma once

#include <elicit/detail/number_text.hpp>

#include <array>
#include <cstddef>
#include <string_view>

namespace elicit::detail {

// Both sinks take a string literal as an array too: its length is known, where a
// std::string_view made from it would count its characters (one constexpr step or more each,
// for every keyword of every option, at compile time).
struct length_counter {
  std::size_t size = 0;
  constexpr void put(char) noexcept { ++size; }
  constexpr void put(std::string_view text) noexcept { size += text.size(); }
  template <std::size_t N>
  constexpr void put(const char (&)[N]) noexcept {
    size += N - 1;
  }
};

template <std::size_t N>
struct text_buffer {
  char chars[N + 1] = {};  // NUL-terminated, for C APIs
  std::size_t size = 0;
  constexpr void put(char c) noexcept { chars[size++] = c; }
  constexpr void put(std::string_view text) noexcept {
    for (char c : text) chars[size++] = c;
  }
  template <std::size_t L>
  constexpr void put(const char (&text)[L]) noexcept {
    for (std::size_t i = 0; i + 1 < L; ++i) chars[size++] = text[i];
  }
  [[nodiscard]] constexpr std::string_view view() const noexcept { return {chars, N}; }
};

// True when `text` reads in a JSON string as it is: no quote, backslash or control character,
// the bytes write_string escapes.
constexpr bool plain_in_json(std::string_view text) noexcept {
  for (const char c : text)
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) return false;
  return true;
}

// A JSON string literal of a text known to have nothing to escape (plain_in_json): its quotes
// around it.
template <class Sink>
constexpr void write_plain_string(Sink& out, std::string_view plain) {
  out.put('"');
  out.put(plain);
  out.put('"');
}

// A JSON string literal: quotes, backslashes and control characters escaped; the rest (valid
// UTF-8, checked by the rules) kept as it is.
// A text with nothing to escape (nearly every one) goes to the sink whole: at compile time a
// character at a time through the switch below cost clang++-14 about 18 constexpr steps a
// character, and a schema of 1,000 titled options went past its default limit of 1,048,576.
template <class Sink>
constexpr void write_string(Sink& out, std::string_view text) {
  constexpr char hex[] = "0123456789abcdef";
  if (plain_in_json(text)) return write_plain_string(out, text);
  out.put('"');
  for (char c : text) {
    switch (c) {
      case '"': out.put("\\\""); break;
      case '\\': out.put("\\\\"); break;
      case '\n': out.put("\\n"); break;
      case '\r': out.put("\\r"); break;
      case '\t': out.put("\\t"); break;
      case '\b': out.put("\\b"); break;
      case '\f': out.put("\\f"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out.put("\\u00");
          out.put(hex[(c >> 4) & 0xF]);
          out.put(hex[c & 0xF]);
        } else {
          out.put(c);
        }
    }
  }
  out.put('"');
}

// `"key":` with the separator before it when it is not the first member of its object.
template <class Sink>
constexpr void write_key(Sink& out, std::string_view key, bool& first) {
  if (!first) out.put(',');
  first = false;
  write_string(out, key);
  out.put(':');
}

}  // namespace elicit::detail
