// Streamable HTTP for the sample server, with Boost.Beast on Asio coroutines: both protocol eras
// on one endpoint, a fixed pool of threads, no thread per connection or per waiting question.
//
// 2026-07-28 (modern): every request stands alone. It names its version and the client's
// capabilities in `_meta`, and mirrors its version, method and name in headers, which must
// match the body. Results carry `resultType`; a tool that needs input answers with an
// InputRequiredResult. No session, no initialize.
// 2025-11-25 (legacy): `initialize` opens a session (Mcp-Session-Id); a `tools/call` or
// `prompts/get` is answered on an SSE stream, on which the handler may send
// `elicitation/create` and wait for the client's answer, a separate POST of the same session.
//
// A request is modern when its MCP-Protocol-Version header is not a legacy version, or when,
// without the header, its `_meta` names a version; anything else is legacy.
#include "transport.hpp"

#include "../progress_interval.hpp"
#include "http_checks.hpp"
#include "sessions.hpp"

#include <elicit/era.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

#include <sys/resource.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <tuple>

namespace mcp {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = net::ip::tcp;
using request = bhttp::request<bhttp::string_body>;

namespace {

constexpr auto no_throw = net::as_tuple(net::use_awaitable);

// The eras' words, from the library's one description of them (<elicit/era.hpp>).
constexpr const char* meta_capabilities = elicit::meta_key::client_capabilities;

// What server/discover and UnsupportedProtocolVersionError list: 2025-11-25 through initialize.
const json supported_versions = elicit::supported_versions;

// The one session version: initialize answers it whatever the client asks for.
constexpr std::string_view session_version = elicit::version_of(elicit::era::v2025_11_25);

// The session era's versions, as a header names them: a request naming one goes the session way
// (where any but 2025-11-25 is refused, post_legacy), not the 2026-07-28 one.
bool legacy_version(std::string_view v) {
  return v == session_version || v == "2025-06-18" || v == "2025-03-26" || v == "2024-11-05";
}

// The string member `key` of `object`, or "" when it is absent or not a string: a client's
// `"method": 5` is no method, not an exception.
std::string text_of(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// A client's text as this server quotes it back or logs it: printable ASCII, at most 64
// characters. Header bytes need not be UTF-8, and a cut could split a character.
std::string shown(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, 64)) out += c >= 0x20 && c < 0x7F ? c : '?';
  return text.size() > 64 ? out + "..." : out;
}

// The params object of a message, or an empty one.
json params_of(const json& message) {
  const auto p = message.find("params");
  return p != message.end() && p->is_object() ? *p : json::object();
}

bool valid_id(const json& id) { return id.is_string() || id.is_number_integer(); }

json rpc_result(const json& id, json result) { return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}; }

json rpc_error_message(const json& id, int code, const std::string& message, const json& data = nullptr) {
  json error{{"code", code}, {"message", message}};
  if (!data.is_null()) error["data"] = data;
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}};
}

json rpc_error_message(const json& id, const rpc_error& e) {
  return rpc_error_message(id, e.code(), e.what(), e.data());
}

// An error of the transport, outside any request it could read: it has no id.
json transport_error(int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"error", {{"code", code}, {"message", message}}}};
}

// JSON text to send. Never throws on a string that is not UTF-8: it is replaced, not a crash.
std::string text(const json& message) { return message.dump(-1, ' ', false, json::error_handler_t::replace); }

// What the server answers a request: a status, headers, a JSON body (or none); or, for a
// 2025-11-25 call, the SSE stream the connection then serves.
struct answer {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;    // JSON text; empty: no body
  bool close = false;  // the connection is closed after it (a refusal)
};

answer reply(int status, const json& body) { return {status, {}, text(body)}; }

std::string header_value(const request& req, std::string_view name) {
  const auto it = req.find(beast::string_view(name.data(), name.size()));
  return it == req.end() ? std::string() : std::string(it->value());
}

std::size_t header_count(const request& req, std::string_view name) {
  const auto range = req.equal_range(beast::string_view(name.data(), name.size()));
  return static_cast<std::size_t>(std::distance(range.first, range.second));
}

std::string principal_of(const request& req) {
  const std::string authorization = header_value(req, "Authorization");
  return authorization.empty() ? "anonymous" : authorization;
}

// Whether this request speaks 2026-07-28 or later (see the top of this file).
bool is_modern(const request& req, const json& message) {
  const std::string value = header_value(req, "MCP-Protocol-Version");  // owned: trimmed() views it
  const std::string_view header = http::trimmed(value);
  if (legacy_version(header)) return false;
  if (!header.empty()) return true;
  return elicit::era_of(params_of(message)) == elicit::era::v2026_07_28;
}

// The one value of a header the client must send once, or nothing when absent or repeated.
std::optional<std::string> single_header(const request& req, const char* name) {
  if (header_count(req, name) != 1) return std::nullopt;
  return header_value(req, name);
}

// 2026-07-28: the Mcp-Method and Mcp-Name headers against the body (HeaderMismatch, -32020).
std::optional<rpc_error> header_mismatch(const request& req, const json& message) {
  const std::string method = text_of(message, "method");
  const auto header_method = single_header(req, "Mcp-Method");
  if (!header_method) return rpc_error(-32020, "Header mismatch: send one Mcp-Method header");
  if (http::trimmed(*header_method) != method)
    return rpc_error(-32020, "Header mismatch: Mcp-Method header '" + shown(http::trimmed(*header_method)) +
                                 "' does not match body method '" + shown(method) + "'");
  if (method != "tools/call" && method != "prompts/get" && method != "resources/read") return std::nullopt;
  const json params = params_of(message);
  const char* key = method == "resources/read" ? "uri" : "name";
  const bool in_body = params.contains(key) && params[key].is_string();
  if (header_count(req, "Mcp-Name") == 0)
    return in_body ? std::optional(rpc_error(-32020, "Header mismatch: the Mcp-Name header is missing")) : std::nullopt;
  const auto header_name = single_header(req, "Mcp-Name");
  const auto decoded = header_name ? http::mcp_header_value(*header_name) : std::nullopt;
  if (!decoded) return rpc_error(-32020, "Header mismatch: send one Mcp-Name header, plain or as =?base64?...?=");
  if (!in_body || *decoded != params[key].get<std::string>())
    return rpc_error(-32020, "Header mismatch: Mcp-Name header '" + shown(*decoded) + "' does not match body " + key +
                                 " '" + shown(in_body ? params[key].get<std::string>() : "") + "'");
  return std::nullopt;
}

