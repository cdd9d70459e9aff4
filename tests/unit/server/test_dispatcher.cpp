// <elicit/server/dispatcher.hpp>: the envelope of both eras, message by message: what each era
// is answered, what is refused and in which words, a tool or a prompt that asks run as pushes
// (2025-11-25) and as rounds (2026-07-28) with the same questions and results, what each era
// serves (only_in) and how each tool asks (its own options). Every expectation written out.
#include "../support/server_fixture.hpp"

#include <elicit/server/dispatcher.hpp>

#include <catch2/catch.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_server_dispatcher {

using namespace server_fixture;
using kind = elicit::dispatched::kind;

namespace {

// Handles one message and gives the response it must be.
ordered_json answer(const elicit::dispatcher& d, const json& message, elicit::client_session& s,
                    const std::string& principal = "p") {
  elicit::dispatched out = d.handle(message, s, principal);
  REQUIRE(out.what == kind::response);
  return out.response;
}

ordered_json error_of(const ordered_json& response) {
  REQUIRE(response.contains("error"));
  return response["error"];
}

}  // namespace

TEST_CASE("dispatcher: initialize answers 2025-11-25 with the server's tools and identity, and notes the modes") {
  served s;
  elicit::client_session session;
  const ordered_json r = answer(s.server, request(1, "initialize", initialize_params()), session);
  CHECK(r.dump() == R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},)"
                    R"("serverInfo":{"name":"test-server","version":"1.2.3"}}})");
  CHECK(session.modes.form);
  CHECK_FALSE(session.initialized);
  CHECK(s.server.handle({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, session, "p").what ==
        kind::nothing);
  CHECK(session.initialized);
}

TEST_CASE("dispatcher: each era's results, finished for 2026-07-28 only") {
  served s;
  elicit::client_session session;
  const ordered_json list25 = answer(s.server, request(2, "tools/list"), session)["result"];
  CHECK_FALSE(list25.contains("resultType"));
  CHECK(list25["tools"].size() == 3);
  const ordered_json list26 = answer(s.server, request(3, "tools/list", {{"_meta", meta_2026()}}), session)["result"];
  CHECK(list26["resultType"] == "complete");
  CHECK(list26["ttlMs"] == 0);
  CHECK(list26["cacheScope"] == "public");
  CHECK(list26["_meta"][elicit::meta_key::server_info].dump() == R"({"name":"test-server","version":"1.2.3"})");
  const ordered_json discover =
      answer(s.server, request(4, "server/discover", {{"_meta", meta_2026()}}), session)["result"];
  CHECK(discover["supportedVersions"].dump() == R"(["2026-07-28","2025-11-25"])");
  CHECK(discover["capabilities"].dump() == R"({"tools":{}})");
  CHECK(discover["ttlMs"] == 0);
  CHECK(answer(s.server, request(5, "ping"), session).dump() == R"({"jsonrpc":"2.0","id":5,"result":{}})");
}

TEST_CASE("dispatcher: what each era does not have is not found, in its words") {
  served s;
  elicit::client_session session;
  // 2026-07-28 has no ping and no initialize; 2025-11-25 discovers nothing.
  CHECK(error_of(answer(s.server, request(1, "ping", {{"_meta", meta_2026()}}), session)).dump() ==
        R"({"code":-32601,"message":"Method not found: ping"})");
  CHECK(error_of(answer(s.server, request(2, "initialize", {{"_meta", meta_2026()}}), session))["code"] == -32601);
  CHECK(error_of(answer(s.server, request(3, "server/discover"), session)).dump() ==
        R"({"code":-32602,"message":"Invalid params: _meta has no io.modelcontextprotocol/protocolVersion"})");
  CHECK(error_of(answer(s.server, request(4, "resources/\x01list"), session)).dump() ==
        R"({"code":-32601,"message":"Method not found: resources/?list"})");
}

