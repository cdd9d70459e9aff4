// The tasks tests' fixture: the requests of a 2026-07-28 client that declared the tasks
// extension, a task's polling, and a spec for a tool run as a task.
#pragma once

#include "server_fixture.hpp"

#include <elicit/server/dispatcher.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <initializer_list>
#include <string>
#include <thread>
#include <utility>

namespace task_fixture {

using namespace server_fixture;

inline json tasks_meta() {
  json m = meta_2026();
  m[elicit::meta_key::client_capabilities]["extensions"] = {{elicit::tasks_extension, json::object()}};
  return m;
}

inline json task_call(std::string tool, json arguments = json::object()) {
  json p = call_params(std::move(tool), std::move(arguments));
  p["_meta"] = tasks_meta();
  return p;
}

inline json task_params(const std::string& id, json more = json::object()) {
  more["taskId"] = id;
  more["_meta"] = tasks_meta();
  return more;
}

inline ordered_json send(const elicit::dispatcher& d, const json& message, const std::string& principal = "alice") {
  elicit::client_session s;
  const elicit::dispatched out = d.handle(message, s, principal);
  REQUIRE(out.what == elicit::dispatched::kind::response);
  return out.response;
}

// tasks/get until the status is one of `statuses` (steps run on the dispatcher's threads).
inline ordered_json wait_for(const elicit::dispatcher& d, const std::string& id,
                             std::initializer_list<std::string> statuses) {
  for (int i = 0; i < 500; ++i) {
    const ordered_json t = send(d, request(1, "tasks/get", task_params(id))).at("result");
    for (const std::string& s : statuses)
      if (t.at("status") == s) return t;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  FAIL("the task did not reach the status asked for");
  return {};
}

inline elicit::tool_spec task_spec(std::string name, elicit::task_support support) {
  elicit::tool_spec spec{.name = std::move(name), .description = "A task."};
  spec.task = support;
  return spec;
}

}  // namespace task_fixture