// 2026-07-28: what makes a request malformed before any method runs, in the order the spec's
// rules read: the version header, the required `_meta` fields (-32602), the version header
// against `_meta` (-32020), a version this server does not speak (-32022), then the other
// mirrored headers. Each is an HTTP 400.
std::optional<rpc_error> refused_modern(const request& req, const json& message) {
  const auto header = single_header(req, "MCP-Protocol-Version");
  if (!header) return rpc_error(-32020, "Header mismatch: send one MCP-Protocol-Version header");
  const json params = params_of(message);
  if (const auto malformed = elicit::malformed_meta(params)) return rpc_error(-32602, *malformed);
  const std::string requested = *elicit::requested_version(params);
  if (requested != http::trimmed(*header))
    return rpc_error(-32020, "Header mismatch: MCP-Protocol-Version header '" + shown(http::trimmed(*header)) +
                                 "' does not match _meta's '" + shown(requested) + "'");
  if (const auto refused = elicit::unsupported_version(nullptr, params)) return rpc_error::of(*refused);
  return header_mismatch(req, message);
}

// The HTTP status of a 2026-07-28 answer: the spec's for the errors it names, else 200.
int status_of(const json& message) {
  const auto e = message.find("error");
  if (e == message.end()) return 200;
  const int code = e->value("code", 0);
  return code == -32601 ? 404 : code == -32021 ? 400 : 200;
}

// Refuses, before any body is read, what no client of this loopback server sends: a header
// that must come once and came more often (Host, Origin, Content-Length: which one would count?
// 400), a Host or Origin that is not a loopback name (a DNS-rebinding web page: 403), and a POST
// body that is not JSON (a page's text/plain form post: 415). The connection is then closed,
// the body unread: it is never taken for a request of its own.
std::optional<answer> refused(const bhttp::request_header<>& head) {
  const auto refuse = [](int status, const std::string& why) {
    answer a = reply(status, transport_error(-32600, why));
    a.close = true;
    return a;
  };
  const auto count = [&head](bhttp::field f) {
    const auto range = head.equal_range(f);
    return std::distance(range.first, range.second);
  };
  for (const auto f :
       {bhttp::field::host, bhttp::field::origin, bhttp::field::content_length, bhttp::field::content_type})
    if (count(f) > 1) return refuse(400, "Bad Request: more than one " + std::string(bhttp::to_string(f)) + " header");
  // The body's framing, which must be beyond doubt (RFC 9112 6.1 and 6.3): a Transfer-Encoding
  // is chunked alone, never with a Content-Length, never on HTTP/1.0, or the request is refused
  // and the connection closed, its body bytes never read as a request of their own.
  if (count(bhttp::field::transfer_encoding) != 0) {
    std::vector<std::string_view> codings;
    const auto [first, last] = head.equal_range(bhttp::field::transfer_encoding);
    for (auto f = first; f != last; ++f) codings.emplace_back(f->value().data(), f->value().size());
    if (head.version() < 11) return refuse(400, "Bad Request: an HTTP/1.0 request has no Transfer-Encoding");
    if (count(bhttp::field::content_length) != 0)
      return refuse(400, "Bad Request: a request has a Transfer-Encoding or a Content-Length, not both");
    if (!http::chunked_alone(codings))
      return refuse(400, "Bad Request: this server reads a Transfer-Encoding of chunked alone");
  }
  const std::string host(head[bhttp::field::host]);
  if (!http::loopback_host(host))
    return refuse(403, "Forbidden: Host '" + shown(host) + "' is not this loopback server");
  if (count(bhttp::field::origin) == 1 && !http::loopback_origin(head[bhttp::field::origin]))
    return refuse(403, "Forbidden: requests from origin '" + shown(head[bhttp::field::origin]) + "' are not allowed");
  if (head.method() == bhttp::verb::post && !http::json_content_type(head[bhttp::field::content_type]))
    return refuse(415, "Unsupported Media Type: the body must be application/json, not '" +
                           shown(head[bhttp::field::content_type]) + "'");
  return std::nullopt;
}

// One request, as the dispatcher needs it.
struct incoming {
  json id;
  std::string method;
  json params;
  version protocol;
  std::string principal;
  std::shared_ptr<session> s;
  std::size_t request_bytes = 0;  // the body's length: what the call holds of its request while it runs
};

net::awaitable<nlohmann::json> no_asking(nlohmann::ordered_json) {
  throw rpc_error(-32603, "This request cannot send requests to the client");
  co_return nlohmann::json();  // never: a coroutine needs a co_return
}

}  // namespace

std::string call::target() const { return text_of(params_, "name"); }

json call::arguments() const {
  const auto a = params_.find("arguments");
  return a != params_.end() && a->is_object() ? *a : json::object();
}

static json declared_capabilities(version v, const json& params, const std::shared_ptr<session>& s) {
  if (v == version::v2025_11_25) return s ? s->capabilities : json::object();
  const auto meta = params.find("_meta");
  if (meta == params.end() || !meta->is_object()) return json::object();
  const auto caps = meta->find(meta_capabilities);
  return caps != meta->end() && caps->is_object() ? *caps : json::object();
}

elicit::elicitation_modes call::modes() const {
  return elicit::modes_of(nlohmann::json(declared_capabilities(version_, params_, session_)));
}

bool call::declares(const std::string& capability) const {
  const json declared = declared_capabilities(version_, params_, session_);
  return declared.contains(capability) && declared[capability].is_object();
}

void call::require(const std::string& capability) const {
  if (!declares(capability))
    throw rpc_error(-32021, "Missing required client capability: " + capability,
                    {{"requiredCapabilities", {{capability, json::object()}}}});
}

json call::raw_response(const std::string& key) const {
  const auto r = params_.find("inputResponses");
  if (r == params_.end() || !r->is_object() || !r->contains(key)) return nullptr;
  return (*r)[key];
}

json text_result(const std::string& text, bool is_error) {
  json result{{"content", json::array({{{"type", "text"}, {"text", text}}})}};
  if (is_error) result["isError"] = true;
  return result;
}

json prompt_result(const std::string& description, const std::string& text) {
  return {{"description", description},
          {"messages", json::array({{{"role", "user"}, {"content", {{"type", "text"}, {"text", text}}}}})}};
}

struct entry {
  std::string name, description;
  json input_schema;
  serves eras;
  asking_handler run;

  [[nodiscard]] bool serves_version(version v) const {
    return eras == serves::both || (eras == serves::v2025_11_25) == (v == version::v2025_11_25);
  }
};

struct server::impl {
  impl(std::string n, std::string v, server_limits l)
      : name(std::move(n)), version_text(std::move(v)), limits(l), sessions(limits) {}

  std::string name, version_text;
  server_limits limits;
  std::vector<entry> tools, prompts;
  session_table sessions;
  std::atomic<std::size_t> connections{0};
  std::mutex peers_mutex;
  std::map<std::string, std::size_t, std::less<>> connections_of;  // open connections by peer address

  [[nodiscard]] bool trusted_proxy(std::string_view peer) const {
    return std::find(limits.trusted_proxies.begin(), limits.trusted_proxies.end(), peer) !=
           limits.trusted_proxies.end();
  }

  [[nodiscard]] bool any(const std::vector<entry>& list, version v) const {
    for (const entry& e : list)
      if (e.serves_version(v)) return true;
    return false;
  }

