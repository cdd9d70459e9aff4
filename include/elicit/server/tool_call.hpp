// One tools/call as a tool's handler sees it: which era it speaks, the tool's name and
// arguments, who calls, and the elicitation modes the client declared. CMake target
// elicit::server.
//
//   elicit::tool<elicit::tool_result> book(const elicit::tool_call& call) {
//     const std::string order = call.arguments().value("order", "");
//     ...
//   }
#pragma once

#include <elicit/protocol/capabilities.hpp>
#include <elicit/protocol/era.hpp>

#include <nlohmann/json.hpp>

#include <stop_token>
#include <string>
#include <string_view>

namespace elicit {

class tool_call {
 public:
  // `params` are the request's, which must outlive the call; `modes` are initialize's
  // (2025-11-25) or, at 2026-07-28, read here from the request's own _meta. Throws only
  // std::bad_alloc.
  // `stop`: what a call run as a task (<elicit/server/task_store.hpp>) is stopped by, when
  // tasks/cancel reaches it.
  tool_call(era protocol, const nlohmann::json& params, std::string principal, elicitation_modes session_modes,
            std::stop_token stop = {})
      : era_(protocol),
        params_(params),
        principal_(std::move(principal)),
        modes_(protocol == era::v2026_07_28 ? modes_from_request(params) : session_modes),
        stop_(std::move(stop)) {
    if (const auto a = params.find("arguments"); a != params.end() && a->is_object()) arguments_ = &*a;
  }

  [[nodiscard]] era protocol() const noexcept { return era_; }
  // The request's params, inputResponses and requestState included.
  [[nodiscard]] const nlohmann::json& params() const noexcept { return params_; }
  // The tool's arguments: an object, empty when the request gave none. Throws only
  // std::bad_alloc (making the one empty object, at the first call without arguments).
  [[nodiscard]] const nlohmann::json& arguments() const { return arguments_ ? *arguments_ : empty(); }
  // Who calls, as the transport names them: over stdio "stdio" (whoever started the process),
  // over HTTP what it authenticated. Sealed states are bound to it.
  [[nodiscard]] const std::string& principal() const noexcept { return principal_; }
  // The elicitation modes the client declared.
  [[nodiscard]] elicitation_modes modes() const noexcept { return modes_; }
  // True once the client cancelled the task this call runs as (tasks/cancel): a tool that works
  // long checks it now and then, and returns or throws when it is set. Never set otherwise.
  [[nodiscard]] bool stop_requested() const noexcept { return stop_.stop_requested(); }
  // The same as a std::stop_token, for a std::condition_variable_any or a std::stop_callback.
  [[nodiscard]] const std::stop_token& stop_token() const noexcept { return stop_; }

 private:
  static const nlohmann::json& empty() {
    static const nlohmann::json object = nlohmann::json::object();
    return object;
  }

  era era_;
  const nlohmann::json& params_;
  const nlohmann::json* arguments_ = nullptr;
  std::string principal_;
  elicitation_modes modes_;
  std::stop_token stop_;
};

}  // namespace elicit
