// Reading one HTTP request of the transport, and writing a response or a refusal: each request
// within its deadline from its first byte, its framing beyond doubt, its headers refused before
// any body is read when no client of this loopback server sends them. Machinery of
// <elicit/server/http/server.hpp>.
#pragma once

#include <elicit/server/http/detail/header_checks.hpp>
#include <elicit/server/http/detail/routes.hpp>
#include <elicit/server/http/options.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elicit::detail::http {

using stream_type = boost::beast::tcp_stream;
inline constexpr auto no_throw = boost::asio::as_tuple(boost::asio::use_awaitable);

// The most a request's header holds, and a connection's read buffer: a request's headers and
// what comes with them. The body goes to the request as it is read, so only a chunk-size line,
// a chunk extension or a trailer could grow the buffer further: past this the request is
// refused, where without a bound one that never ends was buffered for the whole request
// deadline (659 MB in 3 s on one connection).
inline constexpr std::size_t header_limit = std::size_t{16} * 1024;
inline constexpr std::size_t read_buffer_limit = std::size_t{64} * 1024;

// The Keep-Alive header of a response whose connection stays open: how long it waits idle for
// the next request (RFC 9110's Keep-Alive, as browsers, curl and Node read it).
inline std::string keep_alive_value(std::chrono::seconds idle) { return "timeout=" + std::to_string(idle.count()); }

// Writes one whole response within the write timeout; one that keeps its connection announces
// how long it stays idle.
inline boost::asio::awaitable<boost::beast::error_code> write_response(stream_type& stream, response res,
                                                                       bool persistent, const http_options& options) {
  res.keep_alive(persistent);
  if (persistent) res.set(bhttp::field::keep_alive, keep_alive_value(options.idle_timeout));
  res.prepare_payload();
  stream.expires_after(options.write_timeout);
  auto [ec, n] = co_await bhttp::async_write(stream, res, no_throw);
  co_return ec;
}

// After a refusal: the response written, no more sent, and what the client still sends (the
// rest of the refused request) read and dropped, never parsed, for a moment, before the close
// (so that the client reads the response, not a reset, RFC 9112 9.6).
inline boost::asio::awaitable<void> refuse(stream_type& stream, response res, const http_options& options) {
  if (co_await write_response(stream, std::move(res), false, options)) co_return;
  boost::beast::error_code ignored;
  stream.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
  stream.expires_after(std::chrono::seconds(1));
  std::array<char, 4096> scratch{};
  std::size_t drained = 0;
  while (drained < std::size_t{1} << 20) {
    auto [ec, n] = co_await stream.async_read_some(boost::asio::buffer(scratch), no_throw);
    if (ec) break;
    drained += n;
  }
  stream.close();
}

// Refuses, before any body is read, what no client of this loopback server sends: a header that
// must come once and came more often (Host, Origin, Content-Length: which one would count? 400),
// a framing in doubt (request smuggling: 400), a Host or Origin that is not a loopback name (a
// DNS-rebinding web page: 403), and a POST body that is not JSON (a page's text/plain form post:
// 415). The connection is then closed, the body unread: it is never taken for a request.
inline std::optional<response> refused_header(const bhttp::request_header<>& head) {
  const auto refusal = [&head](int status, const std::string& why) {
    return json_response(head.version(), status, transport_error(-32600, why));
  };
  const auto count = [&head](bhttp::field f) {
    const auto range = head.equal_range(f);
    return std::distance(range.first, range.second);
  };
  if (head.version() != 10 && head.version() != 11)  // what Beast parses of "HTTP/d.d", and this server speaks
    return json_response(11, 505, transport_error(-32600, "HTTP Version Not Supported: this server speaks HTTP/1.1"));
  for (const auto f :
       {bhttp::field::host, bhttp::field::origin, bhttp::field::content_length, bhttp::field::content_type})
    if (count(f) > 1) return refusal(400, "Bad Request: more than one " + std::string(bhttp::to_string(f)) + " header");
  // The body's framing, which must be beyond doubt (RFC 9112 6.1 and 6.3): a Transfer-Encoding
  // is chunked alone, never with a Content-Length, never on HTTP/1.0.
  if (count(bhttp::field::transfer_encoding) != 0) {
    std::vector<std::string_view> codings;
    const auto [first, last] = head.equal_range(bhttp::field::transfer_encoding);
    for (auto f = first; f != last; ++f) codings.emplace_back(f->value().data(), f->value().size());
    if (head.version() < 11) return refusal(400, "Bad Request: an HTTP/1.0 request has no Transfer-Encoding");
    if (count(bhttp::field::content_length) != 0)
      return refusal(400, "Bad Request: a request has a Transfer-Encoding or a Content-Length, not both");
    if (!chunked_alone(codings))
      return refusal(400, "Bad Request: this server reads a Transfer-Encoding of chunked alone");
  }
  const std::string host(head[bhttp::field::host]);
  if (!loopback_host(host)) return refusal(403, "Forbidden: Host '" + shown(host) + "' is not this loopback server");
  if (count(bhttp::field::origin) == 1 && !loopback_origin(head[bhttp::field::origin]))
    return refusal(403, "Forbidden: requests from origin '" + shown(head[bhttp::field::origin]) + "' are not allowed");
  if (head.method() == bhttp::verb::post && !json_content_type(head[bhttp::field::content_type]))
    return refusal(415, "Unsupported Media Type: the body must be application/json, not '" +
                            shown(head[bhttp::field::content_type]) + "'");
  return std::nullopt;
}

