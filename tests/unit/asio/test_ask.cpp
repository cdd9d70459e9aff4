// elicit::async_ask on an io_context, single-threaded, with a scripted async client: the same
// cases as the core and the blocking loop (tests/unit/support/ask_script.hpp), then what only a coroutine
// has: a cancellation mid-wait (a cancellation slot, and a timer raced with `||`), the timeout,
// and what a waiting question holds on the heap. Every run is bounded: run_for, never run.
#include "../support/ask_script.hpp"

#include <elicit/asio/ask.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/system/system_error.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <malloc.h>

#include <memory>
#include <thread>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <exception>
#include <functional>
#include <new>
#include <optional>
#include <stdexcept>
#include <utility>
#include <variant>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_asio_ask {

// The heap in use, counted, to measure what a waiting question holds (single-threaded here).
namespace {
std::atomic<std::size_t> heap_in_use{0};
}  // namespace

}  // namespace unit_asio_ask

// The global operators replaced (for the whole executable), so at global scope.
void* operator new(std::size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  unit_asio_ask::heap_in_use += malloc_usable_size(p);
  return p;
}
void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  unit_asio_ask::heap_in_use -= malloc_usable_size(p);
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }
// The nothrow forms too (Catch2 uses one), so every new meets its own delete (AddressSanitizer
// checks that they pair).
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return operator new(size);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void operator delete(void* p, const std::nothrow_t&) noexcept { operator delete(p); }

namespace unit_asio_ask {

namespace asio = boost::asio;
using ask_script::accepted;
using ask_script::DeliveryAddress;
using ask_script::good_address;
using ask_script::question;
using nlohmann::json;
using nlohmann::ordered_json;
using namespace std::chrono_literals;

namespace {

// A reply the client never sends: it waits until it is cancelled.
const json hang = json::binary({});

// A client that answers each elicitation/create, on a later turn of the event loop, with the
// next of its replies; keeps what it was sent, and counts the sends still waiting.
struct async_client {
  explicit async_client(std::vector<json> r) : replies(std::move(r)) {}

  std::vector<json> replies;
  std::vector<ordered_json> sent;
  int waiting = 0;

  asio::awaitable<json> send(ordered_json params) {
    sent.push_back(std::move(params));
    if (sent.size() > replies.size()) throw std::logic_error("the client was asked more often than scripted");
    const json reply = replies[sent.size() - 1];
    struct wait_entry {
      int& count;
      explicit wait_entry(int& c) : count(c) { ++count; }
      ~wait_entry() { --count; }
      wait_entry(const wait_entry&) = delete;
      wait_entry& operator=(const wait_entry&) = delete;
    } entry(waiting);
    const auto executor = co_await asio::this_coro::executor;
    co_await asio::post(executor, asio::use_awaitable);  // a real reply comes later
    if (reply == hang) {
      asio::steady_timer never(executor, asio::steady_timer::time_point::max());
      co_await never.async_wait(asio::use_awaitable);  // throws operation_aborted when cancelled
    }
    co_return reply;
  }
  auto sender() {
    return [this](ordered_json params) { return send(std::move(params)); };
  }
};

using result_t = elicit::ask_result<DeliveryAddress>;

// Runs `ask` to its end on `io`, with `signal`'s slot bound, bounded in time.
std::optional<result_t> run(asio::io_context& io, asio::awaitable<result_t> ask,
                            asio::cancellation_signal* signal = nullptr, std::exception_ptr* failure = nullptr) {
  std::optional<result_t> out;
  auto body = [](asio::awaitable<result_t> a, std::optional<result_t>& o) -> asio::awaitable<void> {
    o.emplace(co_await std::move(a));
  };
  auto done = [failure](std::exception_ptr e) {
    if (failure != nullptr) *failure = e;
    else if (e) std::rethrow_exception(e);
  };
  if (signal != nullptr)
    asio::co_spawn(io, body(std::move(ask), out), asio::bind_cancellation_slot(signal->slot(), done));
  else asio::co_spawn(io, body(std::move(ask), out), done);
  io.run_for(5s);
  return out;
}

ask_script::run drive_async(const std::vector<json>& replies, elicit::async_ask_options options = {}) {
  asio::io_context io;
  async_client client{replies};
  auto out = run(io, elicit::async_ask<DeliveryAddress>(client.sender(), question, options));
  REQUIRE(out);
  CHECK(client.waiting == 0);
  return {std::move(*out), std::move(client.sent)};
}

}  // namespace

TEST_CASE("async_ask: the scripted cases, on an io_context", "[asio]") {
  for (const auto& c : ask_script::cases()) {
    DYNAMIC_SECTION(c.name) { c.check(drive_async(c.replies)); }
  }
}

TEST_CASE("async_ask: the scripted cases, with a timeout that does not run out", "[asio]") {
  for (const auto& c : ask_script::cases()) {
    DYNAMIC_SECTION(c.name) { c.check(drive_async(c.replies, {.timeout = 10s})); }
  }
}

TEST_CASE("async_ask: a cancellation mid-wait ends it with outcome stopped, and frees the wait", "[asio]") {
  const bool with_timeout = GENERATE(false, true);  // the plain wait, and the one raced with a timer
  CAPTURE(with_timeout);
  asio::io_context io;
  async_client client{{accepted({{"street", 42}}), hang}};
  asio::cancellation_signal signal;
  int waiting_at_cancel = -1;
  // Cancels as the notifications/cancelled of the tool call would: once the second form waits.
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        while (client.waiting == 0 || client.sent.size() < 2) co_await asio::post(io, asio::use_awaitable);
        waiting_at_cancel = client.waiting;
        signal.emit(asio::cancellation_type::terminal);
      },
      asio::detached);
  elicit::async_ask_options options;
  if (with_timeout) options.timeout = 10s;
  auto out = run(io, elicit::async_ask<DeliveryAddress>(client.sender(), question, options), &signal);
  CHECK(waiting_at_cancel == 1);
  REQUIRE(out);
  CHECK(out->outcome() == elicit::outcome::stopped);
  CHECK(out->stop_reason() == elicit::stop_reason::cancelled);
  CHECK(out->attempts() == 2);
  CHECK_FALSE(out->violations().empty());  // the last answer, kept
  CHECK(client.waiting == 0);              // the waiting send is gone
  CHECK(io.stopped());                     // nothing left to run: no 10 s timer kept
}

