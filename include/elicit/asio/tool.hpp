// A tool written once (<elicit/state/tool.hpp>), served at 2025-11-25 from a Boost.Asio coroutine:
// elicit::tool_loop driven by co_await, as elicit::async_ask (<elicit/asio/ask.hpp>) drives one
// ask_loop, so that a tool waiting for a person holds coroutine frames, not a thread. CMake
// targets elicit::asio and elicit::state.
//
//   boost::asio::awaitable<nlohmann::json> call(session& s, Carrier carrier) {
//     std::string text = co_await elicit::async_run_tool(
//         [&s](nlohmann::ordered_json params) { return s.request("elicitation/create", std::move(params)); },
//         book(carrier), {.timeout = std::chrono::minutes(10)});
//     co_return text_result(text);
//   }
//
// `send` is async_ask's: it takes the params of an elicitation/create and returns
// boost::asio::awaitable<nlohmann::json>, the client's JSON-RPC response. Cancellation and the
// timeout work as for async_ask: the question waiting ends with outcome::stopped (cancelled) or
// outcome::timed_out, every question the tool asks after it too, unsent, and the tool runs on to
// its end with them: what it returns then is the call's result. The keep-alive too: one clock
// for the whole tool, its progress counting on from question to question.
#pragma once

#include <elicit/asio/ask.hpp>
#include <elicit/state/tool_loop.hpp>

#include <boost/asio/awaitable.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>
#include <utility>
#include <variant>

namespace elicit {

struct async_tool_options {
  tool_options tool{};
  // How long each form sent may wait for its reply, as async_ask_options::timeout; zero waits
  // for as long as it takes.
  std::chrono::steady_clock::duration timeout{};
  // The call's keep-alive, as async_ask_options::keepalive; none costs nothing.
  std::shared_ptr<async_keepalive> keepalive{};
};

// Runs `t` at 2025-11-25, each question sent through `send` and awaited. Returns (in the
// awaiting coroutine) what the tool returned. Throws what `send` and notify throw but a cancellation of
// this coroutine, and what tool_loop::result throws.
template <class R, class Send>
[[nodiscard]] boost::asio::awaitable<R> async_run_tool(Send send, tool<R> t, async_tool_options options = {}) {
  tool_loop<R> loop(std::move(t), options.tool);
  while (!loop.done()) {
    auto reply = co_await detail::await_reply(send, loop.params(), options.timeout, options.keepalive.get());
    if (const auto* why = std::get_if<stop_reason>(&reply)) loop.stop(*why);
    else loop.take(std::get<nlohmann::json>(reply));
  }
  co_return std::move(loop).result();
}

}  // namespace elicit
