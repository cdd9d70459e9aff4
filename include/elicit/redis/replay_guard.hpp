// A replay_guard on Redis: one store for every instance of a server behind a load balancer, so
// that a sealed state (2026-07-28's requestState) opens once across all of them. CMake target
// elicit::redis (elicit::state plus hiredis, found by pkg-config: Debian's libhiredis-dev).
//
//   elicit::redis_replay_guard seen(elicit::redis_options::from_url(std::getenv("ELICIT_REDIS_URL"),
//                                                                   "shipping:replay:"));
//   elicit::opened<Progress> p = elicit::open<Progress>(token, ring, here, {.replay = &seen});
//   if (!p) { log(p.message()); return elicit::invalid_state_error(id); }   // one error outward
//
// Each first use is one round trip: SET prefix+id 1 NX PX <the state's time left> (no PX for a
// state that never expires), so Redis forgets a state when it could no longer open anyway.
// When Redis cannot answer (down, unreachable, slow past the timeout, out of memory, a replica
// that refuses writes), first_use throws replay_store_error and open() refuses the state as
// state_error::replay_unavailable: it fails closed, and the client gets the one -32602.
//
// The calls block, each for at most its timeouts. From an Asio server, run open() on a thread
// pool kept for blocking work (elicit::async_open, <elicit/asio/open.hpp>), not on the threads
// that serve connections.
#pragma once

#include <elicit/detail/message.hpp>
#include <elicit/state/replay_guard.hpp>

#include <hiredis/hiredis.h>
#include <pthread.h>
#include <signal.h>
#include <sys/time.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elicit {

// Where the Redis of a redis_replay_guard is, how long to wait for it, and under which prefix
// the application's keys go.
struct redis_options {
  // An IP address, or a name the resolver answers at once: the name lookup (getaddrinfo) has no
  // timeout of its own.
  std::string host = "127.0.0.1";
  int port = 6379;
  // Put before every key: one per application (and per environment) sharing a Redis, so that
  // two never see each other's states. Required: 1 to 128 printable ASCII characters.
  std::string prefix;
  // Sent as AUTH on each new connection when not empty (Redis' requirepass).
  std::string password;
  std::chrono::milliseconds connect_timeout{500};  // for each new connection's TCP connect
  std::chrono::milliseconds command_timeout{500};  // for each wait on the socket, to send or to read
  std::size_t max_idle = 16;                       // connections kept open between calls

  // The options for "redis://HOST:PORT" ("redis://HOST" is port 6379; an IPv6 address in
  // brackets), with `prefix` and the rest as defaulted. Throws std::invalid_argument for any
  // other text (no user or password in the URL: set `password`; no database number).
  [[nodiscard]] static redis_options from_url(std::string_view url, std::string prefix);
};

// A replay_guard on Redis, through hiredis. Thread safety: every member may be called from any
// number of threads at once. Each call takes a connection of its own from a small pool (and
// opens one when none is idle), so that a call waiting on a slow or lost Redis never holds up
// another: each waits on its own socket, for its own timeouts; a mutex guards only the pool's
// list. (One connection behind a mutex would queue every caller behind the one waiting, so that
// the tenth waits ten timeouts; a connection per thread would leak with threads that end.) A
// connection that fails is closed; the next call opens a new one, so the guard reconnects by
// itself once Redis is back. When a pooled connection turns out closed by Redis (a restart),
// the call drops the pool and tries once more on a new connection.
//
// A call takes at most connect_timeout (when it opens a connection), plus command_timeout for
// AUTH when a password is set, plus command_timeout for the SET; Redis' answer, when it comes,
// is one read. SIGPIPE is blocked in the calling thread while it writes, so that a write on a
// connection Redis closed does not end the process.
class redis_replay_guard final : public replay_guard {
 public:
  // Connects to nothing yet: a server starts while Redis is down, and refuses states until it is
  // back (call ping() to check at start). Throws std::invalid_argument for an empty or
  // non-printable prefix (or over 128 bytes), an empty host, a port outside 1-65535, or a
  // timeout outside 1 ms to 1 hour.
  explicit redis_replay_guard(redis_options options);
  ~redis_replay_guard() override = default;
  redis_replay_guard(const redis_replay_guard&) = delete;
  redis_replay_guard& operator=(const redis_replay_guard&) = delete;

