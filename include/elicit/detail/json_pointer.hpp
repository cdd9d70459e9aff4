// JSON Pointer (RFC 6901) tokens: "~" is written "~0" and "/" is written "~1".
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace elicit::detail {

// Whether `token` holds "~" or "/", eight bytes at a time (a byte of a word XOR the character
// is zero exactly where the word holds it; the last word overlaps the one before): names are
// short, and this is cheaper than two memchr calls or two comparisons per byte.
inline bool needs_escaping(std::string_view token) noexcept {
  constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  const auto special = [](const char* p) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, 8);
    const std::uint64_t tilde = w ^ (ones * '~'), slash = w ^ (ones * '/');
    return ((((tilde - ones) & ~tilde) | ((slash - ones) & ~slash)) & highs) != 0;
  };
  const std::size_t n = token.size();
  if (n < 8) {
    if (n < 4) return std::any_of(token.begin(), token.end(), [](char c) { return c == '~' || c == '/'; });
    // Four to seven bytes (most names): the first four and the last four, as two words.
    constexpr std::uint32_t ones32 = 0x01010101u, highs32 = 0x80808080u;
    const auto special32 = [](const char* p) {
      std::uint32_t w = 0;
      std::memcpy(&w, p, 4);
      const std::uint32_t tilde = w ^ (ones32 * '~'), slash = w ^ (ones32 * '/');
      return ((((tilde - ones32) & ~tilde) | ((slash - ones32) & ~slash)) & highs32) != 0;
    };
    return special32(token.data()) || special32(token.data() + n - 4);
  }
  for (std::size_t i = 0; i + 8 < n; i += 8)
    if (special(token.data() + i)) return true;
  return special(token.data() + n - 8);
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
