// A stdio MCP server with one tool, book_shipment (samples/book_shipment.hpp: written once),
// served at both protocol versions on one stdin and stdout, as a dual-era server does:
//   - 2025-11-25: initialize selects it for the process; each question of the tool is an
//     elicitation/create the server sends and waits for (elicit::run_tool). A cancelled
//     tools/call stops asking (stdio_transport.hpp).
//   - 2026-07-28: a request carrying io.modelcontextprotocol/protocolVersion in its _meta is
//     served statelessly: server/discover answers first (the SDK's probe), and each tools/call
//     is one round (elicit::tool_round): an InputRequiredResult with the questions still open
//     and a sealed requestState holding the answers given so far, or the tool's result.
// Every form is a C++ struct (samples/forms.hpp) going through elicit: schema, request, decoding.
//
// The state's key is generated at start, for this process alone: a stdio server is one process
// for one client, and a state outlives neither. Each state opens once (a replay store in memory).
#include "../book_shipment.hpp"
#include "../progress_interval.hpp"
#include "stdio_transport.hpp"

#include <elicit/elicit.hpp>
#include <elicit/era.hpp>
#include <elicit/state.hpp>
#include <elicit/tool.hpp>

#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>

namespace {

using nlohmann::json;          // what the client sends
using nlohmann::ordered_json;  // what this server sends, keys in the order written
using stdio_rpc::connection;

constexpr const char* server_name = "elicit-shipment-sample";  // also the states' audience

ordered_json server_info() { return {{"name", server_name}, {"version", "0.1.0"}}; }

ordered_json text_result(const shipping::booking& b) {
  return {{"content", ordered_json::array({{{"type", "text"}, {"text", b.text}}})}, {"isError", b.is_error}};
}

// Whether a request is of 2026-07-28 (<elicit/era.hpp>: it names its version in _meta). A
// version this server does not speak is UnsupportedProtocolVersionError (-32022), which also
// tells a probing client that this server is of the 2026-07-28 era.
bool modern(const json& params) {
  if (const auto refused = elicit::unsupported_version(nullptr, params)) {
    const ordered_json& e = (*refused)["error"];
    throw connection::rpc_error{e["code"].get<int>(), e["message"].get<std::string>(), e["data"]};
  }
  return elicit::era_of(params) == elicit::era::v2026_07_28;
}

// 2026-07-28: what every result of `method` carries (its type, caching hints, who answered).
ordered_json finished(std::string_view method, ordered_json result) {
  return elicit::finish_result(method, std::move(result), server_info());
}

// The form's absence at 2025-11-25, which has no error code for it: -32600 saying so. (At
// 2026-07-28 tool_round's tool_error is -32021 naming the capability.)
[[noreturn]] void no_form_mode() {
  throw connection::rpc_error{-32600,
                              "Invalid Request: this asks the user in a form, and the client did not declare "
                              "form-mode elicitation (capabilities.elicitation) in initialize"};
}

struct server_state {
  elicit::elicitation_modes modes;  // 2025-11-25: from initialize
  elicit::key_ring ring;
  elicit::memory_replay_guard replay;
};

ordered_json book(connection& client, server_state& self, const json& params) {
  const bool is_modern = modern(params);
  const auto name = params.find("name");
  if (name == params.end() || *name != "book_shipment") throw connection::rpc_error{-32602, "Unknown tool"};
  const auto a = params.find("arguments");
  if (a != params.end() && !a->is_object())
    throw connection::rpc_error{-32602, "Invalid params: arguments must be an object"};
  const json arguments = a != params.end() ? *a : json::object();
  std::string shipment;
  try {
    shipment = shipping::shipment_of(arguments);
  } catch (const std::invalid_argument& e) {
    throw connection::rpc_error{-32602, e.what()};
  }

  if (!is_modern) {
    if (!self.modes.form) no_form_mode();
    auto send = [&client](const ordered_json& p) { return client.request("elicitation/create", p); };
    return text_result(elicit::run_tool(send, shipping::book_shipment(shipment, shipping::free_slots())));
  }
  // The caller of a stdio server is whoever started it: one principal.
  const elicit::state_binding binding{server_name, "stdio", "tools/call", "book_shipment",
                                      elicit::digest_of(arguments, connection::limits)};
  elicit::tool_options options;
  options.replay = &self.replay;
  try {
    auto round = elicit::tool_round(shipping::book_shipment(shipment, shipping::free_slots()), params, self.ring,
                                    binding, options);
    if (!round.done()) return finished("tools/call", round.input_required());
    return finished("tools/call", text_result(round.value()));
  } catch (const elicit::tool_error& e) {  // why goes to stderr; the client gets the one message
    std::cerr << "tools/call book_shipment: " << e.what() << "\n";
    throw connection::rpc_error{e.code(), e.client_message(), e.data()};
  }
}

ordered_json tools_list() {
  return {{"tools",
           ordered_json::array(
               {{{"name", "book_shipment"},
                 {"description", "Book a shipment, asking the user where and how it should go."},
                 {"inputSchema", {{"type", "object"}, {"properties", {{"shipment_id", {{"type", "string"}}}}}}}}})}};
}

}  // namespace

int main() {
  connection client;
  try {  // a waiting question sends notifications/progress where the call gave a progressToken
    client.progress_every(samples::progress_interval_from_environment(elicit::keepalive_interval));
  } catch (const std::invalid_argument& e) {
    std::cerr << "shipment_server: " << e.what() << "\n";
    return 2;
  }
  server_state self;
  self.ring.add("k1", elicit::state_key::generate());
  client.on("initialize", [&](const json& params) {
    self.modes = elicit::modes_from_initialize(params);
    return ordered_json{{"protocolVersion", elicit::version_of(elicit::era::v2025_11_25)},
                        {"capabilities", {{"tools", ordered_json::object()}}},
                        {"serverInfo", server_info()}};
  });
  client.on("notifications/initialized", [](const json&) { return ordered_json(); });
  client.on("ping", [](const json&) { return ordered_json::object(); });
  client.on("server/discover", [](const json& params) {
    if (!modern(params))
      throw connection::rpc_error{-32602,
                                  std::string("Invalid params: _meta has no ") + elicit::meta_key::protocol_version};
    return finished("server/discover", {{"supportedVersions", elicit::supported_versions},
                                        {"capabilities", {{"tools", ordered_json::object()}}}});
  });
  client.on("tools/list",
            [](const json& params) { return modern(params) ? finished("tools/list", tools_list()) : tools_list(); });
  client.on("tools/call", [&](const json& params) { return book(client, self, params); });
  client.run();
}
