// A stdio MCP server (protocol 2025-11-25) with one tool, book_shipment: it asks the user for
// the delivery address, then for the shipment options, and answers with a summary. Every form
// is a C++ struct (samples/forms.hpp) going through elicit: schema, request, decoding.
//
// Decline and cancel lead to different results: a decline is the user's "no", so nothing is
// booked and the tool says so; a cancel is a dismissal, so the booking is left for later. An
// invalid answer is asked again (elicit::ask, up to three times in all), the message saying in
// plain words what to fix and the valid answers kept. A JSON-RPC error from the client is not
// the user's mistake: the tool says the form could not be shown. A cancelled tools/call stops
// asking (stdio_transport.hpp).
//
// The delivery slot is a choice made at run time: the slots still free, offered through
// elicit::form. The shipment options start from what the address said (the destination
// country), prefilled.
#include "../forms.hpp"
#include "stdio_transport.hpp"

#include <elicit/elicit.hpp>

#include <fmt/format.h>

#include <string>
#include <vector>

namespace {

using nlohmann::json;          // what the client sends
using nlohmann::ordered_json;  // what this server sends, keys in the order written
using stdio_rpc::connection;

ordered_json text_result(const std::string& text, bool is_error = false) {
  return {{"content", ordered_json::array({{{"type", "text"}, {"text", text}}})}, {"isError", is_error}};
}

std::string country_name(shipping::Country c) {
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
constexpr slot_row slot_table[] = {
    {"tue-am", "Tuesday 8:00-12:00", false},  {"tue-pm", "Tuesday 12:00-18:00", true},
    {"wed-am", "Wednesday 8:00-12:00", true}, {"wed-pm", "Wednesday 12:00-18:00", false},
    {"thu-am", "Thursday 8:00-12:00", true},
};

std::vector<elicit::offer> free_slots() {
  std::vector<elicit::offer> offers;
  for (const slot_row& row : slot_table)
    if (row.free) offers.push_back({row.id, row.label});
  return offers;
}

std::string slot_label(const elicit::choice& c) {
  for (const slot_row& row : slot_table)
    if (c.value == row.id) return row.label;
  return c.value;
}

// Asks a form through the client: elicitation/create, and the client's response message.
template <class Form>
elicit::ask_result<Form> ask(connection& client, elicit::form<Form> form, const std::string& message) {
  auto send = [&](const ordered_json& params) { return client.request("elicitation/create", params); };
  return elicit::ask(send, std::move(form), message);
}

// What a tool answers when a question was not answered.
template <class Form>
ordered_json unanswered(const elicit::ask_result<Form>& r, const std::string& shipment, const std::string& what) {
  switch (r.outcome()) {
    case elicit::outcome::declined:
      return text_result(fmt::format("Shipment {} was not booked: you declined to give the {}.", shipment, what));
    case elicit::outcome::cancelled:
      return text_result(fmt::format(
          "Booking of shipment {} was cancelled when asked for the {}; nothing was booked. Ask again when ready.",
          shipment, what));
    case elicit::outcome::error:
      return text_result(fmt::format("Shipment {} was not booked: the client could not ask for the {}: {}", shipment,
                                     what, r.error()->value("message", "no message")),
                         true);
    default:
      return text_result(fmt::format("Shipment {} was not booked: the {} was still invalid after {} attempts: {}",
                                     shipment, what, r.attempts(), r.violations()),
                         true);
  }
}

ordered_json book_shipment(connection& client, elicit::elicitation_modes modes, const json& arguments) {
  const auto id = arguments.find("shipment_id");
  if (id != arguments.end() && !id->is_string())
    throw connection::rpc_error{-32602, "Invalid params: shipment_id must be a string"};
  const std::string shipment = id != arguments.end() ? id->get<std::string>() : "SHP-4471";
  if (!modes.form) return text_result("This client cannot show forms, so the delivery address cannot be asked.", true);

  using namespace shipping;
  const auto address =
      ask(client, elicit::form<DeliveryAddress>(), fmt::format("Where should shipment {} be delivered?", shipment));
  if (!address.accepted()) return unanswered(address, shipment, "delivery address");

  const auto slot = ask(client, elicit::form<DeliverySlot>().choices(&DeliverySlot::slot, free_slots()),
                        fmt::format("When should shipment {} arrive?", shipment));
  if (!slot.accepted()) return unanswered(slot, shipment, "delivery slot");

  // The destination starts as the address's country: the user changes it only when it differs.
  const auto options =
      ask(client, elicit::form<ShipmentOptions>().default_value(&ShipmentOptions::country_code, *address->country_code),
          fmt::format("How should shipment {} travel?", shipment));
  if (!options.accepted()) return unanswered(options, shipment, "shipment options");

  const auto& insured = options->insured_value_gbp;
  return text_result(fmt::format(
      "Shipment {} booked to {}, {} {}, {}; arriving {}{}; destination country {}; insured for £{}{}; signature {}.",
      shipment, *address->street, *address->city, *address->postcode, country_name(*address->country_code),
      slot_label(*slot->slot), slot->note ? " (note: " + *slot->note + ")" : "", country_name(*options->country_code),
      insured.value_or(50), insured ? "" : " (the default cover)",
      *options->signature_required ? "required" : "not required"));
}

}  // namespace

int main() {
  connection client;
  elicit::elicitation_modes modes;
  client.on("initialize", [&](const json& params) {
    modes = elicit::modes_from_initialize(params);
    return ordered_json{{"protocolVersion", "2025-11-25"},
                        {"capabilities", {{"tools", ordered_json::object()}}},
                        {"serverInfo", {{"name", "elicit-shipment-sample"}, {"version", "0.1.0"}}}};
  });
  client.on("notifications/initialized", [](const json&) { return ordered_json(); });
  client.on("ping", [](const json&) { return ordered_json::object(); });
  client.on("tools/list", [](const json&) {
    return ordered_json{
        {"tools",
         ordered_json::array(
             {{{"name", "book_shipment"},
               {"description", "Book a shipment, asking the user where and how it should go."},
               {"inputSchema", {{"type", "object"}, {"properties", {{"shipment_id", {{"type", "string"}}}}}}}}})}};
  });
  client.on("tools/call", [&](const json& params) {
    const auto name = params.find("name");
    if (name == params.end() || *name != "book_shipment") throw connection::rpc_error{-32602, "Unknown tool"};
    const auto arguments = params.find("arguments");
    if (arguments != params.end() && !arguments->is_object())
      throw connection::rpc_error{-32602, "Invalid params: arguments must be an object"};
    return book_shipment(client, modes, arguments != params.end() ? *arguments : json::object());
  });
  client.run();
}
