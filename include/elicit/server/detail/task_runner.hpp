// The tasks extension's engine (SEP-2663) behind a dispatcher: it makes a task of a tools/call,
// runs its steps on threads of its own, and answers tasks/get, tasks/update and tasks/cancel
// from the task store. A step of a tool written once replays it from the answers recorded
// (as tool_round does), so that a task waiting for a person is its record alone, wherever the
// store keeps it; a plain tool's step is the whole call, stopped by tasks/cancel through its
// tool_call::stop_token().
#pragma once

#include <elicit/detail/crypto.hpp>
#include <elicit/detail/message.hpp>
#include <elicit/protocol/era.hpp>
#include <elicit/server/detail/failure_response.hpp>
#include <elicit/server/rpc_error.hpp>
#include <elicit/server/task_record.hpp>
#include <elicit/server/task_store.hpp>
#include <elicit/server/tool_call.hpp>
#include <elicit/server/tool_registry.hpp>
#include <elicit/state/tool.hpp>
#include <elicit/state/tool_round.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

namespace elicit::detail {

// The error every tasks/* request gets for an id that is unknown, expired or another caller's:
// the same words, so that a task's existence tells nobody else anything.
inline rpc_error task_not_found() { return rpc_error(-32602, "Failed to retrieve task: Task not found"); }

class task_runner {
 public:
  // `options_for` gives how a registered tool asks (the dispatcher's options, or its own).
  task_runner(const tool_registry& tools, task_options options,
              std::function<tool_options(const registered_tool&)> options_for,
              std::function<void(std::string_view)> log)
      : tools_(tools),
        options_(options),
        options_for_(std::move(options_for)),
        log_(std::move(log)),
        store_(options_.store != nullptr ? options_.store : &own_store_) {}
  task_runner(const task_runner&) = delete;
  task_runner& operator=(const task_runner&) = delete;
  ~task_runner() {
    std::lock_guard lock(mutex_);
    for (auto& [id, source] : running_) source.request_stop();
    for (std::jthread& t : threads_) t.request_stop();
    ready_.notify_all();
  }

  // Makes a task of the call of `tool` with `params` by `principal`, and starts its first step:
  // the CreateTaskResult (resultType "task"). Throws rpc_error: params too large to keep, the
  // store full; task_store_unavailable.
  // `seed`: for a tool written once whose 2026-07-28 rounds came first, the answers they gave.
  [[nodiscard]] nlohmann::ordered_json create(const registered_tool& tool, const nlohmann::json& params,
                                              const std::string& principal, const retry_answers& seed = {}) {
    task_record r;
    r.id = base64url_encode(random_bytes(16));
    r.owner = principal;
    r.tool = tool.spec.name;
    r.params = params;
    r.round = seed.round;
    for (const recorded_answers& a : seed.records) r.answers.push_back({a.key, a.digest, a.answers});
    if (const auto given = params.find("inputResponses"); seed.stateless && given != params.end() && given->is_object())
      r.first = *given;
    const std::size_t size = r.to_json().dump().size();
    if (size > options_.max_record_bytes)
      throw rpc_error(-32602, message("The call's params are too large to run as a task (", size, " bytes, at most ",
                                      options_.max_record_bytes, ")."));
    r.created_ms = r.updated_ms = task_clock_ms();
    r.ttl_ms = options_.time_to_live.count();
    r.poll_interval_ms = options_.poll_interval.count();
    r.lease_ms = r.created_ms + options_.lease.count();
    if (!store_->create(r))
      throw rpc_error(-32603, "The server holds as many tasks as it can: try again once some have ended.");
    schedule(r.id);
    nlohmann::ordered_json created = {{"resultType", "task"}};
    created.update(r.task());
    return created;
  }

  // tasks/get: the DetailedTask. Throws rpc_error (task_not_found), task_store_unavailable.
  [[nodiscard]] nlohmann::ordered_json get(const nlohmann::json& params, const std::string& principal) {
    std::optional<task_record> r = current(text_of(params), principal);
    if (!r) throw task_not_found();
    return r->detailed();
  }

  // Task `id` as `principal` sees it now (a working task whose lease ran out on another
  // instance is failed first), or nothing: unknown, gone or another's. Throws
  // task_store_unavailable.
  [[nodiscard]] std::optional<task_record> current(const std::string& id, const std::string& principal) {
    if (id.empty()) return std::nullopt;
    std::optional<task_record> r = store_->find(id);
    if (!r || r->owner != principal) return std::nullopt;
    if (r->status != task_status::working || task_clock_ms() <= r->lease_ms || runs_here(r->id)) return r;
    try {
      return settle(std::move(*r), [](task_record& t) {
        t.status = task_status::failed;
        t.status_message = "The server that ran this task stopped before it ended.";
        t.error = rpc_error(-32603, "Internal error: the task's server stopped").response(nullptr).at("error");
      });
    } catch (const rpc_error&) {
      return std::nullopt;  // gone meanwhile
    }
  }

