// The server tests' fixture: a dispatcher serving a tool that asks (one question, "table") and
// a plain one, a prompt that asks the same question, and the requests a client of each era sends.
#pragma once

#include <elicit/server/dispatcher.hpp>
#include <elicit/server/prompt_result.hpp>
#include <elicit/state/state.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <utility>

namespace server_fixture {

using nlohmann::json;
using nlohmann::ordered_json;

struct Table {
  elicit::field<int, elicit::title<"Guests">, elicit::range<1, 8>> guests;
};

// Asks for the table, then says what was booked; a decline is a result that is an error.
inline elicit::tool<elicit::tool_result> reserve(const elicit::tool_call& call) {
  const std::string where = call.arguments().value("restaurant", "Chez Elicit");
  elicit::question<Table> q("table", "How many guests at " + where + "?");
  const auto table = co_await std::move(q);
  if (!table.accepted()) co_return elicit::tool_result::error("Nothing was reserved at " + where + ".");
  co_return elicit::tool_result{"Reserved for " + std::to_string(*table->guests) + " at " + where + "."};
}

// A prompt that asks: how many guests, then the dinner to plan for them. A decline is still a
// prompt, a plainer one.
inline elicit::tool<elicit::prompt_result> plan(const elicit::tool_call& call) {
  const std::string where = call.arguments().value("restaurant", "Chez Elicit");
  elicit::question<Table> q("table", "How many guests at " + where + "?");
  const auto table = co_await std::move(q);
  if (!table.accepted()) co_return elicit::prompt_result{"A dinner plan", "Plan a dinner at " + where + "."};
  co_return elicit::prompt_result{"A dinner plan",
                                  "Plan a dinner for " + std::to_string(*table->guests) + " at " + where + "."};
}

inline elicit::key_ring& ring() {
  static elicit::key_ring r = [] {
    elicit::key_ring k;
    k.add("k1", elicit::state_key::generate());
    return k;
  }();
  return r;
}

// A dispatcher with reserve (asks), echo (plain, a string) and fail (throws).
struct served {
  elicit::dispatcher server{{"test-server", "1.2.3"}, ring()};
  served() {
    server.tools().add({"reserve", "Reserve a table."}, reserve);
    server.tools().add({"echo", "Says its text back."},
                       [](const elicit::tool_call& c) { return c.arguments().value("text", std::string()); });
    server.tools().add({"fail", "Always fails."}, [](const elicit::tool_call&) -> elicit::tool_result {
      throw std::runtime_error("the database is down");
    });
  }
};

inline json request(json id, std::string method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", std::move(method)}, {"params", std::move(params)}};
}

// The _meta of a 2026-07-28 request, declaring form-mode elicitation unless told not to.
inline json meta_2026(bool form = true) {
  return {{elicit::meta_key::protocol_version, "2026-07-28"},
          {elicit::meta_key::client_capabilities,
           form ? json{{"elicitation", {{"form", json::object()}}}} : json::object()}};
}

inline json call_params(std::string tool, json arguments = json::object()) {
  return {{"name", std::move(tool)}, {"arguments", std::move(arguments)}};
}

inline json call_2026(std::string tool, json arguments = json::object(), bool form = true) {
  json p = call_params(std::move(tool), std::move(arguments));
  p["_meta"] = meta_2026(form);
  return p;
}

inline json initialize_params(bool form = true) {
  return {{"protocolVersion", "2025-11-25"},
          {"capabilities", form ? json{{"elicitation", json::object()}} : json::object()},
          {"clientInfo", {{"name", "test-client"}, {"version", "1"}}}};
}

inline json accept(json content) {
  return {{"jsonrpc", "2.0"}, {"id", 1}, {"result", {{"action", "accept"}, {"content", std::move(content)}}}};
}

}  // namespace server_fixture
