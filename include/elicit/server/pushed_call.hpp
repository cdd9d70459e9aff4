// A 2025-11-25 call of a handler that asks (a tool's tools/call, a prompt's prompts/get), as a
// dispatcher hands it to its transport (dispatched::kind::push): the questions to send one by
// one, the client's answers to take, and the response once done. CMake target elicit::server.
//
//   while (!call.done()) { send(call.params()); call.take(read_answer()); }
//   send(call.response());
#pragma once

#include <elicit/server/detail/failure_response.hpp>
#include <elicit/server/detail/handler_runs.hpp>
#include <elicit/state/tool.hpp>

#include <nlohmann/json.hpp>

#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace elicit {

// A 2025-11-25 tools/call of a tool that asks, or prompts/get of a prompt that asks: the
// transport sends params() as an elicitation/create, hands the client's response to take() (or
// stop() when it stops waiting), and again until done(); then response() is the JSON-RPC
// response to send. A call stopped because it was cancelled gets none: the spec sends nothing
// for a cancelled request.
class pushed_call {
 public:
  // `method` ("tools/call", "prompts/get") and `name` (the tool's, the prompt's) name the call in
  // the log. Throws only std::bad_alloc.
  pushed_call(nlohmann::json id, std::string method, std::string name, std::unique_ptr<detail::pushed_tool> run,
              std::optional<nlohmann::json> token, std::function<void(std::string_view)> log)
      : id_(std::move(id)),
        method_(std::move(method)),
        name_(std::move(name)),
        run_(std::move(run)),
        token_(std::move(token)),
        log_(std::move(log)) {}

  // The id of the tools/call or prompts/get, and which of the two it is.
  [[nodiscard]] const nlohmann::json& id() const noexcept { return id_; }
  [[nodiscard]] const std::string& method() const noexcept { return method_; }
  // The call's progressToken, when it gave one (for notifications/progress while it waits).
  [[nodiscard]] const std::optional<nlohmann::json>& progress_token() const noexcept { return token_; }

  // Runs the tool up to its first question, once: done() and params() start it too. A
  // transport that refuses the call (too many waiting, an id in use) never starts it, so the
  // tool never ran. What the handler or the tool throws is kept for response().
  void start() noexcept {
    if (started_) return;
    started_ = true;
    try {
      run_->start();
    } catch (...) {
      failure_ = std::current_exception();
    }
  }
  [[nodiscard]] bool done() noexcept {
    start();
    return failure_ != nullptr || run_->done();
  }
  // The params of the elicitation/create to send now. Throws std::logic_error when done().
  [[nodiscard]] nlohmann::ordered_json params() {
    if (done()) throw std::logic_error("elicit::pushed_call::params: the call is done; send response()");
    try {
      return run_->params();
    } catch (...) {
      failure_ = std::current_exception();
      throw std::logic_error("elicit::pushed_call::params: the call failed; send response()");
    }
  }
  // The client's whole JSON-RPC response to the last params.
  void take(const nlohmann::json& reply) {
    step([&] { run_->take(reply); });
  }
  // The server stops waiting: the question now and every later one end with `why`, unsent.
  void stop(stop_reason why) {
    stopped_ = stopped_ ? stopped_ : std::optional(why);
    step([&] { run_->stop(why); });
  }
  // Whether it was stopped as cancelled: then nothing is sent.
  [[nodiscard]] bool cancelled() const noexcept { return stopped_ == stop_reason::cancelled; }

  // The response once done(): the tool's result, or the error it ended with. Never throws but
  // std::bad_alloc.
  [[nodiscard]] nlohmann::ordered_json response();

 private:
  template <class F>
  void step(F&& f) {
    if (done()) return;
    try {
      f();
    } catch (...) {
      failure_ = std::current_exception();
    }
  }

  nlohmann::json id_;
  std::string method_;
  std::string name_;
  std::unique_ptr<detail::pushed_tool> run_;
  std::optional<nlohmann::json> token_;
  std::function<void(std::string_view)> log_;
  std::optional<stop_reason> stopped_;
  std::exception_ptr failure_;
  bool started_ = false;
};

inline nlohmann::ordered_json pushed_call::response() {
  if (!done())
    failure_ = std::make_exception_ptr(std::logic_error("elicit::pushed_call::response: the call is not done"));
  if (!failure_) {
    try {
      return {{"jsonrpc", "2.0"}, {"id", id_}, {"result", run_->result()}};
    } catch (...) {
      failure_ = std::current_exception();
    }
  }
  return detail::failure_response(id_, failure_, log_ ? log_ : detail::log_to_stderr, method_, name_);
}

}  // namespace elicit
