// Replay protection for sealed request state: a replay_guard remembers the states it has seen
// opened, so that each opens once (open_options::replay, <elicit/state/state.hpp>). memory_replay_guard
// serves one process; redis_replay_guard (<elicit/redis/replay_guard.hpp>) many instances behind a load
// balancer. Needs no library of its own.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

namespace elicit {

// What a replay_guard throws when its store cannot answer (down, unreachable, timed out, out of
// memory): it cannot tell a first use from a replay, so open() refuses the state as
// replay_unavailable (fails closed) instead of opening it.
class replay_store_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where an application keeps the states it has opened, so that each opens once. open() asks
// first_use() last, after every other check passed, with an id unique to the token.
class replay_guard {
 public:
  virtual ~replay_guard() = default;
  // True the first time `token_id` is seen; false after. The id need not be kept past `forget_after`,
  // the first instant at which the state no longer opens (time_point::max() for a state that opens
  // to the end of the clock: keep it for good). Throws replay_store_error when the store cannot
  // answer; open() refuses the state then (replay_unavailable), as it does for any other
  // exception but std::bad_alloc, which it passes on.
  virtual bool first_use(std::string_view token_id, std::chrono::system_clock::time_point forget_after,
                         std::chrono::system_clock::time_point now) = 0;
};

// A replay_guard in memory, for one process, thread-safe, holding at most `capacity` ids. Ids
// are forgotten once their state has expired; when it is full of live ids, it refuses new
// states (fails closed) rather than forget one that could then be replayed. Instances behind a
// load balancer need a shared store instead: redis_replay_guard (<elicit/redis/replay_guard.hpp>), or the
// application's own.
class memory_replay_guard final : public replay_guard {
 public:
  explicit memory_replay_guard(std::size_t capacity = 100'000) : capacity_(capacity) {}

  bool first_use(std::string_view token_id, std::chrono::system_clock::time_point forget_after,
                 std::chrono::system_clock::time_point now) override {
    const std::lock_guard lock(mutex_);
    while (!by_expiry_.empty() && by_expiry_.begin()->first < now) {
      seen_.erase(by_expiry_.begin()->second);
      by_expiry_.erase(by_expiry_.begin());
    }
    if (seen_.contains(std::string(token_id)) || seen_.size() >= capacity_) return false;
    const auto inserted = seen_.emplace(token_id).first;
    by_expiry_.emplace(forget_after, *inserted);
    return true;
  }
  [[nodiscard]] std::size_t size() const {
    const std::lock_guard lock(mutex_);
    return seen_.size();
  }

 private:
  std::size_t capacity_;
  mutable std::mutex mutex_;
  std::set<std::string> seen_;
  std::multimap<std::chrono::system_clock::time_point, std::string> by_expiry_;
};

}  // namespace elicit
