// Asking from a Boost.Asio coroutine: elicit::ask_loop (<elicit/protocol/ask.hpp>) driven by co_await,
// so that a question waiting for a person holds a coroutine frame, not a thread. CMake target
// elicit::asio (elicit, Boost.Asio header-only, Threads); the umbrella <elicit/elicit.hpp>
// does not include this header, so a program that does not use Asio never compiles it.
//
//   boost::asio::awaitable<void> book(session& s) {
//     auto asked = co_await elicit::async_ask(
//         [&s](nlohmann::ordered_json params) { return s.request("elicitation/create", std::move(params)); },
//         elicit::form<Address>(), "Where should the parcel go?", {.timeout = std::chrono::minutes(10)});
//     switch (asked.outcome()) { ... case elicit::outcome::stopped: ... case elicit::outcome::timed_out: ... }
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
// race: the timeout option says outcome::timed_out instead.) The coroutine then returns at once, and its frame
// (the loop, the form, the messages) is freed with it. For that, `send` must honour the
// cancellation as Asio's own operations do (timers, channels, sockets): complete with
// operation_aborted, by throwing boost::system::system_error.
//
// co_await it in a coroutine of yours (the tool call's) and co_spawn that: co_spawn(ex,
// async_ask(...), handler) itself does not compile, since Asio's co_spawn wants a result it can
// make empty (default-constructible) and an ask_result always holds what came of the question.
//
// Keep-alive (<elicit/protocol/progress.hpp>): with options.keepalive set (the call's progress token
// found), a notifications/progress goes out through its `notify` every interval while a reply
// is awaited, so that a client with a request timeout that resets on progress keeps waiting:
//
//   if (auto token = elicit::progress_token(call_params))
//     options.keepalive = std::make_shared<elicit::async_keepalive>(elicit::async_keepalive{
//         elicit::keepalive(*token), elicit::keepalive_interval,
//         [&s](nlohmann::ordered_json p) { return s.notify("notifications/progress", std::move(p)); }});
//
// One async_keepalive per call, shared by its questions: the progress counts on across them.
#pragma once

#include <elicit/detail/steady_after.hpp>
#include <elicit/form/form.hpp>
#include <elicit/protocol/ask.hpp>
#include <elicit/protocol/progress.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
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

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <variant>

