// The envelope of both protocol eras, written once and free of I/O: a dispatcher takes one
// JSON-RPC message a client sent and says what to do with it. It tells the era the message
// speaks (<elicit/protocol/era.hpp>), refuses what is malformed for that era, answers initialize,
// server/discover, ping, tools/list, tools/call, prompts/list and prompts/get, finishes every
// 2026-07-28 result (resultType, caching hints, server info), and maps a tool's outcomes and
// elicit's refusals to each era's errors. A tool or a prompt written once (<elicit/state/tool.hpp>)
// runs as rounds at 2026-07-28, answered here at once, and as pushes at 2025-11-25: the
// transport sends each question and hands the answer back (pushed_call). Each era lists and
// serves only what is served in it (tool_spec::only_in, prompt_spec::only_in), and has the
// methods and capabilities of tools or prompts only when it serves some. CMake target
// elicit::server.
//
//   elicit::dispatcher server({"my-server", "1.0.0"}, ring);
//   server.tools().add({"book", "Book a table."}, [](const elicit::tool_call& c) { return book(c); });
//   server.prompts().add({"review", "Review code."}, [](const elicit::tool_call& c) { return review(c); });
//   elicit::client_session session;                      // one per 2025-11-25 client
//   elicit::dispatched d = server.handle(message, session, "stdio");
//   if (d.what == elicit::dispatched::kind::response) send(d.response);
//
// <elicit/server/stdio.hpp> is a whole transport on it: serve_stdio(server).
#pragma once

#include <elicit/answer/json_limits.hpp>
#include <elicit/protocol/era.hpp>
#include <elicit/protocol/progress.hpp>
#include <elicit/protocol/protocol.hpp>
#include <elicit/server/detail/failure_response.hpp>
#include <elicit/server/detail/handler_runs.hpp>
#include <elicit/server/detail/task_runner.hpp>
#include <elicit/server/prompt_registry.hpp>
#include <elicit/server/pushed_call.hpp>
#include <elicit/server/rpc_error.hpp>
#include <elicit/server/subscription.hpp>
#include <elicit/server/task_store.hpp>
#include <elicit/server/tool_call.hpp>
#include <elicit/server/tool_registry.hpp>
#include <elicit/state/replay_guard.hpp>
#include <elicit/state/state.hpp>
#include <elicit/state/tool.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elicit {

// Who the server is: initialize's serverInfo, and at 2026-07-28 every result's _meta. The name
// is also the audience of every state the server seals.
struct server_identity {
  std::string name;
  std::string version;

  [[nodiscard]] nlohmann::ordered_json to_json() const { return {{"name", name}, {"version", version}}; }
};

struct dispatcher_options {
  // How each tool or prompt that asks is run (attempts, rounds, the state's size and lifetime,
  // the replay store), unless its spec has options of its own. A 2026-07-28 retry with answers
  // and no requestState answers the first round (answers_without_state): clients that answer
  // from the first round's questions alone need it. Without a replay store of its own, the
  // dispatcher's in memory is used (one process), by a spec's own options without one too.
  tool_options tool = [] {
    tool_options o;
    o.answers_without_state = true;
    return o;
  }();
  // What a tool's arguments may be for the digest a sealed state is bound to: the transport's
  // own read limits are enough (it read the arguments within them).
  json_limits arguments{.max_bytes = std::size_t{4} * 1024 * 1024, .max_depth = 64};
  // How tools run as tasks of the tasks extension (tool_spec::task): where the records are
  // kept, their lifetime, the threads that run their steps.
  task_options tasks;
  // Where the dispatcher writes why a call failed (what the client is not told: an internal
  // error's what(), why a state did not open). Null: stderr.
  std::function<void(std::string_view)> log;
};

// What a transport keeps of a 2025-11-25 client between its requests: what initialize declared.
// One per connection over stdio, one per Mcp-Session-Id over HTTP. 2026-07-28 needs none.
struct client_session {
  bool initialized = false;  // initialize was answered
  elicitation_modes modes;   // the elicitation modes it declared
};

