// The MCP Streamable HTTP transport on Boost.Beast: both protocol versions on one endpoint,
// http://127.0.0.1:PORT/mcp, served by a dispatcher (<elicit/server/dispatcher.hpp>) from a fixed
// pool of threads; a waiting 2025-11-25 question holds its tool's frame and its socket, not a
// thread, and an idle connection no coroutine. CMake target
// elicit::server_http (elicit::server and elicit::asio).
//
//   int main() {
//     elicit::key_ring ring;
//     ring.add("k1", elicit::state_key::generate());
//     elicit::dispatcher server({"my-server", "1.0.0"}, ring);
//     server.tools().add({"book", "Book a table."}, [](const elicit::tool_call& c) { return book(c); });
//     elicit::http_server http(server, {.port = 8080});
//     boost::asio::signal_set signals(http.context(), SIGINT, SIGTERM);
//     signals.async_wait([&](auto, int) { http.stop(); });
//     http.run();  // until stop()
//   }
//
// What it does (docs/serving-http.md): at 2025-11-25 initialize opens a session (Mcp-Session-Id),
// a tools/call of a tool that asks is answered on an SSE stream on which each question goes as an
// elicitation/create and its answer comes back as another POST of the session; notifications/
// cancelled, DELETE of the session and the client leaving the stream cancel the call. At
// 2026-07-28 every request stands alone, its headers checked against its body. Every request is
// read within its deadline and its limits; what no client of a loopback server sends (a foreign
// Host or Origin, a framing in doubt, a body that is not JSON) is refused before its body is
// read; sessions, connections and waiting questions are bounded in all and per client
// (http_options).
#pragma once

#include <elicit/server/dispatcher.hpp>
#include <elicit/server/http/detail/connection.hpp>
#include <elicit/server/http/detail/shared_state.hpp>
#include <elicit/server/http/options.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <sys/resource.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace elicit {

namespace detail::http {

// The connections this process can hold: its open-file limit, raised to the hard limit, less a
// reserve for the other files it opens (the listener, key files, Redis, the standard streams)
// and its `loops` event loops' own (an epoll, an eventfd and a timerfd each).
inline std::size_t connections_the_process_can_hold(std::size_t wanted, std::size_t loops) {
  const rlim_t reserve = 64 + 3 * static_cast<rlim_t>(loops);
  rlimit files{};
  if (::getrlimit(RLIMIT_NOFILE, &files) != 0) return wanted;
  if (files.rlim_cur < files.rlim_max) {
    rlimit raised = files;
    raised.rlim_cur = files.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) files = raised;
  }
  if (files.rlim_cur == RLIM_INFINITY) return wanted;
  const rlim_t room = files.rlim_cur > reserve * 2 ? files.rlim_cur - reserve : files.rlim_cur / 2;
  return std::min<std::size_t>(wanted, static_cast<std::size_t>(room));
}

// Whether a new connection from `peer` is within the bounds; counts it when it is (its
// counted_connection counts it down).
inline bool admitted(shared_state& state, const std::string& peer) {
  const http_options& options = state.options;
  if (state.connections.load() >= options.max_connections) {
    state.refusals.log(options.log, "refused a connection: " + std::to_string(options.max_connections) + " are open");
    return false;
  }
  const std::lock_guard lock(state.peers_mutex);
  std::size_t& open = state.connections_of[peer];
  if (open >= options.max_connections_per_client && !state.trusted_proxy(peer)) {
    state.refusals.log(options.log, "refused a connection from " + peer + ": it has " + std::to_string(open) +
                                        " open, as many as one address may");
    if (open == 0) state.connections_of.erase(peer);
    return false;
  }
  ++open;
  return true;
}

// An io_context run by one thread: a connection lives on one loop and its handlers never run at
// once, with no strand. (One io_context run by every thread, each connection on a strand: two
// threads served a 2025-11-25 round trip in 0.23 ms of CPU where one thread took 0.16 ms: the
// strands' locks and the threads waking each other.) Its run() goes on until stop(), with or
// without connections (its work guard). shut_down() destroys what waits on it, so that every
// loop's handlers are gone before any loop's services are.
class event_loop : public boost::asio::io_context {
 public:
  event_loop() : boost::asio::io_context(1) {}
  void shut_down() { shutdown(); }

 private:
  boost::asio::executor_work_guard<executor_type> busy_{get_executor()};
};

// Accepts connections until the acceptor closes, each on the next of `loops` in turn.
inline boost::asio::awaitable<void> accept_all(shared_state& state, boost::asio::ip::tcp::acceptor& acceptor,
                                               const std::vector<std::unique_ptr<event_loop>>& loops) {
  const auto executor = co_await boost::asio::this_coro::executor;
  for (std::size_t next = 0;; next = (next + 1) % loops.size()) {
    auto [ec, socket] = co_await acceptor.async_accept(loops[next]->get_executor(), no_throw);
    if (ec == boost::asio::error::operation_aborted || !acceptor.is_open()) co_return;  // stop()
    if (ec) {
      // Out of file descriptors, say: wait a moment rather than spin, then go on.
      state.refusals.log(state.options.log, "accept: " + ec.message());
      boost::asio::steady_timer pause(executor, std::chrono::milliseconds(100));
      co_await pause.async_wait(no_throw);
      continue;
    }
    std::string peer = socket.remote_endpoint(ec).address().to_string();
    boost::beast::error_code ignored;
    if (ec || !admitted(state, peer)) {
      socket.close(ignored);  // refused at once, nothing read
      continue;
    }
    // No delayed-ACK wait for small writes: ~40 ms a request.
    socket.set_option(boost::asio::ip::tcp::no_delay(true), ignored);
    spawn_connection(state, open_connection{std::move(socket), counted_connection(state, std::move(peer)), {}});
  }
}

}  // namespace detail::http