  [[nodiscard]] const entry* find(const std::vector<entry>& list, const std::string& wanted, version v) const {
    for (const entry& e : list)
      if (e.name == wanted && e.serves_version(v)) return &e;
    return nullptr;
  }

  [[nodiscard]] json listed(const std::vector<entry>& list, version v) const {
    json out = json::array();
    for (const entry& e : list) {
      if (!e.serves_version(v)) continue;
      json item{{"name", e.name}, {"description", e.description}};
      if (!e.input_schema.is_null()) item["inputSchema"] = e.input_schema;
      out.push_back(std::move(item));
    }
    return out;
  }

  [[nodiscard]] json capabilities(version v) const {
    json caps = json::object();
    if (any(tools, v)) caps["tools"] = json::object();
    if (any(prompts, v)) caps["prompts"] = json::object();
    return caps;
  }

  [[nodiscard]] json server_info() const { return {{"name", name}, {"version", version_text}}; }

  [[nodiscard]] json discover() const {
    return {{"supportedVersions", supported_versions}, {"capabilities", capabilities(version::v2026_07_28)}};
  }

  // 2026-07-28: what every result carries: its type, caching hints on what may be cached, and
  // who answered (elicit::finish_result, as the stdio sample finishes its results).
  [[nodiscard]] json finished(const std::string& method, json result) const {
    return elicit::finish_result(method, std::move(result), server_info());
  }

  net::awaitable<json> call_entry(const incoming& in, const call::asker& ask, const call::notifier& notify) const {
    const bool is_tool = in.method == "tools/call";
    const std::string target = text_of(in.params, "name");
    const entry* e = find(is_tool ? tools : prompts, target, in.protocol);
    if (!e) throw rpc_error(-32602, std::string(is_tool ? "Unknown tool: " : "Unknown prompt: ") + shown(target));
    if (in.protocol == version::v2026_07_28) {
      if (in.params.contains("inputResponses") && !in.params["inputResponses"].is_object())
        throw rpc_error(-32602, "Invalid params: inputResponses must be an object");
      if (in.params.contains("requestState") && !in.params["requestState"].is_string())
        throw rpc_error(-32602, "Invalid params: requestState must be a string");
    }
    const call c(in.protocol, in.method, in.params, in.principal, in.s, ask, limits.answer_timeout, notify,
                 limits.progress_interval);
    co_return co_await e->run(c);
  }

  // The result of one request, or an rpc_error.
  net::awaitable<json> run(const incoming& in, const call::asker& ask, const call::notifier& notify) const {
    const bool modern = in.protocol == version::v2026_07_28;
    const std::string& m = in.method;
    const bool has_tools = any(tools, in.protocol), has_prompts = any(prompts, in.protocol);
    if (m == "server/discover" && modern) co_return discover();
    if (m == "ping" && !modern) co_return json::object();
    if (m == "tools/list" && has_tools) co_return json{{"tools", listed(tools, in.protocol)}};
    if (m == "prompts/list" && has_prompts) co_return json{{"prompts", listed(prompts, in.protocol)}};
    if ((m == "tools/call" && has_tools) || (m == "prompts/get" && has_prompts))
      co_return co_await call_entry(in, ask, notify);
    throw rpc_error(-32601, "Method not found: " + shown(m));
  }

  // One request answered: a whole JSON-RPC response. A cancelled call has none (call_cancelled).
  net::awaitable<json> dispatch(const incoming& in, const call::asker& ask,
                                const call::notifier& notify = nullptr) const {
    try {
      json result = co_await run(in, ask, notify);
      if (in.protocol == version::v2026_07_28) result = finished(in.method, std::move(result));
      co_return rpc_result(in.id, std::move(result));
    } catch (const call_cancelled&) {
      throw;
    } catch (const rpc_error& e) {
      co_return rpc_error_message(in.id, e);
    } catch (const std::exception& e) {
      co_return rpc_error_message(in.id, -32603, std::string("Internal error: ") + e.what());
    }
  }

  // One POST: its answer, or in `streamed` the request to run in the connection's coroutine:
  // a 2025-11-25 tools/call or prompts/get (on an SSE stream), or any 2026-07-28 request.
  answer post(const request& req, const std::string& peer, std::optional<incoming>& streamed) {
    // Within limits before anything else: no value deeper or longer than them is ever built,
    // so that nothing below copies, compares or prints one (each of which recurses per level).
    elicit::parsed_json parsed = elicit::parse_json(req.body(), http_limits);
    if (!parsed) return reply(400, rpc_error_message(nullptr, -32700, parsed.error()->message));
    const json message = json(std::move(parsed).value());
    if (!message.is_object())
      return reply(400, rpc_error_message(nullptr, -32600, "Invalid Request: a JSON-RPC message is an object"));
    if (message.contains("method") && !message["method"].is_string())
      return reply(400, rpc_error_message(nullptr, -32600, "Invalid Request: the method must be a string"));
    if (message.contains("id") && message.contains("method") && !valid_id(message["id"]))
      return reply(400, rpc_error_message(nullptr, -32600, "Invalid Request: an id is a string or an integer"));
    if (is_modern(req, message)) return post_modern(req, message, streamed);
    return post_legacy(req, message, peer, streamed);
  }

  // 2026-07-28 requests ask the client nothing (a question goes back in an InputRequiredResult),
  // but a handler may still wait, on other threads (redeem_voucher's replay store): the request
  // is handed back in `streamed`, to run in the connection's coroutine (answered_modern).
  answer post_modern(const request& req, const json& message, std::optional<incoming>& streamed) const {
    if (!message.contains("method"))
      return reply(400, transport_error(-32600,
                                        "Invalid Request: at 2026-07-28 this server asks the client nothing "
                                        "to answer; input comes back in inputResponses"));
    if (!message.contains("id")) return {202, {}, {}};  // a notification: nothing of 2026-07-28 needs one over HTTP
    const json& id = message["id"];
    if (const auto refusal = refused_modern(req, message)) return reply(400, rpc_error_message(id, *refusal));
    streamed =
        incoming{id, text_of(message, "method"), params_of(message), version::v2026_07_28, principal_of(req), nullptr};
    return {};
  }

  // The result of a coroutine that never suspends (a handler that does not ask), at once.
  static json run_now(net::awaitable<json> work) {
    net::io_context local;
    std::optional<json> result;
    std::exception_ptr failure;
    net::co_spawn(local, std::move(work), [&](std::exception_ptr e, json r) {
      failure = e;
      result = std::move(r);
    });
    local.run();
    if (failure) std::rethrow_exception(failure);
    return std::move(*result);
  }

