// JSON Pointer (RFC 6901) tokens: "~" is written "~0" and "/" is written "~1".
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace elicit::detail {

// Appends `token` to `out`, escaped. A name with neither special character, nearly every name,
// is appended in one piece.
inline void append_pointer_token(std::string& out, std::string_view token) {
  while (true) {
    const std::size_t special = std::min(token.find('~'), token.find('/'));  // memchr, not a byte loop
    out.append(token.substr(0, special));
    if (special == std::string_view::npos) return;
    out.append(token[special] == '~' ? "~0" : "~1");
    token.remove_prefix(special + 1);
  }
}

// The same, into a message sink (detail/message.hpp).
template <class Sink>
void write_pointer_token(Sink& out, std::string_view token) {
  while (true) {
    const std::size_t special = std::min(token.find('~'), token.find('/'));  // memchr, not a byte loop
    out.put(token.substr(0, special));
    if (special == std::string_view::npos) return;
    out.put(token[special] == '~' ? "~0" : "~1");
    token.remove_prefix(special + 1);
  }
}

// `token`, escaped.
inline std::string pointer_token(std::string_view token) {
  std::string out;
  append_pointer_token(out, token);
  return out;
}

}  // namespace elicit::detail
