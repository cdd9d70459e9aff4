// What docs/security.md's snippets take as given: the request being handled, the secret from
// the store, and the program's own log. It comes after the snippets' own includes:
// elicit::memory_replay_guard is there only when a snippet includes <elicit/state/state.hpp>.
#pragma once

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <string>
#include <utility>

inline const std::string secret_from_store = elicit::state_key::generate().to_text();
inline const std::string caller_id = "alice";
inline const nlohmann::json salient_arguments = {{"order", "A-17"}};
inline const nlohmann::json request_id = 12;
inline elicit::memory_replay_guard seen;

template <class A, class... More>
void log(fmt::format_string<A, More...> format, A&& a, More&&... more) {
  fmt::print(stderr, format, std::forward<A>(a), std::forward<More>(more)...);
}
