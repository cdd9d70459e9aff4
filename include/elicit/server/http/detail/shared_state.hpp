// What every connection of the HTTP transport shares: the dispatcher, the options, the
// 2025-11-25 sessions, and the counts of open connections, in all and by client. Machinery of
// <elicit/server/http/server.hpp>.
#pragma once

#include <elicit/server/dispatcher.hpp>
#include <elicit/server/http/detail/session_table.hpp>
#include <elicit/server/http/options.hpp>

#include <boost/asio/ip/tcp.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

namespace elicit::detail::http {

// One line to the log for a burst of the same refusal: at most one a second, saying how many
// were not logged. (Out of descriptors, accept fails on every try: 532 lines in 45 s.)
class log_limiter {
 public:
  void log(const std::function<void(std::string_view)>& to, const std::string& text) {
    const auto now = std::chrono::steady_clock::now();
    std::size_t quiet = 0;
    {
      const std::lock_guard lock(mutex_);
      if (now - last_ < std::chrono::seconds(1)) {
        ++quiet_;
        return;
      }
      last_ = now;
      quiet = std::exchange(quiet_, 0);
    }
    to(quiet != 0 ? text + " (and " + std::to_string(quiet) + " more not logged)" : text);
  }

 private:
  std::mutex mutex_;
  std::chrono::steady_clock::time_point last_{};
  std::size_t quiet_ = 0;
};

struct shared_state {
  shared_state(const dispatcher& d, http_options o) : server(d), options(std::move(o)), sessions(options) {
    if (!options.log) {
      options.log = [name = server.identity().name](std::string_view line) {
        // One write: lines of threads logging at once never interleave.
        const std::string text = name + ": " + std::string(line) + "\n";
        std::fwrite(text.data(), 1, text.size(), stderr);
      };
    }
  }
  shared_state(const shared_state&) = delete;
  shared_state& operator=(const shared_state&) = delete;

  [[nodiscard]] bool trusted_proxy(std::string_view peer) const {
    return std::find(options.trusted_proxies.begin(), options.trusted_proxies.end(), peer) !=
           options.trusted_proxies.end();
  }

  const dispatcher& server;
  http_options options;  // before sessions, which refers to it
  session_table sessions;
  std::atomic<std::size_t> connections{0};
  std::mutex peers_mutex;
  std::map<std::string, std::size_t, std::less<>> connections_of;  // open connections by peer address
  log_limiter refusals;
};

// One connection of a peer address, counted while it is open (the listener checks the count).
// It moves with its connection from one holder to the next; a moved-from one counts nothing.
class counted_connection {
 public:
  counted_connection(shared_state& state, std::string peer) : state_(&state), peer_(std::move(peer)) {
    ++state_->connections;
  }
  counted_connection(counted_connection&& other) noexcept
      : state_(std::exchange(other.state_, nullptr)), peer_(std::move(other.peer_)) {}
  counted_connection& operator=(counted_connection&&) = delete;
  counted_connection(const counted_connection&) = delete;
  counted_connection& operator=(const counted_connection&) = delete;
  ~counted_connection() {
    if (state_ == nullptr) return;
    --state_->connections;
    const std::lock_guard lock(state_->peers_mutex);
    const auto it = state_->connections_of.find(peer_);
    if (it != state_->connections_of.end() && --it->second == 0) state_->connections_of.erase(it);
  }
  [[nodiscard]] const std::string& peer() const noexcept { return peer_; }

 private:
  shared_state* state_;
  std::string peer_;
};

// A connection as it passes from one holder to the next (its request loop, a call's stream, an
// idle wait for its next request): its socket, its place in the counts, and the bytes of its
// next request read already.
struct open_connection {
  boost::asio::ip::tcp::socket socket;
  counted_connection counted;
  std::string read;
};

// Ends a connection between requests: nothing more is sent, and what was written is delivered
// before the close.
inline void end_connection(boost::asio::ip::tcp::socket& socket) {
  boost::system::error_code ignored;
  socket.shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
  socket.close(ignored);
}

}  // namespace elicit::detail::http
