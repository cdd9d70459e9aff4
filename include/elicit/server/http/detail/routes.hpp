// The MCP transport rules of Streamable HTTP (both eras on one endpoint, /mcp), between a
// request read whole and the dispatcher: which era a request speaks by its headers, the headers
// each era requires and what they must agree with, the 2025-11-25 session a request belongs to,
// and the HTTP status of each answer. Machinery of <elicit/server/http/server.hpp>.
//
// 2026-07-28: every request stands alone. It names its version and the client's capabilities in
// `_meta`, and mirrors its version, method and name in headers, which must match the body.
// 2025-11-25: `initialize` opens a session (Mcp-Session-Id); a tools/call or prompts/get of a
// tool that asks is answered on an SSE stream, on which the server sends elicitation/create and
// waits for the client's answer, a separate POST of the same session.
// A request speaks 2026-07-28 when its MCP-Protocol-Version header is not a session-era version,
// or when, without the header, its `_meta` names a version; anything else speaks 2025-11-25.
#pragma once

#include <elicit/answer/json_limits.hpp>
#include <elicit/protocol/era.hpp>
#include <elicit/server/dispatcher.hpp>
#include <elicit/server/http/detail/header_checks.hpp>
#include <elicit/server/http/detail/shared_state.hpp>
#include <elicit/server/rpc_error.hpp>
#include <elicit/server/subscription.hpp>

#include <boost/asio/ip/address.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <nlohmann/json.hpp>

#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elicit::detail::http {

namespace bhttp = boost::beast::http;
using request = bhttp::request<bhttp::string_body>;
using response = bhttp::response<bhttp::string_body>;

// JSON text to send. Never throws on a string that is not UTF-8: it is replaced, not a crash.
template <class Json>
std::string text(const Json& message) {
  return message.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// A response of the request's HTTP version, with a JSON body or none (`body` null).
inline response json_response(unsigned version, int status, const nlohmann::ordered_json& body = nullptr) {
  response res{static_cast<bhttp::status>(status), version};
  if (!body.is_null()) {
    res.set(bhttp::field::content_type, "application/json");
    res.body() = text(body);
  }
  return res;
}

// An error of the transport, outside any request it could read: it has no id.
inline nlohmann::ordered_json transport_error(int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"error", {{"code", code}, {"message", message}}}};
}

// The answer to a request of a 2025-11-25 session this server does not hold (never opened,
// expired, or deleted, even while the request was on its way): 404 with this error.
inline nlohmann::ordered_json session_not_found(const nlohmann::json& id) {
  return rpc_error(-32001, "Session not found").response(id);
}

// What the transport does with one request: answer it (`res`; `close`: then close the
// connection, a refusal), stream a 2025-11-25 call (`push`, of session `s`), answer a 2026-07-28
// request off the connection's thread (`later`, when http_options::blocking is set), or keep a
// 2026-07-28 subscription's stream open (`listen`).
struct routed {
  std::optional<response> res;
  bool close = false;
  std::unique_ptr<pushed_call> push;  // a pointer: a routed lives in every connection's frame
  std::shared_ptr<session> s;
  std::size_t request_bytes = 0;  // the body's length: what a streamed call holds of its request
  std::optional<nlohmann::json> later;
  std::string principal;
  std::unique_ptr<subscription> listen;  // a 2026-07-28 subscriptions/listen: keep its stream open
};

inline routed answer_with(response res, bool close = false) {
  routed r;
  r.res = std::move(res);
  r.close = close;
  return r;
}

inline std::string header_value(const request& req, std::string_view name) {
  const auto it = req.find(boost::beast::string_view(name.data(), name.size()));
  return it == req.end() ? std::string() : std::string(it->value());
}

inline std::size_t header_count(const bhttp::fields& fields, std::string_view name) {
  const auto range = fields.equal_range(boost::beast::string_view(name.data(), name.size()));
  return static_cast<std::size_t>(std::distance(range.first, range.second));
}

// The one value of a header the client must send once, or nothing when absent or repeated.
inline std::optional<std::string> single_header(const request& req, std::string_view name) {
  if (header_count(req, name) != 1) return std::nullopt;
  return header_value(req, name);
}