  answer post_legacy(const request& req, const json& message, const std::string& peer,
                     std::optional<incoming>& streamed) {
    const json id = message.value("id", json(nullptr));
    const std::string method = text_of(message, "method");
    if (method == "initialize" && message.contains("id")) return initialize(message, peer);
    // A session speaks 2025-11-25, the version initialize answered: a request that names another
    // one expects shapes of that version (no multi-select, no elicitation at 2025-03-26) and
    // would get this version's instead, so it is refused as the transport says, with 400. No
    // header: the version negotiated.
    if (header_count(req, "MCP-Protocol-Version") != 0) {
      const auto named = single_header(req, "MCP-Protocol-Version");
      if (!named) return reply(400, rpc_error_message(id, -32600, "Bad Request: send one MCP-Protocol-Version header"));
      if (http::trimmed(*named) != session_version)
        return reply(
            400, rpc_error_message(id, -32600,
                                   "Bad Request: unsupported MCP-Protocol-Version '" + shown(http::trimmed(*named)) +
                                       "': this server's sessions speak " + std::string(session_version)));
    }
    std::optional<answer> refusal;
    const std::shared_ptr<session> s = session_of(req, id, refusal);
    if (!s) return *refusal;
    if (!message.contains("method")) {  // the client's answer to one of our questions
      if (sessions.deliver(*s, message)) return {202, {}, {}};
      return reply(400, transport_error(-32600, "No elicitation of this session waits for an answer with this id"));
    }
    if (!message.contains("id")) return notification(*s, method, params_of(message));
    incoming in{id, method, params_of(message), version::v2025_11_25, principal_of(req), s, req.body().size()};
    if (method == "tools/call" || method == "prompts/get") {
      streamed = std::move(in);
      return {};
    }
    return reply(200, run_now(dispatch(in, no_asking)));
  }

  // The live session a legacy request names, or nothing with the refusal set: 400 without a
  // session id, 404 for one that is unknown, deleted or expired (the client then initializes).
  std::shared_ptr<session> session_of(const request& req, const json& id, std::optional<answer>& refusal) {
    const auto header = single_header(req, "Mcp-Session-Id");
    if (!header) {
      refusal =
          reply(400, rpc_error_message(id, -32600, "Bad Request: send one Mcp-Session-Id header (from initialize)"));
      return nullptr;
    }
    auto s = sessions.find(*header);
    if (!s) refusal = reply(404, rpc_error_message(id, -32001, "Session not found"));
    return s;
  }

  answer notification(session& s, const std::string& method, const json& params) {
    if (method == "notifications/cancelled" && params.contains("requestId") && valid_id(params["requestId"]))
      sessions.cancel(s, params["requestId"]);
    return {202, {}, {}};
  }

  answer initialize(const json& message, const std::string& peer) {
    const json params = params_of(message);
    const json declared =
        params.contains("capabilities") && params["capabilities"].is_object() ? params["capabilities"] : json::object();
    opened o = sessions.open(declared, peer);
    if (!o.s) {
      answer a = reply(o.status, rpc_error_message(message["id"], -32603, o.why));
      a.headers.emplace_back("Retry-After", o.status == 503 ? "60" : "1");
      return a;
    }
    // The one session-based version this server implements, whatever the client asked for: an
    // older one named here would promise shapes (multi-select, elicitation itself at 2025-03-26)
    // the server does not keep. The client decides whether to go on.
    answer a = reply(200, rpc_result(message["id"], {{"protocolVersion", session_version},
                                                     {"capabilities", capabilities(version::v2025_11_25)},
                                                     {"serverInfo", server_info()}}));
    a.headers.emplace_back("Mcp-Session-Id", o.s->id);
    return a;
  }

  // Any request on /mcp, its body read: the answer, or the call to stream.
  answer route(const request& req, const std::string& peer, std::optional<incoming>& streamed) {
    if (req.target() != "/mcp") return reply(404, transport_error(-32600, "Not found: this server serves /mcp"));
    if (req.method() == bhttp::verb::post) return post(req, peer, streamed);
    if (req.method() == bhttp::verb::delete_) {
      const auto id = single_header(req, "Mcp-Session-Id");
      if (!id) return {405, {{"Allow", "POST"}}, {}};  // 2026-07-28 has no session to delete
      return {sessions.close(*id) ? 200 : 404, {}, {}};
    }
    // No standalone stream on GET (2025-11-25 lets a server refuse it; 2026-07-28 has none).
    return {405, {{"Allow", "POST, DELETE"}}, {}};
  }
};

namespace {

using stream_type = beast::tcp_stream;

// The Keep-Alive header of a response whose connection stays open: how long it waits idle
// for the next request (RFC 9110's Keep-Alive, as browsers, curl and Node read it).
std::string keep_alive_value(std::chrono::seconds idle) { return "timeout=" + std::to_string(idle.count()); }

// Writes one whole response within the write timeout; a kept-alive one announces `idle`.
net::awaitable<beast::error_code> write_answer(stream_type& stream, const answer& a, bool keep_alive,
                                               std::chrono::seconds timeout, std::chrono::seconds idle) {
  bhttp::response<bhttp::string_body> res{static_cast<bhttp::status>(a.status), 11};
  for (const auto& [name, value] : a.headers) res.set(name, value);
  if (!a.body.empty()) {
    res.set(bhttp::field::content_type, "application/json");
    res.body() = a.body;
  }
  res.keep_alive(keep_alive && !a.close);
  if (keep_alive && !a.close) res.set(bhttp::field::keep_alive, keep_alive_value(idle));
  res.prepare_payload();
  stream.expires_after(timeout);
  auto [ec, n] = co_await bhttp::async_write(stream, res, no_throw);
  co_return ec;
}

// After a refusal: the answer written, no more sent, and what the client still sends (the rest
// of the refused request) read and dropped, never parsed, for a moment, before the close (so
// that the client reads the answer, not a reset, RFC 9112 9.6).
net::awaitable<void> refuse(stream_type& stream, const answer& a, std::chrono::seconds timeout) {
  if (co_await write_answer(stream, a, false, timeout, timeout)) co_return;
  beast::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
  stream.expires_after(std::chrono::seconds(1));
  std::array<char, 4096> scratch{};
  std::size_t drained = 0;
  while (drained < std::size_t{1} << 20) {
    auto [ec, n] = co_await stream.async_read_some(net::buffer(scratch), no_throw);
    if (ec) break;
    drained += n;
  }
  stream.close();
}

// One SSE event carrying one JSON-RPC message, given as JSON text or as a value.
std::string sse_event(std::string_view message_text) {
  return "event: message\ndata: " + std::string(message_text) + "\n\n";
}
std::string event_text(const json& message) { return sse_event(text(message)); }

// How a call's SSE stream is framed: in chunks (HTTP/1.1), or, for an HTTP/1.0 client, which
// has no chunked coding, as bytes that end when the connection does.
enum class framing { chunked, until_close };

// One SSE event, in one chunk. The text is taken by value and freed once written.
net::awaitable<beast::error_code> write_event(stream_type& stream, std::string event, std::chrono::seconds timeout,
                                              framing how) {
  stream.expires_after(timeout);
  beast::error_code ec;
  if (how == framing::chunked) {
    std::tie(ec, std::ignore) = co_await net::async_write(stream, bhttp::make_chunk(net::buffer(event)), no_throw);
  } else {
    std::tie(ec, std::ignore) = co_await net::async_write(stream, net::buffer(event), no_throw);
  }
  stream.expires_never();
  co_return ec;
}

}  // namespace