TEST_CASE("dispatcher: a 2026-07-28 request naming another version, or missing what _meta must carry") {
  served s;
  elicit::client_session session;
  json other = meta_2026();
  other[elicit::meta_key::protocol_version] = "2030-01-01";
  const ordered_json refused = error_of(answer(s.server, request(1, "tools/list", {{"_meta", other}}), session));
  CHECK(refused["code"] == -32022);
  CHECK(refused["data"]["supported"].dump() == R"(["2026-07-28","2025-11-25"])");
  CHECK(refused["data"]["requested"] == "2030-01-01");
  // What _meta must carry is read before the version, as the HTTP transport reads it.
  json neither = other;
  neither.erase(elicit::meta_key::client_capabilities);
  CHECK(error_of(answer(s.server, request(3, "tools/list", {{"_meta", neither}}), session))["code"] == -32602);
  json not_text = meta_2026();
  not_text[elicit::meta_key::protocol_version] = 20260728;
  CHECK(error_of(answer(s.server, request(4, "tools/list", {{"_meta", not_text}}), session)).dump() ==
        R"({"code":-32602,"message":"Invalid params: _meta has no io.modelcontextprotocol/protocolVersion string"})");
  json no_caps = meta_2026();
  no_caps.erase(elicit::meta_key::client_capabilities);
  CHECK(
      error_of(answer(s.server, request(2, "tools/list", {{"_meta", no_caps}}), session)).dump() ==
      R"({"code":-32602,"message":"Invalid params: _meta has no io.modelcontextprotocol/clientCapabilities object"})");
}

