// <elicit/server/task_store.hpp>, and the tasks extension through the dispatcher: a tool made a
// task for a client that declares the extension, its questions as inputRequests answered with
// tasks/update (an invalid answer asked again under a new key), cancellation reaching a plain
// tool's stop token, every refusal in its words (undeclared extension, another principal, an
// unknown id, a full store, a record too large), and the memory store's bounds and expiry.
#include "../support/task_fixture.hpp"

#include <elicit/server/dispatcher.hpp>
#include <elicit/server/task_store.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_server_task_store {

using namespace server_fixture;
using namespace task_fixture;

TEST_CASE("tasks: a tool that asks, run as a task: its questions are inputRequests, re-asked under a new key") {
  served s;
  s.server.tools().add(task_spec("reserve_task", elicit::task_support::optional), reserve);
  const ordered_json created = send(s.server, request(1, "tools/call", task_call("reserve_task"))).at("result");
  CHECK(created.at("resultType") == "task");
  CHECK(created.at("taskId").get<std::string>().size() == 22);  // 128 bits, base64url
  CHECK(created.at("ttlMs") == 3'600'000);
  CHECK(created.at("pollIntervalMs") == 1000);
  CHECK_FALSE(created.contains("inputRequests"));
  const std::string id = created.at("taskId");

  ordered_json t = wait_for(s.server, id, {"input_required"});
  CHECK(t.at("resultType") == "complete");
  REQUIRE(t.at("inputRequests").size() == 1);
  const ordered_json& asked = t.at("inputRequests").at("table");
  CHECK(asked.at("method") == "elicitation/create");
  CHECK(asked.at("params").at("message") == "How many guests at Chez Elicit?");

  // An invalid answer: asked again, under a key never used in this task, in the round's words.
  const json invalid = {{"action", "accept"}, {"content", {{"guests", 99}}}};
  CHECK(send(s.server, request(2, "tasks/update", task_params(id, {{"inputResponses", {{"table", invalid}}}})))
            .at("result")
            .at("resultType") == "complete");
  t = wait_for(s.server, id, {"input_required", "completed"});
  REQUIRE(t.at("inputRequests").contains("table.2"));
  CHECK_FALSE(t.at("inputRequests").contains("table"));
  const ordered_json round =
      send(s.server, request(3, "tools/call",
                             [] {
                               json p = call_2026("reserve");
                               p["inputResponses"] = {{"table", {{"action", "accept"}, {"content", {{"guests", 99}}}}}};
                               return p;
                             }()))
          .at("result");
  // The same words and schema, keys in the same order (a form shows its fields in it).
  CHECK(t.at("inputRequests").at("table.2").at("params").dump() ==
        round.at("inputRequests").at("table").at("params").dump());

  // An answer to the old key is ignored; the new one completes it.
  const json valid = {{"action", "accept"}, {"content", {{"guests", 4}}}};
  send(s.server, request(4, "tasks/update", task_params(id, {{"inputResponses", {{"table", valid}}}})));
  CHECK(send(s.server, request(5, "tasks/get", task_params(id))).at("result").at("status") == "input_required");
  send(s.server, request(6, "tasks/update", task_params(id, {{"inputResponses", {{"table.2", valid}}}})));
  t = wait_for(s.server, id, {"completed"});
  CHECK(t.at("result").at("content").at(0).at("text") == "Reserved for 4 at Chez Elicit.");
  CHECK_FALSE(t.contains("inputRequests"));
}

TEST_CASE("tasks: who may see a task, and the words of each refusal") {
  served s;
  s.server.tools().add(task_spec("reserve_task", elicit::task_support::optional), reserve);
  s.server.tools().add(task_spec("only_task", elicit::task_support::required),
                       [](const elicit::tool_call&) { return std::string("done"); });
  const std::string id = send(s.server, request(1, "tools/call", task_call("reserve_task"))).at("result").at("taskId");
  wait_for(s.server, id, {"input_required"});

  const ordered_json unknown = send(s.server, request(2, "tasks/get", task_params("no-such-task"))).at("error");
  CHECK(unknown.at("code") == -32602);
  CHECK(unknown.at("message") == "Failed to retrieve task: Task not found");
  for (const char* method : {"tasks/get", "tasks/update", "tasks/cancel"}) {
    json p = task_params(id, {{"inputResponses", json::object()}});
    CHECK(send(s.server, request(2, method, p), "mallory").at("error") == unknown);
    p["_meta"] = meta_2026();  // no extension declared
    const ordered_json e = send(s.server, request(2, method, p)).at("error");
    CHECK(e.at("code") == -32021);
    CHECK(e.at("data").at("requiredCapabilities") ==
          ordered_json{{"extensions", {{elicit::tasks_extension, ordered_json::object()}}}});
  }
  CHECK(send(s.server, request(3, "tasks/get", task_params(id))).at("result").at("status") == "input_required");

  // Without the extension an optional tool answers at once; a required one is refused.
  CHECK(send(s.server, request(4, "tools/call", call_2026("reserve_task"))).at("result").at("resultType") ==
        "input_required");
  CHECK(send(s.server, request(5, "tools/call", call_2026("only_task"))).at("error").at("code") == -32021);
  CHECK(
      send(s.server, request(6, "tasks/update", task_params(id, {{"inputResponses", 3}}))).at("error").at("message") ==
      "Invalid params: inputResponses must be an object");

  // server/discover says so; tasks/result and tasks/list are no methods.
  json discover = {{"_meta", meta_2026()}};
  CHECK(send(s.server, request(7, "server/discover", discover)).at("result").at("capabilities").at("extensions") ==
        ordered_json{{elicit::tasks_extension, ordered_json::object()}});
  CHECK(send(s.server, request(8, "tasks/list", {{"_meta", tasks_meta()}})).at("error").at("code") == -32601);

  // Cancelled: its questions go; a second cancel is the same empty ack.
  CHECK(send(s.server, request(9, "tasks/cancel", task_params(id))).at("result").at("resultType") == "complete");
  const ordered_json t = send(s.server, request(10, "tasks/get", task_params(id))).at("result");
  CHECK(t.at("status") == "cancelled");
  CHECK_FALSE(t.contains("inputRequests"));
  CHECK(send(s.server, request(11, "tasks/cancel", task_params(id))).at("result").at("resultType") == "complete");
}