// A question of a 2025-11-25 call, the `send` of elicit::async_ask: registers it, writes it on
// the call's stream, and sleeps on the call's timer until the answer comes (another connection
// delivers it and wakes the timer) or the ask is cancelled (Asio cancellation: operation_aborted,
// which async_ask turns into outcome::stopped).
static net::awaitable<nlohmann::json> ask_on_stream(session_table& sessions, std::shared_ptr<call_in_flight> flight,
                                                    stream_type& stream, std::chrono::seconds write_timeout,
                                                    framing how, nlohmann::ordered_json params) {
  // The question's params as text, once: their length is what the waiting budget counts, and
  // the event is written from them. Their JSON (the whole form) is freed before the wait.
  std::string form = text(params);
  params = nullptr;
  const long long id = sessions.start_question(*flight, form.size());
  struct question_end {
    session_table& table;
    call_in_flight& call;
    long long id;
    question_end(session_table& t, call_in_flight& c, long long i) : table(t), call(c), id(i) {}
    question_end(const question_end&) = delete;
    question_end& operator=(const question_end&) = delete;
    ~question_end() { table.end_question(call, id); }
  } done{sessions, *flight, id};
  // The message as json{{"jsonrpc"}, {"id"}, {"method"}, {"params"}} prints it, its params printed once.
  std::string question = sse_event(R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
                                   R"(,"method":"elicitation/create","params":)" + form + "}");
  form = std::string();
  flight->writing = true;
  const beast::error_code written = co_await write_event(stream, std::move(question), write_timeout, how);
  flight->writing = false;
  if (written) throw call_cancelled("the client left the stream");
  for (;;) {
    if (std::optional<json> answer = sessions.answer(*flight)) co_return nlohmann::json(std::move(*answer));
    flight->wake.expires_at(std::chrono::steady_clock::time_point::max());
    co_await flight->wake.async_wait(no_throw);
    if ((co_await net::this_coro::cancellation_state).cancelled() != net::cancellation_type::none)
      throw boost::system::system_error(net::error::operation_aborted);
  }
}

// A keep-alive of a 2025-11-25 call (elicit::async_keepalive's notify): a notifications/progress
// written as an SSE event on the call's stream. Skipped while the question itself is being
// written (one write at a time on a stream; the next comes an interval later). Throws
// call_cancelled when the client left the stream, which ends the wait as a failed send does.
static net::awaitable<void> progress_on_stream(std::shared_ptr<call_in_flight> flight, stream_type& stream,
                                               std::chrono::seconds write_timeout, framing how,
                                               nlohmann::ordered_json params) {
  if (flight->writing) co_return;
  std::string note =
      event_text(json{{"jsonrpc", "2.0"}, {"method", "notifications/progress"}, {"params", std::move(params)}});
  flight->writing = true;
  const beast::error_code written = co_await write_event(stream, std::move(note), write_timeout, how);
  flight->writing = false;
  if (written) throw call_cancelled("the client left the stream");
}

// One connection of a peer address, counted while it is open (accept_all checks the count).
struct peer_connection {
  server::impl& self;
  std::string peer;
  peer_connection(server::impl& s, std::string p) : self(s), peer(std::move(p)) {}
  peer_connection(const peer_connection&) = delete;
  peer_connection& operator=(const peer_connection&) = delete;
  ~peer_connection() {
    const std::lock_guard lock(self.peers_mutex);
    const auto it = self.connections_of.find(peer);
    if (it != self.connections_of.end() && --it->second == 0) self.connections_of.erase(it);
  }
};

// Who a request comes from, for the per-client bounds: its peer address, or, from a trusted
// proxy, the address that proxy put last in X-Forwarded-For (what came before it is the
// client's to write, and not believed). A proxy that sends none, or no address, is the client.
static std::string client_of(const server::impl& self, const request& req, const std::string& peer) {
  if (!self.trusted_proxy(peer)) return peer;
  std::string_view last;  // the last entry of the last X-Forwarded-For field
  const auto [first, end] = req.equal_range("X-Forwarded-For");
  for (auto f = first; f != end; ++f) {
    const std::string_view value(f->value().data(), f->value().size());
    const std::size_t comma = value.rfind(',');
    last = http::trimmed(comma == std::string_view::npos ? value : value.substr(comma + 1));
  }
  beast::error_code ec;
  const auto address = net::ip::make_address(std::string(last), ec);
  return ec ? peer : address.to_string();
}

// One line to stderr for a burst of the same refusal: at most one a second, saying how many
// were not logged. (Out of descriptors, accept fails on every try: 532 lines in 45 s.)
class log_limiter {
 public:
  void log(const std::string& text) {
    const auto now = std::chrono::steady_clock::now();
    const std::lock_guard lock(mutex_);
    if (now - last_ < std::chrono::seconds(1)) {
      ++quiet_;
      return;
    }
    std::fprintf(stderr, "mcp_server: %s%s\n", text.c_str(),
                 quiet_ != 0 ? (" (and " + std::to_string(quiet_) + " more not logged)").c_str() : "");
    last_ = now;
    quiet_ = 0;
  }

 private:
  std::mutex mutex_;
  std::chrono::steady_clock::time_point last_{};
  std::size_t quiet_ = 0;
};

struct connection_count {
  std::atomic<std::size_t>& count;
  explicit connection_count(std::atomic<std::size_t>& c) : count(c) { ++count; }
  connection_count(const connection_count&) = delete;
  connection_count& operator=(const connection_count&) = delete;
  ~connection_count() { --count; }
};

// What the watch of a stream and its call share: the watch's handler may be queued already when
// the call ends, so it must not touch the socket after `ended`.
struct watch_state {
  bool gone = false, ended = false;
  std::string pipelined;  // bytes the client sent after its request: the start of its next one
  std::size_t room = 0;   // how many of them the connection's read buffer can take
};

// Watches a stream's socket while its call runs: the client's end of file (or a reset) cancels
// the call at once. A wake-up with nothing to read (the reactor may report one) waits again.
// Bytes to read are a pipelined next request: they are taken into `pipelined` (given to the
// connection's buffer when the call ends) and the watch goes on, so that no byte sent before a
// leave hides the leave (one byte and a close kept a call waiting its whole answer timeout,
// issue #46). More than the read buffer holds ends the call as a leave does.
static void watch_leave(server::impl& self, std::shared_ptr<call_in_flight> flight, tcp::socket& socket,
                        std::shared_ptr<watch_state> watch) {
  socket.async_wait(tcp::socket::wait_read, [&self, flight, &socket, watch](beast::error_code ec) {
    if (ec || watch->ended) return;  // the call ended first
    std::array<char, 4096> bytes{};
    const ssize_t n = ::recv(socket.native_handle(), bytes.data(), bytes.size(), MSG_DONTWAIT);
    const bool again = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR);
    const bool taken = n > 0 && watch->pipelined.size() + static_cast<std::size_t>(n) <= watch->room;
    if (taken) watch->pipelined.append(bytes.data(), static_cast<std::size_t>(n));
    if (again || taken) {
      watch_leave(self, flight, socket, watch);
      return;
    }
    watch->gone = true;  // the end of file, a reset, or more pipelined than a request may hold
    self.sessions.cancel(flight);
  });
}

