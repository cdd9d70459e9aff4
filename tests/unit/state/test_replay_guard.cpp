// Replay protection (<elicit/state/replay_guard.hpp>): memory_replay_guard sees each id once,
// forgets an id once its state has expired, and when full of live ids refuses new ones (fails
// closed) rather than forget one that could then be replayed. (A guard through open(): the replay
// cases of test_state.cpp; on Redis: ../redis/test_replay_guard.cpp.)
#include <elicit/state/replay_guard.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_state_replay_guard {

namespace {
using clock_type = std::chrono::system_clock;
const clock_type::time_point t0 = clock_type::time_point{} + std::chrono::hours(24 * 365 * 50);
}  // namespace

static_assert(std::is_base_of_v<std::runtime_error, elicit::replay_store_error>);
static_assert(std::is_base_of_v<elicit::replay_guard, elicit::memory_replay_guard>);

TEST_CASE("memory_replay_guard: an id is a first use once, then a replay", "[state][replay]") {
  elicit::memory_replay_guard guard;
  const auto later = t0 + std::chrono::minutes(5);
  CHECK(guard.first_use("a", later, t0));
  CHECK_FALSE(guard.first_use("a", later, t0));
  CHECK_FALSE(guard.first_use("a", later, t0 + std::chrono::minutes(1)));
  CHECK(guard.first_use("b", later, t0));
  CHECK(guard.size() == 2);
}

TEST_CASE("memory_replay_guard: an id is kept to its state's expiry, then forgotten", "[state][replay]") {
  elicit::memory_replay_guard guard;
  const auto expiry = t0 + std::chrono::minutes(5);
  REQUIRE(guard.first_use("a", expiry, t0));
  CHECK_FALSE(guard.first_use("a", expiry, expiry));  // at its last instant still a replay
  CHECK(guard.size() == 1);
  CHECK(guard.first_use("b", expiry + std::chrono::hours(1), expiry + std::chrono::seconds(1)));
  CHECK(guard.size() == 1);  // "a" expired and is gone
  CHECK(guard.first_use("a", expiry + std::chrono::hours(1), expiry + std::chrono::seconds(1)));
}

TEST_CASE("memory_replay_guard: full of live ids, it refuses new states rather than forget one", "[state][replay]") {
  elicit::memory_replay_guard guard(2);
  const auto expiry = t0 + std::chrono::minutes(5);
  CHECK(guard.first_use("a", expiry, t0));
  CHECK(guard.first_use("b", expiry, t0));
  CHECK_FALSE(guard.first_use("c", expiry, t0));  // fails closed
  CHECK_FALSE(guard.first_use("a", expiry, t0));  // "a" is still known
  CHECK(guard.size() == 2);
  CHECK(guard.first_use("c", expiry, expiry + std::chrono::seconds(1)));  // room again once they expire
}

TEST_CASE("memory_replay_guard: threads racing on one id, exactly one first use", "[state][replay]") {
  elicit::memory_replay_guard guard;
  std::vector<int> firsts(8, 0);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < firsts.size(); ++i)
    threads.emplace_back([&guard, &firsts, i] {
      for (int n = 0; n < 100; ++n)
        firsts[i] += guard.first_use("id-" + std::to_string(n), t0 + std::chrono::hours(1), t0) ? 1 : 0;
    });
  for (auto& t : threads) t.join();
  int total = 0;
  for (const int f : firsts) total += f;
  CHECK(total == 100);
  CHECK(guard.size() == 100);
}

}  // namespace unit_state_replay_guard
