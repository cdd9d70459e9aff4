// A tool written once, served at 2025-11-25 from an Asio coroutine (elicit::async_run_tool):
// the same questions and result as the blocking driver (tests/unit/support/tool_script.hpp), then what only
// a coroutine has: a cancellation and a timeout mid-wait end the question waiting and every one
// after it as stopped, and the tool still returns. Every run is bounded: run_for, never run.
#include "../support/tool_script.hpp"

#include <elicit/asio/tool.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/system/system_error.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_asio_tool {

namespace asio = boost::asio;
using namespace tool_script;
using namespace std::chrono_literals;

namespace {

const json hang = "hang";  // the person never answers: the send waits until it is cancelled
const json gone = "gone";  // the client closed its end: the send fails

// Answers each elicitation/create with the person's answer, on a later turn of the event loop.
struct async_client {
  person& who;
  int waiting = 0;

  asio::awaitable<json> send(ordered_json params) {
    json answer = who.answer("?", params);
    ++waiting;
    struct leave {
      int& n;
      ~leave() { --n; }
    } out{waiting};
    const auto executor = co_await asio::this_coro::executor;
    co_await asio::post(executor, asio::use_awaitable);
    if (answer == gone) throw boost::system::system_error(asio::error::broken_pipe);
    if (answer == hang) {
      asio::steady_timer never(executor, asio::steady_timer::time_point::max());
      co_await never.async_wait(asio::use_awaitable);  // throws operation_aborted when cancelled
    }
    co_return response_to(answer);
  }
};

std::optional<std::string> serve(person& p, elicit::async_tool_options options = {},
                                 asio::cancellation_signal* signal = nullptr,
                                 std::chrono::milliseconds cancel_after = 0ms) {
  asio::io_context io;
  async_client client{p};
  std::optional<std::string> out;
  auto call = [](async_client& c, elicit::async_tool_options o,
                 std::optional<std::string>& result) -> asio::awaitable<void> {
    // The tool and the send made first: g++ 12 miscompiles braced arguments inside a co_await.
    auto t = book(Carrier{});
    auto send = [&c](ordered_json params) { return c.send(std::move(params)); };
    result.emplace(co_await elicit::async_run_tool(send, std::move(t), o));
  };
  const auto rethrow = [](const std::exception_ptr& e) {
    if (e) std::rethrow_exception(e);
  };
  asio::steady_timer cancel(io, cancel_after);
  if (signal != nullptr) {
    asio::co_spawn(io, call(client, options, out), asio::bind_cancellation_slot(signal->slot(), rethrow));
    cancel.async_wait([signal](boost::system::error_code) { signal->emit(asio::cancellation_type::terminal); });
  } else {
    asio::co_spawn(io, call(client, options, out), rethrow);
  }
  io.run_for(5s);
  CHECK(client.waiting == 0);
  return out;
}

const json slot_0930 = accept({{"slot", "s-0930"}});
const json signed_options = accept({{"country_code", "GB"}, {"signature_required", true}});

}  // namespace

TEST_CASE("tool from Asio: the same questions and result as the blocking driver", "[tool][asio]") {
  json bad = good_address;
  bad["postcode"] = "X";
  const std::vector<json> script{accept(bad), accept(good_address), slot_0930, signed_options};
  person blocking{{script.begin(), script.end()}}, async{{script.begin(), script.end()}};
  const std::string expected = run_2025(book({}), blocking);
  CHECK(expected == "Booked to London at s-0930, signed (2 attempts for the address)");
  CHECK(serve(async) == expected);
  REQUIRE(async.log.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(async.log[i].message == blocking.log[i].message);
    CHECK(async.log[i].schema == blocking.log[i].schema);
  }
}

TEST_CASE("tool from Asio: a cancellation mid-wait stops the question and those after it", "[tool][asio]") {
  person p{{accept(good_address), hang}};  // the slot waits for ever; the options are never sent
  asio::cancellation_signal signal;
  CHECK(serve(p, {}, &signal, 50ms) == "Not booked: slot stopped");
  CHECK(p.log.size() == 2);
}

TEST_CASE("tool from Asio: a question that times out ends timed_out, and the tool returns", "[tool][asio]") {
  person p{{hang}};
  elicit::async_tool_options options;
  options.timeout = 50ms;
  CHECK(serve(p, options) == "Not booked: address timed_out");
  CHECK(p.log.size() == 1);
}

TEST_CASE("tool from Asio: the round cap holds as in the blocking driver", "[tool][asio]") {
  json bad = good_address;
  bad["postcode"] = "X";
  person p{{accept(bad), accept(bad), accept(good_address)}};
  elicit::async_tool_options options;
  options.tool.max_rounds = 3;
  CHECK_THROWS_WITH(serve(p, options), Catch::Contains("3 rounds"));
}

TEST_CASE("tool from Asio: one keep-alive for the whole tool, progress counting on across its questions",
          "[tool][asio][keepalive]") {
  const std::vector<json> script{accept(good_address), slot_0930, signed_options};
  person p{{script.begin(), script.end()}};
  std::vector<ordered_json> notes;
  auto notify = [&notes](ordered_json params) -> asio::awaitable<void> {
    notes.push_back(std::move(params));
    co_return;
  };
  elicit::async_tool_options options;
  options.timeout = 5s;
  options.keepalive = std::make_shared<elicit::async_keepalive>(
      elicit::async_keepalive{elicit::keepalive(json("tool-1")), std::chrono::milliseconds(25), notify});
  asio::io_context io;
  std::optional<std::string> out;
  // Each answer comes 70 ms after its question: two or so notifications a question.
  auto slow = [&p](ordered_json params) -> asio::awaitable<json> {
    json answer = p.answer("?", params);
    asio::steady_timer later(co_await asio::this_coro::executor, 70ms);
    co_await later.async_wait(asio::use_awaitable);
    co_return response_to(answer);
  };
  auto call = [&]() -> asio::awaitable<void> {
    auto t = book(Carrier{});
    out.emplace(co_await elicit::async_run_tool(slow, std::move(t), options));
  };
  asio::co_spawn(io, call(), [](const std::exception_ptr& e) {
    if (e) std::rethrow_exception(e);
  });
  io.run_for(5s);
  REQUIRE(out);
  CHECK(*out == "Booked to London at s-0930, signed (1 attempts for the address)");
  CHECK(p.log.size() == 3);
  REQUIRE(notes.size() >= 4);  // 2 of each 70 ms wait, 3 waits: 6 on an idle machine
  for (std::size_t i = 0; i < notes.size(); ++i) {
    CHECK(notes[i]["progressToken"] == "tool-1");
    CHECK(notes[i]["progress"] == i + 1);
  }
}

TEST_CASE("tool from Asio: a send that fails ends the call with its exception, with or without a timeout",
          "[tool][asio]") {
  person p{{accept(good_address), gone}};
  CHECK_THROWS_WITH(serve(p), Catch::Contains("Broken pipe"));
  CHECK(p.log.size() == 2);
  person q{{gone}};
  elicit::async_tool_options options;
  options.timeout = 5s;  // the send raced against a timer: its failure is still the send's
  CHECK_THROWS_WITH(serve(q, options), Catch::Contains("Broken pipe"));
}

}  // namespace unit_asio_tool