TEST_CASE("dispatcher: messages that are no request are refused or handed back, never thrown") {
  served s;
  elicit::client_session session;
  const auto code_of = [&](const json& m) { return error_of(answer(s.server, m, session))["code"].get<int>(); };
  CHECK(code_of(json::array({request(1, "ping")})) == -32600);  // no batches since 2025-06-18
  // Neither request nor response: refused with id null, never with an id the client may wait on.
  CHECK(
      answer(s.server, {{"jsonrpc", "2.0"}, {"id", 2}}, session).dump() ==
      R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: no method, result or error"}})");
  CHECK(code_of({{"jsonrpc", "2.0"}, {"id", 1}, {"method", 5}}) == -32600);
  CHECK(code_of({{"jsonrpc", "2.0"}, {"id", 1.5}, {"method", "ping"}}) == -32600);
  CHECK(code_of({{"jsonrpc", "2.0"}, {"id", nullptr}, {"method", "ping"}}) == -32600);
  CHECK(code_of({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}, {"params", 3}}) == -32602);
  CHECK(code_of({{"jsonrpc", "2.0"}, {"id", 1}}) == -32600);
  const elicit::dispatched reply = s.server.handle(accept({{"guests", 2}}), session, "p");
  CHECK(reply.what == kind::answer);
  CHECK(reply.id == 1);
  const elicit::dispatched cancel = s.server.handle(
      {{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", "c-1"}}}}, session, "p");
  CHECK(cancel.what == kind::cancel);
  CHECK(cancel.id == "c-1");
  CHECK(s.server.handle({{"jsonrpc", "2.0"}, {"method", "notifications/whatever"}}, session, "p").what ==
        kind::nothing);
}

TEST_CASE("dispatcher: tools/call names a tool it has, with arguments that are an object") {
  served s;
  elicit::client_session session;
  CHECK(error_of(answer(s.server, request(1, "tools/call", call_params("nope\n")), session)).dump() ==
        R"({"code":-32602,"message":"Unknown tool: nope?"})");
  CHECK(error_of(answer(s.server, request(2, "tools/call", {{"name", 4}}), session)).dump() ==
        R"({"code":-32602,"message":"Invalid params: name must be a string"})");
  CHECK(error_of(answer(s.server, request(3, "tools/call", {{"name", "echo"}, {"arguments", "x"}}), session)).dump() ==
        R"({"code":-32602,"message":"Invalid params: arguments must be an object"})");
  CHECK(answer(s.server, request(4, "tools/call", call_params("echo", {{"text", "hi"}})), session)["result"].dump() ==
        R"({"content":[{"type":"text","text":"hi"}]})");
}

TEST_CASE("dispatcher: a handler's failure is -32603 to the client and its why to the log, rpc_error as thrown") {
  std::vector<std::string> logged;
  elicit::dispatcher_options options;
  options.log = [&](std::string_view line) { logged.emplace_back(line); };
  elicit::dispatcher d({"t", "1"}, ring(), options);
  d.tools().add({"fail", "d"}, [](const elicit::tool_call&) -> std::string { throw std::runtime_error("disk"); });
  d.tools().add({"refuse", "d"}, [](const elicit::tool_call&) -> std::string {
    throw elicit::rpc_error::invalid_params("order is required");
  });
  elicit::client_session session;
  CHECK(error_of(answer(d, request(1, "tools/call", call_params("fail")), session)).dump() ==
        R"({"code":-32603,"message":"Internal error"})");
  REQUIRE(logged.size() == 1);
  CHECK(logged[0] == "tools/call fail: internal error: disk");
  CHECK(error_of(answer(d, request(2, "tools/call", call_params("refuse")), session)).dump() ==
        R"({"code":-32602,"message":"Invalid params: order is required"})");
}

TEST_CASE("dispatcher: 2025-11-25, a tool that asks is pushed, its questions driven by the transport") {
  served s;
  elicit::client_session session;
  (void)answer(s.server, request(1, "initialize", initialize_params()), session);
  elicit::dispatched d =
      s.server.handle(request(7, "tools/call", call_params("reserve", {{"restaurant", "Le Coq"}})), session, "p");
  REQUIRE(d.what == kind::push);
  elicit::pushed_call& call = *d.call;
  CHECK(call.id() == 7);
  REQUIRE_FALSE(call.done());
  const ordered_json first = call.params();
  CHECK(first["message"] == "How many guests at Le Coq?");
  CHECK(first["requestedSchema"]["properties"]["guests"]["maximum"] == 8);
  call.take(accept({{"guests", 12}}));  // out of range: asked again, in words
  REQUIRE_FALSE(call.done());
  CHECK(call.params()["message"].get<std::string>().find("Guests must be at most 8") != std::string::npos);
  call.take(accept({{"guests", 4}}));
  REQUIRE(call.done());
  CHECK(call.response().dump() ==
        R"({"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Reserved for 4 at Le Coq."}]}})");
}

TEST_CASE("dispatcher: 2025-11-25, a decline is the tool's result, a cancel by the transport has none") {
  served s;
  elicit::client_session session;
  session.modes.form = true;
  elicit::dispatched declined = s.server.handle(request(1, "tools/call", call_params("reserve")), session, "p");
  REQUIRE(declined.what == kind::push);
  declined.call->take({{"jsonrpc", "2.0"}, {"id", 1}, {"result", {{"action", "decline"}}}});
  REQUIRE(declined.call->done());
  CHECK(declined.call->response()["result"]["isError"] == true);
  elicit::dispatched cancelled = s.server.handle(request(2, "tools/call", call_params("reserve")), session, "p");
  cancelled.call->stop(elicit::stop_reason::cancelled);
  CHECK(cancelled.call->done());
  CHECK(cancelled.call->cancelled());
}

TEST_CASE("dispatcher: 2025-11-25, a tool that asks is refused to a client without form elicitation: -32600") {
  served s;
  elicit::client_session session;
  (void)answer(s.server, request(1, "initialize", initialize_params(false)), session);
  const ordered_json e = error_of(answer(s.server, request(2, "tools/call", call_params("reserve")), session));
  CHECK(e["code"] == -32600);
  CHECK(e["data"]["requiredCapabilities"].dump() == R"({"elicitation":{"form":{}}})");
  // A plain tool asks nothing: served.
  CHECK(answer(s.server, request(3, "tools/call", call_params("echo")), session).contains("result"));
}

TEST_CASE("dispatcher: 2026-07-28, a tool that asks answers in rounds, its state sealed for the caller") {
  served s;
  elicit::client_session session;
  const ordered_json first =
      answer(s.server, request(1, "tools/call", call_2026("reserve", {{"restaurant", "Le Coq"}})), session, "alice");
  const ordered_json& round = first["result"];
  CHECK(round["resultType"] == "input_required");
  CHECK(round["inputRequests"]["table"]["params"]["message"] == "How many guests at Le Coq?");
  REQUIRE(round["requestState"].is_string());
  json retry = call_2026("reserve", {{"restaurant", "Le Coq"}});
  retry["inputResponses"] = {{"table", {{"action", "accept"}, {"content", {{"guests", 3}}}}}};
  retry["requestState"] = round["requestState"];
  // Another caller's state does not open for it.
  CHECK(error_of(answer(s.server, request(2, "tools/call", retry), session, "mallory"))["code"] == -32602);
  const ordered_json done = answer(s.server, request(3, "tools/call", retry), session, "alice");
  CHECK(done["result"]["content"][0]["text"] == "Reserved for 3 at Le Coq.");
  CHECK(done["result"]["resultType"] == "complete");
  // Each state opens once.
  CHECK(error_of(answer(s.server, request(4, "tools/call", retry), session, "alice")).dump() ==
        R"({"code":-32602,"message":"invalid or expired requestState"})");
}

TEST_CASE("dispatcher: 2026-07-28, answers with no requestState answer the first round, misshapen ones refused") {
  served s;
  elicit::client_session session;
  json stateless = call_2026("reserve");
  stateless["inputResponses"] = {{"table", {{"action", "accept"}, {"content", {{"guests", 2}}}}}};
  CHECK(answer(s.server, request(1, "tools/call", stateless), session)["result"]["content"][0]["text"] ==
        "Reserved for 2 at Chez Elicit.");
  json null_responses = call_2026("reserve");
  null_responses["inputResponses"] = nullptr;
  CHECK(error_of(answer(s.server, request(2, "tools/call", null_responses), session)).dump() ==
        R"({"code":-32602,"message":"Invalid params: inputResponses must be an object"})");
  const ordered_json no_form =
      error_of(answer(s.server, request(3, "tools/call", call_2026("reserve", json::object(), false)), session));
  CHECK(no_form["code"] == -32021);
  CHECK(no_form["data"]["requiredCapabilities"].dump() == R"({"elicitation":{"form":{}}})");
}

namespace {

json list_2026() { return {{"_meta", meta_2026()}}; }

std::string names_of(const ordered_json& list) {
  std::string out;
  for (const auto& entry : list) out += entry["name"].get<std::string>() + " ";
  return out;
}

// Tools of each era: "old" is served at 2025-11-25 alone, "new" at 2026-07-28 alone, "both" at both.
struct eras {
  elicit::dispatcher server{{"eras", "1"}, ring()};
  eras() {
    const auto plain = [](const elicit::tool_call& c) { return std::string(elicit::version_of(c.protocol())); };
    server.tools().add({"old", "d", {{"type", "object"}}, elicit::era::v2025_11_25}, plain);
    server.tools().add({"both", "d"}, plain);
    server.tools().add({"new", "d", {{"type", "object"}}, elicit::era::v2026_07_28}, reserve);
  }
};

json accepted(int guests) { return {{"table", {{"action", "accept"}, {"content", {{"guests", guests}}}}}}; }

}  // namespace

TEST_CASE("dispatcher: each era lists and calls only the tools served in it, the others are unknown there") {
  eras s;
  elicit::client_session session;
  CHECK(names_of(answer(s.server, request(1, "tools/list"), session)["result"]["tools"]) == "old both ");
  CHECK(names_of(answer(s.server, request(2, "tools/list", list_2026()), session)["result"]["tools"]) == "both new ");
  CHECK(answer(s.server, request(3, "tools/call", call_params("old")), session)["result"]["content"][0]["text"] ==
        "2025-11-25");
  CHECK(error_of(answer(s.server, request(4, "tools/call", call_2026("old")), session)).dump() ==
        R"({"code":-32602,"message":"Unknown tool: old"})");
  session.modes.form = true;
  CHECK(error_of(answer(s.server, request(5, "tools/call", call_params("new")), session)).dump() ==
        R"({"code":-32602,"message":"Unknown tool: new"})");
  CHECK(answer(s.server, request(6, "tools/call", call_2026("new")), session)["result"]["resultType"] ==
        "input_required");
  CHECK(answer(s.server, request(7, "tools/call", call_2026("both")), session)["result"]["content"][0]["text"] ==
        "2026-07-28");
}

TEST_CASE("dispatcher: an era that serves no tool has no tools capability and no tools methods") {
  elicit::dispatcher d({"late", "1"}, ring());
  d.tools().add({"new", "d", {{"type", "object"}}, elicit::era::v2026_07_28}, reserve);
  elicit::client_session session;
  CHECK(answer(d, request(1, "initialize", initialize_params()), session)["result"]["capabilities"].dump() == "{}");
  CHECK(error_of(answer(d, request(2, "tools/list"), session)).dump() ==
        R"({"code":-32601,"message":"Method not found: tools/list"})");
  CHECK(error_of(answer(d, request(3, "tools/call", call_params("new")), session))["code"] == -32601);
  CHECK(answer(d, request(4, "server/discover", list_2026()), session)["result"]["capabilities"].dump() ==
        R"({"tools":{}})");
  CHECK(names_of(answer(d, request(5, "tools/list", list_2026()), session)["result"]["tools"]) == "new ");
  // The other way round: a tool of 2025-11-25 alone leaves 2026-07-28 without tools.
  elicit::dispatcher early({"early", "1"}, ring());
  early.tools().add({"old", "d", {{"type", "object"}}, elicit::era::v2025_11_25}, reserve);
  CHECK(answer(early, request(6, "server/discover", list_2026()), session)["result"]["capabilities"].dump() == "{}");
  CHECK(error_of(answer(early, request(7, "tools/call", call_2026("old")), session))["code"] == -32601);
  CHECK(answer(early, request(8, "initialize", initialize_params()), session)["result"]["capabilities"].dump() ==
        R"({"tools":{}})");
}

TEST_CASE("dispatcher: a tool's own options: one attempt where the dispatcher's default gives three") {
  elicit::dispatcher d({"t", "1"}, ring());
  elicit::tool_options once;
  once.ask.max_attempts = 1;
  once.answers_without_state = true;
  d.tools().add({"strict", "d", {{"type", "object"}}, std::nullopt, once}, reserve);
  d.tools().add({"lenient", "d"}, reserve);
  elicit::client_session session;
  session.modes.form = true;
  // 2025-11-25: twelve guests is out of range; the lenient tool asks again, the strict one gives up.
  elicit::dispatched lenient = d.handle(request(1, "tools/call", call_params("lenient")), session, "p");
  REQUIRE(lenient.what == kind::push);
  lenient.call->take(accept({{"guests", 12}}));
  CHECK_FALSE(lenient.call->done());
  elicit::dispatched strict = d.handle(request(2, "tools/call", call_params("strict")), session, "p");
  REQUIRE(strict.what == kind::push);
  strict.call->take(accept({{"guests", 12}}));
  REQUIRE(strict.call->done());
  CHECK(strict.call->response()["result"].dump() ==
        R"({"content":[{"type":"text","text":"Nothing was reserved at Chez Elicit."}],"isError":true})");
  // 2026-07-28, the same answer without a state: a second round for one, the end for the other.
  json lenient_retry = call_2026("lenient");
  lenient_retry["inputResponses"] = accepted(12);
  CHECK(answer(d, request(3, "tools/call", lenient_retry), session)["result"]["resultType"] == "input_required");
  json strict_retry = call_2026("strict");
  strict_retry["inputResponses"] = accepted(12);
  const ordered_json ended = answer(d, request(4, "tools/call", strict_retry), session)["result"];
  CHECK(ended["isError"] == true);
  CHECK(ended["resultType"] == "complete");
}

TEST_CASE("dispatcher: a tool's own options: answers without a state refused for it alone") {
  elicit::dispatcher d({"t", "1"}, ring());
  elicit::tool_options sealed_only;  // answers_without_state false, the tool_options default
  d.tools().add({"sealed", "d", {{"type", "object"}}, std::nullopt, sealed_only}, reserve);
  d.tools().add({"open", "d"}, reserve);
  elicit::client_session session;
  json sealed = call_2026("sealed");
  sealed["inputResponses"] = accepted(2);
  CHECK(error_of(answer(d, request(1, "tools/call", sealed), session)).dump() ==
        R"({"code":-32602,"message":"invalid or expired requestState"})");
  json open = call_2026("open");
  open["inputResponses"] = accepted(2);
  CHECK(answer(d, request(2, "tools/call", open), session)["result"]["content"][0]["text"] ==
        "Reserved for 2 at Chez Elicit.");
  // With the state of its first round, the same answers are taken; and the state opens once,
  // in the dispatcher's replay store, which a tool's own options without one of their own use.
  const ordered_json first = answer(d, request(3, "tools/call", call_2026("sealed")), session)["result"];
  REQUIRE(first["requestState"].is_string());
  sealed["requestState"] = first["requestState"];
  CHECK(answer(d, request(4, "tools/call", sealed), session)["result"]["content"][0]["text"] ==
        "Reserved for 2 at Chez Elicit.");
  CHECK(error_of(answer(d, request(5, "tools/call", sealed), session))["code"] == -32602);
}

TEST_CASE("dispatcher: a tool's own replay store is used instead of the dispatcher's") {
  elicit::memory_replay_guard own;
  elicit::tool_options with_own;
  with_own.replay = &own;
  elicit::dispatcher d({"t", "1"}, ring());
  d.tools().add({"own", "d", {{"type", "object"}}, std::nullopt, with_own}, reserve);
  elicit::client_session session;
  const ordered_json first = answer(d, request(1, "tools/call", call_2026("own")), session)["result"];
  json retry = call_2026("own");
  retry["inputResponses"] = accepted(2);
  retry["requestState"] = first["requestState"];
  CHECK(own.size() == 0);
  CHECK(answer(d, request(2, "tools/call", retry), session)["result"]["resultType"] == "complete");
  CHECK(own.size() == 1);
  // The state was recorded in the tool's store: opened once there, refused the second time.
  CHECK(error_of(answer(d, request(3, "tools/call", retry), session))["code"] == -32602);
}

namespace {

// A dispatcher with prompts and no tool: "plan" asks, "greeting" answers at once, "late" is
// served at 2026-07-28 alone, "broken" fails once its question is answered; what it logs kept.
elicit::tool<elicit::prompt_result> broken(const elicit::tool_call&) {
  elicit::question<Table> q("table", "How many?");
  const auto table = co_await std::move(q);
  if (table.accepted()) throw std::runtime_error("the kitchen is closed");
  co_return elicit::prompt_result{"", "Closed."};
}

struct prompted {
  std::vector<std::string> logged;
  elicit::dispatcher server;
  prompted() : server({"prompts", "2.0"}, ring(), logging()) {
    server.prompts().add({"plan", "Plan a dinner.", ordered_json::array({{{"name", "restaurant"}}})}, plan);
    server.prompts().add({"greeting", "A greeting."}, [](const elicit::tool_call& c) {
      return elicit::prompt_result{"A greeting",
                                   "Say hello to " + c.arguments().value("who", std::string("all")) + "."};
    });
    server.prompts().add({"late", "2026-07-28 only.", ordered_json::array(), elicit::era::v2026_07_28},
                         [](const elicit::tool_call&) {
                           return elicit::prompt_result{"", "Late."};
                         });
    server.prompts().add({"broken", "Fails once answered."}, broken);
  }
  elicit::dispatcher_options logging() {
    elicit::dispatcher_options o;
    o.log = [this](std::string_view line) { logged.emplace_back(line); };
    return o;
  }
};

}  // namespace

TEST_CASE("dispatcher: prompts, listed per era, with the prompts capability and no tools") {
  prompted s;
  elicit::client_session session;
  CHECK(answer(s.server, request(1, "initialize", initialize_params()), session)["result"]["capabilities"].dump() ==
        R"({"prompts":{}})");
  CHECK(answer(s.server, request(2, "server/discover", list_2026()), session)["result"]["capabilities"].dump() ==
        R"({"prompts":{}})");
  CHECK(error_of(answer(s.server, request(3, "tools/list"), session))["code"] == -32601);
  const ordered_json list25 = answer(s.server, request(4, "prompts/list"), session)["result"];
  CHECK(names_of(list25["prompts"]) == "plan greeting broken ");
  CHECK(list25["prompts"][0].dump() ==
        R"({"name":"plan","description":"Plan a dinner.","arguments":[{"name":"restaurant"}]})");
  CHECK_FALSE(list25.contains("resultType"));
  const ordered_json list26 = answer(s.server, request(5, "prompts/list", list_2026()), session)["result"];
  CHECK(names_of(list26["prompts"]) == "plan greeting late broken ");
  CHECK(list26["resultType"] == "complete");
  CHECK(list26["ttlMs"] == 0);
  CHECK(list26["cacheScope"] == "public");
  CHECK(list26["_meta"][elicit::meta_key::server_info].dump() == R"({"name":"prompts","version":"2.0"})");
}

TEST_CASE("dispatcher: prompts/list and prompts/get are not found in an era without a prompt") {
  served tools_only;
  elicit::client_session session;
  CHECK(error_of(answer(tools_only.server, request(1, "prompts/list"), session)).dump() ==
        R"({"code":-32601,"message":"Method not found: prompts/list"})");
  CHECK(error_of(answer(tools_only.server, request(2, "prompts/get", call_2026("reserve")), session)).dump() ==
        R"({"code":-32601,"message":"Method not found: prompts/get"})");
  elicit::dispatcher late({"late", "1"}, ring());
  late.prompts().add({"late", "d", ordered_json::array(), elicit::era::v2026_07_28}, [](const elicit::tool_call&) {
    return elicit::prompt_result{"", "Late."};
  });
  CHECK(answer(late, request(3, "initialize", initialize_params()), session)["result"]["capabilities"].dump() == "{}");
  CHECK(error_of(answer(late, request(4, "prompts/list"), session))["code"] == -32601);
  CHECK(error_of(answer(late, request(5, "prompts/get", call_params("late")), session))["code"] == -32601);
  CHECK(answer(late, request(6, "prompts/get", call_2026("late")),
               session)["result"]["messages"][0]["content"]["text"] == "Late.");
}

TEST_CASE("dispatcher: prompts/get names a prompt served in the era, with arguments that are an object") {
  prompted s;
  elicit::client_session session;
  CHECK(error_of(answer(s.server, request(1, "prompts/get", {{"name", 4}}), session)).dump() ==
        R"({"code":-32602,"message":"Invalid params: name must be a string"})");
  CHECK(error_of(answer(s.server, request(2, "prompts/get", call_params("nope\n")), session)).dump() ==
        R"({"code":-32602,"message":"Unknown prompt: nope?"})");
  // Served at 2026-07-28 alone: unknown at 2025-11-25, in the same words.
  CHECK(error_of(answer(s.server, request(3, "prompts/get", call_params("late")), session)).dump() ==
        R"({"code":-32602,"message":"Unknown prompt: late"})");
  CHECK(error_of(answer(s.server, request(4, "prompts/get", {{"name", "greeting"}, {"arguments", "x"}}), session))
            .dump() == R"({"code":-32602,"message":"Invalid params: arguments must be an object"})");
  // A plain prompt answers at once, its arguments read as a tool's are.
  CHECK(answer(s.server, request(5, "prompts/get", call_params("greeting", {{"who", "Ada"}})), session).dump() ==
        R"({"jsonrpc":"2.0","id":5,"result":{"description":"A greeting","messages":[{"role":"user","content":)"
        R"({"type":"text","text":"Say hello to Ada."}}]}})");
  const ordered_json late = answer(s.server, request(6, "prompts/get", call_2026("late")), session)["result"];
  CHECK(late.dump() ==
        R"({"messages":[{"role":"user","content":{"type":"text","text":"Late."}}],"resultType":)"
        R"("complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"prompts","version":"2.0"}}})");
}