  // True the first time `token_id` is seen by any guard on this Redis and prefix, false after;
  // Redis keeps it until `forget_after` (for good when it is time_point::max()). Throws
  // replay_store_error when Redis cannot answer (the text says why: cannot connect, timed out,
  // connection lost, Redis' own error), std::bad_alloc; nothing else.
  bool first_use(std::string_view token_id, std::chrono::system_clock::time_point forget_after,
                 std::chrono::system_clock::time_point now) override;

  // One PING: returns when Redis answers. Throws replay_store_error when it does not (as
  // first_use), std::bad_alloc.
  void ping();

  [[nodiscard]] const redis_options& options() const noexcept { return options_; }

 private:
  struct free_context {
    void operator()(redisContext* c) const noexcept { redisFree(c); }
  };
  struct free_reply {
    void operator()(redisReply* r) const noexcept { freeReplyObject(r); }
  };
  using connection = std::unique_ptr<redisContext, free_context>;
  using reply = std::unique_ptr<redisReply, free_reply>;

  // What came of one command: a reply, or the connection failed (closed by Redis, or else).
  struct outcome {
    reply answer;
    bool closed = false;  // Redis had closed the connection: a new one may well work
    std::string why;      // when there is no answer
  };

  template <class Check>
  auto run(std::span<const std::string_view> args, Check&& check);
  outcome command(redisContext& c, std::span<const std::string_view> args) const;
  [[nodiscard]] connection connect() const;
  [[nodiscard]] std::string where() const;

  redis_options options_;
  std::mutex pool_mutex_;
  std::vector<connection> idle_;
};