// Drops the empty lines a client may send before a request line (RFC 9112 2.2: a server SHOULD
// ignore at least one), reading more while the buffer holds nothing else; at most four, after
// which the parser sees (and refuses) the rest. False when the client closed or the deadline
// passed.
inline boost::asio::awaitable<bool> skip_empty_lines(stream_type& stream, boost::beast::flat_buffer& buffer) {
  for (int lines = 0; lines < 4;) {
    const std::string_view data(static_cast<const char*>(buffer.data().data()), buffer.size());
    if (data.starts_with("\r\n") || data.starts_with("\n")) {
      buffer.consume(data[0] == '\r' ? 2 : 1);
      ++lines;
      continue;
    }
    if (!data.empty() && data != "\r") co_return true;
    auto [ec, n] = co_await stream.async_read_some(buffer.prepare(512), no_throw);
    if (ec) co_return false;
    buffer.commit(n);
  }
  co_return true;
}

// What the read buffer holds (a next request's first bytes), taken out of it.
inline std::string take_buffered(boost::beast::flat_buffer& buffer) {
  std::string bytes(static_cast<const char*>(buffer.data().data()), buffer.size());
  buffer.consume(buffer.size());
  return bytes;
}

// Puts bytes read already (by a stream's watch, or before a connection changed hands) back in the
// read buffer, after what it holds.
inline void put_buffered(boost::beast::flat_buffer& buffer, std::string_view bytes) {
  if (bytes.empty()) return;
  buffer.commit(boost::asio::buffer_copy(buffer.prepare(bytes.size()), boost::asio::buffer(bytes)));
}

// The fields of a request's header, counted: after the body, more means trailer fields.
inline std::size_t field_count(const bhttp::fields& fields) {
  return static_cast<std::size_t>(std::distance(fields.begin(), fields.end()));
}

// The parse error (-32700) of a body longer than the limits.
inline nlohmann::ordered_json too_long(const http_options& options) {
  return rpc_error(-32700, "The JSON is more than " + std::to_string(options.limits.max_bytes) +
                               " bytes long, more than this server reads.")
      .response(nullptr);
}