TEST_CASE("dispatcher: 2025-11-25, a prompt that asks is pushed as a tool is, refused without form elicitation") {
  prompted s;
  elicit::client_session session;
  (void)answer(s.server, request(1, "initialize", initialize_params()), session);
  elicit::dispatched d =
      s.server.handle(request(7, "prompts/get", call_params("plan", {{"restaurant", "Le Coq"}})), session, "p");
  REQUIRE(d.what == kind::push);
  elicit::pushed_call& call = *d.call;
  CHECK(call.id() == 7);
  REQUIRE_FALSE(call.done());
  CHECK(call.params()["message"] == "How many guests at Le Coq?");
  call.take(accept({{"guests", 9}}));  // out of range: asked again
  REQUIRE_FALSE(call.done());
  call.take(accept({{"guests", 5}}));
  REQUIRE(call.done());
  CHECK(call.response().dump() ==
        R"({"jsonrpc":"2.0","id":7,"result":{"description":"A dinner plan","messages":[{"role":"user","content":)"
        R"({"type":"text","text":"Plan a dinner for 5 at Le Coq."}}]}})");

  elicit::client_session formless;
  (void)answer(s.server, request(1, "initialize", initialize_params(false)), formless);
  const ordered_json e = error_of(answer(s.server, request(2, "prompts/get", call_params("plan")), formless));
  CHECK(e["code"] == -32600);
  CHECK(e["data"]["requiredCapabilities"].dump() == R"({"elicitation":{"form":{}}})");
  // A plain prompt asks nothing: served.
  CHECK(answer(s.server, request(3, "prompts/get", call_params("greeting")), formless).contains("result"));
}

