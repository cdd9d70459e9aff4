// The replay guard on Redis (<elicit/redis/replay_guard.hpp>) against a real redis-server that each test starts
// on a free loopback port (tests/redis/redis_server.hpp): a state opens once across two guards
// standing for two instances; Redis keeps each id for the state's own time; with Redis stopped,
// or frozen, a state fails closed with a reason of its own within the timeouts, and opens again
// once Redis is back, with the same guard; threads racing on one id get one first use.
//
// Catch2 is not thread-safe: the threads record what they saw, the main thread asserts it.
#include "../../redis/redis_server.hpp"
#include "../support/mixed_secret.hpp"

#include <elicit/asio/open.hpp>
#include <elicit/protocol/protocol.hpp>
#include <elicit/redis/replay_guard.hpp>
#include <elicit/state/state.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>
#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <exception>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_redis_replay_guard {

using elicit::state_error;
using namespace std::chrono_literals;
using clock_type = std::chrono::system_clock;

namespace {

struct Voucher {
  std::string code;
  int cents;
};

const elicit::state_binding here{"shop", "alice", "tools/call", "redeem_voucher",
                                 elicit::digest_of(nlohmann::json{{"code", "V-1"}})};

elicit::key_ring ring_of_one() {
  elicit::key_ring ring;
  ring.add("k1", test_support::mixed_secret(7));
  return ring;
}

elicit::redis_options options_for(const test_support::redis_server& redis, std::string prefix = "test:replay:") {
  elicit::redis_options o;
  o.port = redis.port();
  o.prefix = std::move(prefix);
  o.connect_timeout = 200ms;
  o.command_timeout = 200ms;
  return o;
}

// How long `f` took, and the replay_store_error's text it threw (empty when it threw none).
template <class F>
std::pair<std::chrono::steady_clock::duration, std::string> timed_failure(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  std::string what;
  try {
    f();
  } catch (const elicit::replay_store_error& e) {
    what = e.what();
  }
  return {std::chrono::steady_clock::now() - start, what};
}

// Generous: the bound checked is "no hang past the timeouts", not a speed; a loaded CI machine
// (or the sanitizers) may take a second more to schedule the thread.
constexpr auto slack = 3s;

}  // namespace

TEST_CASE("a state opens once across two guards on one Redis, and each application has its own prefix", "[redis]") {
  test_support::redis_server redis;
  elicit::redis_replay_guard a(options_for(redis)), b(options_for(redis));  // two instances
  elicit::redis_replay_guard other_app(options_for(redis, "other:replay:"));
  const auto now = clock_type::now(), later = now + 10min;

  CHECK(a.first_use("token-1", later, now));
  CHECK_FALSE(a.first_use("token-1", later, now));
  CHECK_FALSE(b.first_use("token-1", later, now));  // the other instance sees the first use
  CHECK(b.first_use("token-2", later, now));
  CHECK_FALSE(a.first_use("token-2", later, now));
  CHECK(other_app.first_use("token-1", later, now));  // another prefix: another application's ids
  CHECK(redis.integer({"EXISTS", "test:replay:token-1", "other:replay:token-1"}) == 2);

  // Through open(): sealed once, opened on instance a, replayed on instance b.
  const elicit::key_ring ring = ring_of_one();
  const std::string token = elicit::seal(Voucher{"V-1", 500}, ring, here, 10min);
  const auto first = elicit::open<Voucher>(token, ring, here, {.replay = &a});
  REQUIRE(first);
  CHECK(first->cents == 500);
  const auto again = elicit::open<Voucher>(token, ring, here, {.replay = &b});
  CHECK(again.error() == state_error::replayed);
  // A state that fails another check is not used up: it still opens once, later.
  const std::string other = elicit::seal(Voucher{"V-1", 700}, ring, here, 10min);
  CHECK(elicit::open<Voucher>(other, ring, elicit::state_binding{"shop", "bob", "tools/call", "redeem_voucher", ""},
                              {.replay = &a})
            .error() == state_error::wrong_principal);
  CHECK(elicit::open<Voucher>(other, ring, here, {.replay = &b}));
}