// The head of a call's SSE stream. A coroutine of its own: the response and its serializer live
// in a frame freed once the head is written, not in the frame of the call that then waits.
static net::awaitable<bool> write_stream_head(stream_type& stream, bool keep_alive, framing how,
                                              std::chrono::seconds timeout, std::chrono::seconds idle_timeout) {
  bhttp::response<bhttp::empty_body> res{bhttp::status::ok, 11};
  res.set(bhttp::field::content_type, "text/event-stream");
  res.set(bhttp::field::cache_control, "no-cache");
  res.set("X-Accel-Buffering", "no");  // a proxy must not hold the question back
  res.keep_alive(keep_alive);
  if (keep_alive) res.set(bhttp::field::keep_alive, keep_alive_value(idle_timeout));
  res.chunked(how == framing::chunked);
  bhttp::response_serializer<bhttp::empty_body> head{res};
  stream.expires_after(timeout);
  auto [ec, n] = co_await bhttp::async_write_header(stream, head, no_throw);
  co_return !ec;
}

// 2025-11-25 tools/call and prompts/get: answered on an SSE stream, on which the handler may
// ask the client. The handler is a coroutine of this connection: a waiting question holds its
// frame, no thread. It ends without a response when cancelled (notifications/cancelled, the
// session deleted) or when the client leaves the stream (seen at once: the socket turns
// readable at its end of file). False when the connection cannot go on.
static net::awaitable<bool> stream_call(server::impl& self, stream_type& stream, beast::flat_buffer& buffer,
                                        incoming in, bool keep_alive, framing how) {
  if (how == framing::until_close) keep_alive = false;  // the stream's end is the connection's
  const auto executor = co_await net::this_coro::executor;
  const std::shared_ptr<call_in_flight> flight = self.sessions.begin_call(in.s, in.id, in.request_bytes, executor);
  const auto timeout = self.limits.write_timeout;
  if (!flight) {
    const answer a =
        reply(200, rpc_error_message(in.id, -32600, "Invalid Request: a call with this id is in flight already"));
    co_return !co_await write_answer(stream, a, keep_alive, timeout, self.limits.idle_timeout) && keep_alive;
  }
  struct call_end {
    session_table& table;
    call_in_flight& call;
    call_end(session_table& t, call_in_flight& c) : table(t), call(c) {}
    call_end(const call_end&) = delete;
    call_end& operator=(const call_end&) = delete;
    ~call_end() { table.end_call(call); }
  } ended{self.sessions, *flight};
  if (!co_await write_stream_head(stream, keep_alive, how, timeout, self.limits.idle_timeout)) co_return false;
  stream.expires_never();
  const auto watch = std::make_shared<watch_state>();
  watch->room = buffer.max_size() - buffer.size();
  tcp::socket& socket = stream.socket();
  watch_leave(self, flight, socket, watch);
  const call::asker ask = [&self, flight, &stream, timeout, how](nlohmann::ordered_json params) {
    return ask_on_stream(self.sessions, flight, stream, timeout, how, std::move(params));
  };
  // Built only for a call whose client gave a progressToken: a waiting question without one
  // holds an empty function, no captures on the heap.
  call::notifier notify;
  if (elicit::progress_token(in.params))
    notify = [flight, &stream, timeout, how](nlohmann::ordered_json params) {
      return progress_on_stream(flight, stream, timeout, how, std::move(params));
    };
  std::optional<json> response;
  try {
    net::awaitable<json> work = self.dispatch(in, ask, notify);
    auto token = net::bind_cancellation_slot(flight->cancel.slot(), net::use_awaitable);
    response = co_await net::co_spawn(executor, std::move(work), std::move(token));
  } catch (const call_cancelled& e) {
    std::fprintf(stderr, "mcp_server: %s %s ended without a response: %s\n", in.method.c_str(),
                 shown(text(in.id)).c_str(), e.what());
  }
  flight->cancel.slot().clear();  // nothing left to cancel: a late emit must reach no handler
  flight->finished = true;
  watch->ended = true;
  beast::error_code ignored;
  socket.cancel(ignored);  // the watch for the client's leave
  if (watch->gone) co_return false;
  if (!watch->pipelined.empty())  // the next request's first bytes, read by the watch
    buffer.commit(net::buffer_copy(buffer.prepare(watch->pipelined.size()), net::buffer(watch->pipelined)));
  std::string result = response ? event_text(*response) : std::string();
  response.reset();
  if (!result.empty() && co_await write_event(stream, std::move(result), timeout, how)) co_return false;
  if (how == framing::until_close) co_return false;
  stream.expires_after(timeout);
  const auto last = bhttp::make_chunk_last();
  auto [ec, n] = co_await net::async_write(stream, last, no_throw);
  stream.expires_never();
  co_return !ec && keep_alive;
}

// A 2026-07-28 request run to its answer in the connection's coroutine: a handler that waits
// (on the blocking pool) suspends it, and holds no I/O thread meanwhile.
static net::awaitable<answer> answered_modern(const server::impl& self, incoming in) {
  const call::asker none = no_asking;
  const json response = co_await self.dispatch(in, none);
  co_return reply(status_of(response), response);
}

// Waits up to the idle timeout for the first byte of a kept-alive connection's next request,
// and puts it in `buffer`. One byte, read into the frame: an idle connection holds no read
// buffer. False when the client closed, reset or stayed idle past the timeout.
static net::awaitable<bool> next_request_begins(stream_type& stream, beast::flat_buffer& buffer,
                                                std::chrono::seconds idle) {
  char first = 0;
  stream.expires_after(idle);
  auto [ec, n] = co_await stream.async_read_some(net::buffer(&first, 1), no_throw);
  if (ec || n != 1) co_return false;
  buffer.commit(net::buffer_copy(buffer.prepare(1), net::buffer(&first, 1)));
  co_return true;
}

// The most a connection's read buffer holds: a request's headers (at most header_limit) and
// what comes with them. The body goes to the request as it is read, so only a chunk-size line,
// a chunk extension or a trailer could grow the buffer further: past this the request is refused,
// where without a bound one that never ends was buffered for the whole request deadline
// (659 MB in 3 s on one connection, issue #46).
constexpr std::size_t header_limit = 16 * 1024;
constexpr std::size_t read_buffer_limit = 64 * 1024;

// The fields of a request's header, counted: after the body, more means trailer fields.
static std::size_t field_count(const bhttp::fields& fields) {
  return static_cast<std::size_t>(std::distance(fields.begin(), fields.end()));
}