TEST_CASE("tasks: tasks/cancel stops a plain tool through its stop token, a thrown error fails the task") {
  std::atomic<bool> stopped{false};
  served s;
  s.server.tools().add(task_spec("wait", elicit::task_support::required), [&stopped](const elicit::tool_call& c) {
    std::mutex m;
    std::condition_variable_any never;
    std::unique_lock lock(m);
    never.wait_for(lock, c.stop_token(), std::chrono::seconds(30), [] { return false; });
    stopped = c.stop_requested();
    return std::string("woke");
  });
  s.server.tools().add(task_spec("crash", elicit::task_support::required), [](const elicit::tool_call&) -> std::string {
    throw elicit::rpc_error(-32603, "Internal error: the worker crashed");
  });
  const std::string id = send(s.server, request(1, "tools/call", task_call("wait"))).at("result").at("taskId");
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(send(s.server, request(2, "tasks/get", task_params(id))).at("result").at("status") == "working");
  send(s.server, request(3, "tasks/cancel", task_params(id)));
  for (int i = 0; i < 200 && !stopped; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(stopped);
  CHECK(send(s.server, request(4, "tasks/get", task_params(id))).at("result").at("status") == "cancelled");

  const std::string crashed = send(s.server, request(5, "tools/call", task_call("crash"))).at("result").at("taskId");
  const ordered_json t = wait_for(s.server, crashed, {"failed"});
  CHECK(t.at("error") == ordered_json{{"code", -32603}, {"message", "Internal error: the worker crashed"}});
  CHECK_FALSE(t.contains("result"));
}

TEST_CASE("tasks: a full store refuses new tasks and serves the others, a record has a bound") {
  elicit::memory_task_store one(1);
  elicit::dispatcher_options o;
  o.tasks.store = &one;
  o.tasks.max_record_bytes = 4096;
  o.log = [](std::string_view) {};
  elicit::dispatcher d({"test-server", "1"}, ring(), o);
  d.tools().add(task_spec("reserve_task", elicit::task_support::optional), reserve);
  const std::string id = send(d, request(1, "tools/call", task_call("reserve_task"))).at("result").at("taskId");
  const ordered_json full = send(d, request(2, "tools/call", task_call("reserve_task"))).at("error");
  CHECK(full.at("code") == -32603);
  CHECK(full.at("message") == "The server holds as many tasks as it can: try again once some have ended.");
  CHECK(wait_for(d, id, {"input_required"}).at("taskId") == id);

  const ordered_json large =
      send(d, request(3, "tools/call", task_call("reserve_task", {{"restaurant", std::string(5000, 'x')}})))
          .at("error");
  CHECK(large.at("code") == -32602);
  CHECK(std::string(large.at("message")).starts_with("The call's params are too large to run as a task ("));
}

TEST_CASE("memory_task_store: compare-and-set on the version, expiry, capacity") {
  elicit::memory_task_store store(2);
  elicit::task_record r;
  r.id = "a";
  r.created_ms = elicit::detail::task_clock_ms();
  r.ttl_ms = 60'000;
  REQUIRE(store.create(r));
  CHECK(r.version == 1);
  CHECK_FALSE(store.create(r));  // the same id twice

  elicit::task_record first = *store.find("a"), second = *store.find("a");
  first.status = elicit::task_status::completed;
  REQUIRE(store.replace(first));
  CHECK(first.version == 2);
  second.status = elicit::task_status::cancelled;
  CHECK_FALSE(store.replace(second));  // read before the change: told to read again
  CHECK(second.version == 1);
  CHECK(store.find("a")->status == elicit::task_status::completed);

  elicit::task_record gone;
  gone.id = "b";
  gone.created_ms = elicit::detail::task_clock_ms() - 10'000;
  gone.ttl_ms = 5'000;  // passed already
  REQUIRE(store.create(gone));
  CHECK_FALSE(store.find("b"));
  elicit::task_record c = r;
  c.id = "c";
  CHECK(store.create(c));  // "b" went when it was read
  elicit::task_record d = r;
  d.id = "d";
  CHECK_FALSE(store.create(d));  // full: "a" and "c" live
  CHECK(store.size() == 2);
}

}  // namespace unit_server_task_store
