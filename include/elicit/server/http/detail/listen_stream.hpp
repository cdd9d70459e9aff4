// A 2026-07-28 subscriptions/listen on its SSE stream (<elicit/server/subscription.hpp>): the
// acknowledgement first, then, at each tick of task_options::notify_interval, the
// notifications/tasks the dispatcher says; an SSE comment when nothing was sent for a
// progress_interval (a proxy or a client idle timeout must not take a quiet stream for a dead
// one); the closing response once every task watched ended. The client leaving the stream ends
// the subscription at once, and nothing more is sent. Machinery of <elicit/server/http/server.hpp>.
#pragma once

#include <elicit/server/dispatcher.hpp>
#include <elicit/server/http/detail/request_reader.hpp>
#include <elicit/server/http/detail/shared_state.hpp>
#include <elicit/server/http/detail/sse_stream.hpp>
#include <elicit/server/subscription.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace elicit::detail::http {

// What a tick sends: the dispatcher reads the task store, on the blocking executor when there is
// one (a store on Redis waits for the network), else here.
inline boost::asio::awaitable<std::vector<nlohmann::ordered_json>> changes_of(shared_state& state, subscription& s) {
  if (!state.options.blocking) co_return state.server.changes(s);
  auto read = [&state, &s]() -> boost::asio::awaitable<std::vector<nlohmann::ordered_json>> {
    co_return state.server.changes(s);
  };
  co_return co_await boost::asio::co_spawn(*state.options.blocking, read, boost::asio::use_awaitable);
}

// Writes `bytes` whole within the write timeout; false when the write failed or timed out. The
// bytes are taken by value and freed once written.
inline boost::asio::awaitable<bool> write_bytes(stream_type& stream, std::string bytes, std::chrono::seconds timeout) {
  stream.expires_after(timeout);
  auto [ec, n] = co_await boost::asio::async_write(stream, boost::asio::buffer(bytes), no_throw);
  stream.expires_never();
  co_return !ec;
}

// What the watch of a listen stream and the stream share: the watch's handler may be queued
// already when the stream ends, so it must not touch the socket or the timer after `ended`.
struct listen_watch {
  bool gone = false, ended = false;
  std::string pipelined;  // the client's next request's first bytes (read_while_streaming)
};

// Watches the socket while the stream is open: the client leaving cancels the tick's wait.
inline void watch_listen(boost::asio::ip::tcp::socket& socket, const std::shared_ptr<listen_watch>& watch,
                         boost::asio::steady_timer& tick) {
  socket.async_wait(boost::asio::ip::tcp::socket::wait_read, [&socket, watch, &tick](boost::system::error_code ec) {
    if (ec || watch->ended) return;  // the stream ended first
    try {
      if (read_while_streaming(socket, watch->pipelined) != after_read::left) return watch_listen(socket, watch, tick);
    } catch (const std::exception&) {  // no memory: taken as a leave, not thrown out of io_context::run
    }
    watch->gone = true;
    tick.cancel();
  });
}

// Serves subscription `s` on the connection: false when the connection cannot go on.
inline boost::asio::awaitable<bool> stream_listen(shared_state& state, stream_type& stream,
                                                  boost::beast::flat_buffer& buffer, subscription& s, unsigned version,
                                                  bool persistent) {
  const framing how = version >= 11 ? framing::chunked : framing::until_close;
  if (how == framing::until_close) persistent = false;
  const http_options& options = state.options;
  boost::asio::steady_timer tick(co_await boost::asio::this_coro::executor);
  const auto watch = std::make_shared<listen_watch>();
  watch->pipelined = pipelined_start(buffer, persistent);
  boost::asio::ip::tcp::socket& socket = stream.socket();
  // The timer and the watch's handler share the connection's loop (one thread): a leave cancels the wait.
  watch_listen(socket, watch, tick);
  struct watch_end {
    listen_watch& watch;
    boost::asio::ip::tcp::socket& socket;
    watch_end(listen_watch& w, boost::asio::ip::tcp::socket& so) : watch(w), socket(so) {}
    watch_end(const watch_end&) = delete;
    watch_end& operator=(const watch_end&) = delete;
    ~watch_end() {
      watch.ended = true;
      boost::beast::error_code ignored;
      socket.cancel(ignored);
    }
  };
  {
    const watch_end ending(*watch, socket);
    std::string bytes = stream_head(version, persistent, how, options);
    append_event(bytes, text(s.acknowledged()), how);
    if (!co_await write_bytes(stream, std::move(bytes), options.write_timeout)) co_return false;
    auto quiet_since = std::chrono::steady_clock::now();
    for (;;) {
      std::vector<nlohmann::ordered_json> sent = co_await changes_of(state, s);
      for (nlohmann::ordered_json& n : sent) {
        if (watch->gone) co_return false;
        bytes.clear();
        append_event(bytes, text(n), how);
        n = nullptr;
        if (!co_await write_bytes(stream, std::move(bytes), options.write_timeout)) co_return false;
        quiet_since = std::chrono::steady_clock::now();
      }
      if (s.ended() || watch->gone) break;
      if (options.progress_interval.count() > 0 &&
          std::chrono::steady_clock::now() - quiet_since >= options.progress_interval) {
        bytes.clear();
        append_comment(bytes, how);
        if (!co_await write_bytes(stream, std::move(bytes), options.write_timeout)) co_return false;
        quiet_since = std::chrono::steady_clock::now();
      }
      tick.expires_after(state.server.notify_interval());
      co_await tick.async_wait(no_throw);
      if (watch->gone) break;
    }
  }
  if (watch->gone) co_return false;  // the client left: nothing more is written
  put_buffered(buffer, watch->pipelined);
  std::string last;
  append_event(last, text(state.server.closing(s)), how);
  append_end(last, how);
  co_return co_await write_bytes(stream, std::move(last), options.write_timeout) && persistent;
}

}  // namespace elicit::detail::http
