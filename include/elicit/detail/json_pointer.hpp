// JSON Pointer (RFC 6901) tokens: "~" is written "~0" and "/" is written "~1".
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace elicit::detail {

// Whether the word of `Word`'s size at `p` holds "~" or "/": a byte of the word XOR the
// character is zero exactly where the word holds it.
template <class Word>
bool word_needs_escaping(const char* p) noexcept {
  constexpr Word ones = static_cast<Word>(~Word{0}) / 255, highs = ones * 0x80;
  Word w = 0;
  std::memcpy(&w, p, sizeof(Word));
  const Word tilde = w ^ (ones * '~'), slash = w ^ (ones * '/');
  return ((((tilde - ones) & ~tilde) | ((slash - ones) & ~slash)) & highs) != 0;
}

// Whether `token` holds "~" or "/", eight bytes at a time (the last word overlaps the one
// before; four to seven bytes, most names, as two four-byte words): names are short, and this
// is cheaper than two memchr calls or two comparisons per byte.
inline bool needs_escaping(std::string_view token) noexcept {
  const std::size_t n = token.size();
  if (n < 4) return std::any_of(token.begin(), token.end(), [](char c) { return c == '~' || c == '/'; });
  if (n < 8)
    return word_needs_escaping<std::uint32_t>(token.data()) || word_needs_escaping<std::uint32_t>(token.data() + n - 4);
  for (std::size_t i = 0; i + 8 < n; i += 8)
    if (word_needs_escaping<std::uint64_t>(token.data() + i)) return true;
  return word_needs_escaping<std::uint64_t>(token.data() + n - 8);
}

// `token` escaped, into a message sink (detail/message.hpp); a name without "~" or "/", nearly
// every name, in one piece.
template <class Sink>
void write_pointer_token(Sink& out, std::string_view token) {
  if (!needs_escaping(token)) return out.put(token);
  for (const char c : token) {
    if (c == '~') out.put("~0");
    else if (c == '/') out.put("~1");
    else out.put(c);
  }
}

// `token`, escaped, as a message part: message("/", pointer_token(key)).
struct pointer_token {
  std::string_view token;

  explicit pointer_token(std::string_view t) noexcept : token(t) {}
  template <class Sink>
  void write(Sink& out) const {
    write_pointer_token(out, token);
  }
};

}  // namespace elicit::detail
