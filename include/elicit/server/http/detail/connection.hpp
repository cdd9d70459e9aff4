// One connection of the HTTP transport: requests one after another (persistent), each within the
// request deadline from its first byte; between two of them an idle wait of at most the idle
// timeout that holds no coroutine; a 2025-11-25 call that asks streamed on it (the stream takes
// the socket and gives it back when the call ends); a 2026-07-28 subscriptions/listen; a
// 2026-07-28 request whose tools block answered on the blocking executor, the connection's
// coroutine waiting without a thread. Machinery of <elicit/server/http/server.hpp>.
#pragma once

#include <elicit/server/http/detail/call_stream.hpp>
#include <elicit/server/http/detail/listen_stream.hpp>
#include <elicit/server/http/detail/long_lived.hpp>
#include <elicit/server/http/detail/request_reader.hpp>
#include <elicit/server/http/detail/routes.hpp>
#include <elicit/server/http/detail/shared_state.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>
#include <exception>
#include <memory>
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

inline boost::asio::awaitable<void> serve_connection(shared_state& state, open_connection c);

// Reads and answers the connection's requests, from its next one, on a coroutine of its own.
inline void spawn_connection(shared_state& state, open_connection c) {
  const auto executor = c.socket.get_executor();  // before the socket moves into the coroutine
  boost::asio::co_spawn(executor, serve_connection(state, std::move(c)), boost::asio::detached);
}

// A persistent connection between two requests, waiting for the first byte of the next without a
// coroutine: its socket, one wait for it to be readable and one timer entry. Up to the idle
// timeout the last response announced and a second more: a client counts it from when it read
// the response, later than it was written, and its request may be on the way as the time runs
// out. Then, or when the client closed, the connection ends.
class idle_connection : public std::enable_shared_from_this<idle_connection> {
 public:
  static void wait(shared_state& state, open_connection c) {
    const auto idle = std::make_shared<idle_connection>(state, std::move(c));
    idle->arm();
  }

  idle_connection(shared_state& state, open_connection c)
      : state_(state), c_(std::move(c)), timer_(c_.socket.get_executor()) {}

 private:
  void arm() {
    timer_.expires_after(state_.options.idle_timeout + std::chrono::seconds(1));
    timer_.async_wait(long_lived([self = shared_from_this()](boost::system::error_code ec) {
      boost::system::error_code ignored;
      if (!ec) self->c_.socket.cancel(ignored);  // the wait below ends: the connection closes
    }));
    c_.socket.async_wait(boost::asio::ip::tcp::socket::wait_read,
                         long_lived([self = shared_from_this()](boost::system::error_code ec) { self->readable(ec); }));
  }

  void readable(boost::system::error_code ec) {
    timer_.cancel();
    if (ec) return end_connection(c_.socket);
    try {
      spawn_connection(state_, std::move(c_));  // a request begins, or the client closed: read it
    } catch (const std::exception&) {           // no memory for a coroutine: the connection ends
    }
  }

  shared_state& state_;
  open_connection c_;
  boost::asio::steady_timer timer_;
};

// Where a connection goes when a call's stream gives it back: its next request read at once
// when the client sent its first bytes already, else an idle wait for it.
struct next_request {
  void operator()(shared_state& state, open_connection c) const {
    if (c.read.empty()) idle_connection::wait(state, std::move(c));
    else spawn_connection(state, std::move(c));
  }
};

// Registers the pushed call of `r` in its session and hands the connection to its stream; a
// call whose id is in flight already is refused on the connection, which goes on. The
// connection is the stream's when this returns nothing (`c` taken).
inline boost::asio::awaitable<std::optional<bool>> stream_call(shared_state& state, stream_type& stream,
                                                               boost::beast::flat_buffer& buffer,
                                                               counted_connection& counted, routed& r, unsigned version,
                                                               bool persistent) {
  begun_call begun = state.sessions.begin_call(r.s, r.push->id(), r.request_bytes, stream.get_executor());
  r.s.reset();
  const std::shared_ptr<call_in_flight> flight = std::move(begun.call);
  if (!flight) {  // as routes answers a request of an unknown session, or a second call with an id
    response res = begun.session_gone
                       ? json_response(version, 404, session_not_found(r.push->id()))
                       : json_response(version, 200,
                                       rpc_error(-32600, "Invalid Request: a call with this id is in flight already")
                                           .response(r.push->id()));
    r.push.reset();
    co_return !co_await write_response(stream, std::move(res), persistent, state.options) && persistent;
  }
  try {
    std::string pipelined = pipelined_start(buffer, persistent);
    open_connection c{stream.release_socket(), std::move(counted), std::move(pipelined)};
    pushed_call call = std::move(*r.push);
    r.push.reset();
    call_stream<next_request>::start(state, std::move(c), flight, std::move(call), version, persistent);
  } catch (...) {  // no stream took the call (no memory): it is not left registered in its session
    if (!flight->waiter.lock()) state.sessions.end_call(*flight);
    throw;
  }
  co_return std::nullopt;
}

inline boost::asio::awaitable<void> serve_connection(shared_state& state, open_connection c) {
  counted_connection counted = std::move(c.counted);
  stream_type stream(std::move(c.socket));
  boost::beast::flat_buffer buffer(read_buffer_limit);
  put_buffered(buffer, c.read);
  std::string().swap(c.read);
  const http_options& options = state.options;
  for (;;) {
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
    if (r.later) {
      try {
        r = co_await answered_later(state, version, std::move(*r.later), std::move(r.principal));
      } catch (const std::exception& e) {
        r = internal_error(version, e);
      }
    }
    bool go_on = false;
    if (r.push) {
      const std::optional<bool> refused = co_await stream_call(state, stream, buffer, counted, r, version, persistent);
      if (!refused) co_return;  // the call's stream has the connection
      go_on = *refused;
    } else if (r.listen) {
      go_on = co_await stream_listen(state, stream, buffer, *r.listen, version, persistent);
    } else {
      const bool keep = persistent && !r.close;
      go_on = !co_await write_response(stream, std::move(*r.res), keep, options) && keep;
    }
    if (!go_on) break;
    if (buffer.size() == 0) {  // no next request sent yet: waited for without this coroutine
      idle_connection::wait(state, open_connection{stream.release_socket(), std::move(counted), {}});
      co_return;
    }
  }
  end_connection(stream.socket());
}

}  // namespace elicit::detail::http
