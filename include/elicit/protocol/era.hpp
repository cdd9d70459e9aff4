// Which protocol era a request speaks, and what each era's envelope adds to a result: written
// once for every server built on elicit (issue #40, first step), so that a stdio server and an
// HTTP server agree with each other and with the spec's schema.
//
//   elicit::era e = elicit::era_of(params);                         // from the request's _meta
//   if (auto refused = elicit::unsupported_version(id, params)) return *refused;    // -32022
//   if (e == elicit::era::v2026_07_28) result = elicit::finish_result("tools/list", result, info);
//
// 2025-11-25 opens a session with `initialize` and pushes `elicitation/create`; 2026-07-28 has no
// session: every request names its version and the client's capabilities in `_meta`, every
// result carries `resultType`, and lists, `server/discover` and `resources/read` carry caching
// hints (CacheableResult: `ttlMs`, `cacheScope`), which the official TypeScript client v2 checks.
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace elicit {

// The two protocol versions elicit serves, one an era: sessions and pushes, or stateless rounds.
enum class era { v2025_11_25, v2026_07_28 };

// The version text of an era: "2025-11-25" or "2026-07-28".
[[nodiscard]] constexpr std::string_view version_of(era e) noexcept {
  return e == era::v2026_07_28 ? "2026-07-28" : "2025-11-25";
}

// What server/discover and UnsupportedProtocolVersionError list, newest first.
inline constexpr std::array<std::string_view, 2> supported_versions{"2026-07-28", "2025-11-25"};

// The `_meta` keys of a 2026-07-28 request and result.
namespace meta_key {
inline constexpr const char* protocol_version = "io.modelcontextprotocol/protocolVersion";
inline constexpr const char* client_capabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr const char* server_info = "io.modelcontextprotocol/serverInfo";
}  // namespace meta_key

namespace detail {
// The `_meta` protocol version member of a request's params, or null when it has none.
template <class Json>
[[nodiscard]] const Json* version_member(const Json& params) {
  if (!params.is_object()) return nullptr;
  const auto meta = params.find("_meta");
  if (meta == params.end() || !meta->is_object()) return nullptr;
  const auto v = meta->find(meta_key::protocol_version);
  return v == meta->end() ? nullptr : &*v;
}
}  // namespace detail

// The version a request's params name in `_meta` (2026-07-28 and later), or nothing: a request
// of a session (2025-11-25) names none, and a version that is not a string is no version.
// Never throws but std::bad_alloc.
template <class Json>
[[nodiscard]] std::optional<std::string> requested_version(const Json& params) {
  const Json* v = detail::version_member(params);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return v->template get<std::string>();
}

// The era a request speaks by its params: 2026-07-28 when `_meta` has a protocol version
// (whether this server speaks it is unsupported_version's to say), else 2025-11-25. Over HTTP a
// transport also reads the MCP-Protocol-Version header, which must agree. Never throws.
template <class Json>
[[nodiscard]] era era_of(const Json& params) noexcept {
  return detail::version_member(params) != nullptr ? era::v2026_07_28 : era::v2025_11_25;
}

// UnsupportedProtocolVersionError (-32022) for the request `id` that asked for `requested`,
// its data listing supported_versions. Over HTTP its status is 400.
[[nodiscard]] inline nlohmann::ordered_json unsupported_version_error(const nlohmann::ordered_json& id,
                                                                      std::string_view requested) {
  return {{"jsonrpc", "2.0"},
          {"id", id},
          {"error",
           {{"code", -32022},
            {"message", "Unsupported protocol version"},
            {"data", {{"supported", supported_versions}, {"requested", requested}}}}}};
}

// The -32022 error of a request that names a version other than 2026-07-28 in `_meta` (a
// version that is not a string is quoted as its JSON text), or nothing: a 2025-11-25 request,
// or one in the version served. Never throws but std::bad_alloc.
template <class Json>
[[nodiscard]] std::optional<nlohmann::ordered_json> unsupported_version(const nlohmann::ordered_json& id,
                                                                        const Json& params) {
  const Json* v = detail::version_member(params);
  if (v == nullptr) return std::nullopt;
  if (!v->is_string()) return unsupported_version_error(id, v->dump(-1, ' ', false, Json::error_handler_t::replace));
  if (v->template get_ref<const std::string&>() == version_of(era::v2026_07_28)) return std::nullopt;
  return unsupported_version_error(id, v->template get_ref<const std::string&>());
}

// Why a 2026-07-28 request's `_meta` is malformed, in the words of its -32602 error, or nothing:
// every request carries the version as a string and the client's capabilities as an object.
// Throws only std::bad_alloc.
template <class Json>
[[nodiscard]] std::optional<std::string> malformed_meta(const Json& params) {
  const auto meta = params.is_object() ? params.find("_meta") : params.end();
  if (!params.is_object() || meta == params.end() || !meta->is_object())
    return std::string("Invalid params: no _meta; a request carries ") + meta_key::protocol_version + " and " +
           meta_key::client_capabilities + " in it";
  if (const auto v = meta->find(meta_key::protocol_version); v == meta->end() || !v->is_string())
    return std::string("Invalid params: _meta has no ") + meta_key::protocol_version + " string";
  if (const auto c = meta->find(meta_key::client_capabilities); c == meta->end() || !c->is_object())
    return std::string("Invalid params: _meta has no ") + meta_key::client_capabilities + " object";
  return std::nullopt;
}

// Whether a 2026-07-28 result of `method` is a CacheableResult (the lists, server/discover,
// resources/read), which must carry ttlMs and cacheScope.
[[nodiscard]] constexpr bool cacheable(std::string_view method) noexcept {
  return method == "tools/list" || method == "prompts/list" || method == "resources/list" ||
         method == "resources/templates/list" || method == "server/discover" || method == "resources/read";
}

// What a 2026-07-28 result of `method` carries besides its own members: `resultType`
// ("complete" unless the result set one, as an InputRequiredResult does), for a cacheable one
// `ttlMs` (0: not to be reused) and `cacheScope` ("public": the same for every caller) unless it
// set them, and `server_info` in `_meta`. A 2025-11-25 result is sent as it is. Throws
// std::invalid_argument when `result` is not an object.
[[nodiscard]] inline nlohmann::ordered_json finish_result(std::string_view method, nlohmann::ordered_json result,
                                                          const nlohmann::ordered_json& server_info) {
  if (!result.is_object()) throw std::invalid_argument("elicit::finish_result: a result is a JSON object");
  if (!result.contains("resultType")) result["resultType"] = "complete";
  if (cacheable(method)) {
    if (!result.contains("ttlMs")) result["ttlMs"] = 0;
    if (!result.contains("cacheScope")) result["cacheScope"] = "public";
  }
  if (!result.contains("_meta") || !result["_meta"].is_object()) result["_meta"] = nlohmann::ordered_json::object();
  result["_meta"][meta_key::server_info] = server_info;
  return result;
}

}  // namespace elicit
