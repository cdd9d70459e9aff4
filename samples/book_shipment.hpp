// book_shipment, written once (<elicit/state/tool.hpp>): the one tool that both samples serve, at
// both protocol versions, through the library's dispatcher (<elicit/server/dispatcher.hpp>): the
// stdio sample (stdio_server/shipment_server.cpp) on stdin and stdout, the HTTP sample
// (mcp_server/main.cpp) over Streamable HTTP.
//
// Three questions, one after the other: the delivery address; the delivery slot, a choice
// among the slots still free (known only when the question is asked: a form<F> with choices);
// and the shipment options, their destination prefilled from the address's country. Decline
// and cancel lead to different results: a decline is the user's "no", so nothing is booked and
// the tool says so; a cancel is a dismissal, so the booking is left for later. An invalid
// answer is asked again in plain words with the valid parts prefilled (up to three times in
// all), in the same words in both eras. A JSON-RPC error from the client is not the user's
// mistake: the tool says the form could not be shown.
//
// The tool is deterministic up to its questions, as tool_round needs: the free slots are read
// once per request, by the caller, and handed in (in a real server, a query before the tool
// runs). When they change between two rounds of a stateless call, the slot question changes with
// them, and its recorded answer is not reused: the question is asked again.
#pragma once

#include "forms.hpp"

#include <elicit/server/rpc_error.hpp>
#include <elicit/server/tool_call.hpp>
#include <elicit/server/tool_registry.hpp>
#include <elicit/server/tool_result.hpp>
#include <elicit/state/tool.hpp>

#include <fmt/format.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace shipping {

// What book_shipment answers: the text of the tool's result, and whether it is an error.
struct booking {
  std::string text;
  bool is_error = false;
};

// A booking as a tools/call result (<elicit/server/tool_result.hpp>: found beside the type).
inline elicit::tool_result to_tool_result(const booking& b) { return {b.text, b.is_error}; }

inline std::string country_name(Country c) {
  for (const auto& o : elicit_options(c))
    if (o.value == c) return std::string(o.title);
  return "?";
}

// The carrier's delivery slots, and whether each is still free: in a real server, a query.
struct slot_row {
  const char* id;
  const char* label;
  bool free;
};
inline constexpr slot_row slot_table[] = {
    {"tue-am", "Tuesday 8:00-12:00", false},  {"tue-pm", "Tuesday 12:00-18:00", true},
    {"wed-am", "Wednesday 8:00-12:00", true}, {"wed-pm", "Wednesday 12:00-18:00", false},
    {"thu-am", "Thursday 8:00-12:00", true},
};

inline std::vector<elicit::choice_option> free_slots() {
  std::vector<elicit::choice_option> offers;
  for (const slot_row& row : slot_table)
    if (row.free) offers.push_back({row.id, row.label});
  return offers;
}

inline std::string slot_label(const std::vector<elicit::choice_option>& slots, const elicit::choice& c) {
  for (const elicit::choice_option& o : slots)
    if (o.value == c.value) return o.title;
  return c.value;
}

// The shipment id of the call's arguments, "SHP-4471" when there is none. Throws
// std::invalid_argument when it is not a string.
inline std::string shipment_of(const nlohmann::json& arguments) {
  const auto id = arguments.find("shipment_id");
  if (id == arguments.end()) return "SHP-4471";
  if (!id->is_string()) throw std::invalid_argument("Invalid params: shipment_id must be a string");
  return id->get<std::string>();
}

// What the tool answers when a question was not answered.
template <class Form>
booking unanswered(const elicit::ask_result<Form>& r, const std::string& shipment, const std::string& what) {
  switch (r.outcome()) {
    case elicit::outcome::declined:
      return {fmt::format("Shipment {} was not booked: you declined to give the {}.", shipment, what), false};
    case elicit::outcome::cancelled:
      return {
          fmt::format(
              "Booking of shipment {} was cancelled when asked for the {}; nothing was booked. Ask again when ready.",
              shipment, what),
          false};
    case elicit::outcome::error:
      return {fmt::format("Shipment {} was not booked: the client could not ask for the {}: {}", shipment, what,
                          r.client_error()->value("message", "no message")),
              true};
    case elicit::outcome::stopped:
    case elicit::outcome::timed_out:
      return {fmt::format("Shipment {} was not booked: the server stopped waiting for the {}.", shipment, what), true};
    default:
      return {fmt::format("Shipment {} was not booked: the {} was still invalid after {} attempts: {}", shipment, what,
                          r.attempts(), r.violations()),
              true};
  }
}

// The tool. Its parameters are values: the coroutine outlives the caller's expression. (Each
// question is built first, then awaited: g++-12 mishandles braced arguments in a co_await.)
inline elicit::tool<booking> book_shipment(std::string shipment, std::vector<elicit::choice_option> slots) {
  elicit::question<DeliveryAddress> where("address", fmt::format("Where should shipment {} be delivered?", shipment));
  const auto address = co_await std::move(where);
  if (!address.accepted()) co_return unanswered(address, shipment, "delivery address");

  elicit::question when("slot", elicit::form<DeliverySlot>().choices(&DeliverySlot::slot, slots),
                        fmt::format("When should shipment {} arrive?", shipment));
  const auto slot = co_await std::move(when);
  if (!slot.accepted()) co_return unanswered(slot, shipment, "delivery slot");

  // The destination starts as the address's country: the user changes it only when it differs.
  elicit::question how(
      "options", elicit::form<ShipmentOptions>().default_value(&ShipmentOptions::country_code, *address->country_code),
      fmt::format("How should shipment {} travel?", shipment));
  const auto options = co_await std::move(how);
  if (!options.accepted()) co_return unanswered(options, shipment, "shipment options");

  const auto& insured = options->insured_value_gbp;
  co_return booking{
      fmt::format("Shipment {} booked to {}, {} {}, {}; arriving {}{}; destination country {}; insured for £{}{}; "
                  "signature {}.",
                  shipment, *address->street, *address->city, *address->postcode, country_name(*address->country_code),
                  slot_label(slots, *slot->slot), slot->note ? " (note: " + *slot->note + ")" : "",
                  country_name(*options->country_code), insured.value_or(50), insured ? "" : " (the default cover)",
                  *options->signature_required ? "required" : "not required"),
      false};
}

// What tools/list says of it, for a server on the library's dispatcher
// (<elicit/server/tool_registry.hpp>).
inline elicit::tool_spec book_shipment_spec() {
  return {.name = "book_shipment",
          .description = "Book a shipment, asking the user where and how it should go.",
          .input_schema = {{"type", "object"}, {"properties", {{"shipment_id", {{"type", "string"}}}}}},
          // A client that takes tasks gets one: its questions are the task's.
          .task = elicit::task_support::optional};
}

// Its handler there: the call's shipment and the slots free now, read before the tool runs (it
// runs again from the start on every round of a stateless call, and must ask the same questions). A
// shipment_id that is no string is the caller's mistake: -32602.
inline elicit::tool<booking> book_shipment_call(const elicit::tool_call& call) {
  try {
    return book_shipment(shipment_of(call.arguments()), free_slots());
  } catch (const std::invalid_argument& e) {
    throw elicit::rpc_error(-32602, e.what());
  }
}

}  // namespace shipping
