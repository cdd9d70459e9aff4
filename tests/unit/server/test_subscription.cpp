// <elicit/server/subscription.hpp>, through the dispatcher: a 2026-07-28 subscriptions/listen
// agreed to for the caller's own tasks (an unknown id and another caller's left out alike), each
// task sent as it is when the stream opens and then once per change, the last time when it ends,
// the closing response once none is left; the refusals in their words (the extension not
// declared, taskIds not a list of strings, more than max_watched).
#include "../support/task_fixture.hpp"

#include <elicit/server/dispatcher.hpp>
#include <elicit/server/subscription.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_server_subscription {

using namespace server_fixture;
using namespace task_fixture;

namespace {

json listen_params(json task_ids, json meta = tasks_meta()) {
  return {{"_meta", std::move(meta)}, {"notifications", {{"taskIds", std::move(task_ids)}}}};
}

elicit::dispatched listen(const elicit::dispatcher& d, const json& params, const std::string& principal = "alice") {
  elicit::client_session session;
  return d.handle(request("sub-1", "subscriptions/listen", params), session, principal);
}

// changes() until it sends something, or a second has passed.
std::vector<ordered_json> next_changes(const elicit::dispatcher& d, elicit::subscription& s) {
  for (int i = 0; i < 100; ++i) {
    std::vector<ordered_json> sent = d.changes(s);
    if (!sent.empty()) return sent;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return {};
}

}  // namespace

TEST_CASE("subscription: a task's changes as notifications/tasks, each once, to its end, then the closing") {
  served s;
  s.server.tools().add(task_spec("reserve_task", elicit::task_support::optional), reserve);
  const std::string id = send(s.server, request(1, "tools/call", task_call("reserve_task"))).at("result").at("taskId");
  const std::string others =
      send(s.server, request(2, "tools/call", task_call("reserve_task")), "mallory").at("result").at("taskId");
  wait_for(s.server, id, {"input_required"});

  elicit::dispatched d = listen(s.server, listen_params({id, "no-such-task", others, id}));
  REQUIRE(d.what == elicit::dispatched::kind::listen);
  elicit::subscription& sub = *d.listen;
  // Only alice's own task is agreed to, once; the acknowledgement names the subscription.
  CHECK(sub.acknowledged() ==
        ordered_json{
            {"jsonrpc", "2.0"},
            {"method", "notifications/subscriptions/acknowledged"},
            {"params", {{"notifications", {{"taskIds", {id}}}}, {"_meta", {{elicit::subscription_id_key, "sub-1"}}}}}});

  // First: the task as it is now, identical to what tasks/get returns (but its resultType).
  std::vector<ordered_json> sent = s.server.changes(sub);
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].at("method") == "notifications/tasks");
  ordered_json got = send(s.server, request(3, "tasks/get", task_params(id))).at("result");
  got.erase("resultType");
  got.erase("_meta");
  ordered_json params = sent[0].at("params");
  CHECK(params.at("_meta") == ordered_json{{elicit::subscription_id_key, "sub-1"}});
  params.erase("_meta");
  CHECK(params == got);
  CHECK(s.server.changes(sub).empty());  // nothing changed: nothing sent

  const json valid = {{"action", "accept"}, {"content", {{"guests", 4}}}};
  send(s.server, request(4, "tasks/update", task_params(id, {{"inputResponses", {{"table", valid}}}})));
  std::vector<std::string> statuses;
  while (!sub.ended()) {
    sent = next_changes(s.server, sub);
    REQUIRE_FALSE(sent.empty());
    for (const ordered_json& n : sent) statuses.push_back(n.at("params").at("status"));
  }
  REQUIRE_FALSE(statuses.empty());
  CHECK(statuses.back() == "completed");  // working may come between, if a tick saw it
  CHECK(sent.back().at("params").at("result").at("content").at(0).at("text") == "Reserved for 4 at Chez Elicit.");
  CHECK(s.server.changes(sub).empty());

  const ordered_json closing = s.server.closing(sub);
  CHECK(closing.at("id") == "sub-1");
  CHECK(closing.at("result").at("resultType") == "complete");
  CHECK(closing.at("result").at("_meta").at(elicit::subscription_id_key) == "sub-1");
  CHECK(closing.at("result").at("_meta").at(elicit::meta_key::server_info).at("name") == "test-server");
}

TEST_CASE("subscription: a cancelled task is sent once, cancelled, and the subscription ends") {
  served s;
  s.server.tools().add(task_spec("reserve_task", elicit::task_support::optional), reserve);
  const std::string id = send(s.server, request(1, "tools/call", task_call("reserve_task"))).at("result").at("taskId");
  wait_for(s.server, id, {"input_required"});
  elicit::dispatched d = listen(s.server, listen_params({id}));
  REQUIRE(d.what == elicit::dispatched::kind::listen);
  CHECK(s.server.changes(*d.listen).size() == 1);
  send(s.server, request(2, "tasks/cancel", task_params(id)));
  const std::vector<ordered_json> sent = s.server.changes(*d.listen);
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].at("params").at("status") == "cancelled");
  CHECK(d.listen->ended());
}

TEST_CASE("subscription: what is agreed to, and each refusal in its words") {
  served s;
  s.server.tools().add(task_spec("reserve_task", elicit::task_support::optional), reserve);
  const std::string id = send(s.server, request(1, "tools/call", task_call("reserve_task"))).at("result").at("taskId");

  // Other notification types only: agreed to nothing, ended at once.
  elicit::client_session session;
  elicit::dispatched d = s.server.handle(
      request(2, "subscriptions/listen", {{"_meta", meta_2026()}, {"notifications", {{"toolsListChanged", true}}}}),
      session, "alice");
  REQUIRE(d.what == elicit::dispatched::kind::listen);
  CHECK(d.listen->ended());
  CHECK(d.listen->acknowledged().at("params").at("notifications") == ordered_json::object());

  // Task ids from a client that did not declare the extension: -32021, naming it.
  d = listen(s.server, listen_params({id}, meta_2026()));
  REQUIRE(d.what == elicit::dispatched::kind::response);
  CHECK(d.response.at("error").at("code") == -32021);
  CHECK(d.response.at("error").at("data").at("requiredCapabilities") ==
        ordered_json{{"extensions", {{elicit::tasks_extension, ordered_json::object()}}}});

  d = listen(s.server, listen_params(id));
  REQUIRE(d.what == elicit::dispatched::kind::response);
  CHECK(d.response.at("error").at("message") ==
        "Invalid params: notifications.taskIds must be an array of task ids (strings)");
  d = listen(s.server, json{{"_meta", tasks_meta()}});
  REQUIRE(d.what == elicit::dispatched::kind::response);
  CHECK(d.response.at("error").at("message") ==
        "Invalid params: notifications must be an object (the notification types listened for)");
  d = listen(s.server, listen_params(json(std::vector<std::string>(65, id))));
  REQUIRE(d.what == elicit::dispatched::kind::response);
  CHECK(d.response.at("error").at("message") ==
        "Invalid params: a subscription watches at most 64 tasks; 65 were named");

  // At 2025-11-25 the method does not exist.
  d = s.server.handle(request(3, "subscriptions/listen", {{"notifications", json::object()}}), session, "alice");
  REQUIRE(d.what == elicit::dispatched::kind::response);
  CHECK(d.response.at("error").at("code") == -32601);
}

}  // namespace unit_server_subscription
