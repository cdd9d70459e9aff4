// What docs/protocol.md's snippets take as given: the sample forms, the request being handled,
// the server's key ring, and the program's own functions (`send` prints what it sends). It
// comes after the snippets' own includes: elicit::key_ring is there only when a snippet
// includes <elicit/state/state.hpp>.
#pragma once

#include "../../../../samples/forms.hpp"

#include <nlohmann/json.hpp>

#include <iostream>
#include <string>
#include <string_view>

using shipping::DeliveryAddress;
using shipping::ShipmentOptions;

inline const elicit::elicitation_modes modes{.form = true, .url = true};
inline int next_id = 1;
inline const nlohmann::json request_id = 4;
inline const nlohmann::json id = 12;
// A first call of the tool: no answers, no state yet.
inline nlohmann::json params = nlohmann::json::parse(R"({"name":"book_shipment","arguments":{"order":"A-17"}})");
inline const std::string caller_id = "alice";
inline const std::string order = "A-17";
inline const elicit::key_ring ring = [] {
  elicit::key_ring r;
  r.add("k1", elicit::state_key::generate());
  return r;
}();

inline void send(const nlohmann::ordered_json& message) { std::cout << message.dump() << '\n'; }
inline nlohmann::ordered_json fail_without_asking() { return {{"isError", true}}; }
inline void remember(const std::string&, const std::string&) {}
inline void log(std::string_view) {}
inline void ship(const std::string&, const DeliveryAddress&) {}
