// Opening a sealed state from a Boost.Asio coroutine without blocking the threads that serve
// connections: open() runs on an executor kept for blocking work (a boost::asio::thread_pool),
// and the coroutine resumes on its own executor with the result. For a replay_guard that waits
// on the network, as redis_replay_guard (<elicit/redis/replay_guard.hpp>) does: each open then holds a pool
// thread, for at most the guard's timeouts, and never an I/O thread. Needs elicit::asio and
// elicit::state (and elicit::redis for the Redis guard).
//
//   boost::asio::thread_pool blocking(4);                  // as many as Redis calls at once
//   elicit::opened<Progress> p =
//       co_await elicit::async_open<Progress>(blocking.get_executor(), token, ring, here, {.replay = &seen});
//
// hiredis' own asynchronous API has no Asio adapter; a pool costs a thread per call in flight
// and keeps the guard's code the one that the blocking tests check.
#pragma once

#include <elicit/state/state.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <optional>
#include <string>
#include <utility>

namespace elicit {

// open<State>(request_state, ring, binding, options) run on `blocking`, awaited. `ring` and
// whatever options.replay points to must outlive the call; the token and the binding are
// copied into the coroutine. Throws what open throws (std::bad_alloc only); the reasons a state
// does not open are in the result, as from open.
template <class State, class Executor>
[[nodiscard]] boost::asio::awaitable<opened<State>> async_open(Executor blocking, std::string request_state,
                                                               const key_ring& ring, state_binding binding,
                                                               open_options options = {}) {
  // co_spawn wants a result it can make empty: opened<State> has none, an optional has.
  std::optional<opened<State>> result = co_await boost::asio::co_spawn(
      blocking,
      [&]() -> boost::asio::awaitable<std::optional<opened<State>>> {
        co_return open<State>(request_state, ring, binding, options);
      },
      boost::asio::use_awaitable);
  co_return std::move(*result);
}

}  // namespace elicit
