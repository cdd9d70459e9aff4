// A stdio MCP server (protocol 2025-11-25) with one tool, book_shipment: it asks the user for
// the delivery address, then for the shipment options, and answers with a summary. Every form
// is a C++ struct (samples/forms.hpp) going through elicit: schema, request, decoding.
//
// Decline and cancel lead to different results: a decline is the user's "no", so nothing is
// booked and the tool says so; a cancel is a dismissal, so the booking is left for later. An
// invalid answer is asked again once, saying what was wrong.
#include "../forms.hpp"
#include "stdio_transport.hpp"

#include <elicit/elicit.hpp>

#include <fmt/format.h>

#include <string>

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

// Asks one form, and once more if the answer broke the schema. The response says what came of it.
template <class Form>
elicit::response<Form> ask(connection& client, const std::string& message) {
  auto r = elicit::decode<Form>(client.request("elicitation/create", elicit::form_params<Form>(message)).value_or(json()));
  if (r.outcome() != elicit::outcome::invalid) return r;
  const std::string again = fmt::format("{} (Please check: {})", message, r.violations());
  return elicit::decode<Form>(client.request("elicitation/create", elicit::form_params<Form>(again)).value_or(json()));
}

// What a tool answers when a question was not answered.
template <class Form>
ordered_json unanswered(const elicit::response<Form>& r, const std::string& shipment, const std::string& what) {
  switch (r.outcome()) {
    case elicit::outcome::declined:
      return text_result(fmt::format("Shipment {} was not booked: you declined to give the {}.", shipment, what));
    case elicit::outcome::cancelled:
      return text_result(fmt::format(
          "Booking of shipment {} was cancelled before the {} was given; nothing was booked. Ask again when ready.",
          shipment, what));
    default:
      return text_result(fmt::format("Shipment {} was not booked: the {} was invalid: {}", shipment, what, r.violations()),
                         true);
  }
}

ordered_json book_shipment(connection& client, elicit::elicitation_modes modes, const json& arguments) {
  const auto id = arguments.find("shipment_id");
  if (id != arguments.end() && !id->is_string())
    throw connection::rpc_error{-32602, "Invalid params: shipment_id must be a string"};
  const std::string shipment = id != arguments.end() ? id->get<std::string>() : "SHP-4471";
  if (!modes.form) return text_result("This client cannot show forms, so the delivery address cannot be asked.", true);

  const auto address = ask<shipping::DeliveryAddress>(client, fmt::format("Where should shipment {} be delivered?", shipment));
  if (!address.accepted()) return unanswered(address, shipment, "delivery address");

  const auto options = ask<shipping::ShipmentOptions>(client, fmt::format("How should shipment {} travel?", shipment));
  if (!options.accepted()) return unanswered(options, shipment, "shipment options");

  const std::optional<int> insured = *options->insured_value_gbp;
  return text_result(fmt::format(
      "Shipment {} booked to {}, {} {}, {}; destination country {}; insured for £{}{}; signature {}.", shipment,
      *address->street, *address->city, *address->postcode, country_name(*address->country_code),
      country_name(*options->country_code), insured.value_or(50), insured ? "" : " (the default cover)",
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
    return ordered_json{{"tools", ordered_json::array({{{"name", "book_shipment"},
                                                         {"description", "Book a shipment, asking the user where and how it should go."},
                                                         {"inputSchema",
                                                          {{"type", "object"},
                                                           {"properties", {{"shipment_id", {{"type", "string"}}}}}}}}})}};
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
