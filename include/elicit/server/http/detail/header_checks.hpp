// What the HTTP transport checks in a request's header fields before it reads a body: pure
// functions on header text, so that the rules read in one place and a hostile value reaches no
// JSON code. Machinery of <elicit/server/http/server.hpp>.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elicit::detail::http {

inline char lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

inline bool same_text_any_case(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

// ":digits" with 1 to 5 digits, or nothing.
inline bool port_or_nothing(std::string_view rest) noexcept {
  if (rest.empty()) return true;
  if (rest[0] != ':' || rest.size() < 2 || rest.size() > 6) return false;
  for (char c : rest.substr(1))
    if (c < '0' || c > '9') return false;
  return true;
}

// The value of one base64 character, or -1.
inline int sextet(char c) noexcept {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// Standard base64 with its padding, or nothing: a length that is not a multiple of 4, a
// character outside the alphabet, or padding anywhere but at the end.
inline std::optional<std::string> base64_decoded(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::size_t padding = 0;
  while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') ++padding;
  std::string out;
  std::uint32_t bits = 0;
  int count = 0;
  for (std::size_t i = 0; i < text.size() - padding; ++i) {
    const int v = sextet(text[i]);
    if (v < 0) return std::nullopt;
    bits = (bits << 6) | static_cast<std::uint32_t>(v);
    if (++count == 4) {
      out += static_cast<char>((bits >> 16) & 0xFF);
      out += static_cast<char>((bits >> 8) & 0xFF);
      out += static_cast<char>(bits & 0xFF);
      bits = 0;
      count = 0;
    }
  }
  if (count == 3) {
    out += static_cast<char>((bits >> 10) & 0xFF);
    out += static_cast<char>((bits >> 2) & 0xFF);
  } else if (count == 2) {
    out += static_cast<char>((bits >> 4) & 0xFF);
  }
  return out;
}

// A header value without the optional whitespace around it (RFC 9110, 5.5): " tools/list " is
// "tools/list".
inline std::string_view trimmed(std::string_view value) noexcept {
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  return value;
}

// Whether a Host header names this loopback server: localhost, 127.0.0.1 or [::1], with an
// optional port. A DNS-rebinding page reaches 127.0.0.1 under its own name (evil.example), which
// its browser sends as Host: refused.
inline bool loopback_host(std::string_view host) noexcept {
  host = trimmed(host);
  if (host.starts_with('[')) {
    const auto close = host.find(']');
    return close != std::string_view::npos && host.substr(0, close + 1) == "[::1]" &&
           port_or_nothing(host.substr(close + 1));
  }
  const auto colon = host.find(':');
  const std::string_view name = host.substr(0, colon);
  const std::string_view rest = colon == std::string_view::npos ? std::string_view() : host.substr(colon);
  return (same_text_any_case(name, "localhost") || name == "127.0.0.1") && port_or_nothing(rest);
}

// Whether an Origin header is a loopback origin: http or https, then a loopback host as above,
// nothing after it. "null" (a sandboxed or file page) is not one.
inline bool loopback_origin(std::string_view origin) noexcept {
  origin = trimmed(origin);
  for (std::string_view scheme : {std::string_view("http://"), std::string_view("https://")})
    if (origin.size() > scheme.size() && same_text_any_case(origin.substr(0, scheme.size()), scheme))
      return loopback_host(origin.substr(scheme.size())) && origin.find('/', scheme.size()) == std::string_view::npos;
  return false;
}

// Whether a Content-Type is JSON: application/json, any case, with or without parameters
// ("application/json; charset=utf-8"). text/plain is not: a web page may post it to any
// address without a preflight, which is how it would reach a local server.
inline bool json_content_type(std::string_view content_type) noexcept {
  const std::string_view media_type = trimmed(content_type.substr(0, content_type.find(';')));
  return same_text_any_case(media_type, "application/json");
}

// Whether the Transfer-Encoding fields of a request, in order, name the chunked coding alone
// ("chunked", any case, optional whitespace around it). The transport decodes no other coding, and
// RFC 9112 6.1 lets a request's body length be read only when chunked is the final coding: any
// other list ("chunked, identity", "gzip", "chunked, chunked", two fields) leaves the body's end
// in doubt, which a proxy may read otherwise (request smuggling).
inline bool chunked_alone(const std::vector<std::string_view>& fields) noexcept {
  return fields.size() == 1 && same_text_any_case(trimmed(fields.front()), "chunked");
}

// An Mcp-Name value as the client meant it: trimmed, then, when it is the sentinel form
// "=?base64?...?=", the base64 (standard alphabet, padded) decoded. Nothing when that base64 is
// malformed.
inline std::optional<std::string> mcp_header_value(std::string_view raw) {
  const std::string_view value = trimmed(raw);
  constexpr std::string_view open = "=?base64?", close = "?=";
  if (value.size() >= open.size() + close.size() && value.starts_with(open) && value.ends_with(close))
    return base64_decoded(value.substr(open.size(), value.size() - open.size() - close.size()));
  return std::string(value);
}

}  // namespace elicit::detail::http