// Reads one request, headers and body, within the request deadline from its first byte (or from
// the accept): trickling bytes do not extend it. A request refused here (400, 413, 415, 431,
// 403) is answered and nothing comes back: the connection ends. A coroutine of its own so that
// its parser, the largest of a connection's objects, lives in a frame freed before a call waits.
inline boost::asio::awaitable<std::optional<request>> read_request(stream_type& stream,
                                                                   boost::beast::flat_buffer& buffer,
                                                                   const http_options& options) {
  // Each response is built before it is awaited: g++-12 destroys some temporaries of a co_await
  // expression twice.
  bhttp::request_parser<bhttp::string_body> parser;
  parser.header_limit(header_limit);
  parser.body_limit(options.limits.max_bytes);
  stream.expires_after(options.request_timeout);
  if (!co_await skip_empty_lines(stream, buffer)) co_return std::nullopt;
  auto [head_error, head_bytes] = co_await bhttp::async_read_header(stream, buffer, parser, no_throw);
  const unsigned version = parser.get().version() == 10 ? 10 : 11;
  if (head_error == bhttp::error::end_of_stream || head_error == boost::beast::error::timeout ||
      head_error == boost::asio::error::connection_reset || head_error == boost::asio::error::operation_aborted)
    co_return std::nullopt;
  if (head_error == bhttp::error::body_limit) {  // a Content-Length past the limit: refused unread
    response refusal = json_response(version, 413, too_long(options));
    co_await refuse(stream, std::move(refusal), options);
    co_return std::nullopt;
  }
  if (head_error) {
    const bool long_headers = head_error == bhttp::error::header_limit || head_error == bhttp::error::buffer_overflow;
    response refusal = json_response(version, long_headers ? 431 : 400,
                                     transport_error(-32600, long_headers ? "Request header fields too large"
                                                                          : "Bad Request: " + head_error.message()));
    co_await refuse(stream, std::move(refusal), options);
    co_return std::nullopt;
  }
  if (auto refusal = refused_header(parser.get())) {
    co_await refuse(stream, std::move(*refusal), options);
    co_return std::nullopt;
  }
  const std::size_t header_fields = field_count(parser.get());
  // RFC 9110 10.1.1: matched in any case, and ignored from an HTTP/1.0 client.
  if (version >= 11 && boost::beast::iequals(parser.get()[bhttp::field::expect], "100-continue")) {
    bhttp::response<bhttp::empty_body> go_on{bhttp::status::continue_, 11};
    if (auto [e, n] = co_await bhttp::async_write(stream, go_on, no_throw); e) co_return std::nullopt;
  }
  // Room to read the body into, all of it (freed once the request is read): Beast reads as much
  // as the buffer has room for, and a buffer left at the capacity of a first small read took a
  // 4 MiB body in 8,194 reads of 512 bytes, 70 ms of CPU. Not before the header is whole: a slow
  // client's headers hold no more. No more than the body's length: most bodies came with their
  // header, and 64 KiB for each of many requests at once is memory the heap keeps.
  if (!parser.is_done()) {
    const auto length = parser.content_length();
    const std::size_t room = length ? std::min<std::uint64_t>(read_buffer_limit, *length) : read_buffer_limit;
    if (buffer.size() < room) buffer.reserve(room);
  }
  auto [body_error, body_bytes] = co_await bhttp::async_read(stream, buffer, parser, no_throw);
  if (body_error == bhttp::error::body_limit) {
    response refusal = json_response(version, 413, too_long(options));
    co_await refuse(stream, std::move(refusal), options);
    co_return std::nullopt;
  }
  if (body_error == boost::beast::error::timeout || body_error == bhttp::error::end_of_stream ||
      body_error == bhttp::error::partial_message)
    co_return std::nullopt;
  if (body_error == bhttp::error::buffer_overflow || body_error == bhttp::error::header_limit) {
    response refusal = json_response(version, 400,
                                     transport_error(-32600, "Bad Request: a chunk-size line or trailer longer than " +
                                                                 std::to_string(read_buffer_limit) + " bytes"));
    co_await refuse(stream, std::move(refusal), options);
    co_return std::nullopt;
  }
  if (body_error) {
    response refusal = json_response(version, 400, transport_error(-32600, "Bad Request: " + body_error.message()));
    co_await refuse(stream, std::move(refusal), options);
    co_return std::nullopt;
  }
  // Trailer fields join the header's fields once the body is read, after the Host, Origin and
  // framing checks: a trailer Origin would be taken for the request's own. None is accepted.
  if (field_count(parser.get()) != header_fields) {
    response refusal =
        json_response(version, 400, transport_error(-32600, "Bad Request: this server accepts no trailer fields"));
    co_await refuse(stream, std::move(refusal), options);
    co_return std::nullopt;
  }
  co_return parser.release();
}

}  // namespace elicit::detail::http
