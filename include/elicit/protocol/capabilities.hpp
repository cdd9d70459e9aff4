// What a client declares it can do: the elicitation modes of its ClientCapabilities, from
// `initialize` (2025-11-25) or from each request's _meta (2026-07-28), and whether a request
// declares a capability such as "sampling" or "roots". CMake target elicit::elicit.
//
//   if (!elicit::modes_from_request(params).form) ...            // cannot ask a form
//   if (!elicit::declares_capability(params, "sampling")) ...     // cannot ask the model
#pragma once

#include <elicit/protocol/era.hpp>

#include <nlohmann/json.hpp>

#include <string_view>

namespace elicit {

// Which elicitation modes a client declared. `"elicitation": {}` means form mode only.
struct elicitation_modes {
  bool form = false;
  bool url = false;
};

// From a ClientCapabilities object: {"elicitation": {...}, ...}.
[[nodiscard]] inline elicitation_modes modes_of(const nlohmann::json& capabilities) {
  elicitation_modes m;
  if (!capabilities.is_object()) return m;
  const auto e = capabilities.find("elicitation");
  if (e == capabilities.end() || !e->is_object()) return m;
  m.form = e->contains("form") || (!e->contains("url"));  // {} alone is form mode
  m.url = e->contains("url");
  return m;
}

// 2025-11-25: from the params of the client's `initialize` request.
[[nodiscard]] inline elicitation_modes modes_from_initialize(const nlohmann::json& initialize_params) {
  if (!initialize_params.is_object() || !initialize_params.contains("capabilities")) return {};
  return modes_of(initialize_params["capabilities"]);
}

// 2026-07-28: the ClientCapabilities object a request declares in its params'
// _meta["io.modelcontextprotocol/clientCapabilities"], or null when it declares none (or not as
// an object). Declared per request; nothing may be inferred from earlier requests. Throws only
// std::bad_alloc (a lookup by a key of text makes a string of it).
[[nodiscard]] inline const nlohmann::json* capabilities_from_request(const nlohmann::json& request_params) {
  if (!request_params.is_object()) return nullptr;
  const auto meta = request_params.find("_meta");
  if (meta == request_params.end() || !meta->is_object()) return nullptr;
  const auto caps = meta->find(meta_key::client_capabilities);
  return caps == meta->end() || !caps->is_object() ? nullptr : &*caps;
}

// Whether a request declares the client capability `name` (as an object, as the schema has it).
[[nodiscard]] inline bool declares_capability(const nlohmann::json& request_params, std::string_view name) {
  const nlohmann::json* caps = capabilities_from_request(request_params);
  if (caps == nullptr) return false;
  const auto c = caps->find(name);
  return c != caps->end() && c->is_object();
}

// The tasks extension's name (SEP-2663), under `extensions` in capabilities.
inline constexpr const char* tasks_extension = "io.modelcontextprotocol/tasks";

// Whether a 2026-07-28 request declares the extension `name` (tasks_extension, ...) under its
// capabilities' `extensions`, as an object.
[[nodiscard]] inline bool declares_extension(const nlohmann::json& request_params, std::string_view name) {
  const nlohmann::json* caps = capabilities_from_request(request_params);
  if (caps == nullptr) return false;
  const auto extensions = caps->find("extensions");
  if (extensions == caps->end() || !extensions->is_object()) return false;
  const auto e = extensions->find(name);
  return e != extensions->end() && e->is_object();
}

// 2026-07-28: the elicitation modes a request declares.
[[nodiscard]] inline elicitation_modes modes_from_request(const nlohmann::json& request_params) {
  const nlohmann::json* caps = capabilities_from_request(request_params);
  return caps == nullptr ? elicitation_modes{} : modes_of(*caps);
}

}  // namespace elicit
