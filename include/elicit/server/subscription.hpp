// A subscriptions/listen of a 2026-07-28 client that the dispatcher agreed to: the long-lived
// stream on which the transport sends the client, unasked, notifications/tasks for the tasks it
// named (the tasks extension). The dispatcher says what to send (dispatcher::changes), the
// transport when: a tick every task_options::notify_interval, on any instance, whichever
// instance runs the tasks (each tick reads the task store). CMake target elicit::server.
//
//   dispatched d = server.handle(message, session, principal);   // d.what == kind::listen
//   send(d.listen->acknowledged());
//   while (!d.listen->ended()) {                                    // every notify_interval
//     for (const auto& n : server.changes(*d.listen)) send(n);
//   }
//   send(server.closing(*d.listen));                                // the graceful end
//
// What the dispatcher agrees to: the task ids the client named that it created and that are
// kept (an unknown id and another caller's are left out alike), at most
// task_options::max_watched; no other notification type (this server's tools and prompts do not
// change while it serves). Each task is sent once as it is when the stream opens, then at each
// change, the last time when it ends (completed, failed, cancelled); a task gone (its ttlMs
// passed) is dropped. When none is left the subscription ends: the dispatcher's closing response.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace elicit {

// The `_meta` key naming the subscription a notification belongs to: the listen request's id.
inline constexpr const char* subscription_id_key = "io.modelcontextprotocol/subscriptionId";

struct subscription {
  // A task watched: its id, and the version of its record last sent (0: none yet).
  struct watched {
    std::string task_id;
    std::uint64_t version = 0;
  };

  nlohmann::json id;      // the listen request's id, which names the subscription
  std::string principal;  // who listens: the tasks' creator
  std::vector<watched> tasks;

  // Whether nothing is left to send: every task watched ended or is gone.
  [[nodiscard]] bool ended() const noexcept { return tasks.empty(); }

  // notifications/subscriptions/acknowledged: the first message of the stream, with the task ids
  // agreed to (the subset of those asked for). Throws only std::bad_alloc.
  [[nodiscard]] nlohmann::ordered_json acknowledged() const {
    nlohmann::ordered_json agreed = nlohmann::ordered_json::object();
    if (!tasks.empty()) {
      agreed["taskIds"] = nlohmann::ordered_json::array();
      for (const watched& t : tasks) agreed["taskIds"].push_back(t.task_id);
    }
    return message("notifications/subscriptions/acknowledged", {{"notifications", std::move(agreed)}});
  }

  // notifications/tasks carrying `task`, a DetailedTask, on this subscription. Throws only
  // std::bad_alloc.
  [[nodiscard]] nlohmann::ordered_json notification(nlohmann::ordered_json task) const {
    return message("notifications/tasks", std::move(task));
  }

 private:
  [[nodiscard]] nlohmann::ordered_json message(const char* method, nlohmann::ordered_json params) const {
    params["_meta"] = {{subscription_id_key, id}};
    return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
  }
};

}  // namespace elicit
