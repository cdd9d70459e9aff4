// The notifications a server sends about a call that waits for its question's answer, as every
// transport writes them: progress that keeps the call alive, and the withdrawal of a question
// given up on.
#pragma once

#include <elicit/protocol/ask.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <utility>

namespace elicit::detail {

// The notification that withdraws a question the server stopped waiting for (the spec: the
// sender of a request it gives up on SHOULD say so), so that the client closes the form.
inline nlohmann::ordered_json question_withdrawn(std::int64_t question, stop_reason why) {
  return {{"jsonrpc", "2.0"},
          {"method", "notifications/cancelled"},
          {"params",
           {{"requestId", question},
            {"reason", why == stop_reason::timed_out ? "No answer came in time" : "The tool call was cancelled"}}}};
}

// The notifications/progress that keeps a waiting call alive, with its clock's next params.
inline nlohmann::ordered_json progress_notification(nlohmann::ordered_json params) {
  return {{"jsonrpc", "2.0"}, {"method", "notifications/progress"}, {"params", std::move(params)}};
}

}  // namespace elicit::detail
