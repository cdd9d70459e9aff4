// Characters a text field refuses by default (decode_options::plain_text): NUL, which C APIs
// read as the end of the text (what a log or a database stores is then not what was checked),
// and the Unicode direction controls that override or isolate the order in which text is shown
// (U+202A to U+202E, U+2066 to U+2069: "Trojan Source"), with which a name or an address reads
// otherwise to the person who checks it than to the program that uses it.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace elicit::detail {

struct hidden_control {
  std::size_t character;  // 1-based, in code points
  char32_t code;          // 0, or U+202A to U+202E, U+2066 to U+2069
};

// The first refused character of valid UTF-8 `text`, or nothing. Text without a NUL or a 0xE2
// byte (the lead byte of every direction control) is passed in two memchr scans.
inline std::optional<hidden_control> find_hidden_control(std::string_view text) noexcept {
  if (text.find('\0') == std::string_view::npos && text.find('\xE2') == std::string_view::npos) return std::nullopt;
  std::size_t character = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if ((b & 0xC0) != 0x80) ++character;
    if (b == 0) return hidden_control{character, 0};
    if (b != 0xE2 || i + 2 >= text.size()) continue;
    const auto b1 = static_cast<unsigned char>(text[i + 1]), b2 = static_cast<unsigned char>(text[i + 2]);
    const char32_t code = 0x2000 | static_cast<char32_t>((b1 & 0x3F) << 6) | (b2 & 0x3F);
    if ((code >= 0x202A && code <= 0x202E) || (code >= 0x2066 && code <= 0x2069))
      return hidden_control{character, code};
  }
  return std::nullopt;
}

}  // namespace elicit::detail
