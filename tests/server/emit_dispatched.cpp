// Writes what a dispatcher answers in each era, each with the spec's $defs entry it must
// validate against, for validate_messages.py (tests/server/CMakeLists.txt).
#include "fixture.hpp"

#include <iostream>

using namespace server_fixture;

namespace {

ordered_json entry(std::string_view version, std::string_view def, ordered_json message) {
  return {{"version", version}, {"def", def}, {"message", std::move(message)}};
}

}  // namespace

int main() {
  served s;
  elicit::client_session session;
  const auto respond = [&](const json& m) { return s.server.handle(m, session, "p").response; };
  const auto result = [&](const json& m) { return respond(m)["result"]; };
  ordered_json out = ordered_json::array();
  const char* v25 = "2025-11-25";
  const char* v26 = "2026-07-28";
  out.push_back(entry(v25, "InitializeResult", result(request(1, "initialize", initialize_params()))));
  out.push_back(entry(v25, "ListToolsResult", result(request(2, "tools/list"))));
  out.push_back(entry(v25, "CallToolResult", result(request(3, "tools/call", call_params("echo", {{"text", "x"}})))));
  out.push_back(entry(v25, "JSONRPCErrorResponse", respond(request(4, "tools/call", call_params("fail")))));
  elicit::dispatched pushed = s.server.handle(request(5, "tools/call", call_params("reserve")), session, "p");
  out.push_back(entry(v25, "ElicitRequestFormParams", pushed.call->params()));
  pushed.call->take({{"jsonrpc", "2.0"}, {"id", 1}, {"result", {{"action", "decline"}}}});
  out.push_back(entry(v25, "CallToolResult", pushed.call->response()["result"]));

  out.push_back(entry(v26, "DiscoverResult", result(request(6, "server/discover", {{"_meta", meta_2026()}}))));
  out.push_back(entry(v26, "ListToolsResult", result(request(7, "tools/list", {{"_meta", meta_2026()}}))));
  const ordered_json round = result(request(8, "tools/call", call_2026("reserve")));
  out.push_back(entry(v26, "InputRequiredResult", round));
  json retry = call_2026("reserve");
  retry["inputResponses"] = {{"table", {{"action", "accept"}, {"content", {{"guests", 2}}}}}};
  retry["requestState"] = round["requestState"];
  out.push_back(entry(v26, "CallToolResult", result(request(9, "tools/call", retry))));
  out.push_back(entry(v26, "CallToolResult", result(request(10, "tools/call", call_2026("echo")))));
  json other = meta_2026();
  other[elicit::meta_key::protocol_version] = "2030-01-01";
  out.push_back(entry(v26, "UnsupportedProtocolVersionError", respond(request(11, "tools/list", {{"_meta", other}}))));
  out.push_back(entry(v26, "MissingRequiredClientCapabilityError",
                      respond(request(12, "tools/call", call_2026("reserve", json::object(), false)))));
  std::cout << out.dump(2) << "\n";
}