// What a dispatcher says of one message.
struct dispatched {
  enum class kind {
    nothing,   // nothing to send: a notification, or a response nobody waits for
    response,  // send `response`
    answer,    // a client's response to a request of the server's, for the id in `id`: the transport's to match
    cancel,    // notifications/cancelled for the client's request `id`: stop serving it if it still runs
    push,      // a 2025-11-25 tools/call or prompts/get of a handler that asks: drive `call`
    listen,    // a 2026-07-28 subscriptions/listen agreed to: keep `listen`'s stream open (changes())
  };
  kind what = kind::nothing;
  nlohmann::ordered_json response;     // kind::response
  nlohmann::json id;                   // kind::answer and kind::cancel
  std::optional<pushed_call> call;     // kind::push
  std::optional<subscription> listen;  // kind::listen
};

class dispatcher {
 public:
  // `ring` seals and opens the 2026-07-28 states; it must outlive the dispatcher (a server that
  // adds or retires keys while it serves changes the same ring). Throws only std::bad_alloc.
  dispatcher(server_identity identity, const key_ring& ring, dispatcher_options options = {})
      : identity_(std::move(identity)), ring_(ring), options_(std::move(options)) {
    if (!options_.log) options_.log = detail::log_to_stderr;
    if (options_.tool.replay == nullptr) options_.tool.replay = &own_replay_;
    tasks_ = std::make_unique<detail::task_runner>(
        tools_, options_.tasks, [this](const registered_tool& t) { return options_for(t.spec.options); }, options_.log);
  }
  dispatcher(const dispatcher&) = delete;  // options_.tool.replay may point into it
  dispatcher& operator=(const dispatcher&) = delete;

  [[nodiscard]] tool_registry& tools() noexcept { return tools_; }
  [[nodiscard]] const tool_registry& tools() const noexcept { return tools_; }
  [[nodiscard]] prompt_registry& prompts() noexcept { return prompts_; }
  [[nodiscard]] const prompt_registry& prompts() const noexcept { return prompts_; }
  [[nodiscard]] const server_identity& identity() const noexcept { return identity_; }

  // What to do with `message`, one JSON-RPC message from the client (parsed within the
  // transport's limits), of the 2025-11-25 `session` it belongs to (initialize fills it in),
  // from `principal` (over stdio "stdio"; over HTTP who authenticated). Never throws but
  // std::bad_alloc: every failure is an error response.
  [[nodiscard]] dispatched handle(const nlohmann::json& message, client_session& session,
                                  const std::string& principal) const;

  // What subscription `s` sends now (<elicit/server/subscription.hpp>): a notifications/tasks
  // for each task watched that changed since the last call (each, the first time), in the order
  // the client named them. A task that ended is sent once more and no longer watched, a task
  // gone is dropped. The task store out of reach: nothing this time (logged), the same tasks
  // next time. Never throws but std::bad_alloc. Thread-safe for distinct subscriptions.
  [[nodiscard]] std::vector<nlohmann::ordered_json> changes(subscription& s) const;
  // The response that ends subscription `s` gracefully (SubscriptionsListenResult).
  [[nodiscard]] nlohmann::ordered_json closing(const subscription& s) const {
    nlohmann::ordered_json r = {{"_meta", {{subscription_id_key, s.id}}}};
    return {{"jsonrpc", "2.0"},
            {"id", s.id},
            {"result", finish_result("subscriptions/listen", std::move(r), identity_.to_json())}};
  }
  // How often a transport calls changes() for each subscription it keeps.
  [[nodiscard]] std::chrono::milliseconds notify_interval() const noexcept { return options_.tasks.notify_interval; }

