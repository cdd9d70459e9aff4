// How a handler of a tool or a prompt is run, written once for both: a plain one answers at once,
// one written as elicit::tool<R> (<elicit/state/tool.hpp>) runs as pushes at 2025-11-25 and as rounds
// at 2026-07-28. What tells them apart is the result's conversion (a CallToolResult for a tool,
// a GetPromptResult for a prompt), a parameter here.
//
//   detail::handler_runs runs = detail::runs_of<returned, detail::as_call_tool_result>(handler);
//   nlohmann::ordered_json r = runs.answer(call);           // a plain handler
#pragma once

#include <elicit/protocol/era.hpp>
#include <elicit/server/tool_call.hpp>
#include <elicit/state/state.hpp>
#include <elicit/state/tool.hpp>
#include <elicit/state/tool_loop.hpp>
#include <elicit/state/tool_round.hpp>

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace elicit::detail {

// Whether something declared `only_in` (a tool, a prompt) is served in era `e`: nothing
// declared is both.
[[nodiscard]] constexpr bool served_in(const std::optional<era>& only_in, era e) noexcept {
  return !only_in || *only_in == e;
}

// A 2025-11-25 request of a handler that asks, whatever its R: tool_loop's steps, its result
// converted (a CallToolResult, a GetPromptResult). Built without running the handler: start()
// runs it up to its first question, once the transport has taken the request (a request it
// refuses never ran).
class pushed_tool {
 public:
  virtual ~pushed_tool() = default;
  virtual void start() = 0;                              // throws what the handler or the tool threw
  [[nodiscard]] virtual bool done() const noexcept = 0;  // after start()
  [[nodiscard]] virtual nlohmann::ordered_json params() const = 0;
  virtual void take(const nlohmann::json& reply) = 0;
  virtual void stop(stop_reason why) = 0;
  [[nodiscard]] virtual nlohmann::ordered_json result() = 0;  // throws what the tool, its loop or the conversion threw
};

// A 2025-11-25 request as its handler sees it for as long as it runs: the tool is a coroutine
// that takes its tool_call by reference and resumes long after the message it came in is gone,
// so the call keeps its own params.
class kept_call {
 public:
  explicit kept_call(const tool_call& c)
      : params_(c.params()), call_(c.protocol(), params_, c.principal(), c.modes()) {}
  kept_call(const kept_call&) = delete;  // call_ refers to params_
  kept_call& operator=(const kept_call&) = delete;
  [[nodiscard]] const tool_call& call() const noexcept { return call_; }

 private:
  nlohmann::json params_;
  tool_call call_;
};

// `Convert{}(r)` is the result the client reads of what the tool returned.
template <class R, class Convert>
class pushed_tool_of final : public pushed_tool {
 public:
  // start() runs handler(call) on the call kept here, which the tool does not outlive.
  pushed_tool_of(const tool_call& call, std::function<tool<R>(const tool_call&)> handler, const tool_options& options)
      : kept_(call), handler_(std::move(handler)), options_(options) {}
  void start() override {
    if (!loop_) loop_.emplace(handler_(kept_.call()), options_);
  }
  [[nodiscard]] bool done() const noexcept override { return loop_ && loop_->done(); }
  [[nodiscard]] nlohmann::ordered_json params() const override { return loop_.value().params(); }
  void take(const nlohmann::json& reply) override { loop_.value().take(reply); }
  void stop(stop_reason why) override { loop_.value().stop(why); }
  [[nodiscard]] nlohmann::ordered_json result() override { return Convert{}(std::move(loop_.value()).result()); }

 private:
  kept_call kept_;  // first: the loop, and the tool in it, are destroyed before it
  std::function<tool<R>(const tool_call&)> handler_;
  tool_options options_;
  std::optional<tool_loop<R>> loop_;
};

// What a handler's elicit::tool<R> returns: R.
template <class T>
struct tool_value {};
template <class R>
struct tool_value<tool<R>> {
  using type = R;
};
template <class T>
concept asking_handler_result = requires {
  typename tool_value<T>::type;
};

// One step of a handler that asks, run as a task: replayed from the answers recorded, it
// returned (its result converted), or these questions are open, each under the tool's key with
// its elicitation/create request; `kept` are the answers to keep for the next step.
struct task_step {
  std::optional<nlohmann::ordered_json> result;
  std::vector<std::pair<std::string, nlohmann::ordered_json>> questions;
  std::vector<recorded_answers> kept;
};

// The ways one handler runs. asks() tells a handler written once (push and round) from a plain
// one (answer).
struct handler_runs {
  // A plain handler: its result, converted.
  std::function<nlohmann::ordered_json(const tool_call&)> answer;
  // A handler that asks, at 2025-11-25: its loop, run up to its first question.
  std::function<std::unique_ptr<pushed_tool>(const tool_call&, const tool_options&)> push;
  // A handler that asks, at 2026-07-28: one round, its result converted or an InputRequiredResult.
  std::function<nlohmann::ordered_json(const tool_call&, const key_ring&, const state_binding&, const tool_options&)>
      round;

  // A handler that asks, as a task: one step from `records` (and `first`: answers by key for the
  // questions it asks at once).
  std::function<task_step(const tool_call&, std::vector<recorded_answers>&, const nlohmann::json&, const tool_options&)>
      step;

  [[nodiscard]] bool asks() const noexcept { return static_cast<bool>(push); }
};

// The runs of `handler`, which returns `Returned` (elicit::tool<R>, or a value Convert takes).
// The registries check what a handler returns first, each saying it in its own words.
template <class Returned, class Convert, class Handler>
[[nodiscard]] handler_runs runs_of(Handler handler) {
  handler_runs runs;
  if constexpr (asking_handler_result<Returned>) {
    using value = typename tool_value<Returned>::type;
    // push and round call the same handler: one copy, shared.
    auto shared = std::make_shared<Handler>(std::move(handler));
    runs.push = [shared](const tool_call& call, const tool_options& options) -> std::unique_ptr<pushed_tool> {
      return std::make_unique<pushed_tool_of<value, Convert>>(
          call, [shared](const tool_call& c) { return (*shared)(c); }, options);
    };
    runs.round = [shared](const tool_call& call, const key_ring& ring, const state_binding& binding,
                          const tool_options& options) -> nlohmann::ordered_json {
      auto r = tool_round((*shared)(call), call.params(), ring, binding, options);
      if (!r.done()) return r.input_required();
      return Convert{}(r.value());
    };
    runs.step = [shared](const tool_call& call, std::vector<recorded_answers>& records, const nlohmann::json& first,
                         const tool_options& options) -> task_step {
      tool<value> t = (*shared)(call);
      replay_step at = replay(t, records, options.ask, [&first](const std::string& key) -> const nlohmann::json* {
        const auto it = first.find(key);
        return it == first.end() ? nullptr : &*it;
      });
      task_step out;
      if (at.pending.empty()) {
        out.result = Convert{}(tool_access::result(t));
        return out;
      }
      for (asked_question* q : at.pending)
        out.questions.emplace_back(q->key(),
                                   nlohmann::ordered_json{{"method", "elicitation/create"}, {"params", q->params()}});
      out.kept = std::move(at.kept);
      return out;
    };
  } else {
    runs.answer = [h = std::move(handler)](const tool_call& call) { return Convert{}(h(call)); };
  }
  return runs;
}

}  // namespace elicit::detail