TEST_CASE("async_ask: raced with a timer by `||`, the ask is cancelled and its wait freed", "[asio]") {
  asio::io_context io;
  async_client client{{hang}};
  std::optional<std::size_t> winner;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        using namespace asio::experimental::awaitable_operators;
        asio::steady_timer timer(io, 20ms);
        auto first = co_await (elicit::async_ask<DeliveryAddress>(client.sender(), question) ||
                               timer.async_wait(asio::use_awaitable));
        winner = first.index();
      },
      asio::detached);
  io.run_for(5s);
  CHECK(winner == 1u);
  CHECK(client.sent.size() == 1);
  CHECK(client.waiting == 0);
}

TEST_CASE("async_ask: the timeout ends a wait with outcome timed_out, reason timed_out", "[asio]") {
  SECTION("on the first form") {
    const auto r = drive_async({hang}, {.timeout = 20ms});
    CHECK(r.result.outcome() == elicit::outcome::timed_out);
    CHECK(r.result.stop_reason() == elicit::stop_reason::timed_out);
    CHECK(r.result.attempts() == 1);
    CHECK_THROWS_WITH(r.result.value(), "elicit: no answer: the server stopped waiting (timed out)");
  }
  SECTION("each form gets its own time: an invalid answer, then no answer") {
    const auto r = drive_async(
        {accepted({{"street", "1 High St"}, {"city", "London"}, {"postcode", "X"}, {"country_code", "GB"}}), hang},
        {.timeout = 20ms});
    CHECK(r.result.outcome() == elicit::outcome::timed_out);
    CHECK(r.result.stop_reason() == elicit::stop_reason::timed_out);
    CHECK(r.result.attempts() == 2);
    REQUIRE(r.sent.size() == 2);
    CHECK(r.sent[1]["requestedSchema"]["properties"]["street"]["default"] == "1 High St");
  }
}

TEST_CASE("async_ask: what send throws goes through, an operation_aborted of its own included", "[asio]") {
  asio::io_context io;
  std::exception_ptr failure;
  auto aborts = [](ordered_json) -> asio::awaitable<json> {
    throw boost::system::system_error(asio::error::operation_aborted);  // the transport's, not a cancellation
    co_return json{};
  };
  auto out = run(io, elicit::async_ask<DeliveryAddress>(aborts, question), nullptr, &failure);
  CHECK_FALSE(out);
  REQUIRE(failure);
  CHECK_THROWS_AS(std::rethrow_exception(failure), boost::system::system_error);
  auto fails = [](ordered_json) -> asio::awaitable<json> {
    throw std::runtime_error("connection lost");
    co_return json{};
  };
  asio::io_context io2;
  failure = nullptr;
  CHECK_FALSE(run(io2, elicit::async_ask<DeliveryAddress>(fails, question, {.timeout = 10s}), nullptr, &failure));
  REQUIRE(failure);
  CHECK_THROWS_WITH(std::rethrow_exception(failure), "connection lost");
}