namespace elicit {

// The keep-alive of one call: its clock (the token and the count), how often, and how a
// notification is written. `notify` takes the params of a notifications/progress and writes
// the notification on the call's stream (where the question went); what it throws ends the wait
// as a failed send does. It is called while `send` waits, never twice at once, and never
// cancelled half way (a notification is written whole or not at all); it may be called while
// the question itself is still being written when the interval is shorter than that write: a
// transport that cannot write twice at once skips the notification then (the next comes an
// interval later). An interval of zero or less sends none.
struct async_keepalive {
  keepalive clock;
  std::chrono::steady_clock::duration interval = keepalive_interval;
  std::function<boost::asio::awaitable<void>(nlohmann::ordered_json)> notify;
};

struct async_ask_options {
  ask_options ask{};
  // How long each form sent may wait for its reply (a person gets the same time for every
  // attempt, so an ask waits at most max_attempts times this); zero waits for as long as it takes.
  // When it runs out: outcome::timed_out (stop_reason::timed_out). question_timeout
  // (<elicit/protocol/progress.hpp>) is our suggestion.
  std::chrono::steady_clock::duration timeout{};
  // The call's keep-alive, when the client gave a progress token; none (null) costs nothing:
  // no coroutine, no timer, and the wait is as without it.
  std::shared_ptr<async_keepalive> keepalive{};
};

namespace detail {

// The keep-alive of one wait, and its timeout, on one timer: returns when the timeout runs out
// (never without one); throws operation_aborted when cancelled (the reply came first) and what
// notify throws. A late wake-up sends one notification and waits a whole interval again: no
// burst to catch up. The notification is written shielded from the cancellation (a write cut
// half way would break the stream); the cancellation is seen once it is written.
inline boost::asio::awaitable<void> keep_alive(async_keepalive& k, std::chrono::steady_clock::duration timeout) {
  using clock = std::chrono::steady_clock;
  const auto executor = co_await boost::asio::this_coro::executor;
  // Saturated, not overflowed: a timeout or an interval of hours or of duration::max() is allowed.
  const auto deadline = timeout > clock::duration::zero() ? detail::steady_after(timeout) : clock::time_point::max();
  boost::asio::steady_timer timer(executor);
  for (;;) {
    timer.expires_at(std::min(detail::steady_after(k.interval), deadline));
    co_await timer.async_wait(boost::asio::use_awaitable);
    if (clock::now() >= deadline) co_return;
    auto shielded = boost::asio::bind_cancellation_slot(boost::asio::cancellation_slot(), boost::asio::use_awaitable);
    auto writing = boost::asio::co_spawn(executor, k.notify(k.clock.next()), std::move(shielded));
    co_await std::move(writing);
    const auto state = co_await boost::asio::this_coro::cancellation_state;
    if (state.cancelled() != boost::asio::cancellation_type::none)
      throw boost::system::system_error(boost::asio::error::operation_aborted);
  }
}

// The client's reply to one form, or the reason the wait ended without one. The timeout races
// the send in a parallel group that ends at the first completion, success or failure
// (wait_for_one), not awaitable_operators' `||`, which waits on for a success: a send that fails
// would then be read as a timeout when the timer ran out.
template <class Send>
boost::asio::awaitable<std::variant<nlohmann::json, stop_reason>> await_plain(
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
  // included), and goes through as ask()'s send failures do. (Inline: a co_await of another
  // coroutine here would throw, the cancellation being seen.)
  const auto state = co_await boost::asio::this_coro::cancellation_state;
  if (state.cancelled() == boost::asio::cancellation_type::none) std::rethrow_exception(failure);
  co_return stop_reason::cancelled;
}

// The same with a keep-alive: its coroutine takes the timer's place (it keeps the timeout too).
template <class Send>
boost::asio::awaitable<std::variant<nlohmann::json, stop_reason>> await_kept(
    Send& send, nlohmann::ordered_json params, std::chrono::steady_clock::duration timeout, async_keepalive& keep) {
  std::exception_ptr failure;
  try {
    const auto executor = co_await boost::asio::this_coro::executor;
    auto [order, send_failure, reply, keep_failure] =
        co_await boost::asio::experimental::make_parallel_group(
            boost::asio::co_spawn(executor, send(std::move(params)), boost::asio::deferred),
            boost::asio::co_spawn(executor, keep_alive(keep, timeout), boost::asio::deferred))
            .async_wait(boost::asio::experimental::wait_for_one(), boost::asio::use_awaitable);
    if (order[0] == 0) {
      if (!send_failure) co_return std::move(reply);
      failure = send_failure;
    } else if (!keep_failure) {
      co_return stop_reason::timed_out;
    } else {
      failure = keep_failure;  // notify failed, or the wait was cancelled
    }
  } catch (...) {
    failure = std::current_exception();
  }
  const auto state = co_await boost::asio::this_coro::cancellation_state;  // judged as await_plain judges
  if (state.cancelled() == boost::asio::cancellation_type::none) std::rethrow_exception(failure);
  co_return stop_reason::cancelled;
}

// Not a coroutine: it hands over the wait that applies, so that a wait without a keep-alive
// holds nothing of one (a waiting question's memory is the server's bound on how many wait).
template <class Send>
boost::asio::awaitable<std::variant<nlohmann::json, stop_reason>> await_reply(
    Send& send, nlohmann::ordered_json params, std::chrono::steady_clock::duration timeout,
    async_keepalive* keep = nullptr) {
  if (keep != nullptr && keep->interval > std::chrono::steady_clock::duration::zero())
    return await_kept(send, std::move(params), timeout, *keep);
  return await_plain(send, std::move(params), timeout);
}

}  // namespace detail

// Asks `f` through `send` until the answer is valid, declined or cancelled, the client errs,
// max_attempts forms were sent, or the wait is cancelled (outcome::stopped) or times out
// (outcome::timed_out), with notifications/progress meanwhile when options.keepalive is set:
// ask_loop driven by co_await, with the same outcomes as ask() otherwise. The arguments are
// taken by value: the coroutine outlives the caller's expression. Throws (in the awaiting
// coroutine) what `send` and the keep-alive's notify throw but a cancellation of this coroutine, and form_error when an
// elicit::choice field of `f` has no choices.
template <class Form, class Send>
[[nodiscard]] boost::asio::awaitable<ask_result<Form>> async_ask(Send send, elicit::form<Form> f, std::string message,
                                                                 async_ask_options options = {}) {
  ask_loop<Form> loop(std::move(f), message, options.ask);
  std::string().swap(message);  // the loop has its copy: a waiting ask holds the message once
  while (!loop.done()) {
    auto reply = co_await detail::await_reply(send, loop.params(), options.timeout, options.keepalive.get());
    if (const auto* why = std::get_if<stop_reason>(&reply)) loop.stop(*why);
    else loop.take(std::get<nlohmann::json>(reply));
  }
  co_return std::move(loop).result();
}

// The same for a form with nothing set at run time.
template <class Form, class Send>
[[nodiscard]] boost::asio::awaitable<ask_result<Form>> async_ask(Send send, std::string message,
                                                                 async_ask_options options = {}) {
  return async_ask(std::move(send), elicit::form<Form>(), std::move(message), std::move(options));
}

}  // namespace elicit
