// The prompts a server serves, written once like its tools: each one's name, description and
// arguments, and its handler, either a prompt that asks (a function returning elicit::tool<R>,
// <elicit/state/tool.hpp>) or a plain one that answers at once (returning R). R is what
// get_prompt_result reads (<elicit/server/prompt_result.hpp>). CMake target elicit::server.
//
//   elicit::prompt_registry prompts;
//   prompts.add({"greeting", "A greeting.", {{{"name", "who"}, {"required", true}}}},
//               [](const elicit::tool_call& call) {
//                 return elicit::prompt_result{"A greeting", "Say hello to " + call.arguments().value("who", "") +
//                 "."};
//               });
//
// A dispatcher (<elicit/server/dispatcher.hpp>) answers prompts/list and prompts/get with them,
// a prompt that asks run as pushes (2025-11-25) or rounds (2026-07-28) exactly as a tool is,
// its arguments the handler's tool_call::arguments().
#pragma once

#include <elicit/protocol/era.hpp>
#include <elicit/server/detail/handler_runs.hpp>
#include <elicit/server/prompt_result.hpp>
#include <elicit/server/tool_call.hpp>
#include <elicit/state/tool.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace elicit {

// What prompts/list says of a prompt, and where and how it is served.
struct prompt_spec {
  std::string name;
  std::string description;
  // The PromptArgument list prompts/list shows: [{"name":..., "description":..., "required":...}, ...].
  // Null (what `{}` makes in an initializer) is taken for none.
  nlohmann::ordered_json arguments = nlohmann::ordered_json::array();
  // Served in this protocol era alone: listed and got there, an unknown prompt in the other. Empty: both.
  std::optional<era> only_in = std::nullopt;
  // How this prompt asks, instead of the dispatcher's dispatcher_options::tool; its replay
  // store, when null, is the dispatcher's.
  std::optional<tool_options> options = std::nullopt;
};

namespace detail {

// A prompt's value as the client reads it: its GetPromptResult.
struct as_get_prompt_result {
  template <class R>
  [[nodiscard]] nlohmann::ordered_json operator()(const R& value) const {
    return get_prompt_result(value);
  }
};

}  // namespace detail

// A prompt as the registry holds it: its spec, and how it runs (handler_runs::asks() tells a
// prompt written once, push and round, from a plain one, answer).
struct registered_prompt : detail::handler_runs {
  prompt_spec spec;
};

class prompt_registry {
 public:
  // Adds a prompt. `handler(const tool_call&)` returns elicit::tool<R> (a prompt that asks,
  // written once for both eras) or R (answers at once). Throws std::invalid_argument for an
  // empty name, a name given twice, or arguments that are not a list of objects each with a
  // string name.
  template <class Handler>
  void add(prompt_spec spec, Handler handler) {
    if constexpr (!std::is_invocable_v<const Handler&, const tool_call&>) {
      static_assert(std::is_invocable_v<const Handler&, const tool_call&>,
                    "elicit::prompt_registry::add: the handler takes the request: (const elicit::tool_call&)");
    } else {
      add_callable(std::move(spec), std::move(handler));
    }
  }

  // The prompt named `name`, or null.
  [[nodiscard]] const registered_prompt* find(std::string_view name) const noexcept {
    for (const registered_prompt& p : prompts_)
      if (p.spec.name == name) return &p;
    return nullptr;
  }
  // The prompt named `name` if it is served in era `e` (prompt_spec::only_in), or null.
  [[nodiscard]] const registered_prompt* find(std::string_view name, era e) const noexcept {
    const registered_prompt* p = find(name);
    return p != nullptr && detail::served_in(p->spec.only_in, e) ? p : nullptr;
  }

  [[nodiscard]] bool empty() const noexcept { return prompts_.empty(); }
  // Whether some prompt is served in era `e`: then the era has prompts/list, prompts/get and
  // the `prompts` capability.
  [[nodiscard]] bool serves(era e) const noexcept {
    for (const registered_prompt& p : prompts_)
      if (detail::served_in(p.spec.only_in, e)) return true;
    return false;
  }

  // The `prompts` array of a prompts/list result, every prompt in the order added. Throws only
  // std::bad_alloc.
  [[nodiscard]] nlohmann::ordered_json list() const { return listed(std::nullopt); }
  // The same, of the prompts served in era `e`. Throws only std::bad_alloc.
  [[nodiscard]] nlohmann::ordered_json list(era e) const { return listed(e); }

 private:
  // One static_assert per mistake, and nothing after it: each branch instantiates only what
  // compiles for its handler.
  template <class Handler>
  void add_callable(prompt_spec spec, Handler handler) {
    using returned = std::invoke_result_t<const Handler&, const tool_call&>;
    if constexpr (!detail::asking_handler_result<returned> && !detail::prompt_result_type<returned>) {
      static_assert(detail::prompt_result_type<returned>,
                    "elicit::prompt_registry::add: the handler returns elicit::tool<R> (a prompt that asks) or R: an "
                    "elicit::prompt_result, a GetPromptResult JSON, or a type with to_prompt_result");
    } else {
      if (spec.arguments.is_null()) spec.arguments = nlohmann::ordered_json::array();
      check(spec);
      prompts_.push_back(
          {detail::runs_of<returned, detail::as_get_prompt_result>(std::move(handler)), std::move(spec)});
    }
  }

  [[nodiscard]] nlohmann::ordered_json listed(std::optional<era> e) const {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const registered_prompt& p : prompts_)
      if (!e || detail::served_in(p.spec.only_in, *e))
        out.push_back({{"name", p.spec.name}, {"description", p.spec.description}, {"arguments", p.spec.arguments}});
    return out;
  }

  void check(const prompt_spec& spec) const {
    if (spec.name.empty()) throw std::invalid_argument("elicit::prompt_registry::add: a prompt needs a name");
    if (find(spec.name) != nullptr)
      throw std::invalid_argument("elicit::prompt_registry::add: a prompt named \"" + spec.name +
                                  "\" was added already");
    const auto named = [](const nlohmann::ordered_json& a) {
      const auto n = a.find("name");  // end() of anything but an object
      return n != a.end() && n->is_string();
    };
    if (!spec.arguments.is_array() || !std::all_of(spec.arguments.begin(), spec.arguments.end(), named))
      throw std::invalid_argument("elicit::prompt_registry::add: \"" + spec.name +
                                  "\"'s arguments must be a list of PromptArguments, [{\"name\":...},...]");
  }

  std::vector<registered_prompt> prompts_;
};

}  // namespace elicit
