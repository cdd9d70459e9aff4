// The JSON-RPC errors of elicitation, for MCP 2025-11-25 and 2026-07-28: -32602 for an answer
// that broke the form's rules (every violation in data.violations) and for a requestState that
// did not open; -32021 (2026-07-28) and -32600 (2025-11-25) for a client that did not declare a
// capability the server needs. <elicit/protocol/protocol.hpp> includes it.
//
// Like the builders of protocol.hpp, each is a template on the JSON type that only
// nlohmann::ordered_json satisfies (call it without one), so that ordered_json's code is
// compiled where the errors are built. Each throws std::bad_alloc and what its comment says.
#pragma once

#include <elicit/answer/messages.hpp>
#include <elicit/answer/print.hpp>
#include <elicit/answer/violation.hpp>
#include <elicit/detail/message.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace elicit {

namespace detail {
// The JSON type of the protocol's messages: a template parameter only so that their code is
// compiled where they are used.
template <class Json>
concept ordered_json_type = std::is_same_v<Json, nlohmann::ordered_json>;
}  // namespace detail

// ---- Errors ------------------------------------------------------------------------------------

// What a client is told when a requestState does not open, whatever the reason: the reason
// itself (opened<State>::message(), state_error) belongs in the server's log. Telling a client
// "expired" from "sealed for another user" would tell an attacker which guess was closer.
inline constexpr std::string_view invalid_state_message = "invalid or expired requestState";

// The JSON-RPC error -32602 for a requestState that did not open: always the same message.
template <detail::ordered_json_type Json = nlohmann::ordered_json>
[[nodiscard]] Json invalid_state_error(const nlohmann::json& id) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", -32602}, {"message", invalid_state_message}}}};
}

namespace detail {

// The capabilities of a ClientCapabilities object in words: "sampling", "elicitation.form"
// (a capability with sub-capabilities is named by each). Throws std::invalid_argument when it is
// not a non-empty object of objects: a server that names no capability has no error to send.
inline std::string capability_names(const nlohmann::json& required) {
  if (!required.is_object() || required.empty())
    throw std::invalid_argument("elicit: name the missing capabilities as an object, e.g. {\"sampling\":{}}");
  std::string names;
  const auto add = [&names](std::string_view name) { names += names.empty() ? "" : ", ", names += name; };
  for (const auto& [capability, parts] : required.items()) {
    if (!parts.is_object()) throw std::invalid_argument("elicit: each missing capability is an object, e.g. {}");
    if (parts.empty()) add(capability);
    for (const auto& part : parts.items()) add(capability + "." + part.key());
  }
  return names;
}

// Both eras' error for a capability not declared: the code, the words around the names, and the
// capabilities in data.requiredCapabilities.
template <class Json>
Json capability_error(const nlohmann::json& id, int code, std::string_view before, const std::string& names,
                      std::string_view after, const nlohmann::json& required) {
  return {{"jsonrpc", "2.0"},
          {"id", id},
          {"error",
           {{"code", code},
            {"message", detail::message(before, names, after)},
            {"data", {{"requiredCapabilities", required}}}}}};
}

}  // namespace detail

// 2026-07-28: the JSON-RPC error -32021 (MissingRequiredClientCapabilityError) for a request
// that needs a client capability the client did not declare in its clientCapabilities;
// `required` is a ClientCapabilities object ({"elicitation":{"form":{}}}, {"sampling":{}}), sent
// as data.requiredCapabilities. Over HTTP, the response status must be 400. Throws
// std::invalid_argument when `required` is not a non-empty object of objects.
template <detail::ordered_json_type Json = nlohmann::ordered_json>
[[nodiscard]] Json missing_capability_error(const nlohmann::json& id, const nlohmann::json& required) {
  return detail::capability_error<Json>(
      id, -32021, "Missing required client capability: ", detail::capability_names(required), "", required);
}

// 2025-11-25, which has no code for it: the JSON-RPC error -32600 (Invalid Request) saying in
// words which capability initialize did not declare; `required` as for missing_capability_error,
// also sent as data.requiredCapabilities. Throws std::invalid_argument as that does.
template <detail::ordered_json_type Json = nlohmann::ordered_json>
[[nodiscard]] Json missing_capability_error_2025(const nlohmann::json& id, const nlohmann::json& required) {
  return detail::capability_error<Json>(id, -32600, "Invalid Request: this needs the client capability ",
                                        detail::capability_names(required),
                                        ", which the client did not declare in initialize", required);
}

// The JSON-RPC error -32602 (invalid params) for an answer that broke the schema, with every
// violation in `data.violations` as {pointer, keyword, message}, and its `params` (the client's
// values, violation::params) when it has them. Its size is bounded by the
// list's, for any answer and any form: the list holds each violation's text twice here (the
// message, the data), and costs at most violation_list::max_text with the JSON around each
// counted (violation.hpp), so that dump() is at most 2 * max_text + 128 bytes (63,616) plus
// the id's JSON and twice the question's (tests/unit/protocol/test_protocol.cpp).
template <detail::ordered_json_type Json = nlohmann::ordered_json>
[[nodiscard]] Json invalid_params_error(const nlohmann::json& id, const violation_list& violations,
                                        std::string_view question = {}) {
  Json list = Json::array();
  for (const violation_view v : violations) {
    Json item{{"pointer", v.pointer}, {"keyword", v.keyword}, {"message", v.message}};
    if (!v.params.empty())
      if (Json params = Json::parse(v.params, nullptr, false); !params.is_discarded())
        item["params"] = std::move(params);
    list.push_back(std::move(item));
  }
  detail::scratch_sink words;  // in the list's catalogue, as its violations are
  if (question.empty()) violations.words().write(words, detail::say<message_kind::answer_refused>);
  else violations.words().write(words, detail::say<message_kind::answer_refused_to>, question);
  std::string message(words.text());
  if (!violations.empty()) message += fmt::format(": {}", violations);
  Json data{{"violations", list}};
  if (!question.empty()) data["inputKey"] = question;
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", -32602}, {"message", message}, {"data", data}}}};
}

}  // namespace elicit