class http_server {
 public:
  // Listens on 127.0.0.1:options.port (a free port when 0). `server` must outlive this object.
  // Lowers options.max_connections to what the open-file limit allows, saying so in the log.
  // Throws std::runtime_error when it cannot listen there.
  http_server(const dispatcher& server, http_options options = {})
      : state_(std::make_unique<detail::http::shared_state>(server, fitted(std::move(options)))),
        loops_(new_loops(loops_for(state_->options))),
        acceptor_(*loops_.front()) {
    const boost::asio::ip::tcp::endpoint where(boost::asio::ip::make_address("127.0.0.1"), state_->options.port);
    boost::system::error_code ec;
    acceptor_.open(where.protocol(), ec);
    if (!ec) acceptor_.set_option(boost::asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(where, ec);
    if (!ec) acceptor_.listen(boost::asio::socket_base::max_listen_connections, ec);
    if (ec)
      throw std::runtime_error("elicit::http_server: cannot listen on 127.0.0.1:" +
                               std::to_string(state_->options.port) + ": " + ec.message());
    if (wanted_connections_ == 0 || state_->options.max_connections < wanted_connections_)
      state_->options.log(
          detail::message("at most ", state_->options.max_connections, " connections (the open-file limit)",
                          wanted_connections_ != 0 ? detail::message(", not ", wanted_connections_) : std::string()));
  }
  http_server(const http_server&) = delete;
  http_server& operator=(const http_server&) = delete;
  // Ends every connection and waiting question that run() left (a stopped server keeps them).
  ~http_server() {
    for (const auto& loop : loops_) loop->shut_down();
  }

  // The port it listens on.
  [[nodiscard]] unsigned short port() const { return acceptor_.local_endpoint().port(); }
  // How many threads run() serves on: http_options::threads, or the core count.
  [[nodiscard]] std::size_t threads() const { return loops_.size(); }

  // Serves until stop(), on threads() threads (this one among them), each running an io_context
  // of its own, the connections dealt to them in turn. Throws what a thread's handler throws
  // (nothing of a request: its failures are answered).
  void run() {
    boost::asio::co_spawn(*loops_.front(), detail::http::accept_all(*state_, acceptor_, loops_), boost::asio::detached);
    std::vector<std::thread> pool;
    for (std::size_t i = 1; i < loops_.size(); ++i) pool.emplace_back([loop = loops_[i].get()] { loop->run(); });
    loops_.front()->run();
    for (std::thread& t : pool) t.join();
  }

  // The io_context of run()'s own thread, which accepts connections: for a signal set that
  // calls stop(), or timers of your own.
  [[nodiscard]] boost::asio::io_context& context() noexcept { return *loops_.front(); }

  // Stops accepting and ends run(): connections and waiting questions end with it. Thread-safe:
  // from a signal handler's completion or another thread.
  void stop() {
    boost::asio::post(*loops_.front(), [this] {
      boost::system::error_code ignored;
      acceptor_.close(ignored);
      for (const auto& loop : loops_) loop->stop();
    });
  }

 private:
  http_options fitted(http_options options) {
    wanted_connections_ = options.max_connections;
    const std::size_t any = std::size_t{1} << 20;  // 0: what the open-file limit allows
    options.max_connections = detail::http::connections_the_process_can_hold(
        options.max_connections != 0 ? options.max_connections : any, loops_for(options));
    if (options.max_connections_per_client == 0)
      options.max_connections_per_client = std::max<std::size_t>(1, options.max_connections / 8);
    options.max_connections_per_client = std::min(options.max_connections_per_client, options.max_connections);
    return options;
  }

  // The loops (threads) run() serves on: http_options::threads, or the core count.
  static std::size_t loops_for(const http_options& options) {
    return options.threads != 0 ? options.threads : std::max<std::size_t>(1, std::thread::hardware_concurrency());
  }
  // One loop a thread of run().
  static std::vector<std::unique_ptr<detail::http::event_loop>> new_loops(std::size_t n) {
    std::vector<std::unique_ptr<detail::http::event_loop>> loops;
    loops.reserve(n);
    for (std::size_t i = 0; i < n; ++i) loops.push_back(std::make_unique<detail::http::event_loop>());
    return loops;
  }

  std::size_t wanted_connections_ = 0;
  std::unique_ptr<detail::http::shared_state> state_;
  std::vector<std::unique_ptr<detail::http::event_loop>> loops_;
  boost::asio::ip::tcp::acceptor acceptor_;
};

}  // namespace elicit