TEST_CASE("Redis keeps each id for its state's own time, and for good when the state never expires", "[redis]") {
  test_support::redis_server redis;
  elicit::redis_replay_guard guard(options_for(redis));
  const auto now = clock_type::now();

  REQUIRE(guard.first_use("short", now + 300ms, now));
  const long long left = redis.integer({"PTTL", "test:replay:short"});
  CHECK(left > 0);
  CHECK(left <= 300);
  CHECK_FALSE(guard.first_use("short", now + 300ms, clock_type::now()));
  std::this_thread::sleep_for(600ms);  // past its expiry: Redis has forgotten it
  CHECK(redis.integer({"EXISTS", "test:replay:short"}) == 0);
  CHECK(guard.first_use("short", clock_type::now() + 300ms, clock_type::now()));

  REQUIRE(guard.first_use("forever", clock_type::time_point::max(), now));
  CHECK(redis.integer({"TTL", "test:replay:forever"}) == -1);  // a key with no expiry

  // A state of ten years: its seconds, in milliseconds, from the `now` open() was given.
  const auto decade = std::chrono::duration_cast<clock_type::duration>(std::chrono::years(10));
  REQUIRE(guard.first_use("decade", now + decade, now));
  const long long seconds = redis.integer({"TTL", "test:replay:decade"});
  CHECK(seconds > std::chrono::duration_cast<std::chrono::seconds>(decade).count() - 60);
  CHECK(seconds <= std::chrono::duration_cast<std::chrono::seconds>(decade).count());

  // open() hands the guard the end of the state's last second (expiry plus skew, plus one).
  const elicit::key_ring ring = ring_of_one();
  const auto t0 = clock_type::now();
  const std::string token = elicit::seal(Voucher{"V-1", 1}, ring, here, 60s, t0);
  REQUIRE(elicit::open<Voucher>(token, ring, here, {.clock_skew = 0s, .replay = &guard, .now = t0}));
  // The token's id is its nonce, after version (1), type tag (8), key id length (1) and "k1".
  const auto bytes = elicit::detail::base64url_decode(token);
  REQUIRE(bytes);
  const std::string id = elicit::detail::base64url_encode(std::span(bytes->data() + 12, 12));
  const long long state_left = redis.integer({"PTTL", "test:replay:" + id});
  CHECK(state_left > 59'000);  // until the end of its last second: up to 61 s after t0, as t0 fell in its second
  CHECK(state_left <= 61'000);
}

TEST_CASE("Redis stopped: states fail closed within the timeouts, and open again once it is back", "[redis]") {
  test_support::redis_server redis;
  elicit::redis_replay_guard guard(options_for(redis));
  const elicit::key_ring ring = ring_of_one();
  const auto now = clock_type::now();
  REQUIRE(guard.first_use("before", now + 1min, now));  // a pooled connection, now to go stale

  redis.stop();
  const auto [took, why] = timed_failure([&] { (void)guard.first_use("while-down", now + 1min, now); });
  CHECK_THAT(why, Catch::Contains("Redis at 127.0.0.1:" + std::to_string(redis.port())));
  CHECK(took < 200ms + 200ms + slack);
  const auto [took_again, why_again] = timed_failure([&] { guard.ping(); });
  CHECK_THAT(why_again, Catch::Contains("cannot connect"));
  CHECK(took_again < 200ms + slack);

  const std::string token = elicit::seal(Voucher{"V-1", 500}, ring, here, 10min);
  const auto refused = elicit::open<Voucher>(token, ring, here, {.replay = &guard});
  REQUIRE_FALSE(refused);
  CHECK(refused.error() == state_error::replay_unavailable);  // not "replayed": the log tells them apart
  CHECK_THAT(refused.message(), Catch::Contains("replay store did not answer") && Catch::Contains("Redis at"));
  // The client is told what it is told for any state that did not open: the one -32602.
  CHECK(elicit::invalid_state_error(3)["error"]["code"] == -32602);
  CHECK(elicit::invalid_state_error(3)["error"]["message"] == elicit::invalid_state_message);

  redis.start();  // the same port, an empty store; the same guard, no restart of the instance
  guard.ping();
  const auto opened = elicit::open<Voucher>(token, ring, here, {.replay = &guard});
  REQUIRE(opened);
  CHECK(opened->cents == 500);
  CHECK(elicit::open<Voucher>(token, ring, here, {.replay = &guard}).error() == state_error::replayed);
}

TEST_CASE("a Redis restarted under pooled connections: the next call reconnects at once", "[redis]") {
  test_support::redis_server redis;
  elicit::redis_replay_guard guard(options_for(redis));
  const auto now = clock_type::now();
  // Two connections in the pool, from two calls at once.
  std::thread other([&] { (void)guard.first_use("one", now + 1min, now); });
  (void)guard.first_use("two", now + 1min, now);
  other.join();
  redis.stop();
  redis.start();
  // Redis closed the pooled connections: no error reaches the caller, the guard connects anew.
  CHECK(guard.first_use("three", now + 1min, now));
  CHECK(guard.first_use("four", now + 1min, now));
  CHECK_FALSE(guard.first_use("three", now + 1min, now));
}

TEST_CASE("a Redis that accepts but does not answer: the call times out, fails closed, and recovers", "[redis]") {
  test_support::redis_server redis;
  elicit::redis_replay_guard guard(options_for(redis));
  const elicit::key_ring ring = ring_of_one();
  const auto now = clock_type::now();
  REQUIRE(guard.first_use("before", now + 1min, now));

  redis.pause();  // SIGSTOP: the kernel still accepts connections, nothing answers
  const auto [took, why] = timed_failure([&] { (void)guard.first_use("frozen", now + 1min, now); });
  CHECK_THAT(why, Catch::Contains("no answer within the command timeout (200 ms)"));
  CHECK(took >= 150ms);
  CHECK(took < 200ms + slack);
  const std::string token = elicit::seal(Voucher{"V-1", 500}, ring, here, 10min);
  const auto start = std::chrono::steady_clock::now();
  const auto refused = elicit::open<Voucher>(token, ring, here, {.replay = &guard});
  CHECK(std::chrono::steady_clock::now() - start < 200ms + 200ms + slack);  // a new connection: connect, then SET
  CHECK(refused.error() == state_error::replay_unavailable);

  redis.resume();
  CHECK(guard.first_use("after", now + 1min, now));
}

TEST_CASE("threads racing on one id: exactly one first use", "[redis]") {
  test_support::redis_server redis;
  elicit::redis_replay_guard guard(options_for(redis));
  constexpr int threads = 8, rounds = 200;
  std::array<std::atomic<int>, rounds> firsts{};
  std::atomic<int> errors{0}, ready{0};
  const auto now = clock_type::now();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      ready.fetch_add(1);
      while (ready.load() < threads) std::this_thread::yield();  // start together
      for (int r = 0; r < rounds; ++r) {
        try {
          if (guard.first_use("race-" + std::to_string(r), now + 1min, now)) firsts[r].fetch_add(1);
        } catch (const std::exception&) {
          errors.fetch_add(1);
        }
      }
    });
  for (auto& t : pool) t.join();
  CHECK(errors.load() == 0);
  int wrong = 0;
  for (const auto& f : firsts) wrong += f.load() != 1;
  CHECK(wrong == 0);
  CHECK(redis.integer({"DBSIZE"}) == rounds);
}

