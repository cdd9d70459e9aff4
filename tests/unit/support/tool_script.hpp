// A tool written once (<elicit/state/tool.hpp>), its person, and a scripted client of each era:
// shared by tests/unit/state/test_tool.cpp (2025-11-25 blocking and 2026-07-28), test_tool_loop.cpp,
// test_tool_round.cpp and tests/unit/asio/test_tool.cpp.
//
// The person answers every question it is shown with the next answer of its script, whoever
// asks, and notes what it was asked (key, message, requestedSchema): the same script must then
// give the same questions, in the same order, in both eras.
#pragma once

#include "../../../samples/forms.hpp"

#include <elicit/state/tool.hpp>
#include <elicit/state/tool_loop.hpp>
#include <elicit/state/tool_round.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <deque>
#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace tool_script {

using nlohmann::json;
using nlohmann::ordered_json;
using shipping::DeliveryAddress;
using shipping::DeliverySlot;
using shipping::ShipmentOptions;

// The carrier's free slots, read by the tool each time it runs.
struct Carrier {
  std::vector<elicit::choice_option> free{{"s-0900", "9:00"}, {"s-0930", "9:30"}};
};

inline std::string word(elicit::outcome o) {
  switch (o) {
    case elicit::outcome::accepted: return "accepted";
    case elicit::outcome::invalid: return "invalid";
    case elicit::outcome::declined: return "declined";
    case elicit::outcome::cancelled: return "cancelled";
    case elicit::outcome::missing: return "missing";
    case elicit::outcome::error: return "error";
    case elicit::outcome::stopped: return "stopped";
    case elicit::outcome::timed_out: return "timed_out";
  }
  return "?";
}

// The tool: the address, then the slot (a run-time choice of the free slots) and the options
// (prefilled with the address's country) asked together.
inline elicit::tool<std::string> book(Carrier carrier) {
  auto address = co_await elicit::question<DeliveryAddress>("address", "Where should order A-17 go?");
  if (!address.accepted()) co_return "Not booked: address " + word(address.outcome());
  auto options =
      elicit::form<ShipmentOptions>().default_value(&ShipmentOptions::country_code, address->country_code.value);
  auto [slot, how] = co_await elicit::together(
      elicit::question("slot", elicit::form<DeliverySlot>().choices(&DeliverySlot::slot, carrier.free),
                       "When should it come?"),
      elicit::question("options", std::move(options), "How should it travel?"));
  if (!slot.accepted()) co_return "Not booked: slot " + word(slot.outcome());
  if (!how.accepted()) co_return "Not booked: options " + word(how.outcome());
  co_return "Booked to " + *address->city + " at " + slot->slot->value +
      (*how->signature_required ? ", signed" : ", unsigned") + " (" + std::to_string(address.attempts()) +
      " attempts for the address)";
}

inline json accept(json content) { return {{"action", "accept"}, {"content", std::move(content)}}; }
inline const json good_address = {
    {"street", "1 High St"}, {"city", "London"}, {"postcode", "SW1A 1AA"}, {"country_code", "GB"}};
// An answer the person does not give: at 2026-07-28 the key is left out of inputResponses.
inline const json no_answer = "no answer";

struct asked {
  std::string key;
  std::string message;
  std::string schema;
  friend bool operator==(const asked&, const asked&) = default;
};

inline std::ostream& operator<<(std::ostream& os, const asked& a) {
  return os << a.key << ": " << a.message << " " << a.schema;
}

struct person {
  explicit person(std::deque<json> answers) : script(std::move(answers)) {}

  std::deque<json> script;
  std::vector<asked> log;

  json answer(const std::string& key, const ordered_json& params) {
    log.push_back({key, params["message"].get<std::string>(), params["requestedSchema"].dump()});
    if (script.empty()) FAIL("the person was asked more often than scripted: " << log.back());
    json a = std::move(script.front());
    script.pop_front();
    return a;
  }
};

// The 2025-11-25 client: each elicitation/create answered by the person, as a JSON-RPC
// response (an answer with "error" is sent as the client's error).
inline json response_to(const json& answer) {
  if (answer.is_object() && answer.contains("error"))
    return {{"jsonrpc", "2.0"}, {"id", 1}, {"error", answer["error"]}};
  return {{"jsonrpc", "2.0"}, {"id", 1}, {"result", answer}};
}

inline std::string run_2025(elicit::tool<std::string> t, person& p, const elicit::tool_options& options = {}) {
  elicit::tool_loop<std::string> loop(std::move(t), options);
  while (!loop.done()) loop.take(response_to(p.answer(loop.key(), loop.params())));
  return std::move(loop).result();
}

// The 2026-07-28 side: the server's keys and what a state is sealed for.
inline const elicit::key_ring& ring() {
  static const elicit::key_ring r = [] {
    elicit::key_ring k;
    k.add("k1", elicit::state_key::generate());
    return k;
  }();
  return r;
}
inline const json arguments = {{"order", "A-17"}};
inline elicit::state_binding binding(std::string principal = "alice") {
  return {"tests", std::move(principal), "tools/call", "book_shipment", elicit::digest_of(arguments)};
}
inline json first_call() {
  return {{"name", "book_shipment"},
          {"arguments", arguments},
          {"_meta", {{"io.modelcontextprotocol/clientCapabilities", {{"elicitation", {{"form", json::object()}}}}}}}};
}

// The 2026-07-28 client: calls, answers every input request of each InputRequiredResult by the
// person, and retries with the answers and the state, until the tool is done. `rounds` gets
// every InputRequiredResult. `make` makes the tool afresh for each request, as a server does.
struct run_2026 {
  explicit run_2026(std::function<elicit::tool<std::string>()> maker, elicit::tool_options o = {})
      : make(std::move(maker)), options(o) {}

  std::function<elicit::tool<std::string>()> make;
  elicit::tool_options options;
  std::vector<ordered_json> rounds;
  json params = first_call();

  // One request: the tool's round, and the retry's params made from it by the person.
  elicit::round_result<std::string> request(person& p) {
    auto round = elicit::tool_round(make(), params, ring(), binding(), options);
    if (round.done()) return round;
    const ordered_json& ir = round.input_required();
    rounds.push_back(ir);
    json responses = json::object();
    for (const auto& item : ir["inputRequests"].items()) {
      CHECK(item.value()["method"] == "elicitation/create");
      json a = p.answer(item.key(), item.value()["params"]);
      if (a != no_answer) responses[item.key()] = std::move(a);
    }
    params["inputResponses"] = responses;
    params["requestState"] = ir["requestState"];
    return round;
  }
  std::string operator()(person& p) {
    for (int i = 0; i < 100; ++i) {
      auto round = request(p);
      if (round.done()) return std::move(round).value();
    }
    FAIL("the tool did not end in 100 requests");
    return {};
  }
};

}  // namespace tool_script
