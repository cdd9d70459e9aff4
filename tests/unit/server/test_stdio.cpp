// <elicit/server/stdio.hpp>: the blocking stdio transport, and what it shares with the one on an
// Asio executor, each on two pipes, a scripted client on the other end (support/stdio_client.hpp):
// what they answer while a question waits (pings, other calls, answers to earlier questions),
// cancellation, progress, the answer timeout, hostile lines, and the input's end. A case that
// holds for both runs on both (`transport`); what only the Asio one does: asio/test_stdio.cpp.
// Every read is bounded in time: a transport that fails to answer fails the test, never hangs.
#include "../support/stdio_client.hpp"
#include "../support/task_fixture.hpp"

#include <elicit/server/asio/stdio.hpp>
#include <elicit/server/stdio.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <signal.h>

#include <catch2/catch.hpp>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_server_stdio {

using namespace server_fixture;
using namespace stdio_client;

TEST_CASE("serve_stdio: a pushed question waits while a ping is answered, then the call completes") {
  served s;
  client c(s.server, {}, each_transport());
  open_session(c);
  c.send(request(1, "tools/call", call_params("reserve")));
  const json question = c.next();
  CHECK(question["method"] == "elicitation/create");
  CHECK(question["params"]["message"] == "How many guests at Chez Elicit?");
  c.send(request("p", "ping"));
  CHECK(c.next().dump() == R"({"id":"p","jsonrpc":"2.0","result":{}})");
  c.send(answer_to(question, {{"guests", 5}}));
  const json done = c.next();
  CHECK(done["id"] == 1);
  CHECK(done["result"]["content"][0]["text"] == "Reserved for 5 at Chez Elicit.");
  c.join();
}

TEST_CASE("serve_stdio (blocking): a call served inside another's wait, the outer's answer, sent first, kept for it") {
  served s;
  client c(s.server);
  open_session(c);
  c.send(request(1, "tools/call", call_params("reserve", {{"restaurant", "A"}})));
  const json outer = c.next();
  c.send(request(2, "tools/call", call_params("reserve", {{"restaurant", "B"}})));
  const json inner = c.next();
  CHECK(inner["params"]["message"] == "How many guests at B?");
  c.send(answer_to(outer, {{"guests", 1}}));  // the outer question, answered first
  c.send(answer_to(inner, {{"guests", 2}}));
  const json first = c.next();
  CHECK(first["id"] == 2);
  CHECK(first["result"]["content"][0]["text"] == "Reserved for 2 at B.");
  const json second = c.next();
  CHECK(second["id"] == 1);
  CHECK(second["result"]["content"][0]["text"] == "Reserved for 1 at A.");
  c.join();
  CHECK(c.logged().empty());
}

TEST_CASE("serve_stdio: a cancelled call stops asking and gets no response, its late answer is logged") {
  served s;
  client c(s.server, {}, each_transport());
  open_session(c);
  c.send(request(5, "tools/call", call_params("reserve")));
  const json question = c.next();
  c.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 5}}}});
  // The question is withdrawn, so that the client closes the form.
  CHECK(c.next().dump() == json{{"jsonrpc", "2.0"},
                                {"method", "notifications/cancelled"},
                                {"params", {{"requestId", question["id"]}, {"reason", "The tool call was cancelled"}}}}
                               .dump());
  c.send(answer_to(question, {{"guests", 2}}));
  c.send(request(6, "ping"));
  CHECK(c.next()["id"] == 6);  // nothing was sent for 5
  c.join();
  auto logged = c.logged();  // in either order: the Asio transport's call logs when it resumes
  std::sort(logged.begin(), logged.end());
  CHECK(logged ==
        std::vector<std::string>{"ignored a response to request " + question["id"].dump() + ": not waiting for it",
                                 "request 5 ended unanswered: the client cancelled it"});
}

TEST_CASE("serve_stdio: notifications/progress while a call with a progressToken waits, counting up") {
  served s;
  elicit::stdio_options options;
  options.progress_interval = std::chrono::milliseconds(20);
  client c(s.server, options, each_transport());
  open_session(c);
  json params = call_params("reserve");
  params["_meta"] = {{"progressToken", "tok"}};
  c.send(request(1, "tools/call", params));
  const json question = c.next();
  const json p1 = c.next();
  const json p2 = c.next();
  CHECK(p1["method"] == "notifications/progress");
  CHECK(p1["params"]["progressToken"] == "tok");
  CHECK(p1["params"]["progress"] == 1);
  CHECK(p2["params"]["progress"] == 2);
  c.send(answer_to(question, {{"guests", 3}}));
  json done = c.next();
  while (done.contains("method")) done = c.next();  // a progress sent just before the answer came
  CHECK(done["result"]["content"][0]["text"] == "Reserved for 3 at Chez Elicit.");
}