  // tasks/update: the answers to open input requests are kept; the others are ignored. When
  // every open request is answered, the next step runs. Throws rpc_error (task_not_found,
  // inputResponses not an object, answers too large), task_store_unavailable.
  void update(const nlohmann::json& params, const std::string& principal) {
    const auto responses = params.find("inputResponses");
    if (responses == params.end() || !responses->is_object())
      throw rpc_error(-32602, "Invalid params: inputResponses must be an object");
    task_record r = owned(params, principal);
    for (;;) {
      if (r.status != task_status::input_required) return;
      bool changed = false;
      for (const auto& [key, answer] : responses->items())
        if (r.asked.contains(key) && !r.given.contains(key)) {
          r.given[key] = answer;
          changed = true;
        }
      if (!changed) return;
      if (const std::size_t size = r.to_json().dump().size(); size > options_.max_record_bytes)
        throw rpc_error(-32602, message("The answers given are too large for this task to keep (", size,
                                        " bytes, at most ", options_.max_record_bytes, ")."));
      const bool all = r.given.size() == r.asked.size();
      r.updated_ms = task_clock_ms();
      if (all) {
        r.status = task_status::working;
        r.lease_ms = r.updated_ms + options_.lease.count();
      }
      if (store_->replace(r)) {
        if (all) schedule(r.id);
        return;
      }
      r = owned(params, principal);  // changed meanwhile: again, on what it is now
    }
  }

  // tasks/cancel: a task that has not ended is cancelled, and its step stopped. Throws rpc_error
  // (task_not_found), task_store_unavailable.
  void cancel(const nlohmann::json& params, const std::string& principal) {
    task_record r = owned(params, principal);
    if (!is_terminal(r.status))
      settle(std::move(r), [](task_record& t) {
        t.status = task_status::cancelled;
        t.status_message = "Cancelled by the client.";
      });
    std::lock_guard lock(mutex_);
    if (const auto it = running_.find(text_of(params)); it != running_.end()) it->second.request_stop();
  }

 private:
  static std::string text_of(const nlohmann::json& params) {
    const auto id = params.find("taskId");
    return id != params.end() && id->is_string() ? id->get<std::string>() : std::string();
  }
  // The record of params.taskId if `principal` created it. Throws task_not_found otherwise.
  task_record owned(const nlohmann::json& params, const std::string& principal) {
    const std::string id = text_of(params);
    if (id.empty()) throw task_not_found();
    std::optional<task_record> r = store_->find(id);
    if (!r || r->owner != principal) throw task_not_found();
    return std::move(*r);
  }
  // `change` applied to the record as the store has it now, unless it ended meanwhile: the
  // record as it then is.
  template <class Change>
  task_record settle(task_record r, const Change& change) {
    for (;;) {
      if (is_terminal(r.status)) return r;
      task_record next = r;
      change(next);
      next.updated_ms = task_clock_ms();
      next.input_requests = nlohmann::ordered_json::object();
      next.asked = nlohmann::json::object();
      next.given = nlohmann::json::object();
      if (store_->replace(next)) return next;
      std::optional<task_record> now = store_->find(r.id);
      if (!now) throw task_not_found();
      r = std::move(*now);
    }
  }

  bool runs_here(const std::string& id) {
    std::lock_guard lock(mutex_);
    return running_.contains(id);
  }

  void schedule(std::string id) {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(id));
    if (threads_.size() < std::max<std::size_t>(options_.threads, 1) && idle_ == 0)
      threads_.emplace_back([this](const std::stop_token& stop) { work(stop); });
    ready_.notify_one();
  }

  void work(const std::stop_token& stop) {
    std::unique_lock lock(mutex_);
    for (;;) {
      ++idle_;
      ready_.wait(lock, stop, [this] { return !queue_.empty(); });
      --idle_;
      if (stop.stop_requested()) return;
      std::string id = std::move(queue_.front());
      queue_.pop_front();
      std::stop_source source;
      running_.emplace(id, source);
      lock.unlock();
      try {
        step(id, source.get_token());
      } catch (const std::exception& e) {
        log_(message("tasks: step of ", id, " failed: ", e.what()));
      }
      lock.lock();
      running_.erase(id);
    }
  }

