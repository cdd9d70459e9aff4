// A task of the tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`) as a task store
// keeps it: who created it, the call it runs, where it is (working, waiting for input, ended),
// and, for a tool written once, every answer given so far, from which the tool is replayed. A
// record is all there is of a waiting task: no coroutine and no thread wait for the person. It
// reads and writes itself as JSON, so that a store may keep it anywhere. CMake target
// elicit::server.
//
//   elicit::task_record r = ...;              // from a task_store
//   if (elicit::is_terminal(r.status)) ...
//   nlohmann::ordered_json shown = r.detailed();   // what tasks/get answers
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>

namespace elicit {

// Where a task is. completed, failed and cancelled end it.
enum class task_status { working, input_required, completed, failed, cancelled };

[[nodiscard]] constexpr bool is_terminal(task_status s) noexcept {
  return s == task_status::completed || s == task_status::failed || s == task_status::cancelled;
}

namespace detail {

// The status as the wire says it.
[[nodiscard]] constexpr std::string_view status_name(task_status s) noexcept {
  switch (s) {
    case task_status::working: return "working";
    case task_status::input_required: return "input_required";
    case task_status::completed: return "completed";
    case task_status::failed: return "failed";
    case task_status::cancelled: return "cancelled";
  }
  return "failed";
}

// Milliseconds since 1970-01-01 UTC, as records keep time.
[[nodiscard]] inline std::int64_t task_clock_ms() noexcept {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// "2026-12-04T10:30:00.123Z": a record's time as the wire shows it (ISO 8601, UTC).
[[nodiscard]] inline std::string iso_8601(std::int64_t ms) {
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  const std::size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  char millis[8];
  std::snprintf(millis, sizeof millis, ".%03dZ", static_cast<int>(ms % 1000));
  return std::string(text, n) + millis;
}

}  // namespace detail

struct task_record {
  std::string id;     // the taskId: 128 random bits, base64url
  std::string owner;  // the principal that created it; nobody else reads or changes it
  std::string tool;   // the tool it runs
  // The tools/call params it runs with (arguments, _meta), as the tool reads them each step.
  nlohmann::json params = nlohmann::json::object();
  task_status status = task_status::working;
  std::string status_message;
  std::int64_t created_ms = 0;
  std::int64_t updated_ms = 0;
  std::int64_t ttl_ms = 0;  // from creation; the record goes when it has passed
  std::int64_t poll_interval_ms = 0;
  // A tool written once: the rounds asked so far, the answers recorded
  // ([["key", "digest", [ElicitResult, ...]], ...]), the open questions ({"task key": "tool key"})
  // and their requests ({"task key": {...}}), the answers given to some of them
  // ({"task key": ElicitResult}), and every task key ever issued ({"task key": 1}: a key is never
  // used twice in a task).
  int round = 0;
  nlohmann::json answers = nlohmann::json::array();
  nlohmann::json asked = nlohmann::json::object();
  nlohmann::ordered_json input_requests = nlohmann::ordered_json::object();
  nlohmann::json given = nlohmann::json::object();
  nlohmann::json issued = nlohmann::json::object();
  // Answers for the questions the next step asks at once, by the tool's keys: those of a
  // 2026-07-28 retry without a state that became this task ({} once used).
  nlohmann::json first = nlohmann::json::object();
  nlohmann::ordered_json result;  // completed: the CallToolResult
  nlohmann::ordered_json error;   // failed: the JSON-RPC error
  // Working on an instance: until when its lease runs (ms); past it, the task failed.
  std::int64_t lease_ms = 0;
  std::uint64_t version = 0;  // bumped by every change a store takes

  // The DetailedTask of tasks/get and notifications/tasks: the Task, and what its status adds
  // (the input requests not yet answered, the result, the error). No resultType.
  [[nodiscard]] nlohmann::ordered_json detailed() const {
    nlohmann::ordered_json t = task();
    if (status == task_status::input_required) {
      nlohmann::ordered_json open = nlohmann::ordered_json::object();
      for (const auto& [key, request] : input_requests.items())
        if (!given.contains(key)) open[key] = request;
      t["inputRequests"] = std::move(open);
    } else if (status == task_status::completed) {
      t["result"] = result;
    } else if (status == task_status::failed) {
      t["error"] = error;
    }
    return t;
  }
  // The Task alone: what CreateTaskResult carries.
  [[nodiscard]] nlohmann::ordered_json task() const {
    nlohmann::ordered_json t = {{"taskId", id}, {"status", detail::status_name(status)}};
    if (!status_message.empty()) t["statusMessage"] = status_message;
    t["createdAt"] = detail::iso_8601(created_ms);
    t["lastUpdatedAt"] = detail::iso_8601(updated_ms);
    t["ttlMs"] = ttl_ms;
    t["pollIntervalMs"] = poll_interval_ms;
    return t;
  }

  // The record as JSON, and back (nullopt for anything this did not write), its keys in order
  // (a form's fields keep theirs). Throw only std::bad_alloc.
  [[nodiscard]] nlohmann::ordered_json to_json() const {
    return {{"id", id},
            {"owner", owner},
            {"tool", tool},
            {"params", params},
            {"status", status},
            {"message", status_message},
            {"created", created_ms},
            {"updated", updated_ms},
            {"ttl", ttl_ms},
            {"poll", poll_interval_ms},
            {"round", round},
            {"answers", answers},
            {"asked", asked},
            {"requests", input_requests},
            {"given", given},
            {"issued", issued},
            {"first", first},
            {"result", result},
            {"error", error},
            {"lease", lease_ms},
            {"version", version}};
  }
  [[nodiscard]] static std::optional<task_record> from_json(const nlohmann::ordered_json& j) {
    try {
      task_record r;
      r.id = j.at("id").get<std::string>();
      r.owner = j.at("owner").get<std::string>();
      r.tool = j.at("tool").get<std::string>();
      r.params = j.at("params");
      const int s = j.at("status").get<int>();
      if (s < 0 || s > static_cast<int>(task_status::cancelled)) return std::nullopt;
      r.status = static_cast<task_status>(s);
      r.status_message = j.at("message").get<std::string>();
      r.created_ms = j.at("created").get<std::int64_t>();
      r.updated_ms = j.at("updated").get<std::int64_t>();
      r.ttl_ms = j.at("ttl").get<std::int64_t>();
      r.poll_interval_ms = j.at("poll").get<std::int64_t>();
      r.round = j.at("round").get<int>();
      r.answers = j.at("answers");
      r.asked = j.at("asked");
      r.input_requests = j.at("requests");
      r.given = j.at("given");
      r.issued = j.at("issued");
      r.first = j.at("first");
      r.result = j.at("result");
      r.error = j.at("error");
      r.lease_ms = j.at("lease").get<std::int64_t>();
      r.version = j.at("version").get<std::uint64_t>();
      if (!r.params.is_object() || !r.answers.is_array() || !r.asked.is_object() || !r.input_requests.is_object() ||
          !r.given.is_object() || !r.issued.is_object() || !r.first.is_object())
        return std::nullopt;
      return r;
    } catch (const nlohmann::ordered_json::exception&) {
      return std::nullopt;
    }
  }
  // Whether its time to live has passed at `now_ms`.
  [[nodiscard]] bool expired(std::int64_t now_ms) const noexcept { return now_ms - created_ms >= ttl_ms; }
};

}  // namespace elicit