// Drops the empty lines a client may send before a request line (RFC 9112 2.2: a server
// SHOULD ignore at least one), reading more while the buffer holds nothing else; at most four,
// after which the parser sees (and refuses) the rest. False when the client closed or the
// deadline passed.
static net::awaitable<bool> skip_empty_lines(stream_type& stream, beast::flat_buffer& buffer) {
  for (int lines = 0; lines < 4;) {
    const std::string_view data(static_cast<const char*>(buffer.data().data()), buffer.size());
    if (data.starts_with("\r\n") || data.starts_with("\n")) {
      buffer.consume(data[0] == '\r' ? 2 : 1);
      ++lines;
      continue;
    }
    if (!data.empty() && data != "\r") co_return true;
    auto [ec, n] = co_await stream.async_read_some(buffer.prepare(512), no_throw);
    if (ec) co_return false;
    buffer.commit(n);
  }
  co_return true;
}

// Reads one request, headers and body, within the request deadline from its first byte (or
// from the accept): trickling bytes do not extend it. A request refused here (400, 413, 415,
// 431, 403) is answered and nothing comes back: the connection ends. A coroutine of its own so
// that its parser, the largest of a connection's objects, lives in a frame freed before a call
// waits: a waiting question holds only what the call needs.
static net::awaitable<std::optional<request>> read_request(stream_type& stream, beast::flat_buffer& buffer,
                                                           const server_limits& limits) {
  const auto refused_with = [&](int status, int code, const std::string& why) -> net::awaitable<void> {
    co_await refuse(stream, reply(status, rpc_error_message(nullptr, code, why)), limits.write_timeout);
  };
  const std::string too_long =
      "The JSON is more than " + std::to_string(http_limits.max_bytes) + " bytes long, more than this server reads.";
  bhttp::request_parser<bhttp::string_body> parser;
  parser.header_limit(header_limit);
  parser.body_limit(http_limits.max_bytes);
  stream.expires_after(limits.request_timeout);
  if (!co_await skip_empty_lines(stream, buffer)) co_return std::nullopt;
  auto [head_error, head_bytes] = co_await bhttp::async_read_header(stream, buffer, parser, no_throw);
  if (head_error == bhttp::error::end_of_stream || head_error == beast::error::timeout ||
      head_error == net::error::connection_reset || head_error == net::error::operation_aborted)
    co_return std::nullopt;
  if (head_error == bhttp::error::body_limit) {  // a Content-Length past the limit: refused unread
    co_await refused_with(413, -32700, too_long);
    co_return std::nullopt;
  }
  if (head_error) {
    const bool long_headers = head_error == bhttp::error::header_limit || head_error == bhttp::error::buffer_overflow;
    const answer a =
        reply(long_headers ? 431 : 400, transport_error(-32600, long_headers ? "Request header fields too large"
                                                                             : "Bad Request: " + head_error.message()));
    co_await refuse(stream, a, limits.write_timeout);
    co_return std::nullopt;
  }
  if (auto refusal = refused(parser.get())) {
    co_await refuse(stream, *refusal, limits.write_timeout);
    co_return std::nullopt;
  }
  const std::size_t header_fields = field_count(parser.get());
  if (beast::iequals(parser.get()[bhttp::field::expect], "100-continue")) {  // RFC 9110 10.1.1: any case
    bhttp::response<bhttp::empty_body> go_on{bhttp::status::continue_, 11};
    if (auto [e, n] = co_await bhttp::async_write(stream, go_on, no_throw); e) co_return std::nullopt;
  }
  // Room to read the body into, all of it (freed by serve() once the request is read): Beast
  // reads as much as the buffer has room for, and a buffer left at the capacity of a first small
  // read took a 4 MiB body in 8,194 reads of 512 bytes, each a wake-up and a timer update, 70 ms
  // of CPU (issue #44). Not before the header is whole: a slow client's headers hold no more.
  if (!parser.is_done()) buffer.reserve(read_buffer_limit);
  auto [body_error, body_bytes] = co_await bhttp::async_read(stream, buffer, parser, no_throw);
  if (body_error == bhttp::error::body_limit) {
    co_await refused_with(413, -32700, too_long);
    co_return std::nullopt;
  }
  if (body_error == beast::error::timeout || body_error == bhttp::error::end_of_stream ||
      body_error == bhttp::error::partial_message)
    co_return std::nullopt;
  if (body_error == bhttp::error::buffer_overflow || body_error == bhttp::error::header_limit) {
    co_await refuse(stream,
                    reply(400, transport_error(-32600, "Bad Request: a chunk-size line or trailer longer than " +
                                                           std::to_string(read_buffer_limit) + " bytes")),
                    limits.write_timeout);
    co_return std::nullopt;
  }
  if (body_error) {
    const answer a = reply(400, transport_error(-32600, "Bad Request: " + body_error.message()));
    co_await refuse(stream, a, limits.write_timeout);
    co_return std::nullopt;
  }
  // Trailer fields join the header's fields once the body is read, after the Host, Origin and
  // framing checks: a trailer Origin would be taken for the request's own. None is accepted.
  if (field_count(parser.get()) != header_fields) {
    co_await refuse(stream, reply(400, transport_error(-32600, "Bad Request: this server accepts no trailer fields")),
                    limits.write_timeout);
    co_return std::nullopt;
  }
  co_return parser.release();
}

// One connection: requests one after another (keep-alive), each within the request deadline
// from its first byte, and between them an idle wait of at most the idle timeout.
static net::awaitable<void> serve(server::impl& self, tcp::socket socket, std::string peer) {
  const connection_count counted(self.connections);
  const peer_connection held(self, std::move(peer));
  beast::error_code ec;
  socket.set_option(tcp::no_delay(true), ec);  // no delayed-ACK wait for small writes: ~40 ms a request
  stream_type stream(std::move(socket));
  beast::flat_buffer buffer(read_buffer_limit);
  const server_limits& limits = self.limits;
  for (bool first = true;; first = false) {
    // Between two requests (none pipelined): idle, up to the idle timeout, until one begins.
    if (!first && buffer.size() == 0 && !co_await next_request_begins(stream, buffer, limits.idle_timeout)) break;
    std::optional<request> read = co_await read_request(stream, buffer, limits);
    if (!read) co_return;
    stream.expires_never();
    std::optional<incoming> streamed;
    answer a;
    bool keep_alive = false;
    framing how = framing::chunked;
    {  // the request's headers and body freed before a stream waits: it holds only what it needs
      const request req = std::move(*read);
      read.reset();
      keep_alive = req.keep_alive();
      how = req.version() >= 11 ? framing::chunked : framing::until_close;
      try {
        a = self.route(req, client_of(self, req, held.peer), streamed);
      } catch (const std::exception& e) {
        a = reply(500, transport_error(-32603, std::string("Internal error: ") + e.what()));
      }
    }
    if (buffer.size() == 0) buffer.shrink_to_fit();  // a waiting or idle connection holds no read buffer
    if (streamed && streamed->protocol == version::v2026_07_28) {
      incoming in = std::move(*streamed);
      streamed.reset();
      try {
        a = co_await answered_modern(self, std::move(in));
      } catch (const std::exception& e) {
        a = reply(500, transport_error(-32603, std::string("Internal error: ") + e.what()));
      }
    }
    if (streamed) {
      incoming in = std::move(*streamed);
      if (!co_await stream_call(self, stream, buffer, std::move(in), keep_alive, how)) break;
    } else if (co_await write_answer(stream, a, keep_alive, limits.write_timeout, limits.idle_timeout) || !keep_alive ||
               a.close) {
      break;
    }
  }
  beast::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
  stream.close();
}