 private:
  [[nodiscard]] static dispatched respond(nlohmann::ordered_json response) {
    dispatched d;
    d.what = dispatched::kind::response;
    d.response = std::move(response);
    return d;
  }
  [[nodiscard]] static dispatched error(const nlohmann::json& id, int code, const std::string& text) {
    return respond(rpc_error(code, text).response(id));
  }
  [[nodiscard]] dispatched result(const nlohmann::json& id, era e, std::string_view method,
                                  nlohmann::ordered_json r) const {
    if (e == era::v2026_07_28) r = finish_result(method, std::move(r), identity_.to_json());
    return respond({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(r)}});
  }
  // What era `e` serves: tools, prompts, each only when one is served in it.
  [[nodiscard]] nlohmann::ordered_json capabilities(era e) const {
    nlohmann::ordered_json caps = nlohmann::ordered_json::object();
    if (tools_.serves(e)) caps["tools"] = nlohmann::ordered_json::object();
    if (prompts_.serves(e)) caps["prompts"] = nlohmann::ordered_json::object();
    if (serves_tasks(e)) caps["extensions"] = {{tasks_extension, nlohmann::ordered_json::object()}};
    return caps;
  }
  // Whether some tool runs as a task in era `e` (2026-07-28 alone): then the era has the
  // extension's capability and its methods.
  [[nodiscard]] bool serves_tasks(era e) const noexcept {
    if (e != era::v2026_07_28) return false;
    for (const registered_tool& t : tools_.all())
      if (t.spec.task != task_support::forbidden && detail::served_in(t.spec.only_in, e)) return true;
    return false;
  }
  // The error for a client that did not declare the tasks extension (-32021 at 2026-07-28).
  [[nodiscard]] static dispatched tasks_undeclared(const nlohmann::json& id, era e) {
    const nlohmann::json required = {{"extensions", {{tasks_extension, nlohmann::json::object()}}}};
    return respond(e == era::v2026_07_28 ? missing_capability_error(id, required)
                                         : missing_capability_error_2025(id, required));
  }
  // A task request while the store cannot answer: it fails closed, in words; the cause is logged.
  [[nodiscard]] nlohmann::ordered_json store_unavailable(const nlohmann::json& id, const std::exception& e) const {
    options_.log(detail::message("tasks: ", e.what()));
    return rpc_error(-32603, "Internal error: the server's task store cannot be reached; try again later").response(id);
  }
  [[nodiscard]] dispatched task_request(const nlohmann::json& id, const std::string& method,
                                        const nlohmann::json& params, const std::string& principal) const;
  [[nodiscard]] dispatched listen(const nlohmann::json& id, const nlohmann::json& params,
                                  const std::string& principal) const;
  // What a 2026-07-28 state of this call is sealed for.
  [[nodiscard]] state_binding binding_of(std::string_view method, const std::string& name, const tool_call& call,
                                         const std::string& principal) const {
    return {identity_.name, principal, std::string(method), name, digest_of(call.arguments(), options_.arguments)};
  }
  // How a tool or prompt with options `own` asks: its own, with the dispatcher's replay store
  // unless it has one, else the dispatcher's.
  [[nodiscard]] tool_options options_for(const std::optional<tool_options>& own) const {
    if (!own) return options_.tool;
    tool_options o = *own;
    if (o.replay == nullptr) o.replay = options_.tool.replay;
    return o;
  }
  [[nodiscard]] dispatched notification(const std::string& method, const nlohmann::json& params,
                                        client_session& session) const;
  [[nodiscard]] dispatched request(const nlohmann::json& id, const std::string& method, const nlohmann::json& params,
                                   client_session& session, const std::string& principal) const;
  // A tools/call of one of `tools_` or a prompts/get of one of `prompts_`, as `method` says;
  // `what` ("tool", "prompt") is how its errors name it.
  template <class Registry>
  [[nodiscard]] dispatched serve(const nlohmann::json& id, era e, std::string_view method, std::string_view what,
                                 const Registry& registry, const nlohmann::json& params, const client_session& session,
                                 const std::string& principal) const;

  server_identity identity_;
  const key_ring& ring_;
  dispatcher_options options_;
  tool_registry tools_;
  prompt_registry prompts_;
  memory_replay_guard own_replay_;
  std::unique_ptr<detail::task_runner> tasks_;  // last: its threads stop before the rest goes
};

inline dispatched dispatcher::handle(const nlohmann::json& message, client_session& session,
                                     const std::string& principal) const {
  if (!message.is_object()) return error(nullptr, -32600, "Invalid Request: a JSON-RPC message is an object");
  const auto id = message.find("id");
  const auto method = message.find("method");
  if (method == message.end()) {  // a response, to a request of the server's
    if (id == message.end() || !(message.contains("result") || message.contains("error")))
      // id null: a message that is no request names none of the server's, and the client's own
      // request of that id must not read this as its answer.
      return error(nullptr, -32600, "Invalid Request: no method, result or error");
    dispatched d;
    d.what = dispatched::kind::answer;
    d.id = *id;
    return d;
  }
  if (!method->is_string()) return error(nullptr, -32600, "Invalid Request: the method must be a string");
  const auto p = message.find("params");
  static const nlohmann::json no_params = nlohmann::json::object();
  const nlohmann::json& params = p == message.end() ? no_params : *p;
  const std::string& name = method->get_ref<const std::string&>();
  if (id == message.end()) return notification(name, params, session);
  if (!id->is_string() && !id->is_number_integer())
    return error(nullptr, -32600, "Invalid Request: an id is a string or an integer");
  if (!params.is_object()) return error(*id, -32602, "Invalid params: params must be an object");
  return request(*id, name, params, session, principal);
}

