// <elicit/server/dispatcher.hpp>: the envelope of both eras, message by message: what each era
// is answered, what is refused and in which words, a tool that asks run as pushes (2025-11-25)
// and as rounds (2026-07-28) with the same questions and results. Every expectation written out.
#include "fixture.hpp"

#include <elicit/server/dispatcher.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

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

TEST_CASE("dispatcher: a handler's failure is -32603 to the client and its why to the log; rpc_error as thrown") {
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

TEST_CASE("dispatcher: 2026-07-28, answers with no requestState answer the first round; misshapen ones refused") {
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