TEST_CASE("async_open runs open() on the blocking pool and resumes on the caller's executor", "[redis]") {
  test_support::redis_server redis;
  elicit::redis_replay_guard guard(options_for(redis));
  const elicit::key_ring ring = ring_of_one();
  const std::string token = elicit::seal(Voucher{"V-1", 500}, ring, here, 10min);
  boost::asio::io_context io;
  boost::asio::thread_pool blocking(2);
  std::optional<state_error> first_error, second_error;
  bool first_opened = false;
  std::thread::id resumed_on;
  boost::asio::co_spawn(
      io,
      [&]() -> boost::asio::awaitable<void> {
        const auto first =
            co_await elicit::async_open<Voucher>(blocking.get_executor(), token, ring, here, {.replay = &guard});
        first_opened = first.has_value();
        first_error = first.error();
        const auto second =
            co_await elicit::async_open<Voucher>(blocking.get_executor(), token, ring, here, {.replay = &guard});
        second_error = second.error();
        resumed_on = std::this_thread::get_id();
      },
      boost::asio::detached);
  io.run();
  blocking.join();
  CHECK(first_opened);
  CHECK_FALSE(first_error);
  CHECK(second_error == state_error::replayed);
  CHECK(resumed_on == std::this_thread::get_id());  // io.run()'s thread, not a pool thread
}

