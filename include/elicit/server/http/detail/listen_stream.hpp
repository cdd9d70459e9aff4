// A 2026-07-28 subscriptions/listen on its SSE stream (<elicit/server/subscription.hpp>): the
// acknowledgement first, then, at each tick of task_options::notify_interval, the
// notifications/tasks the dispatcher says; an SSE comment when nothing was sent for a
// progress_interval (a proxy or a client idle timeout must not take a quiet stream for a dead
// one); the closing response once every task watched ended. The client leaving the stream ends
// the subscription at once, and nothing more is sent. Machinery of <elicit/server/http/server.hpp>.
#pragma once

#include <elicit/server/dispatcher.hpp>
#include <elicit/server/http/detail/call_stream.hpp>
#include <elicit/server/http/detail/shared_state.hpp>
#include <elicit/server/subscription.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
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

// Serves subscription `s` on the connection: false when the connection cannot go on.
inline boost::asio::awaitable<bool> stream_listen(shared_state& state, stream_type& stream,
                                                  boost::beast::flat_buffer& buffer, subscription& s, unsigned version,
                                                  bool persistent) {
  const framing how = version >= 11 ? framing::chunked : framing::until_close;
  if (how == framing::until_close) persistent = false;
  const http_options& options = state.options;
  if (!co_await write_stream_head(stream, version, persistent, how, options)) co_return false;
  stream.expires_never();
  boost::asio::steady_timer tick(co_await boost::asio::this_coro::executor);
  const auto watch = std::make_shared<watch_state>();
  watch->room = buffer.max_size() - buffer.size();
  boost::asio::ip::tcp::socket& socket = stream.socket();
  // The timer and the watch's handler share the connection's strand: a leave cancels the wait.
  watch_leave(socket, watch, [&tick] { tick.cancel(); });
  struct watch_end {
    watch_state& watch;
    boost::asio::ip::tcp::socket& socket;
    watch_end(watch_state& w, boost::asio::ip::tcp::socket& so) : watch(w), socket(so) {}
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
    std::string event = sse_event(text(s.acknowledged()));
    if (co_await write_event(stream, std::move(event), options.write_timeout, how)) co_return false;
    auto quiet_since = std::chrono::steady_clock::now();
    for (;;) {
      std::vector<nlohmann::ordered_json> sent = co_await changes_of(state, s);
      for (nlohmann::ordered_json& n : sent) {
        if (watch->gone) co_return false;
        event = sse_event(text(n));
        n = nullptr;
        if (co_await write_event(stream, std::move(event), options.write_timeout, how)) co_return false;
        quiet_since = std::chrono::steady_clock::now();
      }
      if (s.ended() || watch->gone) break;
      if (options.progress_interval.count() > 0 &&
          std::chrono::steady_clock::now() - quiet_since >= options.progress_interval) {
        std::string comment = ":\n\n";  // named: g++ 12 must not destroy a temporary of a co_await
        if (co_await write_event(stream, std::move(comment), options.write_timeout, how)) co_return false;
        quiet_since = std::chrono::steady_clock::now();
      }
      tick.expires_after(state.server.notify_interval());
      co_await tick.async_wait(no_throw);
      if (watch->gone) break;
    }
  }
  if (watch->gone) co_return false;  // the client left: nothing more is written
  take_pipelined(buffer, *watch);
  std::string last = sse_event(text(state.server.closing(s)));
  co_return co_await end_stream(stream, std::move(last), how, options, persistent);
}

}  // namespace elicit::detail::http