TEST_CASE("dispatcher: 2026-07-28, a prompt that asks answers in rounds, its state sealed for prompts/get") {
  prompted s;
  elicit::client_session session;
  const json arguments{{"restaurant", "Le Coq"}};
  const ordered_json round =
      answer(s.server, request(1, "prompts/get", call_2026("plan", arguments)), session, "alice")["result"];
  CHECK(round["resultType"] == "input_required");
  CHECK(round["inputRequests"]["table"]["method"] == "elicitation/create");
  CHECK(round["inputRequests"]["table"]["params"]["message"] == "How many guests at Le Coq?");
  CHECK_FALSE(round.contains("ttlMs"));  // a prompts/get result is not cacheable
  REQUIRE(round["requestState"].is_string());
  json retry = call_2026("plan", arguments);
  retry["inputResponses"] = accepted(3);
  retry["requestState"] = round["requestState"];
  CHECK(error_of(answer(s.server, request(2, "prompts/get", retry), session, "mallory"))["code"] == -32602);
  const ordered_json done = answer(s.server, request(3, "prompts/get", retry), session, "alice")["result"];
  CHECK(done.dump() ==
        R"({"description":"A dinner plan","messages":[{"role":"user","content":{"type":"text","text":)"
        R"("Plan a dinner for 3 at Le Coq."}}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":)"
        R"({"name":"prompts","version":"2.0"}}})");
  CHECK(error_of(answer(s.server, request(4, "prompts/get", retry), session, "alice")).dump() ==
        R"({"code":-32602,"message":"invalid or expired requestState"})");
  const ordered_json no_form =
      error_of(answer(s.server, request(5, "prompts/get", call_2026("plan", arguments, false)), session));
  CHECK(no_form["code"] == -32021);
}