TEST_CASE("async_ask: what a waiting question holds on the heap", "[asio]") {
  // A transport as a server has one: it writes the params (here: to text, then drops them) and
  // waits for the reply; the wait is a timer that only a cancellation ends.
  asio::io_context io;
  int sends_waiting = 0;
  std::size_t written = 0;
  auto send = [&](ordered_json params) -> asio::awaitable<json> {
    written = params.dump().size();
    params = nullptr;  // written: the transport keeps no copy
    ++sends_waiting;
    asio::steady_timer never(co_await asio::this_coro::executor, asio::steady_timer::time_point::max());
    try {
      co_await never.async_wait(asio::use_awaitable);
    } catch (...) {
      --sends_waiting;
      throw;
    }
    co_return json{};
  };
  asio::cancellation_signal signal;
  std::size_t before = 0;
  std::size_t waiting = 0;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        while (sends_waiting == 0) co_await asio::post(io, asio::use_awaitable);
        // What is held now: the coroutine frames (the spawn, async_ask's with its loop, the
        // wait's, the transport's), the loop's two messages, the timer's state.
        waiting = heap_in_use - before;
        signal.emit(asio::cancellation_type::terminal);
      },
      asio::detached);
  before = heap_in_use;
  auto out = run(io, elicit::async_ask<DeliveryAddress>(send, question), &signal);
  REQUIRE(out);
  CHECK(out->outcome() == elicit::outcome::stopped);
  CHECK(sends_waiting == 0);
  WARN("heap held by a waiting question: " << waiting << " bytes (the params sent: " << written << " bytes of text)");
  CHECK(waiting > 0);
  CHECK(waiting < 8192);
}

