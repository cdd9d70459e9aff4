// Opening a sealed state from a coroutine (<elicit/asio/open.hpp>): async_open runs open() on the
// blocking executor, resumes on the caller's, and gives what open() gives: the state, or the
// reason it did not open. (On Redis: ../redis/test_replay_guard.cpp.)
#include "../support/mixed_secret.hpp"

#include <elicit/asio/open.hpp>
#include <elicit/state/state.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <thread>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_tests_unit_asio_open {

namespace {
struct Progress {
  int step = 0;
  std::string note;
};

elicit::key_ring make_ring() {
  elicit::key_ring ring;
  ring.add("k1", test_support::mixed_secret(7));
  return ring;
}

// Runs async_open on an io_context's thread with a pool of its own for the blocking work.
std::optional<elicit::opened<Progress>> open_async(const std::string& token, const elicit::key_ring& ring,
                                                   const elicit::state_binding& here, elicit::open_options o,
                                                   std::thread::id& resumed_on) {
  boost::asio::io_context io;
  boost::asio::thread_pool blocking(1);
  std::optional<elicit::opened<Progress>> out;
  boost::asio::co_spawn(
      io,
      [&]() -> boost::asio::awaitable<void> {
        out.emplace(co_await elicit::async_open<Progress>(blocking.get_executor(), token, ring, here, o));
        resumed_on = std::this_thread::get_id();
      },
      boost::asio::detached);
  io.run();
  blocking.join();
  return out;
}
}  // namespace

TEST_CASE("async_open: the state opens as open() opens it, and the coroutine resumes on its own thread",
          "[asio][state]") {
  const auto ring = make_ring();
  const elicit::state_binding here{"tests", "alice", "tools/call", "book", "d1"};
  const std::string token = elicit::seal(Progress{2, "half"}, ring, here);
  std::thread::id resumed_on;
  const auto opened = open_async(token, ring, here, {}, resumed_on);
  REQUIRE(opened);
  REQUIRE(opened->has_value());
  CHECK(opened->value().step == 2);
  CHECK(opened->value().note == "half");
  CHECK(resumed_on == std::this_thread::get_id());  // io.run() ran here
}

TEST_CASE("async_open: a state sealed for someone else, or replayed, does not open", "[asio][state]") {
  const auto ring = make_ring();
  const elicit::state_binding here{"tests", "alice", "tools/call", "book", "d1"};
  const std::string token = elicit::seal(Progress{1, ""}, ring, here);
  std::thread::id resumed_on;
  auto bob = here;
  bob.principal = "bob";
  const auto foreign = open_async(token, ring, bob, {}, resumed_on);
  REQUIRE(foreign);
  CHECK_FALSE(foreign->has_value());
  elicit::memory_replay_guard seen;
  CHECK(open_async(token, ring, here, {.replay = &seen}, resumed_on)->has_value());
  CHECK_FALSE(open_async(token, ring, here, {.replay = &seen}, resumed_on)->has_value());
}

}  // namespace unit_tests_unit_asio_open