TEST_CASE("dispatcher: a prompt's state does not open for a tool of the same name, nor a tool's for the prompt") {
  elicit::dispatcher d({"twins", "1"}, ring());
  d.tools().add({"plan", "A tool."}, reserve);
  d.prompts().add({"plan", "A prompt."}, plan);
  elicit::client_session session;
  const ordered_json prompt_round = answer(d, request(1, "prompts/get", call_2026("plan")), session)["result"];
  const ordered_json tool_round = answer(d, request(2, "tools/call", call_2026("plan")), session)["result"];
  json as_tool = call_2026("plan");
  as_tool["inputResponses"] = accepted(2);
  as_tool["requestState"] = prompt_round["requestState"];
  CHECK(error_of(answer(d, request(3, "tools/call", as_tool), session))["code"] == -32602);
  json as_prompt = as_tool;
  as_prompt["requestState"] = tool_round["requestState"];
  CHECK(error_of(answer(d, request(4, "prompts/get", as_prompt), session))["code"] == -32602);
  // Each in its own method opens.
  as_prompt["requestState"] = prompt_round["requestState"];
  CHECK(answer(d, request(5, "prompts/get", as_prompt), session)["result"]["messages"][0]["content"]["text"] ==
        "Plan a dinner for 2 at Chez Elicit.");
}