TEST_CASE("a Redis with a password: the guard sends AUTH, and a wrong one fails closed", "[redis]") {
  test_support::redis_server redis({"--requirepass", "correct-horse-battery"});
  auto options = options_for(redis);
  options.password = "correct-horse-battery";
  elicit::redis_replay_guard guard(options);
  const auto now = clock_type::now();
  CHECK(guard.first_use("t", now + 1min, now));
  options.password = "wrong-password-here";
  elicit::redis_replay_guard wrong(options);
  const auto [took, why] = timed_failure([&] { (void)wrong.first_use("u", now + 1min, now); });
  CHECK_THAT(why, Catch::Contains("AUTH refused"));
  CHECK_THAT(why, !Catch::Contains("wrong-password-here"));
  options.password.clear();
  elicit::redis_replay_guard none(options);
  const auto [took_none, why_none] = timed_failure([&] { (void)none.first_use("u", now + 1min, now); });
  CHECK_THAT(why_none, Catch::Contains("answered an error: NOAUTH"));
}

TEST_CASE("open() fails closed for any guard that throws, and passes bad_alloc on", "[redis]") {
  struct throwing final : elicit::replay_guard {
    bool out_of_memory = false;
    bool first_use(std::string_view, clock_type::time_point, clock_type::time_point) override {
      if (out_of_memory) throw std::bad_alloc();
      throw std::system_error(std::make_error_code(std::errc::connection_refused), "my store");
    }
  } guard;
  const elicit::key_ring ring = ring_of_one();
  const std::string token = elicit::seal(Voucher{"V-1", 500}, ring, here, 10min);
  const auto refused = elicit::open<Voucher>(token, ring, here, {.replay = &guard});
  CHECK(refused.error() == state_error::replay_unavailable);
  CHECK_THAT(refused.message(), Catch::Contains("my store"));
  guard.out_of_memory = true;
  CHECK_THROWS_AS(elicit::open<Voucher>(token, ring, here, {.replay = &guard}), std::bad_alloc);
}

TEST_CASE("redis options: the settings the guard refuses", "[redis]") {
  elicit::redis_options good;
  good.prefix = "app:";
  CHECK_NOTHROW(elicit::redis_replay_guard(good));  // connects to nothing yet
  auto no_prefix = good;
  no_prefix.prefix.clear();
  CHECK_THROWS_WITH(elicit::redis_replay_guard(no_prefix), Catch::Contains("key prefix"));
  auto spaced = good;
  spaced.prefix = "my app:";
  CHECK_THROWS_AS(elicit::redis_replay_guard(spaced), std::invalid_argument);
  auto port = good;
  port.port = 0;
  CHECK_THROWS_AS(elicit::redis_replay_guard(port), std::invalid_argument);
  auto instant = good;
  instant.command_timeout = 0ms;
  CHECK_THROWS_WITH(elicit::redis_replay_guard(instant), Catch::Contains("timeout"));
}

}  // namespace unit_redis_replay_guard
