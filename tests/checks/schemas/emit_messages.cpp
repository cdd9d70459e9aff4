// Writes every kind of message the protocol builders make, each with the protocol version
// and the spec's $defs entry it must validate against, for validate_messages.py.
#include "../../../samples/forms.hpp"
#include "../../unit/support/forms.hpp"

#include <elicit/protocol/era.hpp>
#include <elicit/state/state.hpp>

#include <iostream>

namespace {

using nlohmann::ordered_json;

struct Progress {
  std::string order_id;
  int step;
};

ordered_json entry(std::string_view version, std::string_view def, ordered_json message) {
  return {{"version", version}, {"def", def}, {"message", std::move(message)}};
}

template <class Form>
ordered_json accepted(const Form& value) {
  return {{"action", "accept"}, {"content", elicit::to_content(value)}};
}

}  // namespace

int main() {
  using namespace std::chrono;
  ordered_json out = ordered_json::array();
  const elicit::url_elicitation url{"https://mcp.example.com/ui/connect?account=7", "Connect your account",
                                    elicit::new_elicitation_id()};
  elicit::key_ring ring;
  ring.add("k1", elicit::state_key::generate());
  const elicit::state_binding binding{"emit_messages", "anonymous", "tools/call", "book_shipment",
                                      elicit::digest_of(nlohmann::json::object())};
  const shipping::DeliveryAddress address{{"1 High St"}, {"London"}, {"SW1A 1AA"}, {shipping::Country::GB}};
  const shipping::ShipmentOptions options{shipping::Country::IE, {250}, {true}};
  const forms::Choices choices{forms::ColorName::Blue,
                               forms::Color::green,
                               forms::medium,
                               {forms::Priority::urgent},
                               forms::Code::alpha,
                               std::nullopt,
                               {forms::ColorName::Green},
                               {std::set{forms::Color::red}},
                               {{forms::Priority::normal}}};
  const auto invalid = elicit::decode<shipping::DeliveryAddress>(R"({"action":"accept","content":{"postcode":"X"}})");

  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    const bool v2025 = std::string_view(version) == "2025-11-25";
    out.push_back(
        entry(version, "ElicitRequestFormParams", elicit::form_params<shipping::DeliveryAddress>("Where to?")));
    out.push_back(entry(version, "ElicitRequestFormParams", elicit::form_params<forms::Choices>("Pick")));
    out.push_back(entry(version, "ElicitRequestFormParams", elicit::form_params<forms::Plain>("All types")));
    out.push_back(entry(version, "ElicitResult", accepted(address)));
    out.push_back(entry(version, "ElicitResult", accepted(options)));
    out.push_back(entry(version, "ElicitResult", accepted(choices)));
    out.push_back(entry(version, "ElicitResult", ordered_json{{"action", "decline"}}));
    out.push_back(
        entry(version, "JSONRPCErrorResponse", elicit::invalid_params_error(3, invalid.violations(), "address")));
    if (v2025) {
      out.push_back(entry(version, "ElicitRequest", elicit::elicitation_request<shipping::ShipmentOptions>(5, "How?")));
      out.push_back(entry(version, "ElicitRequestURLParams", elicit::url_params(url)));
      out.push_back(entry(
          version, "ElicitRequest",
          ordered_json{
              {"jsonrpc", "2.0"}, {"id", 6}, {"method", "elicitation/create"}, {"params", elicit::url_params(url)}}));
      out.push_back(entry(version, "URLElicitationRequiredError", elicit::url_required_error(9, {url, url})));
      out.push_back(
          entry(version, "ElicitationCompleteNotification", elicit::elicitation_complete(url.elicitation_id)));
      out.push_back(
          entry(version, "JSONRPCErrorResponse",
                elicit::missing_capability_error_2025(10, {{"elicitation", {{"form", ordered_json::object()}}}})));
    } else {
      out.push_back(entry(version, "MissingRequiredClientCapabilityError",
                          elicit::missing_capability_error(10, {{"elicitation", {{"form", ordered_json::object()}}}})));
      out.push_back(entry(version, "MissingRequiredClientCapabilityError",
                          elicit::missing_capability_error(11, {{"sampling", ordered_json::object()}})));
      elicit::url_elicitation no_id = url;
      no_id.elicitation_id.clear();
      out.push_back(entry(version, "ElicitRequest", elicit::form_request<shipping::ShipmentOptions>("How?")));
      out.push_back(entry(version, "ElicitRequestURLParams", elicit::url_params(no_id)));
      out.push_back(entry(version, "ElicitRequest", elicit::url_request(no_id)));
      const auto result = elicit::input_required{elicit::elicitation_modes{true, true}}
                              .ask<shipping::DeliveryAddress>("address", "Where should the parcel go?")
                              .ask<shipping::ShipmentOptions>("options", "How should it travel?")
                              .ask_url("payment", url)
                              .request("roots", {{"method", "roots/list"}})
                              .state(elicit::seal(Progress{"A-17", 2}, ring, binding))
                              .result();
      out.push_back(entry(version, "InputRequiredResult", result));
      for (const auto& [k, request] : result["inputRequests"].items())
        out.push_back(entry(version, "InputRequest", request));
      out.push_back(entry(version, "InputRequiredResult", elicit::input_required{}.state("only-state").result()));
      out.push_back(entry(version, "InputResponses",
                          ordered_json{{"address", accepted(address)}, {"options", {{"action", "cancel"}}}}));
    }
  }
  // The 2026-07-28 envelope (<elicit/protocol/era.hpp>): finished results and the -32022 error.
  const ordered_json info{{"name", "emit_messages"}, {"version", "1"}};
  const ordered_json tool{{"name", "book_shipment"}, {"inputSchema", {{"type", "object"}}}};
  out.push_back(entry("2026-07-28", "ListToolsResult",
                      elicit::finish_result("tools/list", {{"tools", ordered_json::array({tool})}}, info)));
  out.push_back(entry("2026-07-28", "DiscoverResult",
                      elicit::finish_result("server/discover",
                                            {{"supportedVersions", elicit::supported_versions},
                                             {"capabilities", {{"tools", ordered_json::object()}}}},
                                            info)));
  out.push_back(entry("2026-07-28", "CallToolResult",
                      elicit::finish_result("tools/call", {{"content", ordered_json::array()}}, info)));
  out.push_back(
      entry("2026-07-28", "UnsupportedProtocolVersionError", elicit::unsupported_version_error(7, "2099-01-01")));
  std::cout << out.dump(2) << "\n";
}
