// Writes what a dispatcher answers in each era, tools and prompts, each with the spec's $defs
// entry it must validate against, for validate_messages.py (tests/CMakeLists.txt).
#include "../../unit/support/server_fixture.hpp"

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

  // Prompts: a server with a prompt that asks and a plain one, in both eras.
  elicit::dispatcher prompts({"prompts", "1"}, ring());
  prompts.prompts().add(
      {"plan", "Plan a dinner.", ordered_json::array({{{"name", "restaurant"}, {"required", false}}})}, plan);
  prompts.prompts().add({"greeting", "A greeting."}, [](const elicit::tool_call&) {
    return elicit::prompt_result{"A greeting", "Say hello."};
  });
  elicit::client_session prompt_session;
  const auto ask = [&](const json& m) { return prompts.handle(m, prompt_session, "p").response; };
  out.push_back(entry(v25, "InitializeResult", ask(request(20, "initialize", initialize_params()))["result"]));
  out.push_back(entry(v25, "ListPromptsResult", ask(request(21, "prompts/list"))["result"]));
  out.push_back(entry(v25, "GetPromptResult", ask(request(22, "prompts/get", call_params("greeting")))["result"]));
  elicit::dispatched pushed_prompt =
      prompts.handle(request(23, "prompts/get", call_params("plan")), prompt_session, "p");
  out.push_back(entry(v25, "ElicitRequestFormParams", pushed_prompt.call->params()));
  pushed_prompt.call->take(accept({{"guests", 2}}));
  out.push_back(entry(v25, "GetPromptResult", pushed_prompt.call->response()["result"]));
  out.push_back(entry(v26, "DiscoverResult", ask(request(24, "server/discover", {{"_meta", meta_2026()}}))["result"]));
  out.push_back(entry(v26, "ListPromptsResult", ask(request(25, "prompts/list", {{"_meta", meta_2026()}}))["result"]));
  const ordered_json prompt_round = ask(request(26, "prompts/get", call_2026("plan")))["result"];
  out.push_back(entry(v26, "InputRequiredResult", prompt_round));
  json prompt_retry = call_2026("plan");
  prompt_retry["inputResponses"] = {{"table", {{"action", "accept"}, {"content", {{"guests", 2}}}}}};
  prompt_retry["requestState"] = prompt_round["requestState"];
  out.push_back(entry(v26, "GetPromptResult", ask(request(27, "prompts/get", prompt_retry))["result"]));
  out.push_back(entry(v26, "GetPromptResult", ask(request(28, "prompts/get", call_2026("greeting")))["result"]));
  std::cout << out.dump(2) << "\n";
}