inline dispatched dispatcher::notification(const std::string& method, const nlohmann::json& params,
                                           client_session& session) const {
  dispatched d;
  if (method == "notifications/initialized") {
    session.initialized = true;
  } else if (method == "notifications/cancelled" && params.is_object()) {
    const auto r = params.find("requestId");
    if (r != params.end() && (r->is_string() || r->is_number_integer())) {
      d.what = dispatched::kind::cancel;
      d.id = *r;
    }
  }
  return d;  // any other notification: nothing to answer
}

inline dispatched dispatcher::request(const nlohmann::json& id, const std::string& method, const nlohmann::json& params,
                                      client_session& session, const std::string& principal) const {
  const era e = era_of(params);
  if (e == era::v2026_07_28) {
    // As the HTTP transport reads them: the required _meta members first, then the version.
    if (auto malformed = malformed_meta(params)) return error(id, -32602, *malformed);
    if (auto refused = unsupported_version(id, params)) return respond(std::move(*refused));
    if (method == "server/discover")
      return result(id, e, method, {{"supportedVersions", supported_versions}, {"capabilities", capabilities(e)}});
    if (method == "subscriptions/listen") return listen(id, params, principal);
  } else {
    if (method == "initialize") {
      session.modes = modes_from_initialize(params);
      // The one session-era version this server speaks, whatever the client asked for: the
      // client decides whether to go on.
      return result(id, e, method,
                    {{"protocolVersion", version_of(era::v2025_11_25)},
                     {"capabilities", capabilities(e)},
                     {"serverInfo", identity_.to_json()}});
    }
    if (method == "ping") return result(id, e, method, nlohmann::ordered_json::object());
    if (method == "server/discover")
      return error(id, -32602, detail::message("Invalid params: _meta has no ", meta_key::protocol_version));
  }
  if ((method == "tasks/get" || method == "tasks/update" || method == "tasks/cancel") && serves_tasks(e))
    return task_request(id, method, params, principal);
  // An era that serves no tool (or prompt) has none of its methods, as a server without any.
  if (method == "tools/list" && tools_.serves(e)) return result(id, e, method, {{"tools", tools_.list(e)}});
  if (method == "tools/call" && tools_.serves(e))
    return serve(id, e, method, "tool", tools_, params, session, principal);
  if (method == "prompts/list" && prompts_.serves(e)) return result(id, e, method, {{"prompts", prompts_.list(e)}});
  if (method == "prompts/get" && prompts_.serves(e))
    return serve(id, e, method, "prompt", prompts_, params, session, principal);
  return error(id, -32601, "Method not found: " + detail::shown(method));
}

template <class Registry>
dispatched dispatcher::serve(const nlohmann::json& id, era e, std::string_view method, std::string_view what,
                             const Registry& registry, const nlohmann::json& params, const client_session& session,
                             const std::string& principal) const {
  const auto name = params.find("name");
  if (name == params.end() || !name->is_string()) return error(id, -32602, "Invalid params: name must be a string");
  const std::string& served_name = name->get_ref<const std::string&>();
  // One not served in this era is unknown here, in the same words as one never added.
  const auto* entry = registry.find(served_name, e);
  if (entry == nullptr) return error(id, -32602, detail::message("Unknown ", what, ": ", detail::shown(served_name)));
  if (const auto a = params.find("arguments"); a != params.end() && !a->is_object())
    return error(id, -32602, "Invalid params: arguments must be an object");
  const tool_call call(e, params, principal, session.modes);
  try {
    if constexpr (std::is_same_v<Registry, tool_registry>) {
      if (entry->spec.task != task_support::forbidden) {
        const bool declared = e == era::v2026_07_28 && declares_extension(params, tasks_extension);
        if (!declared && entry->spec.task == task_support::required) return tasks_undeclared(id, e);
        if (declared && (!entry->spec.task_when || entry->spec.task_when(call))) {
          detail::retry_answers seed;  // the answers of the rounds before, for a tool that asks
          if (entry->asks()) {
            const tool_options options = options_for(entry->spec.options);
            seed = detail::read_retry(input_responses(params, options.ask.decode), params, ring_,
                                      binding_of(method, served_name, call, principal), options);
          }
          try {
            return result(id, e, method, tasks_->create(*entry, params, principal, seed));
          } catch (const task_store_unavailable& failure) {
            return respond(store_unavailable(id, failure));
          }
        }
      }
    }
    if (!entry->asks()) return result(id, e, method, entry->answer(call));
    const tool_options options = options_for(entry->spec.options);
    if (e == era::v2025_11_25) {
      if (!session.modes.form)
        return respond(missing_capability_error_2025(id, {{"elicitation", {{"form", nlohmann::json::object()}}}}));
      dispatched d;
      d.what = dispatched::kind::push;
      d.call.emplace(id, std::string(method), served_name, entry->push(call, options), progress_token(params),
                     options_.log);
      return d;
    }
    return result(id, e, method, entry->round(call, ring_, binding_of(method, served_name, call, principal), options));
  } catch (...) {
    return respond(detail::failure_response(id, std::current_exception(), options_.log, method, served_name));
  }
}

