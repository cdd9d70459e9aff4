// The URLs URL mode may send a person to: web pages, not whatever an absolute URI can name.
//
// A client opens the URL of a URL-mode elicitation for the user. An absolute URI alone lets a
// server (or whoever controls the text it puts there) send people to `javascript:` or `data:`
// (script in the client's context), `file:` (a local file) or a scheme some application on the
// machine claims. The rule here: `https:` with a host; `http:` only for a loopback host
// (localhost, 127.0.0.0/8, [::1]: a development server) or when the caller says so; no user
// name or password before the host (`https://bank.example@evil.example/` reads as the bank).
#pragma once

#include <elicit/detail/text_formats.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace elicit::detail {

// 127.0.0.0/8 written as four decimal octets.
constexpr bool is_loopback_ipv4(std::string_view host) noexcept {
  int octets = 0;
  while (true) {
    const std::size_t dot = host.find('.');
    const std::string_view part = host.substr(0, dot);
    if (part.empty() || part.size() > 3) return false;
    int v = 0;
    for (char c : part) {
      if (!is_digit(c)) return false;
      v = v * 10 + (c - '0');
    }
    if (v > 255 || (octets == 0 && v != 127)) return false;
    ++octets;
    if (dot == std::string_view::npos) break;
    host.remove_prefix(dot + 1);
  }
  return octets == 4;
}

constexpr bool is_loopback_host(std::string_view host) noexcept {
  return equals_lower(host, "localhost") || host == "[::1]" || is_loopback_ipv4(host);
}

// Why `url` is no page to send a person to, or nullptr. `allow_http`: plain http to any host.
constexpr const char* web_url_problem(std::string_view url, bool allow_http) noexcept {
  if (!is_uri(url)) return "not an absolute URI";
  const std::size_t colon = url.find(':');
  const std::string_view scheme = url.substr(0, colon);
  const bool https = equals_lower(scheme, "https"), http = equals_lower(scheme, "http");
  if (!https && !http) return "URL mode opens web pages only: the URL must start with https:";
  std::string_view rest = url.substr(colon + 1);
  if (!rest.starts_with("//")) return "the URL names no host: write https://host/...";
  rest.remove_prefix(2);
  const std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  if (authority.find('@') != std::string_view::npos)
    return "the URL has a user name or password before its host (user@host), which hides where it goes";
  std::string_view host = authority;
  if (!host.starts_with('[')) host = host.substr(0, host.rfind(':'));
  else host = host.substr(0, host.find(']') + 1);
  if (host.empty()) return "the URL names no host: write https://host/...";
  if (http && !allow_http && !is_loopback_host(host))
    return "plain http is for a loopback host only: use https (or set allow_http for a development setup)";
  return nullptr;
}

// `text` for an error message: quoted, at most `max` bytes of it, control characters, quotes,
// backslashes and bytes outside ASCII written as escapes, so that a log line stays one line
// and shows what was there.
inline std::string quoted_for_log(std::string_view text, std::size_t max = 200) {
  constexpr char hex[] = "0123456789abcdef";
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size() && i < max; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7f) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
  if (text.size() > max) out += " (the first " + std::to_string(max) + " of " + std::to_string(text.size()) + " bytes)";
  return out;
}

}  // namespace elicit::detail
