// The tools a server serves: each one's name, description and input schema, and its handler,
// either a tool written once that asks (a function returning elicit::tool<R>, <elicit/tool.hpp>)
// or a plain one that answers at once (returning R). R is what call_tool_result reads
// (<elicit/server/tool_result.hpp>). CMake target elicit::server.
//
//   elicit::tool_registry tools;
//   tools.add({"book_shipment", "Book a shipment, asking where and when."},
//             [](const elicit::tool_call& call) { return book_shipment(call.arguments()); });
//   tools.add({"version", "The server's version."}, [](const elicit::tool_call&) { return std::string("1.0"); });
//
// A dispatcher (<elicit/server/dispatcher.hpp>) lists them and runs them in either era: a tool
// that asks as pushes (2025-11-25) or rounds (2026-07-28), each written once.
#pragma once

#include <elicit/server/tool_call.hpp>
#include <elicit/server/tool_result.hpp>
#include <elicit/state.hpp>
#include <elicit/tool.hpp>

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace elicit {

// What tools/list says of a tool.
struct tool_spec {
  std::string name;
  std::string description;
  // The JSON Schema of its arguments: an object schema. The default takes any object.
  nlohmann::ordered_json input_schema = {{"type", "object"}};
};

namespace detail {

// A 2025-11-25 call of a tool that asks, whatever its R: tool_loop's steps, its result as a
// CallToolResult. Built without running the tool: start() runs it up to its first question,
// once the transport has taken the call (a call it refuses never ran).
class pushed_tool {
 public:
  virtual ~pushed_tool() = default;
  virtual void start() = 0;                              // throws what the handler or the tool threw
  [[nodiscard]] virtual bool done() const noexcept = 0;  // after start()
  [[nodiscard]] virtual nlohmann::ordered_json params() const = 0;
  virtual void take(const nlohmann::json& reply) = 0;
  virtual void stop(stop_reason why) = 0;
  [[nodiscard]] virtual nlohmann::ordered_json result() = 0;  // throws what the tool or its loop threw
};

// A 2025-11-25 call as its tool sees it for as long as it runs: the tool is a coroutine that
// takes its tool_call by reference and resumes long after the message it came in is gone, so
// the call keeps its own params.
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

template <class R>
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
  [[nodiscard]] nlohmann::ordered_json result() override { return call_tool_result(std::move(loop_.value()).result()); }

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

}  // namespace detail

// A tool as the registry holds it. asks() tells a tool written once (push and round) from a
// plain one (answer).
struct registered_tool {
  tool_spec spec;
  // A plain tool: the CallToolResult.
  std::function<nlohmann::ordered_json(const tool_call&)> answer;
  // A tool that asks, at 2025-11-25: its loop, run up to its first question.
  std::function<std::unique_ptr<detail::pushed_tool>(const tool_call&, const tool_options&)> push;
  // A tool that asks, at 2026-07-28: one round, the CallToolResult or an InputRequiredResult.
  std::function<nlohmann::ordered_json(const tool_call&, const key_ring&, const state_binding&, const tool_options&)>
      round;

  [[nodiscard]] bool asks() const noexcept { return static_cast<bool>(push); }
};

class tool_registry {
 public:
  // Adds a tool. `handler(const tool_call&)` returns elicit::tool<R> (a tool that asks, run
  // written once in both eras) or R (answers at once). Throws std::invalid_argument for an
  // empty name, a name given twice, or an input schema that is not an object schema.
  template <class Handler>
  void add(tool_spec spec, Handler handler) {
    if constexpr (!std::is_invocable_v<const Handler&, const tool_call&>) {
      static_assert(std::is_invocable_v<const Handler&, const tool_call&>,
                    "elicit::tool_registry::add: the handler takes the call: (const elicit::tool_call&)");
    } else {
      add_callable(std::move(spec), std::move(handler));
    }
  }

  // The tool named `name`, or null.
  [[nodiscard]] const registered_tool* find(std::string_view name) const noexcept {
    for (const registered_tool& t : tools_)
      if (t.spec.name == name) return &t;
    return nullptr;
  }

  [[nodiscard]] bool empty() const noexcept { return tools_.empty(); }

  // The `tools` array of a tools/list result, in the order added. Throws only std::bad_alloc.
  [[nodiscard]] nlohmann::ordered_json list() const {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const registered_tool& t : tools_)
      out.push_back({{"name", t.spec.name}, {"description", t.spec.description}, {"inputSchema", t.spec.input_schema}});
    return out;
  }

 private:
  // One static_assert per mistake, and nothing after it: each branch instantiates only what
  // compiles for its handler.
  template <class Handler>
  void add_callable(tool_spec spec, Handler handler) {
    using returned = std::invoke_result_t<const Handler&, const tool_call&>;
    if constexpr (!detail::asking_handler_result<returned> && !detail::tool_result_type<returned>) {
      static_assert(detail::tool_result_type<returned>,
                    "elicit::tool_registry::add: the handler returns elicit::tool<R> (a tool that asks) or R: an "
                    "elicit::tool_result, a std::string, a CallToolResult JSON, or a type with to_tool_result");
    } else {
      check(spec);
      add_checked<returned>(std::move(spec), std::move(handler));
    }
  }

  template <class Returned, class Handler>
  void add_checked(tool_spec spec, Handler handler) {
    using returned = Returned;
    registered_tool entry{std::move(spec), {}, {}, {}};
    if constexpr (detail::asking_handler_result<returned>) {
      auto shared = std::make_shared<Handler>(std::move(handler));
      entry.push = [shared](const tool_call& call,
                            const tool_options& options) -> std::unique_ptr<detail::pushed_tool> {
        return std::make_unique<detail::pushed_tool_of<typename detail::tool_value<returned>::type>>(
            call, [shared](const tool_call& c) { return (*shared)(c); }, options);
      };
      entry.round = [shared](const tool_call& call, const key_ring& ring, const state_binding& binding,
                             const tool_options& options) -> nlohmann::ordered_json {
        auto r = tool_round((*shared)(call), call.params(), ring, binding, options);
        if (!r.done()) return r.input_required();
        return call_tool_result(r.value());
      };
    } else {
      entry.answer = [h = std::move(handler)](const tool_call& call) { return call_tool_result(h(call)); };
    }
    tools_.push_back(std::move(entry));
  }

  void check(const tool_spec& spec) const {
    if (spec.name.empty()) throw std::invalid_argument("elicit::tool_registry::add: a tool needs a name");
    if (find(spec.name) != nullptr)
      throw std::invalid_argument("elicit::tool_registry::add: a tool named \"" + spec.name + "\" was added already");
    const auto type = spec.input_schema.find("type");
    if (!spec.input_schema.is_object() || type == spec.input_schema.end() || *type != "object")
      throw std::invalid_argument("elicit::tool_registry::add: \"" + spec.name +
                                  "\"'s input schema must be an object schema, {\"type\":\"object\",...}");
  }

  std::vector<registered_tool> tools_;
};

}  // namespace elicit
