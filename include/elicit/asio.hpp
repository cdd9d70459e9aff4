// Asking from a Boost.Asio coroutine: elicit::ask_loop (<elicit/ask.hpp>) driven by co_await,
// so that a question waiting for a person holds a coroutine frame, not a thread. CMake target
// elicit::asio (elicit, Boost.Asio header-only, Threads); the umbrella <elicit/elicit.hpp>
// does not include this header, so a program that does not use Asio never compiles it.
//
//   boost::asio::awaitable<void> book(session& s) {
//     auto asked = co_await elicit::async_ask(
//         [&s](nlohmann::ordered_json params) { return s.request("elicitation/create", std::move(params)); },
//         elicit::form<Address>(), "Where should the parcel go?", {.timeout = std::chrono::minutes(10)});
//     switch (asked.outcome()) { ... case elicit::outcome::stopped: ... }  // cancelled or timed out
//   }
//
// `send` is a callable that takes the params of an elicitation/create (an
// nlohmann::ordered_json, given as an rvalue: take it by value and let it go once written) and
// returns boost::asio::awaitable<nlohmann::json>: the client's JSON-RPC response, as ask()'s
// send returns it. Why an awaitable and not a completion token: the caller is a coroutine and so,
// in practice, is the transport's request (write, then wait on a channel or a timer for the
// matching response); an op written with completion tokens fits in one line,
// `[&](auto p) { return my_async_request(std::move(p), boost::asio::use_awaitable); }`.
//
// Cancellation: Asio's per-operation cancellation ends the wait. co_spawn the ask with
// bind_cancellation_slot and emit terminal cancellation (when the client's
// notifications/cancelled names the tool call, say): the send in flight is cancelled, and the
// ask finishes with outcome::stopped and stop_reason::cancelled. (Raced with a timer through
// awaitable_operators' `||`, the ask is cancelled the same way, but its result is dropped by the
// race: the timeout option says timed_out instead.) The coroutine then returns at once, and its frame
// (the loop, the form, the messages) is freed with it. For that, `send` must honour the
// cancellation as Asio's own operations do (timers, channels, sockets): complete with
// operation_aborted, by throwing boost::system::system_error.
//
// co_await it in a coroutine of yours (the tool call's) and co_spawn that: co_spawn(ex,
// async_ask(...), handler) itself does not compile, since Asio's co_spawn wants a result it can
// make empty (default-constructible) and an ask_result always holds what came of the question.
#pragma once

#include <elicit/ask.hpp>
#include <elicit/form.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/cancellation_type.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/experimental/cancellation_condition.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/system/system_error.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <exception>
#include <string>
#include <utility>
#include <variant>

namespace elicit {

struct async_ask_options {
  ask_options ask{};
  // How long each form sent may wait for its reply (a person gets the same time for every
  // attempt, so an ask waits at most max_attempts times this); zero waits for as long as it takes.
  // When it runs out: outcome::stopped, stop_reason::timed_out.
  std::chrono::steady_clock::duration timeout{};
};

namespace detail {

// The client's reply to one form, or the reason the wait ended without one. The timeout races
// the send in a parallel group that ends at the first completion, success or failure
// (wait_for_one), not awaitable_operators' `||`, which waits on for a success: a send that fails
// would then be read as a timeout when the timer ran out.
template <class Send>
boost::asio::awaitable<std::variant<nlohmann::json, stop_reason>> await_reply(
    Send& send, nlohmann::ordered_json params, std::chrono::steady_clock::duration timeout) {
  std::exception_ptr failure;
  try {
    if (timeout <= std::chrono::steady_clock::duration::zero()) co_return co_await send(std::move(params));
    const auto executor = co_await boost::asio::this_coro::executor;
    boost::asio::steady_timer timer(executor, timeout);
    auto [order, send_failure, reply, timer_error] =
        co_await boost::asio::experimental::make_parallel_group(
            boost::asio::co_spawn(executor, send(std::move(params)), boost::asio::deferred),
            timer.async_wait(boost::asio::deferred))
            .async_wait(boost::asio::experimental::wait_for_one(), boost::asio::use_awaitable);
    if (order[0] == 0) {
      if (!send_failure) co_return std::move(reply);
      failure = send_failure;
    } else if (!timer_error) {
      co_return stop_reason::timed_out;
    } else {
      failure = std::make_exception_ptr(boost::system::system_error(timer_error));  // the timer cancelled
    }
  } catch (...) {
    failure = std::current_exception();  // a co_await cannot be in a handler: it is judged below
  }
  // A cancelled wait fails (operation_aborted). When this coroutine was cancelled, that is the
  // cancellation; else it is the transport's own failure (an operation_aborted of its own
  // included), and goes through as ask()'s send failures do.
  const auto state = co_await boost::asio::this_coro::cancellation_state;
  if (state.cancelled() == boost::asio::cancellation_type::none) std::rethrow_exception(failure);
  co_return stop_reason::cancelled;
}

}  // namespace detail

// Asks `f` through `send` until the answer is valid, declined or cancelled, the client errs,
// max_attempts forms were sent, or the wait is cancelled or times out (outcome::stopped):
// ask_loop driven by co_await, with the same outcomes as ask() otherwise. The arguments are
// taken by value: the coroutine outlives the caller's expression. Throws (in the awaiting
// coroutine) what `send` throws but a cancellation of this coroutine, and form_error when an
// elicit::choice field of `f` has no choices.
template <class Form, class Send>
[[nodiscard]] boost::asio::awaitable<ask_result<Form>> async_ask(Send send, elicit::form<Form> f, std::string message,
                                                                 async_ask_options options = {}) {
  ask_loop<Form> loop(std::move(f), message, options.ask);
  std::string().swap(message);  // the loop has its copy: a waiting ask holds the message once
  while (!loop.done()) {
    auto reply = co_await detail::await_reply(send, loop.params(), options.timeout);
    if (const auto* why = std::get_if<stop_reason>(&reply)) loop.stop(*why);
    else loop.take(std::get<nlohmann::json>(reply));
  }
  co_return std::move(loop).result();
}

// The same for a form with nothing set at run time.
template <class Form, class Send>
[[nodiscard]] boost::asio::awaitable<ask_result<Form>> async_ask(Send send, std::string message,
                                                                 async_ask_options options = {}) {
  return async_ask(std::move(send), elicit::form<Form>(), std::move(message), options);
}

}  // namespace elicit