TEST_CASE("serve_stdio: a question not answered within answer_timeout ends as the tool says") {
  served s;
  elicit::stdio_options options;
  options.answer_timeout = std::chrono::milliseconds(50);
  client c(s.server, options, each_transport());
  open_session(c);
  c.send(request(1, "tools/call", call_params("reserve")));
  const json question = c.next();
  c.send_bytes(R"({"jsonrpc":"2.0",)");  // a line begun and never ended holds no timer back
  const json withdrawn = c.next();
  CHECK(withdrawn["method"] == "notifications/cancelled");
  CHECK(withdrawn["params"]["requestId"] == question["id"]);
  CHECK(withdrawn["params"]["reason"] == "No answer came in time");
  const json done = c.next();
  CHECK(done["id"] == 1);
  CHECK(done["result"]["isError"] == true);
  CHECK(done["result"]["content"][0]["text"] == "Nothing was reserved at Chez Elicit.");
}

TEST_CASE("serve_stdio: hostile lines get their error and the server goes on") {
  served s;
  elicit::stdio_options options;
  options.limits.max_bytes = 64;
  client c(s.server, options, each_transport());
  c.send_text(std::string(100, '['));
  CHECK(c.next()["error"].dump() ==
        R"({"code":-32700,"message":"Parse error: the JSON is 100 bytes long, more than the 64 this server reads"})");
  c.send_text("{\"jsonrpc\":");
  CHECK(c.next()["error"]["code"] == -32700);
  c.send_text("");
  c.send_text("[1]");
  CHECK(c.next()["error"]["code"] == -32600);
  c.send(request(1, "ping"));
  CHECK(c.next()["id"] == 1);
}

TEST_CASE("serve_stdio: more waiting calls than max_waiting are refused, the input's end stops every call") {
  served s;
  elicit::stdio_options options;
  options.max_waiting = 1;
  client c(s.server, options, each_transport());
  open_session(c);
  c.send(request(1, "tools/call", call_params("reserve")));
  (void)c.next();
  c.send(request(2, "tools/call", call_params("reserve")));
  CHECK(c.next()["error"].dump() ==
        R"({"code":-32603,"message":"Server busy: 1 calls wait for answers already; answer their questions first"})");
  c.join();  // returns: the waiting call stopped, unanswered
  CHECK(c.logged() == std::vector<std::string>{"request 1 ended unanswered: the client went away"});
}

TEST_CASE("serve_stdio: 2026-07-28 requests on the same stdin, finished for their era") {
  served s;
  client c(s.server, {}, each_transport());
  c.send(request(1, "tools/list", {{"_meta", meta_2026()}}));
  const json list = c.next();
  CHECK(list["result"]["resultType"] == "complete");
  CHECK(list["result"]["cacheScope"] == "public");
  c.send(request(2, "tools/call", call_2026("reserve")));
  CHECK(c.next()["result"]["resultType"] == "input_required");
}

namespace {

// reserve, and a tool that reads its call after its question: by then the message it came in
// is gone (the Asio transport frees it as soon as the call starts).
struct recalling : served {
  recalling() {
    server.tools().add({"recall", "Says its text back after asking."},
                       [](const elicit::tool_call& call) -> elicit::tool<std::string> {
                         elicit::question<Table> q("table", "How many guests?");
                         const auto table = co_await std::move(q);
                         co_return call.arguments().value("text", std::string("?")) + " for " +
                             std::to_string(table.accepted() ? *table->guests : 0);
                       });
  }
};

}  // namespace

TEST_CASE("stdio transports: a tool reads its call after its question, the call outlives its message") {
  recalling s;
  client c(s.server, {}, each_transport());
  open_session(c);
  c.send(request(1, "tools/call", call_params("recall", {{"text", std::string(300, 'x')}})));
  const json question = c.next();
  c.send(request(2, "ping"));  // more messages read meanwhile, into memory the call's may have had
  CHECK(c.next()["id"] == 2);
  c.send(answer_to(question, {{"guests", 6}}));
  CHECK(c.next()["result"]["content"][0]["text"] == std::string(300, 'x') + " for 6");
}