  // One step of task `id`: the tool run (a plain one whole, one written once to its next open
  // questions), and what it gave kept, unless the task was cancelled meanwhile.
  void step(const std::string& id, std::stop_token stop) {
    std::optional<task_record> found = store_->find(id);
    if (!found || found->status != task_status::working) return;
    task_record r = std::move(*found);
    const registered_tool* tool = tools_.find(r.tool, era::v2026_07_28);
    std::function<void(task_record&)> outcome;
    try {
      if (tool == nullptr) throw rpc_error(-32602, message("Unknown tool: ", shown(r.tool)));
      const tool_call call(era::v2026_07_28, r.params, r.owner, {}, std::move(stop));
      if (!tool->asks()) {
        outcome = completed(tool->answer(call));
      } else {
        outcome = stepped(*tool, call, r);
      }
    } catch (...) {
      const nlohmann::ordered_json response =
          failure_response(nullptr, std::current_exception(), log_, "tools/call", r.tool);
      outcome = failed(response.at("error"));
    }
    for (;;) {
      task_record next = r;
      outcome(next);
      next.updated_ms = task_clock_ms();
      if (const std::size_t size = next.to_json().dump().size(); size > options_.max_record_bytes) {
        next = r;
        failed(rpc_error(-32603, message("Internal error: the task's outcome is too large to keep (", size,
                                         " bytes, at most ", options_.max_record_bytes, ")"))
                   .response(nullptr)
                   .at("error"))(next);
        next.updated_ms = task_clock_ms();
      }
      if (store_->replace(next)) return;
      std::optional<task_record> now = store_->find(id);
      if (!now || now->status != task_status::working) return;  // cancelled (or gone) meanwhile
      r = std::move(*now);
    }
  }

  static std::function<void(task_record&)> completed(nlohmann::ordered_json result) {
    return [result = std::move(result)](task_record& t) {
      t.status = task_status::completed;
      t.result = result;
      t.asked = t.given = nlohmann::json::object();
      t.input_requests = nlohmann::ordered_json::object();
    };
  }
  static std::function<void(task_record&)> failed(nlohmann::ordered_json error) {
    return [error = std::move(error)](task_record& t) {
      t.status = task_status::failed;
      t.status_message = error.value("message", std::string("The task failed."));
      t.error = error;
      t.asked = t.given = nlohmann::json::object();
      t.input_requests = nlohmann::ordered_json::object();
    };
  }

  // A tool written once: replayed from the answers recorded and those just given, to its result
  // or its next open questions, each under a key the task never used.
  std::function<void(task_record&)> stepped(const registered_tool& tool, const tool_call& call, const task_record& r) {
    std::vector<recorded_answers> records;
    for (const auto& a : r.answers)
      records.push_back(
          {a.at(0).get<std::string>(), a.at(1).get<std::string>(), a.at(2).get<std::vector<nlohmann::json>>()});
    for (const auto& [task_key, answer] : r.given.items()) {
      const std::string tool_key = r.asked.at(task_key).get<std::string>();
      const auto it = std::find_if(records.begin(), records.end(), [&](const auto& x) { return x.key == tool_key; });
      if (it != records.end()) it->answers.push_back(answer);
    }
    const tool_options options = options_for_(tool);
    task_step s = tool.step(call, records, r.first, options);
    if (s.result) return completed(std::move(*s.result));
    const std::size_t cap = std::max<std::size_t>(options.max_rounds, 1);
    if (static_cast<std::size_t>(r.round) >= cap) throw too_many_rounds(cap);
    nlohmann::json kept = nlohmann::json::array();
    for (const recorded_answers& a : s.kept) kept.push_back({a.key, a.digest, a.answers});
    return [kept = std::move(kept), questions = std::move(s.questions)](task_record& t) {
      t.status = task_status::input_required;
      t.status_message.clear();
      ++t.round;
      t.answers = kept;
      t.asked = t.given = t.first = nlohmann::json::object();
      t.input_requests = nlohmann::ordered_json::object();
      for (const auto& [tool_key, request] : questions) {
        std::string key = tool_key;
        for (int n = 2; t.issued.contains(key); ++n) key = tool_key + "." + std::to_string(n);
        t.issued[key] = 1;
        t.asked[key] = tool_key;
        t.input_requests[key] = request;
      }
    };
  }

  const tool_registry& tools_;
  task_options options_;
  std::function<tool_options(const registered_tool&)> options_for_;
  std::function<void(std::string_view)> log_;
  memory_task_store own_store_;
  task_store* store_;
  std::mutex mutex_;
  std::condition_variable_any ready_;
  std::deque<std::string> queue_;
  std::unordered_map<std::string, std::stop_source> running_;
  std::size_t idle_ = 0;
  std::vector<std::jthread> threads_;  // last: joined first, while the rest is here
};

}  // namespace elicit::detail