TEST_CASE("dispatcher: a prompt's failure is -32603 to the client, logged as prompts/get NAME, in both eras") {
  prompted s;
  elicit::client_session session;
  session.modes.form = true;
  elicit::dispatched d = s.server.handle(request(1, "prompts/get", call_params("broken")), session, "p");
  REQUIRE(d.what == kind::push);
  d.call->take(accept({{"guests", 2}}));
  REQUIRE(d.call->done());
  CHECK(error_of(d.call->response()).dump() == R"({"code":-32603,"message":"Internal error"})");
  REQUIRE(s.logged.size() == 1);
  CHECK(s.logged[0] == "prompts/get broken: internal error: the kitchen is closed");
  json stateless = call_2026("broken");
  stateless["inputResponses"] = accepted(2);
  CHECK(error_of(answer(s.server, request(2, "prompts/get", stateless), session))["code"] == -32603);
  REQUIRE(s.logged.size() == 2);
  CHECK(s.logged[1] == "prompts/get broken: internal error: the kitchen is closed");
}

TEST_CASE("dispatcher: a prompt's own options: one attempt, and no answers without a state") {
  elicit::dispatcher d({"t", "1"}, ring());
  elicit::tool_options strict;
  strict.ask.max_attempts = 1;
  d.prompts().add({"strict", "d", ordered_json::array(), std::nullopt, strict}, plan);
  elicit::client_session session;
  session.modes.form = true;
  elicit::dispatched pushed = d.handle(request(1, "prompts/get", call_params("strict")), session, "p");
  REQUIRE(pushed.what == kind::push);
  pushed.call->take(accept({{"guests", 12}}));
  REQUIRE(pushed.call->done());  // one attempt: the invalid answer ends the question
  CHECK(pushed.call->response()["result"]["messages"][0]["content"]["text"] == "Plan a dinner at Chez Elicit.");
  json stateless = call_2026("strict");
  stateless["inputResponses"] = accepted(2);
  CHECK(error_of(answer(d, request(2, "prompts/get", stateless), session)).dump() ==
        R"({"code":-32602,"message":"invalid or expired requestState"})");
}

}  // namespace unit_server_dispatcher