namespace {

// What a keep-alive wrote: the params of each notification, and when (from the start).
struct progress_log {
  std::vector<ordered_json> sent;
  std::vector<std::chrono::steady_clock::duration> at;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

std::shared_ptr<elicit::async_keepalive> keepalive_into(progress_log& log, std::chrono::milliseconds interval) {
  auto notify = [&log](ordered_json params) -> asio::awaitable<void> {
    log.sent.push_back(std::move(params));
    log.at.push_back(std::chrono::steady_clock::now() - log.start);
    co_return;
  };
  return std::make_shared<elicit::async_keepalive>(
      elicit::async_keepalive{elicit::keepalive(json("call-7")), interval, notify});
}

// A client whose person answers after `delay`: the reply is on a timer.
struct slow_client {
  std::chrono::milliseconds delay;
  json reply;
  int sent = 0;
  asio::awaitable<json> send(ordered_json) {
    ++sent;
    asio::steady_timer later(co_await asio::this_coro::executor, delay);
    co_await later.async_wait(asio::use_awaitable);
    co_return reply;
  }
  auto sender() {
    return [this](ordered_json params) { return send(std::move(params)); };
  }
};

}  // namespace

TEST_CASE("async_ask: with a progress token, a notification each interval while the person answers",
          "[asio][keepalive]") {
  asio::io_context io;
  progress_log log;
  slow_client client{230ms, accepted(good_address)};
  elicit::async_ask_options options{.timeout = 10s, .keepalive = keepalive_into(log, 50ms)};
  auto out = run(io, elicit::async_ask<DeliveryAddress>(client.sender(), question, options));
  REQUIRE(out);
  CHECK(out->outcome() == elicit::outcome::accepted);
  // 50, 100, 150, 200 ms: four before the answer at 230 ms (a loaded machine may lose one).
  CHECK(log.sent.size() >= 3);
  CHECK(log.sent.size() <= 4);
  for (std::size_t i = 0; i < log.sent.size(); ++i) {
    CHECK(log.sent[i]["progressToken"] == "call-7");
    CHECK(log.sent[i]["progress"] == i + 1);
    CHECK(log.sent[i]["message"] == "Waiting for the user's answer");
    CHECK(log.at[i] >= (i + 1) * 50ms);
  }
  // Once answered, nothing more: the io_context ran dry (run_for returned early).
  const std::size_t after_answer = log.sent.size();
  io.restart();
  io.run_for(200ms);
  CHECK(log.sent.size() == after_answer);
}

TEST_CASE("async_ask: the keep-alive counts on across the forms of one ask, and across asks", "[asio][keepalive]") {
  progress_log log;
  auto keep = keepalive_into(log, 30ms);
  asio::io_context io;
  async_client fast{{accepted({{"street", 42}}), accepted(good_address)}};
  elicit::async_ask_options options{.keepalive = keep};
  CHECK(run(io, elicit::async_ask<DeliveryAddress>(fast.sender(), question, options))->accepted());
  CHECK(log.sent.empty());  // answered at once: no notification
  asio::io_context io2;
  slow_client slow{100ms, accepted(good_address)};
  CHECK(run(io2, elicit::async_ask<DeliveryAddress>(slow.sender(), question, options))->accepted());
  asio::io_context io3;
  CHECK(run(io3, elicit::async_ask<DeliveryAddress>(slow.sender(), question, options))->accepted());
  REQUIRE(log.sent.size() >= 4);
  for (std::size_t i = 0; i < log.sent.size(); ++i) CHECK(log.sent[i]["progress"] == i + 1);
}

TEST_CASE("async_ask: no progress token, no notification", "[asio][keepalive]") {
  asio::io_context io;
  slow_client client{120ms, accepted(good_address)};
  progress_log log;
  auto keep = keepalive_into(log, 20ms);
  keep->interval = std::chrono::steady_clock::duration::zero();  // an interval of zero sends none
  elicit::async_ask_options options{.timeout = 10s, .keepalive = keep};
  CHECK(run(io, elicit::async_ask<DeliveryAddress>(client.sender(), question, options))->accepted());
  CHECK(log.sent.empty());
  asio::io_context io2;
  CHECK(run(io2, elicit::async_ask<DeliveryAddress>(client.sender(), question, {.timeout = 10s}))->accepted());
  CHECK(keep->clock.sent() == 0);
}

TEST_CASE("async_ask: with a keep-alive, the timeout still ends the wait, outcome timed_out", "[asio][keepalive]") {
  progress_log log;
  const auto r = drive_async({hang}, {.timeout = 130ms, .keepalive = keepalive_into(log, 50ms)});
  CHECK(r.result.outcome() == elicit::outcome::timed_out);
  CHECK(r.result.stop_reason() == elicit::stop_reason::timed_out);
  CHECK(log.sent.size() >= 1);
  CHECK(log.sent.size() <= 2);  // 50, 100 ms; none at the deadline
}

TEST_CASE("async_ask: with a keep-alive, a cancellation still ends it with outcome stopped", "[asio][keepalive]") {
  asio::io_context io;
  async_client client{{hang}};
  progress_log log;
  asio::cancellation_signal signal;
  asio::steady_timer cancel_at(io, 120ms);
  cancel_at.async_wait([&](boost::system::error_code) { signal.emit(asio::cancellation_type::terminal); });
  elicit::async_ask_options options{.timeout = 10s, .keepalive = keepalive_into(log, 50ms)};
  auto out = run(io, elicit::async_ask<DeliveryAddress>(client.sender(), question, options), &signal);
  REQUIRE(out);
  CHECK(out->outcome() == elicit::outcome::stopped);
  CHECK(out->stop_reason() == elicit::stop_reason::cancelled);
  CHECK(client.waiting == 0);
  CHECK(io.stopped());  // no 10 s timer, no keep-alive timer left
  CHECK(log.sent.size() >= 1);
}

TEST_CASE("async_ask: a notify that fails ends the wait as a failed send does", "[asio][keepalive]") {
  asio::io_context io;
  async_client client{{hang}};
  auto notify = [](ordered_json) -> asio::awaitable<void> {
    throw std::runtime_error("the client left the stream");
    co_return;
  };
  elicit::async_ask_options options{.timeout = 10s,
                                    .keepalive = std::make_shared<elicit::async_keepalive>(elicit::async_keepalive{
                                        elicit::keepalive(json(1)), std::chrono::milliseconds(20), notify})};
  std::exception_ptr failure;
  CHECK_FALSE(run(io, elicit::async_ask<DeliveryAddress>(client.sender(), question, options), nullptr, &failure));
  REQUIRE(failure);
  CHECK_THROWS_WITH(std::rethrow_exception(failure), "the client left the stream");
  CHECK(client.waiting == 0);
  CHECK(io.stopped());
}

TEST_CASE("async_ask: a late wake-up sends one notification, not a burst", "[asio][keepalive]") {
  asio::io_context io;
  progress_log log;
  slow_client client{330ms, accepted(good_address)};
  // The event loop blocked for 200 ms (a busy server) from 50 ms: the timer of 80 ms fires late.
  asio::steady_timer busy(io, 50ms);
  busy.async_wait([](boost::system::error_code) { std::this_thread::sleep_for(200ms); });
  elicit::async_ask_options options{.keepalive = keepalive_into(log, 40ms)};
  CHECK(run(io, elicit::async_ask<DeliveryAddress>(client.sender(), question, options))->accepted());
  // 40 ms, one at about 250 ms for the late wake-up, then each an interval after the last: never
  // the burst of a catch-up (80, 120, 160, 200, 240 all at once).
  REQUIRE(log.sent.size() >= 2);
  CHECK(log.sent.size() <= 4);
  for (std::size_t i = 1; i < log.sent.size(); ++i) CHECK(log.at[i] - log.at[i - 1] >= 40ms);
}

}  // namespace unit_asio_ask