static net::awaitable<void> accept_all(server::impl& self, tcp::acceptor& acceptor, net::io_context& io) {
  const auto executor = co_await net::this_coro::executor;
  log_limiter refusals;
  for (;;) {
    // A strand of the io_context's own executor, not of an any_io_executor: small enough that
    // every copy of it (each timer, frame and handler of the connection holds one) stays inside
    // any_io_executor, with no allocation: about 1 KiB less per waiting elicitation, measured.
    const auto strand = net::make_strand(io);
    auto [ec, socket] = co_await acceptor.async_accept(strand, no_throw);
    if (ec) {
      // Out of file descriptors, say: wait a moment rather than spin, then go on.
      refusals.log("accept: " + ec.message());
      net::steady_timer pause(executor, std::chrono::milliseconds(100));
      co_await pause.async_wait(no_throw);
      continue;
    }
    beast::error_code ignored;
    std::string peer = socket.remote_endpoint(ec).address().to_string();
    if (ec) continue;
    if (self.connections.load() >= self.limits.max_connections) {
      socket.close(ignored);  // over the budget: refused at once, nothing read
      refusals.log("refused a connection: " + std::to_string(self.limits.max_connections) + " are open");
      continue;
    }
    {
      const std::lock_guard lock(self.peers_mutex);
      std::size_t& open = self.connections_of[peer];
      if (open >= self.limits.max_connections_per_client && !self.trusted_proxy(peer)) {
        socket.close(ignored);  // this address has its share: refused at once, nothing read
        refusals.log("refused a connection from " + peer + ": it has " + std::to_string(open) +
                     " open, as many as one address may");
        continue;
      }
      ++open;  // counted down by serve's peer_connection
    }
    net::co_spawn(socket.get_executor(), serve(self, std::move(socket), std::move(peer)), net::detached);
  }
}

void call::throw_client_error(const nlohmann::json& error) {
  const std::string message = error.is_object() && error.contains("message") && error["message"].is_string()
                                  ? error["message"].get<std::string>()
                                  : std::string();
  throw rpc_error(-32603, "The client answered the elicitation with an error" +
                              (message.empty() ? std::string() : ": " + shown(message)));
}

std::shared_ptr<elicit::async_keepalive> call::keepalive_of(const json& params, notifier notify,
                                                            std::chrono::milliseconds interval) {
  if (!notify || interval <= std::chrono::milliseconds::zero()) return nullptr;
  std::optional<nlohmann::json> token = elicit::progress_token(params);
  if (!token) return nullptr;
  return std::make_shared<elicit::async_keepalive>(
      elicit::async_keepalive{elicit::keepalive(std::move(*token)), interval, std::move(notify)});
}

void call::throw_stopped(elicit::stop_reason why) const {
  if (why == elicit::stop_reason::cancelled) throw call_cancelled("the call was cancelled");
  throw rpc_error(-32603,
                  "The client did not answer the elicitation within " + std::to_string(answer_timeout_.count()) + " s");
}

// The keep-alive's interval from the environment here, with a clear message and exit status 2 as
// for the other limits when it is malformed.
static server_limits with_progress_interval(server_limits limits) {
  try {
    limits.progress_interval = samples::progress_interval_from_environment(limits.progress_interval);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "mcp_server: %s\n", e.what());
    std::exit(2);
  }
  return limits;
}

server::server(std::string name, std::string version_text, server_limits limits)
    : impl_(std::make_unique<impl>(std::move(name), std::move(version_text), with_progress_interval(limits))) {}
server::~server() = default;

void server::tool(std::string name, std::string description, json input_schema, serves eras, handler h) {
  tool(std::move(name), std::move(description), std::move(input_schema), eras,
       asking_handler([h = std::move(h)](const call& c) -> net::awaitable<json> { co_return h(c); }));
}

void server::tool(std::string name, std::string description, json input_schema, serves eras, asking_handler h) {
  impl_->tools.push_back({std::move(name), std::move(description), std::move(input_schema), eras, std::move(h)});
}

void server::prompt(std::string name, std::string description, serves eras, asking_handler h) {
  impl_->prompts.push_back({std::move(name), std::move(description), nullptr, eras, std::move(h)});
}

// The connections this process can hold: its open-file limit, raised to the hard limit, less a
// reserve for the other files it opens (the listener, the key file, Redis, the standard streams).
static std::size_t connections_the_process_can_hold(std::size_t wanted) {
  constexpr rlim_t reserve = 64;
  rlimit files{};
  if (::getrlimit(RLIMIT_NOFILE, &files) != 0) return wanted;
  if (files.rlim_cur < files.rlim_max) {
    rlimit raised = files;
    raised.rlim_cur = files.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) files = raised;
  }
  if (files.rlim_cur == RLIM_INFINITY) return wanted;
  const rlim_t room = files.rlim_cur > reserve * 2 ? files.rlim_cur - reserve : files.rlim_cur / 2;
  return std::min<std::size_t>(wanted, static_cast<std::size_t>(room));
}

void server::listen(int port) {
  server_limits& limits = impl_->limits;
  const std::size_t wanted = limits.max_connections;
  limits.max_connections = connections_the_process_can_hold(wanted);
  if (limits.max_connections < wanted)
    std::fprintf(stderr, "%s: at most %zu connections (the open-file limit), not %zu\n", impl_->name.c_str(),
                 limits.max_connections, wanted);
  if (limits.max_connections_per_client == 0)
    limits.max_connections_per_client = std::max<std::size_t>(1, limits.max_connections / 8);
  limits.max_connections_per_client = std::min(limits.max_connections_per_client, limits.max_connections);
  const std::size_t threads =
      impl_->limits.threads != 0 ? impl_->limits.threads : std::max(1U, std::thread::hardware_concurrency());
  net::io_context io(static_cast<int>(threads));
  tcp::acceptor acceptor(io);
  const tcp::endpoint where(net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port));
  beast::error_code ec;
  acceptor.open(where.protocol(), ec);
  if (!ec) acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(where, ec);
  if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) throw std::runtime_error("cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + ec.message());
  net::co_spawn(io, accept_all(*impl_, acceptor, io), net::detached);
  std::fprintf(stderr, "%s listening on http://127.0.0.1:%d/mcp (%zu threads)\n", impl_->name.c_str(), port, threads);
  std::vector<std::thread> pool;
  for (std::size_t i = 1; i < threads; ++i) pool.emplace_back([&io] { io.run(); });
  io.run();
  for (std::thread& t : pool) t.join();
}

}  // namespace mcp
