// What the sample server checks in HTTP headers before it reads a body: pure functions on
// header text, so that the rules read in one place and a hostile value reaches no JSON code.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::http {

// A header value without the optional whitespace around it (RFC 9110, 5.5): " tools/list " is
// "tools/list".
[[nodiscard]] std::string_view trimmed(std::string_view value) noexcept;

// Whether a Host header names this loopback server: localhost, 127.0.0.1 or [::1], with an
// optional port. A DNS-rebinding page reaches 127.0.0.1 under its own name (evil.example), which
// its browser sends as Host: refused.
[[nodiscard]] bool loopback_host(std::string_view host) noexcept;

// Whether an Origin header is a loopback origin: http or https, then a loopback host as above,
// nothing after it. "null" (a sandboxed or file page) is not one.
[[nodiscard]] bool loopback_origin(std::string_view origin) noexcept;

// Whether a Content-Type is JSON: application/json, any case, with or without parameters
// ("application/json; charset=utf-8"). text/plain is not: a web page may post it to any
// address without a preflight, which is how it would reach a local server.
[[nodiscard]] bool json_content_type(std::string_view content_type) noexcept;

// Whether the Transfer-Encoding fields of a request, in order, name the chunked coding alone
// ("chunked", any case, optional whitespace around it). This server decodes no other coding, and
// RFC 9112 6.1 lets a request's body length be read only when chunked is the final coding: any
// other list ("chunked, identity", "gzip", "chunked, chunked", two fields) leaves the body's end
// in doubt, which a proxy may read otherwise (request smuggling).
[[nodiscard]] bool chunked_alone(const std::vector<std::string_view>& fields) noexcept;

// An Mcp-Name value as the client meant it: trimmed, then, when it is the sentinel form
// "=?base64?...?=", the base64 (standard alphabet, padded) decoded. Nothing when that base64 is
// malformed.
[[nodiscard]] std::optional<std::string> mcp_header_value(std::string_view raw);

}  // namespace mcp::http
