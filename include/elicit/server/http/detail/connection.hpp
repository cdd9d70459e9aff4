// One connection of the HTTP transport: requests one after another (persistent), each within the
// request deadline from its first byte, and between them an idle wait of at most the idle
// timeout; a 2025-11-25 call that asks streamed on it, and a 2026-07-28 subscriptions/listen; a
// 2026-07-28 request whose tools block answered on the blocking executor, the connection's
// coroutine waiting without a thread.
// Machinery of <elicit/server/http/server.hpp>.
#pragma once

#include <elicit/server/http/detail/call_stream.hpp>
#include <elicit/server/http/detail/listen_stream.hpp>
#include <elicit/server/http/detail/request_reader.hpp>
#include <elicit/server/http/detail/routes.hpp>
#include <elicit/server/http/detail/shared_state.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>
#include <exception>
#include <optional>
#include <string>
#include <utility>

namespace elicit::detail::http {

// A 2026-07-28 request answered on the blocking executor.
inline boost::asio::awaitable<routed> answered_later(shared_state& state, unsigned version, nlohmann::json message,
                                                     std::string principal) {
  auto answer = [&state, version, message = std::move(message),
                 principal = std::move(principal)]() -> boost::asio::awaitable<routed> {
    co_return routes(state).answered_2026(version, message, principal);
  };
  auto answering = boost::asio::co_spawn(*state.options.blocking, std::move(answer), boost::asio::use_awaitable);
  co_return co_await std::move(answering);
}

inline routed internal_error(unsigned version, const std::exception& e) {
  return answer_with(json_response(version, 500, transport_error(-32603, std::string("Internal error: ") + e.what())));
}

inline boost::asio::awaitable<void> serve_connection(shared_state& state, boost::asio::ip::tcp::socket socket,
                                                     std::string peer) {
  const counted_connection counted(state, std::move(peer));
  boost::beast::error_code ec;
  socket.set_option(boost::asio::ip::tcp::no_delay(true),
                    ec);  // no delayed-ACK wait for small writes: ~40 ms a request
  stream_type stream(std::move(socket));
  boost::beast::flat_buffer buffer(read_buffer_limit);
  const http_options& options = state.options;
  for (bool first = true;; first = false) {
    // Between two requests (none pipelined): idle until one begins, up to the idle timeout the
    // response announced and a second more: a client counts it from when it read the response,
    // later than it was written, and its request may be on the way as the time runs out.
    if (!first && buffer.size() == 0 &&
        !co_await next_request_begins(stream, buffer, options.idle_timeout + std::chrono::seconds(1)))
      break;
    std::optional<request> read = co_await read_request(stream, buffer, options);
    if (!read) co_return;
    stream.expires_never();
    routed r;
    bool persistent = false;
    unsigned version = 11;
    {  // the request's headers and body freed before a stream waits: it holds only what it needs
      const request req = std::move(*read);
      read.reset();
      persistent = req.keep_alive();
      version = req.version();
      try {
        r = routes(state).route(req, counted.peer());
      } catch (const std::exception& e) {
        r = internal_error(version, e);
      }
    }
    if (buffer.size() == 0) buffer.shrink_to_fit();  // a waiting or idle connection holds no read buffer
    if (r.later) {
      try {
        r = co_await answered_later(state, version, std::move(*r.later), std::move(r.principal));
      } catch (const std::exception& e) {
        r = internal_error(version, e);
      }
    }
    if (r.push) {
      if (!co_await stream_call(state, stream, buffer, r, version, persistent)) break;
      continue;
    }
    if (r.listen) {
      if (!co_await stream_listen(state, stream, buffer, *r.listen, version, persistent)) break;
      continue;
    }
    const bool keep = persistent && !r.close;
    if (co_await write_response(stream, std::move(*r.res), keep, options) || !keep) break;
  }
  boost::beast::error_code ignored;
  stream.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
  stream.close();
}

}  // namespace elicit::detail::http