inline dispatched dispatcher::task_request(const nlohmann::json& id, const std::string& method,
                                           const nlohmann::json& params, const std::string& principal) const {
  // The capability first: a client that did not declare the extension learns nothing of a task.
  if (!declares_extension(params, tasks_extension)) return tasks_undeclared(id, era::v2026_07_28);
  try {
    if (method == "tasks/get") return result(id, era::v2026_07_28, method, tasks_->get(params, principal));
    if (method == "tasks/update") tasks_->update(params, principal);
    if (method == "tasks/cancel") tasks_->cancel(params, principal);
    return result(id, era::v2026_07_28, method, nlohmann::ordered_json::object());  // the empty ack
  } catch (const task_store_unavailable& e) {
    return respond(store_unavailable(id, e));
  } catch (...) {
    return respond(detail::failure_response(id, std::current_exception(), options_.log, method, ""));
  }
}

// subscriptions/listen (2026-07-28): the task ids asked for that the caller may see, watched;
// the other notification types are left out of the agreement (this server's lists do not change).
inline dispatched dispatcher::listen(const nlohmann::json& id, const nlohmann::json& params,
                                     const std::string& principal) const {
  const auto filter = params.find("notifications");
  if (filter == params.end() || !filter->is_object())
    return error(id, -32602, "Invalid params: notifications must be an object (the notification types listened for)");
  dispatched d;
  d.what = dispatched::kind::listen;
  d.listen.emplace(subscription{id, principal, {}});
  const auto asked = filter->find("taskIds");
  if (asked == filter->end() || !serves_tasks(era::v2026_07_28)) return d;
  if (!declares_extension(params, tasks_extension)) return tasks_undeclared(id, era::v2026_07_28);
  if (!asked->is_array() || !std::all_of(asked->begin(), asked->end(), [](const auto& t) { return t.is_string(); }))
    return error(id, -32602, "Invalid params: notifications.taskIds must be an array of task ids (strings)");
  if (asked->size() > options_.tasks.max_watched)
    return error(id, -32602,
                 detail::message("Invalid params: a subscription watches at most ", options_.tasks.max_watched,
                                 " tasks; ", asked->size(), " were named"));
  try {
    for (const auto& t : *asked) {
      const std::string& task_id = t.get_ref<const std::string&>();
      const bool named_before = std::any_of(d.listen->tasks.begin(), d.listen->tasks.end(),
                                            [&](const subscription::watched& w) { return w.task_id == task_id; });
      if (!named_before && tasks_->current(task_id, principal)) d.listen->tasks.push_back({task_id, 0});
    }
  } catch (const task_store_unavailable& failure) {
    return respond(store_unavailable(id, failure));
  }
  return d;
}

inline std::vector<nlohmann::ordered_json> dispatcher::changes(subscription& s) const {
  std::vector<nlohmann::ordered_json> sent;
  try {
    for (auto w = s.tasks.begin(); w != s.tasks.end();) {
      const std::optional<task_record> r = tasks_->current(w->task_id, s.principal);
      if (!r) {
        w = s.tasks.erase(w);  // gone: its ttlMs passed
        continue;
      }
      if (r->version != w->version) {
        sent.push_back(s.notification(r->detailed()));
        w->version = r->version;
      }
      w = is_terminal(r->status) ? s.tasks.erase(w) : w + 1;
    }
  } catch (const task_store_unavailable& e) {
    options_.log(detail::message("tasks: a subscription's tasks were not read: ", e.what()));
  }
  return sent;
}

}  // namespace elicit