TEST_CASE("stdio transports: a client that closes its end is gone, not the end of the server (SIGPIPE)") {
  const transport t = each_transport();
  served s;
  int in[2], out[2];
  REQUIRE(::pipe(in) == 0);
  REQUIRE(::pipe(out) == 0);
  ::close(out[0]);  // nobody reads what the server writes: a write raises SIGPIPE
  const std::string lines = request(1, "ping").dump() + "\n" + request(2, "ping").dump() + "\n";
  REQUIRE(::write(in[1], lines.data(), lines.size()) == static_cast<ssize_t>(lines.size()));
  ::close(in[1]);
  elicit::stdio_options options;
  options.input = in[0];
  options.output = out[1];
  serve(t, s.server, options);  // returns: the process is still here
  ::close(in[0]);
  ::close(out[1]);
  struct sigaction now {};
  REQUIRE(::sigaction(SIGPIPE, nullptr, &now) == 0);
  CHECK(now.sa_handler == SIG_IGN);
}

TEST_CASE("stdio transports: a call refused (too many waiting, an id in use) never ran its tool") {
  const transport t = each_transport();
  served s;
  int ran = 0;  // what the tool did before its first question
  s.server.tools().add({"counted", "Counts its runs, then asks."},
                       [&ran](const elicit::tool_call&) -> elicit::tool<elicit::tool_result> {
                         ++ran;
                         elicit::question<Table> q("table", "How many guests?");
                         const auto table = co_await std::move(q);
                         co_return elicit::tool_result{table.accepted() ? "booked" : "not booked"};
                       });
  elicit::stdio_options options;
  options.max_waiting = 1;
  client c(s.server, options, t);
  open_session(c);
  c.send(request(1, "tools/call", call_params("counted")));
  const json question = c.next();
  c.send(request(2, "tools/call", call_params("counted")));
  CHECK(c.next()["error"]["code"] == -32603);
  c.send(answer_to(question, {{"guests", 2}}));
  CHECK(c.next()["result"]["content"][0]["text"] == "booked");
  c.join();
  CHECK(ran == 1);
}

TEST_CASE(
    "stdio transports: subscriptions/listen sends a task's changes, then its closing, and a cancelled one nothing "
    "more") {
  served s;
  s.server.tools().add(task_fixture::task_spec("reserve_task", elicit::task_support::optional), reserve);
  client c(s.server, {}, each_transport());
  c.send(request(1, "tools/call", task_fixture::task_call("reserve_task")));
  const std::string id = c.next()["result"]["taskId"];
  json listen = {{"_meta", task_fixture::tasks_meta()}, {"notifications", {{"taskIds", {id}}}}};
  c.send(request("sub", "subscriptions/listen", listen));
  json ack = c.next();
  CHECK(ack["method"] == "notifications/subscriptions/acknowledged");
  CHECK(ack["params"]["notifications"]["taskIds"] == json{id});
  // The task as it is, then each change: until it asks.
  json n = c.next();
  while (n["params"]["status"] != "input_required") n = c.next();
  CHECK(n["method"] == "notifications/tasks");
  CHECK(n["params"]["_meta"][elicit::subscription_id_key] == "sub");
  CHECK(n["params"]["inputRequests"].contains("table"));
  const json valid = {{"action", "accept"}, {"content", {{"guests", 3}}}};
  c.send(request(2, "tasks/update", task_fixture::task_params(id, {{"inputResponses", {{"table", valid}}}})));
  // The ack and the notifications, in the order they come, to the closing response.
  bool acked = false;
  std::string last_status;
  for (json m = c.next();; m = c.next()) {
    if (m.contains("method")) {
      last_status = m["params"]["status"];
      continue;
    }
    if (m["id"] == 2) {
      acked = true;
      continue;
    }
    CHECK(m["id"] == "sub");
    CHECK(m["result"]["_meta"][elicit::subscription_id_key] == "sub");
    break;
  }
  CHECK(acked);
  CHECK(last_status == "completed");

  // A subscription cancelled ends without a response: the ping's answer is all that comes.
  c.send(request(3, "tools/call", task_fixture::task_call("reserve_task")));
  const std::string other = c.next()["result"]["taskId"];
  listen["notifications"]["taskIds"] = {other};
  c.send(request("sub2", "subscriptions/listen", listen));
  CHECK(c.next()["method"] == "notifications/subscriptions/acknowledged");
  c.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", "sub2"}}}});
  c.send(request("p", "ping", {{"_meta", meta_2026()}}));
  for (json m = c.next();; m = c.next()) {
    CHECK(m["id"] != "sub2");
    if (m["id"] == "p") break;
  }
  c.join();
}

}  // namespace unit_server_stdio
