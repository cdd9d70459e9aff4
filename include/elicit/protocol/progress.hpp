// Keeping a call alive while a person answers (2025-11-25): the server sends
// `notifications/progress` on the call's stream while a question waits, where the client gave
// a `progressToken`. A client that resets its request timeout on progress (the TypeScript SDK's
// `resetTimeoutOnProgress`) then keeps waiting for as long as the person takes, up to the
// server's own per-question timeout. Sans-I/O: no Asio here; the drivers are async_ask and
// async_run_tool (<elicit/asio/ask.hpp>, <elicit/asio/tool.hpp>: async_keepalive).
//
// A blocking transport uses the clock the same way, from the thread or event loop that waits:
//
//   std::optional<nlohmann::json> token = elicit::progress_token(request["params"]);
//   elicit::keepalive clock(*token);                   // one per call, only when there is a token
//   while (!answer_ready.wait_for(lock, elicit::keepalive_interval, [&] { return answered; }))
//     write_notification(stream, "notifications/progress", clock.next());  // same stream, serialised
//
// Why these defaults:
// - keepalive_interval (15 s): the TypeScript SDK cuts a request off after 60 s by default
//   (its hidden default on tools/call), and resets that clock on each progress notification
//   when asked to; four notifications a minute keep such a client waiting with room for one
//   lost or late, at a cost of one small SSE event per waiting question every 15 s.
// - question_timeout (10 min, a suggestion for async_ask_options::timeout): a person filling a
//   form may read, look something up, be interrupted; ten minutes holds the question's memory
//   for a bounded time, after which the question ends with outcome::timed_out.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace elicit {

inline constexpr std::chrono::seconds keepalive_interval{15};
inline constexpr std::chrono::minutes question_timeout{10};
// A progress token longer than this (a string) is not echoed: every notification carries the
// token, and a client's megabyte token would be written back every interval.
inline constexpr std::size_t max_progress_token_bytes = 256;

// The `_meta.progressToken` of a request's params (a tools/call or prompts/get), when it is a
// string (of at most max_progress_token_bytes) or an integer; anything else, a params that is
// not an object, a `_meta` that is not an object, a token of another type (a float, an object,
// null, a boolean), gives nothing. Reads a nlohmann::json or an ordered_json (the token alone
// is copied). Throws only std::bad_alloc (copying the token).
template <class Json>
[[nodiscard]] std::optional<nlohmann::json> progress_token(const Json& request_params) {
  if (!request_params.is_object()) return std::nullopt;
  const auto meta = request_params.find("_meta");
  if (meta == request_params.end() || !meta->is_object()) return std::nullopt;
  const auto token = meta->find("progressToken");
  if (token == meta->end()) return std::nullopt;
  if (token->is_number_unsigned()) return nlohmann::json(token->template get<std::uint64_t>());
  if (token->is_number_integer()) return nlohmann::json(token->template get<std::int64_t>());
  if (!token->is_string()) return std::nullopt;
  const auto& text = token->template get_ref<const std::string&>();
  if (text.size() > max_progress_token_bytes) return std::nullopt;
  return nlohmann::json(text);
}

// The keep-alive of one call: its progress token and how many notifications were sent. next()
// gives the params of the next `notifications/progress`, its `progress` strictly increasing from
// 1 across the whole call (every question the call asks shares the clock: the spec wants a
// token's progress to increase), with no `total` (how long a person takes is not known).
class keepalive {
 public:
  // `token` as progress_token() gave it; `message` goes with every notification (none when empty).
  // Throws only std::bad_alloc.
  explicit keepalive(nlohmann::json token, std::string message = "Waiting for the user's answer")
      : token_(std::move(token)), message_(std::move(message)) {}

  // {"progressToken": token, "progress": n, "message": ...}, n one more than the last. Throws
  // only std::bad_alloc.
  [[nodiscard]] nlohmann::ordered_json next() {
    nlohmann::ordered_json params{{"progressToken", token_}, {"progress", ++sent_}};
    if (!message_.empty()) params["message"] = message_;
    return params;
  }

  [[nodiscard]] std::uint64_t sent() const noexcept { return sent_; }
  [[nodiscard]] const nlohmann::json& token() const noexcept { return token_; }
  [[nodiscard]] const std::string& message() const noexcept { return message_; }

 private:
  nlohmann::json token_;
  std::string message_;
  std::uint64_t sent_ = 0;
};

}  // namespace elicit
