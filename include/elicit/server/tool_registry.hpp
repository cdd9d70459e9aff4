// The tools a server serves: each one's name, description and input schema, and its handler,
// either a tool written once that asks (a function returning elicit::tool<R>, <elicit/state/tool.hpp>)
// or a plain one that answers at once (returning R). R is what call_tool_result reads
// (<elicit/server/tool_result.hpp>). CMake target elicit::server.
//
//   elicit::tool_registry tools;
//   tools.add({"book_shipment", "Book a shipment, asking where and when."},
//             [](const elicit::tool_call& call) { return book_shipment(call.arguments()); });
//   tools.add({"version", "The server's version."}, [](const elicit::tool_call&) { return std::string("1.0"); });
//
// A dispatcher (<elicit/server/dispatcher.hpp>) lists them and runs them in either era: a tool
// that asks as pushes (2025-11-25) or rounds (2026-07-28), each written once. A tool may be
// served in one era alone (tool_spec::only_in: a server's tool of one version's shape) and ask
// with options of its own (tool_spec::options: one attempt where the others get three).
// Prompts are served the same way (<elicit/server/prompt_registry.hpp>).
#pragma once

#include <elicit/protocol/era.hpp>
#include <elicit/server/detail/handler_runs.hpp>
#include <elicit/server/tool_call.hpp>
#include <elicit/server/tool_result.hpp>
#include <elicit/state/tool.hpp>

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace elicit {

// Whether a tool runs as a task of the tasks extension (SEP-2663) at 2026-07-28, for a client
// whose request declares the extension: never (forbidden, the default), when the client
// declares it (optional: otherwise it answers at once, as any tool), or only so (required: a
// client that does not declare it gets -32021 naming the extension).
enum class task_support { forbidden, optional, required };

// What tools/list says of a tool.
struct tool_spec {
  std::string name;
  std::string description;
  // The JSON Schema of its arguments: an object schema. The default takes any object.
  nlohmann::ordered_json input_schema = {{"type", "object"}};
  // Served in this protocol era alone: listed and callable there, an unknown tool in the other. Empty: both.
  std::optional<era> only_in = std::nullopt;
  // How this tool asks (attempts, answers without a state, ...), instead of the dispatcher's
  // dispatcher_options::tool; its replay store, when null, is the dispatcher's.
  std::optional<tool_options> options = std::nullopt;
  // Runs as a task (optional, required) for a client whose request declares the tasks
  // extension; the server decides, and tools/list does not say (SEP-2663 dropped 2025-11-25's
  // execution.taskSupport). Its questions are then the task's inputRequests, answered with
  // tasks/update.
  task_support task = task_support::forbidden;
  // Which calls of a task tool become tasks: null, every one; else those it says yes to. A tool
  // that asks a question or two in rounds first (2026-07-28's InputRequiredResult) becomes a
  // task once they are answered: [](const tool_call& c) { return c.params().contains("inputResponses"); }.
  std::function<bool(const tool_call&)> task_when = nullptr;
};

namespace detail {

// A tool's value as the client reads it: its CallToolResult.
struct as_call_tool_result {
  template <class R>
  [[nodiscard]] nlohmann::ordered_json operator()(const R& value) const {
    return call_tool_result(value);
  }
};

}  // namespace detail

// A tool as the registry holds it: its spec, and how it runs (handler_runs::asks() tells a tool
// written once, push and round, from a plain one, answer).
struct registered_tool : detail::handler_runs {
  tool_spec spec;
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
  // The tool named `name` if it is served in era `e` (tool_spec::only_in), or null.
  [[nodiscard]] const registered_tool* find(std::string_view name, era e) const noexcept {
    const registered_tool* t = find(name);
    return t != nullptr && detail::served_in(t->spec.only_in, e) ? t : nullptr;
  }

  [[nodiscard]] bool empty() const noexcept { return tools_.empty(); }
  // Every tool, in the order added.
  [[nodiscard]] const std::vector<registered_tool>& all() const noexcept { return tools_; }
  // Whether some tool is served in era `e`: then the era has tools/list, tools/call and the
  // `tools` capability.
  [[nodiscard]] bool serves(era e) const noexcept {
    for (const registered_tool& t : tools_)
      if (detail::served_in(t.spec.only_in, e)) return true;
    return false;
  }

  // The `tools` array of a tools/list result, every tool in the order added. Throws only
  // std::bad_alloc.
  [[nodiscard]] nlohmann::ordered_json list() const { return listed(std::nullopt); }
  // The same, of the tools served in era `e`. Throws only std::bad_alloc.
  [[nodiscard]] nlohmann::ordered_json list(era e) const { return listed(e); }

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
    tools_.push_back({detail::runs_of<Returned, detail::as_call_tool_result>(std::move(handler)), std::move(spec)});
  }

  [[nodiscard]] nlohmann::ordered_json listed(std::optional<era> e) const {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const registered_tool& t : tools_)
      if (!e || detail::served_in(t.spec.only_in, *e))
        out.push_back(
            {{"name", t.spec.name}, {"description", t.spec.description}, {"inputSchema", t.spec.input_schema}});
    return out;
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