namespace detail {

// Blocks SIGPIPE in this thread for its life, and takes back a SIGPIPE that a write raised
// meanwhile, so that writing to a socket the peer closed fails with EPIPE instead of ending the
// process (hiredis writes with write(2), without MSG_NOSIGNAL).
class sigpipe_blocked {
 public:
  sigpipe_blocked() noexcept {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    sigset_t pending;
    sigemptyset(&pending);
    was_pending_ = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
    blocked_ = pthread_sigmask(SIG_BLOCK, &pipe_, &old_) == 0;
  }
  ~sigpipe_blocked() {
    if (!blocked_) return;
    sigset_t pending;
    sigemptyset(&pending);
    if (!was_pending_ && sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1) {
      const timespec none{};
      while (sigtimedwait(&pipe_, nullptr, &none) < 0 && errno == EINTR) {
      }
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  sigpipe_blocked(const sigpipe_blocked&) = delete;
  sigpipe_blocked& operator=(const sigpipe_blocked&) = delete;

 private:
  sigset_t pipe_{}, old_{};
  bool was_pending_ = false, blocked_ = false;
};

inline timeval timeval_of(std::chrono::milliseconds t) noexcept {
  timeval tv{};
  tv.tv_sec = static_cast<decltype(tv.tv_sec)>(t.count() / 1000);
  tv.tv_usec = static_cast<decltype(tv.tv_usec)>(t.count() % 1000 * 1000);
  return tv;
}

// Milliseconds from `now` until `until`, rounded up and at least 1 (Redis refuses PX 0). The
// difference of two clock values may overflow the clock's own count (now = min, say): it
// saturates instead.
inline std::int64_t millis_left(std::chrono::system_clock::time_point until,
                                std::chrono::system_clock::time_point now) noexcept {
  using rep = std::chrono::system_clock::rep;
  rep difference = 0;
  if (__builtin_sub_overflow(until.time_since_epoch().count(), now.time_since_epoch().count(), &difference))
    difference = until > now ? std::numeric_limits<rep>::max() : 0;
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(std::chrono::system_clock::duration(difference));
  return std::max<std::int64_t>(left.count(), 1);
}

// Redis' text, cut and with control characters shown as '?', for a log line.
inline std::string printable(std::string_view text, std::size_t most = 200) {
  std::string out(text.substr(0, most));
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  if (text.size() > most) out += "...";
  return out;
}

inline bool printable_ascii(std::string_view text) noexcept {
  return std::all_of(text.begin(), text.end(), [](char c) { return c > 0x20 && c < 0x7f; });
}

}  // namespace detail

inline redis_options redis_options::from_url(std::string_view url, std::string prefix) {
  constexpr std::string_view scheme = "redis://";
  const auto refuse = [&](std::string_view why) {
    return std::invalid_argument(detail::message("elicit::redis_options: ", why, " (expected redis://HOST:PORT)"));
  };
  if (url.substr(0, scheme.size()) != scheme) throw refuse("the URL does not start with redis://");
  std::string_view rest = url.substr(scheme.size());
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  // Not quoted back: a URL with a password in it must not reach the log.
  if (rest.find('@') != std::string_view::npos) throw refuse("a user or password in the URL: set password instead");
  if (rest.find('/') != std::string_view::npos) throw refuse("a path or database number in the URL");
  redis_options out;
  out.prefix = std::move(prefix);
  std::string_view port;
  if (!rest.empty() && rest.front() == '[') {
    const std::size_t close = rest.find(']');
    if (close == std::string_view::npos) throw refuse("an IPv6 address without its closing ]");
    out.host = std::string(rest.substr(1, close - 1));
    rest.remove_prefix(close + 1);
    if (!rest.empty() && rest.front() != ':') throw refuse("text after the IPv6 address");
    if (!rest.empty()) port = rest.substr(1);
  } else {
    const std::size_t colon = rest.find(':');
    out.host = std::string(rest.substr(0, colon));
    if (colon != std::string_view::npos) port = rest.substr(colon + 1);
  }
  if (out.host.empty() || !detail::printable_ascii(out.host)) throw refuse("no host, or a host that is not printable");
  if (!port.empty() || rest.find(':') != std::string_view::npos) {
    int value = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || end != port.data() + port.size() || value < 1 || value > 65535)
      throw refuse("a port that is not a number from 1 to 65535");
    out.port = value;
  }
  return out;
}

inline redis_replay_guard::redis_replay_guard(redis_options options) : options_(std::move(options)) {
  const auto refuse = [](std::string_view why) {
    return std::invalid_argument(detail::message("elicit::redis_replay_guard: ", why));
  };
  if (options_.prefix.empty() || options_.prefix.size() > 128 || !detail::printable_ascii(options_.prefix))
    throw refuse(
        "the key prefix must be 1 to 128 printable ASCII characters, one per application (\"shipping:replay:\")");
  if (options_.host.empty()) throw refuse("no host");
  if (options_.port < 1 || options_.port > 65535) throw refuse("the port must be from 1 to 65535");
  for (const auto t : {options_.connect_timeout, options_.command_timeout})
    if (t < std::chrono::milliseconds(1) || t > std::chrono::hours(1))
      throw refuse("a timeout must be from 1 ms to 1 hour");
}

inline std::string redis_replay_guard::where() const {
  return detail::message("elicit::redis_replay_guard: Redis at ", options_.host, ":", options_.port);
}

inline redis_replay_guard::connection redis_replay_guard::connect() const {
  const detail::sigpipe_blocked quiet;
  connection c(
      redisConnectWithTimeout(options_.host.c_str(), options_.port, detail::timeval_of(options_.connect_timeout)));
  if (!c) throw std::bad_alloc();
  if (c->err != 0)
    throw replay_store_error(detail::message(where(), ": cannot connect: ", detail::printable(c->errstr)));
  if (redisSetTimeout(c.get(), detail::timeval_of(options_.command_timeout)) != REDIS_OK)
    throw replay_store_error(detail::message(where(), ": cannot set the command timeout"));
  if (!options_.password.empty()) {
    const std::array<std::string_view, 2> auth{"AUTH", options_.password};
    outcome said = command(*c, auth);
    if (!said.answer) throw replay_store_error(detail::message(where(), ": AUTH: ", said.why));
    if (said.answer->type == REDIS_REPLY_ERROR)  // Redis' text, not the password
      throw replay_store_error(detail::message(where(), ": AUTH refused: ", detail::printable(said.answer->str)));
  }
  return c;
}

inline redis_replay_guard::outcome redis_replay_guard::command(redisContext& c,
                                                               std::span<const std::string_view> args) const {
  std::array<const char*, 8> argv{};
  std::array<std::size_t, 8> lengths{};
  for (std::size_t i = 0; i < args.size() && i < argv.size(); ++i) {
    argv[i] = args[i].data();
    lengths[i] = args[i].size();
  }
  outcome out;
  int error_number = 0;
  {
    const detail::sigpipe_blocked quiet;
    errno = 0;
    out.answer.reset(static_cast<redisReply*>(
        redisCommandArgv(&c, static_cast<int>(std::min(args.size(), argv.size())), argv.data(), lengths.data())));
    error_number = errno;
  }
  if (out.answer) return out;
  if (c.err == 0) throw std::bad_alloc();  // hiredis returns no reply and no error only when out of memory
  const bool timed_out = c.err == REDIS_ERR_IO && (error_number == EAGAIN || error_number == EWOULDBLOCK);
  out.closed =
      c.err == REDIS_ERR_EOF || (c.err == REDIS_ERR_IO && (error_number == ECONNRESET || error_number == EPIPE));
  out.why = timed_out
                ? detail::message("no answer within the command timeout (", options_.command_timeout.count(), " ms)")
                : detail::message("connection lost: ", detail::printable(c.errstr));
  return out;
}

// Runs one command on a pooled connection (or a new one), and `check` on Redis' answer. A
// connection that fails is closed; one that Redis had closed (a restart) is tried again, once,
// on a new connection, after the pool is emptied: its other connections are as stale.
template <class Check>
auto redis_replay_guard::run(std::span<const std::string_view> args, Check&& check) {
  connection c;
  {
    const std::lock_guard lock(pool_mutex_);
    if (!idle_.empty()) {
      c = std::move(idle_.back());
      idle_.pop_back();
    }
  }
  const bool pooled = c != nullptr;
  if (!c) c = connect();
  outcome said = command(*c, args);
  if (!said.answer && pooled && said.closed) {
    {
      const std::lock_guard lock(pool_mutex_);
      idle_.clear();
    }
    c = connect();
    said = command(*c, args);
  }
  if (!said.answer) throw replay_store_error(detail::message(where(), ": ", said.why));
  {
    const std::lock_guard lock(pool_mutex_);
    if (idle_.size() < options_.max_idle) idle_.push_back(std::move(c));
  }
  const redisReply& answer = *said.answer;
  if (answer.type == REDIS_REPLY_ERROR)  // READONLY, OOM, NOAUTH, LOADING...: no first use can be told
    throw replay_store_error(detail::message(where(), " answered an error: ", detail::printable(answer.str)));
  return check(answer);
}

inline bool redis_replay_guard::first_use(std::string_view token_id, std::chrono::system_clock::time_point forget_after,
                                          std::chrono::system_clock::time_point now) {
  const std::string key = options_.prefix + std::string(token_id);
  std::array<char, 24> ms{};
  std::size_t n_args = 4;
  if (forget_after != std::chrono::system_clock::time_point::max()) {
    const auto left = detail::millis_left(forget_after, now);
    std::to_chars(ms.data(), ms.data() + ms.size(), left);
    n_args = 6;
  }
  const std::array<std::string_view, 6> args{"SET", key, "1", "NX", "PX", std::string_view(ms.data())};
  return run(std::span(args.data(), n_args), [this](const redisReply& answer) {
    if (answer.type == REDIS_REPLY_NIL) return false;  // the key was there: used before
    if (answer.type == REDIS_REPLY_STATUS && std::string_view(answer.str, answer.len) == "OK") return true;
    throw replay_store_error(detail::message(where(), " gave SET an answer of type ", answer.type, ", not OK or nil"));
  });
}

inline void redis_replay_guard::ping() {
  const std::array<std::string_view, 1> args{"PING"};
  run(args, [](const redisReply&) { return true; });
}

}  // namespace elicit
