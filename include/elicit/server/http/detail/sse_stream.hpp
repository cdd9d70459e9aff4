// The bytes of an SSE response of the transport (a 2025-11-25 call's stream, a 2026-07-28
// subscription's): its head, each event in its framing, its end; and what a stream reads of its
// client while it is open (nothing but a next request's first bytes, or the client leaving).
// Machinery of <elicit/server/http/server.hpp>.
#pragma once

#include <elicit/server/http/detail/request_reader.hpp>
#include <elicit/server/http/options.hpp>

#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message.hpp>
#include <sys/socket.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <string>
#include <string_view>

namespace elicit::detail::http {

// How a stream is framed: in chunks (HTTP/1.1), or, for an HTTP/1.0 client, which has no chunked
// coding, as bytes that end when the connection does.
enum class framing { chunked, until_close };

// The head of an SSE response, as bytes.
inline std::string stream_head(unsigned version, bool persistent, framing how, const http_options& options) {
  bhttp::response<bhttp::empty_body> res{bhttp::status::ok, version};
  res.set(bhttp::field::content_type, "text/event-stream");
  res.set(bhttp::field::cache_control, "no-cache");
  res.set("X-Accel-Buffering", "no");  // a proxy must not hold the question back
  res.keep_alive(persistent);
  if (persistent) res.set(bhttp::field::keep_alive, keep_alive_value(options.idle_timeout));
  res.chunked(how == framing::chunked);
  const bhttp::fields::writer head(res, res.version(), res.result_int());
  const auto buffers = head.get();
  std::string bytes(boost::asio::buffer_size(buffers), '\0');
  boost::asio::buffer_copy(boost::asio::buffer(bytes), buffers);
  return bytes;
}

// Appends one SSE event carrying `message_text` (a JSON-RPC message) to `out`, in its framing:
// in one chunk of its own when chunked.
inline void append_event(std::string& out, std::string_view message_text, framing how) {
  constexpr std::string_view start = "event: message\ndata: ", end = "\n\n";
  if (how == framing::chunked) {
    std::array<char, 20> size{};
    const int n = std::snprintf(size.data(), size.size(), "%zx\r\n", start.size() + message_text.size() + end.size());
    out.append(size.data(), static_cast<std::size_t>(n));
  }
  out.append(start).append(message_text).append(end);
  if (how == framing::chunked) out.append("\r\n");
}

// Appends an SSE comment (a line a client skips: it keeps a quiet stream from looking dead).
inline void append_comment(std::string& out, framing how) {
  out.append(how == framing::chunked ? "3\r\n:\n\n\r\n" : ":\n\n");
}

// Appends a stream's end: the last chunk (an HTTP/1.0 stream ends with its connection).
inline void append_end(std::string& out, framing how) {
  if (how == framing::chunked) out.append("0\r\n\r\n");
}

// What came of reading a stream's socket when it was readable.
enum class after_read {
  nothing,  // nothing to read after all (the reactor may report a wake-up): wait again
  kept,     // bytes of the client's next request (pipelined): kept, wait again
  left,     // the end of file, a reset, or more pipelined than a stream keeps: the client left
};

// What a stream keeps of what its client sends while it is open: the first bytes of a next request
// (HTTP/1.1 pipelining), served when the stream ends. A client cannot be served on that
// connection before then, so no more is kept: more is taken for the client gone. (Kept up to
// the 64 KiB of a read, 512 waiting streams of one client held 34 MiB beyond the waiting budget,
// which counts a question at http_options::bytes_per_waiting; this is within it.)
inline constexpr std::size_t pipelined_limit = std::size_t{8} * 1024;

// What a stream starts with of its client's next request: the bytes read past the request that
// opened it (sent in the same write), up to pipelined_limit. More are dropped, and the connection
// ends with the stream (`persistent` false): none of them is read as a request.
inline std::string pipelined_start(boost::beast::flat_buffer& buffer, bool& persistent) {
  if (buffer.size() <= pipelined_limit) return take_buffered(buffer);
  buffer.consume(buffer.size());
  persistent = false;
  return {};
}

// Reads what the client sent while its stream is open, without blocking: a pipelined next
// request's bytes go to `pipelined` (the connection's read buffer when the stream ends), up to
// pipelined_limit in all, so that no byte sent before a leave hides the leave.
inline after_read read_while_streaming(boost::asio::ip::tcp::socket& socket, std::string& pipelined) {
  std::array<char, 4096> bytes{};
  const ssize_t n = ::recv(socket.native_handle(), bytes.data(), bytes.size(), MSG_DONTWAIT);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return after_read::nothing;
  if (n > 0 && pipelined.size() + static_cast<std::size_t>(n) <= pipelined_limit) {
    pipelined.append(bytes.data(), static_cast<std::size_t>(n));
    return after_read::kept;
  }
  return after_read::left;
}

}  // namespace elicit::detail::http