// The session era's versions, as a header names them: a request naming one goes the session way
// (where any but 2025-11-25 is refused), not the 2026-07-28 one.
inline bool session_era_version(std::string_view v) {
  return v == version_of(era::v2025_11_25) || v == "2025-06-18" || v == "2025-03-26" || v == "2024-11-05";
}

inline const nlohmann::json& params_of(const nlohmann::json& message) {
  static const nlohmann::json none = nlohmann::json::object();
  const auto p = message.find("params");
  return p != message.end() && p->is_object() ? *p : none;
}

inline std::string text_of(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Whether this request speaks 2026-07-28 (see the top of this file).
inline bool speaks_2026(const request& req, const nlohmann::json& message) {
  const std::string value = header_value(req, "MCP-Protocol-Version");  // owned: trimmed() views it
  const std::string_view header = trimmed(value);
  if (session_era_version(header)) return false;
  if (!header.empty()) return true;
  return era_of(params_of(message)) == era::v2026_07_28;
}

// 2026-07-28: the Mcp-Method and Mcp-Name headers against the body (HeaderMismatch, -32020).
inline std::optional<rpc_error> header_mismatch(const request& req, const nlohmann::json& message) {
  const std::string method = text_of(message, "method");
  const auto header_method = single_header(req, "Mcp-Method");
  if (!header_method) return rpc_error(-32020, "Header mismatch: send one Mcp-Method header");
  if (trimmed(*header_method) != method)
    return rpc_error(-32020, "Header mismatch: Mcp-Method header '" + shown(trimmed(*header_method)) +
                                 "' does not match body method '" + shown(method) + "'");
  // What Mcp-Name names: the tool or prompt, the resource, the task (the tasks extension).
  const char* key = method == "tools/call" || method == "prompts/get"                               ? "name"
                    : method == "resources/read"                                                    ? "uri"
                    : method == "tasks/get" || method == "tasks/update" || method == "tasks/cancel" ? "taskId"
                                                                                                    : nullptr;
  if (key == nullptr) return std::nullopt;
  const nlohmann::json& params = params_of(message);
  const auto named = params.find(key);
  const bool in_body = named != params.end() && named->is_string();
  if (header_count(req, "Mcp-Name") == 0)
    return in_body ? std::optional(rpc_error(-32020, "Header mismatch: the Mcp-Name header is missing")) : std::nullopt;
  const auto header_name = single_header(req, "Mcp-Name");
  const auto decoded = header_name ? mcp_header_value(*header_name) : std::nullopt;
  if (!decoded) return rpc_error(-32020, "Header mismatch: send one Mcp-Name header, plain or as =?base64?...?=");
  const std::string body_name = in_body ? named->get<std::string>() : std::string();
  if (!in_body || *decoded != body_name)
    return rpc_error(-32020, "Header mismatch: Mcp-Name header '" + shown(*decoded) + "' does not match body " + key +
                                 " '" + shown(body_name) + "'");
  return std::nullopt;
}

// 2026-07-28: what makes a request malformed before any method runs, in the order the spec's
// rules read: the version header, the required `_meta` fields (-32602), the version header
// against `_meta` (-32020), a version this server does not speak (-32022), then the other
// mirrored headers. Each is an HTTP 400.
inline std::optional<rpc_error> refused_2026(const request& req, const nlohmann::json& message) {
  const auto header = single_header(req, "MCP-Protocol-Version");
  if (!header) return rpc_error(-32020, "Header mismatch: send one MCP-Protocol-Version header");
  const nlohmann::json& params = params_of(message);
  if (const auto malformed = malformed_meta(params)) return rpc_error(-32602, *malformed);
  const std::string requested = *requested_version(params);
  if (requested != trimmed(*header))
    return rpc_error(-32020, "Header mismatch: MCP-Protocol-Version header '" + shown(trimmed(*header)) +
                                 "' does not match _meta's '" + shown(requested) + "'");
  if (const auto refused = unsupported_version(nullptr, params)) return rpc_error::of(*refused);
  return header_mismatch(req, message);
}

// The HTTP status of a 2026-07-28 answer: the spec's for the errors it names, else 200.
inline int status_of(const nlohmann::ordered_json& message) {
  const auto e = message.find("error");
  if (e == message.end() || !e->is_object()) return 200;
  const int code = e->value("code", 0);
  return code == -32601 ? 404 : code == -32021 ? 400 : 200;
}

// Who a request comes from, for the per-client bounds: its peer address, or, from a trusted
// proxy, the address that proxy put last in X-Forwarded-For (what came before it is the
// client's to write, and not believed). A proxy that sends none, or no address, is the client.
inline std::string client_of(const shared_state& state, const request& req, const std::string& peer) {
  if (!state.trusted_proxy(peer)) return peer;
  std::string_view last;  // the last entry of the last X-Forwarded-For field
  const auto [first, end] = req.equal_range("X-Forwarded-For");
  for (auto f = first; f != end; ++f) {
    const std::string_view value(f->value().data(), f->value().size());
    const std::size_t comma = value.rfind(',');
    last = trimmed(comma == std::string_view::npos ? value : value.substr(comma + 1));
  }
  boost::system::error_code ec;
  const auto address = boost::asio::ip::make_address(std::string(last), ec);
  return ec ? peer : address.to_string();
}

inline std::string principal_of(const shared_state& state, const request& req) {
  if (state.options.principal) return state.options.principal(req);
  const std::string authorization = header_value(req, "Authorization");
  return authorization.empty() ? "anonymous" : authorization;
}

// The routes of /mcp: one request, its body read, to what the transport does with it.
class routes {
 public:
  explicit routes(shared_state& state) : state_(state) {}

  routed route(const request& req, const std::string& peer) {
    if (req.target() != "/mcp") return reply(req, 404, transport_error(-32600, "Not found: this server serves /mcp"));
    if (req.method() == bhttp::verb::post) return post(req, client_of(state_, req, peer));
    if (req.method() == bhttp::verb::delete_) {
      const auto id = single_header(req, "Mcp-Session-Id");
      if (!id) return allow(req, "POST");  // 2026-07-28 has no session to delete
      return answer_with(json_response(req.version(), state_.sessions.close(*id) ? 200 : 404));
    }
    // No standalone stream on GET (2025-11-25 lets a server refuse it; 2026-07-28 has none).
    return allow(req, "POST, DELETE");
  }

 private:
  static routed reply(const request& req, int status, const nlohmann::ordered_json& body) {
    return answer_with(json_response(req.version(), status, body));
  }
  static routed allow(const request& req, const char* methods) {
    response res = json_response(req.version(), 405);
    res.set(bhttp::field::allow, methods);
    return answer_with(std::move(res));
  }
  static nlohmann::ordered_json error(const nlohmann::json& id, int code, const std::string& message) {
    return rpc_error(code, message).response(id);
  }

  routed post(const request& req, const std::string& client) {
    // Within limits before anything else: no value deeper or longer than them is ever built,
    // so that nothing below copies, compares or prints one (each of which recurses per level).
    parsed_json parsed = parse_json(req.body(), state_.options.limits);
    if (!parsed) return reply(req, 400, error(nullptr, -32700, parsed.error()->message));
    nlohmann::json message(std::move(parsed).value());
    if (!message.is_object())
      return reply(req, 400, error(nullptr, -32600, "Invalid Request: a JSON-RPC message is an object"));
    const auto method = message.find("method");
    if (method != message.end() && !method->is_string())
      return reply(req, 400, error(nullptr, -32600, "Invalid Request: the method must be a string"));
    const auto id = message.find("id");
    if (id != message.end() && method != message.end() && !id->is_string() && !id->is_number_integer())
      return reply(req, 400, error(nullptr, -32600, "Invalid Request: an id is a string or an integer"));
    if (speaks_2026(req, message)) return post_2026(req, std::move(message));
    return post_2025(req, message, client);
  }

  // 2026-07-28 requests ask the client nothing (a question goes back in an InputRequiredResult).
  routed post_2026(const request& req, nlohmann::json message) {
    if (!message.contains("method"))
      return reply(req, 400,
                   transport_error(-32600,
                                   "Invalid Request: at 2026-07-28 this server asks the client nothing to answer; "
                                   "input comes back in inputResponses"));
    if (!message.contains("id")) return answer_with(json_response(req.version(), 202));  // a notification
    if (const auto refusal = refused_2026(req, message)) return reply(req, 400, refusal->response(message["id"]));
    routed r;
    r.principal = principal_of(state_, req);
    if (state_.options.blocking) {
      r.later = std::move(message);
      return r;
    }
    return answered_2026(req.version(), message, r.principal);
  }

 public:
  // A 2026-07-28 request's answer, with its HTTP status.
  routed answered_2026(unsigned version, const nlohmann::json& message, const std::string& principal) const {
    client_session none;
    dispatched d = state_.server.handle(message, none, principal);
    if (d.what == dispatched::kind::listen) {
      routed r;
      r.listen = std::make_unique<subscription>(std::move(*d.listen));
      return r;
    }
    if (d.what != dispatched::kind::response) return answer_with(json_response(version, 202));
    return answer_with(json_response(version, status_of(d.response), d.response));
  }

 private:
  routed post_2025(const request& req, const nlohmann::json& message, const std::string& client) {
    const nlohmann::json id = message.value("id", nlohmann::json(nullptr));
    // A session-era header with a 2026-07-28 _meta: one era, not two (the dispatcher reads _meta
    // alone, and would run a round none of 2026-07-28's header rules checked).
    if (era_of(params_of(message)) == era::v2026_07_28)
      return reply(req, 400,
                   error(id, -32020,
                         "Header mismatch: the MCP-Protocol-Version header names a session version, _meta names " +
                             std::string(version_of(era::v2026_07_28))));
    const std::string method = text_of(message, "method");
    if (method == "initialize" && message.contains("id")) return initialize(req, message, client);
    // A session speaks 2025-11-25, the version initialize answered: a request that names another
    // one expects shapes of that version (no multi-select, no elicitation at 2025-03-26) and
    // would get this version's instead, so it is refused as the transport says, with 400.
    if (header_count(req, "MCP-Protocol-Version") != 0) {
      const auto named = single_header(req, "MCP-Protocol-Version");
      if (!named) return reply(req, 400, error(id, -32600, "Bad Request: send one MCP-Protocol-Version header"));
      if (trimmed(*named) != version_of(era::v2025_11_25))
        return reply(req, 400,
                     error(id, -32600,
                           "Bad Request: unsupported MCP-Protocol-Version '" + shown(trimmed(*named)) +
                               "': this server's sessions speak " + std::string(version_of(era::v2025_11_25))));
    }
    const auto session_id = single_header(req, "Mcp-Session-Id");
    if (!session_id)
      return reply(req, 400, error(id, -32600, "Bad Request: send one Mcp-Session-Id header (from initialize)"));
    std::shared_ptr<session> s = state_.sessions.find(*session_id);
    if (!s) return reply(req, 404, session_not_found(id));
    client_session declared = s->client_state;  // a copy: what a request changes of it is not kept
    dispatched d = state_.server.handle(message, declared, principal_of(state_, req));
    switch (d.what) {
      case dispatched::kind::response: return reply(req, 200, d.response);
      case dispatched::kind::answer:
        if (state_.sessions.deliver(*s, message)) return answer_with(json_response(req.version(), 202));
        return reply(req, 400,
                     transport_error(-32600, "No elicitation of this session waits for an answer with this id"));
      case dispatched::kind::cancel: state_.sessions.cancel(*s, d.id); break;
      case dispatched::kind::push: {
        routed r;
        r.push = std::make_unique<pushed_call>(std::move(*d.call));
        r.s = std::move(s);
        r.request_bytes = req.body().size();
        return r;
      }
      case dispatched::kind::listen:  // 2026-07-28's alone: not in a session
      case dispatched::kind::nothing: break;
    }
    return answer_with(json_response(req.version(), 202));
  }

  routed initialize(const request& req, const nlohmann::json& message, const std::string& client) {
    client_session declared;
    dispatched d = state_.server.handle(message, declared, principal_of(state_, req));
    if (d.response.contains("error")) return reply(req, 200, d.response);
    opened o = state_.sessions.open(declared, client);
    if (!o.s) {
      routed r = reply(req, o.status, error(message["id"], -32603, o.why));
      r.res->set(bhttp::field::retry_after, o.status == 503 ? "60" : "1");
      return r;
    }
    routed r = reply(req, 200, d.response);
    r.res->set("Mcp-Session-Id", o.s->id);
    return r;
  }

  shared_state& state_;
};

}  // namespace elicit::detail::http
