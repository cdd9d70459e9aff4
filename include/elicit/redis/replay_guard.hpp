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
#include <elicit/redis/detail/redis_pool.hpp>
#include <elicit/redis/options.hpp>
#include <elicit/state/replay_guard.hpp>

#include <hiredis/hiredis.h>

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

  [[nodiscard]] const redis_options& options() const noexcept { return pool_.options(); }

 private:
  detail::redis_pool pool_;
};

namespace detail {

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

}  // namespace detail

inline redis_replay_guard::redis_replay_guard(redis_options options)
    : pool_(std::move(options), "elicit::redis_replay_guard") {}

inline bool redis_replay_guard::first_use(std::string_view token_id, std::chrono::system_clock::time_point forget_after,
                                          std::chrono::system_clock::time_point now) {
  const std::string key = pool_.options().prefix + std::string(token_id);
  std::array<char, 24> ms{};
  std::size_t n_args = 4;
  if (forget_after != std::chrono::system_clock::time_point::max()) {
    const auto left = detail::millis_left(forget_after, now);
    std::to_chars(ms.data(), ms.data() + ms.size(), left);
    n_args = 6;
  }
  const std::array<std::string_view, 6> args{"SET", key, "1", "NX", "PX", std::string_view(ms.data())};
  return pool_.run<replay_store_error>(std::span(args.data(), n_args), [this](const redisReply& answer) {
    if (answer.type == REDIS_REPLY_NIL) return false;  // the key was there: used before
    if (answer.type == REDIS_REPLY_STATUS && std::string_view(answer.str, answer.len) == "OK") return true;
    throw replay_store_error(
        detail::message(pool_.where(), " gave SET an answer of type ", answer.type, ", not OK or nil"));
  });
}

inline void redis_replay_guard::ping() {
  const std::array<std::string_view, 1> args{"PING"};
  pool_.run<replay_store_error>(args, [](const redisReply&) { return true; });
}

}  // namespace elicit
