// Streamable HTTP for the sample server, with cpp-httplib: both protocol eras on one endpoint.
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

#include "http_checks.hpp"
#include "sessions.hpp"

#include <httplib.h>

#include <cstdio>
#include <optional>
#include <string_view>

namespace mcp {

namespace {

constexpr const char* meta_capabilities = "io.modelcontextprotocol/clientCapabilities";
constexpr const char* meta_version = "io.modelcontextprotocol/protocolVersion";
constexpr const char* meta_server_info = "io.modelcontextprotocol/serverInfo";
constexpr std::string_view modern_version = "2026-07-28";

// What server/discover and UnsupportedProtocolVersionError list: 2025-11-25 through initialize.
const json supported_versions = json::array({"2026-07-28", "2025-11-25"});

bool legacy_version(std::string_view v) { return v == "2025-11-25" || v == "2025-06-18" || v == "2025-03-26"; }

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

json rpc_error_message(const json& id, const rpc_error& e) { return rpc_error_message(id, e.code, e.what(), e.data); }

// An error of the transport, outside any request it could read: it has no id.
json transport_error(int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"error", {{"code", code}, {"message", message}}}};
}

// JSON text to send. Never throws on a string that is not UTF-8: it is replaced, not a crash.
std::string text(const json& message) { return message.dump(-1, ' ', false, json::error_handler_t::replace); }

void reply(httplib::Response& res, int status, const json& body) {
  res.status = status;
  res.set_content(text(body), "application/json");
}

std::string principal_of(const httplib::Request& req) {
  const std::string authorization = req.get_header_value("Authorization");
  return authorization.empty() ? "anonymous" : authorization;
}

// Whether this request speaks 2026-07-28 or later (see the top of this file).
bool is_modern(const httplib::Request& req, const json& message) {
  const std::string value = req.get_header_value("MCP-Protocol-Version");  // owned: trimmed() views it
  const std::string_view header = http::trimmed(value);
  if (legacy_version(header)) return false;
  if (!header.empty()) return true;
  const json params = params_of(message);
  const auto meta = params.find("_meta");
  return meta != params.end() && meta->is_object() && meta->contains(meta_version);
}

// The one value of a header the client must send once, or nothing when absent or repeated.
std::optional<std::string> single_header(const httplib::Request& req, const char* name) {
  if (req.get_header_value_count(name) != 1) return std::nullopt;
  return req.get_header_value(name);
}

// 2026-07-28: the Mcp-Method and Mcp-Name headers against the body (HeaderMismatch, -32020).
std::optional<rpc_error> header_mismatch(const httplib::Request& req, const json& message) {
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
  if (req.get_header_value_count("Mcp-Name") == 0)
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
std::optional<rpc_error> refused_modern(const httplib::Request& req, const json& message) {
  const auto header = single_header(req, "MCP-Protocol-Version");
  if (!header) return rpc_error(-32020, "Header mismatch: send one MCP-Protocol-Version header");
  const json params = params_of(message);
  const auto meta = params.find("_meta");
  if (meta == params.end() || !meta->is_object())
    return rpc_error(-32602, std::string("Invalid params: no _meta; a request carries ") + meta_version + " and " +
                                 meta_capabilities + " in it");
  const auto v = meta->find(meta_version);
  if (v == meta->end() || !v->is_string())
    return rpc_error(-32602, std::string("Invalid params: _meta has no ") + meta_version + " string");
  const auto caps = meta->find(meta_capabilities);
  if (caps == meta->end() || !caps->is_object())
    return rpc_error(-32602, std::string("Invalid params: _meta has no ") + meta_capabilities + " object");
  const std::string requested = v->get<std::string>();
  if (requested != http::trimmed(*header))
    return rpc_error(-32020, "Header mismatch: MCP-Protocol-Version header '" + shown(http::trimmed(*header)) +
                                 "' does not match _meta's '" + shown(requested) + "'");
  if (requested != modern_version)
    return rpc_error(-32022, "Unsupported protocol version",
                     {{"supported", supported_versions}, {"requested", requested}});
  return header_mismatch(req, message);
}

// The HTTP status of a 2026-07-28 answer: the spec's for the errors it names, else 200.
int status_of(const json& message) {
  const auto e = message.find("error");
  if (e == message.end()) return 200;
  const int code = e->value("code", 0);
  return code == -32601 ? 404 : code == -32021 ? 400 : 200;
}

// The ElicitResult in the client's response to our elicitation/create. A JSON-RPC error from
// the client is not an answer of the user's: the call fails, saying so.
json answer_of(const json& response) {
  if (const auto e = response.find("error"); e != response.end()) {
    const std::string message = e->is_object() ? text_of(*e, "message") : std::string();
    throw rpc_error(-32603, "The client answered the elicitation with an error" +
                                (message.empty() ? std::string() : ": " + shown(message)));
  }
  const auto r = response.find("result");
  return r != response.end() ? *r : json(nullptr);  // decoding reports a missing result as malformed
}

// Refuses, before any body is read, what no client of this loopback server sends: a Host or
// Origin that is not a loopback name (a DNS-rebinding web page: 403), and a POST body that is
// not JSON (a page's text/plain form post: 415). The connection is closed, the body unread.
bool admitted(const httplib::Request& req, httplib::Response& res) {
  const auto refuse = [&res](int status, const std::string& why) {
    reply(res, status, transport_error(-32600, why));
    res.set_header("Connection", "close");
    return false;
  };
  if (!http::loopback_host(req.get_header_value("Host")))
    return refuse(403, "Forbidden: Host '" + shown(req.get_header_value("Host")) + "' is not this loopback server");
  if (req.has_header("Origin") && !http::loopback_origin(req.get_header_value("Origin")))
    return refuse(403,
                  "Forbidden: requests from origin '" + shown(req.get_header_value("Origin")) + "' are not allowed");
  if (req.method == "POST" && !http::json_content_type(req.get_header_value("Content-Type")))
    return refuse(415, "Unsupported Media Type: the body must be application/json, not '" +
                           shown(req.get_header_value("Content-Type")) + "'");
  return true;
}

// One request, as the dispatcher needs it.
struct incoming {
  json id;
  std::string method;
  json params;
  version protocol;
  std::string principal;
  std::shared_ptr<session> s;
};

json no_asking(json) { throw rpc_error(-32603, "This request cannot send requests to the client"); }

}  // namespace

rpc_error rpc_error::from_message(const json& message) {
  const json& e = message.at("error");
  return rpc_error(e.at("code").get<int>(), e.at("message").get<std::string>(), e.value("data", json(nullptr)));
}

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
  handler run;

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
    return {{"supportedVersions", supported_versions},
            {"capabilities", capabilities(version::v2026_07_28)},
            {"_meta", {{meta_server_info, server_info()}}}};
  }

  // 2026-07-28: what every result carries: its type, caching hints on what may be cached, and
  // who answered.
  [[nodiscard]] json finished(const std::string& method, json result) const {
    if (!result.contains("resultType")) result["resultType"] = "complete";
    if (method == "tools/list" || method == "prompts/list" || method == "server/discover") {
      result["ttlMs"] = 0;
      result["cacheScope"] = "public";  // the same lists for every caller
    }
    if (!result.contains("_meta") || !result["_meta"].is_object()) result["_meta"] = json::object();
    result["_meta"][meta_server_info] = server_info();
    return result;
  }

  json call_entry(const incoming& in, const std::function<json(json)>& ask) const {
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
    return e->run(call(in.protocol, in.method, in.params, in.principal, in.s, ask));
  }

  // The result of one request, or an rpc_error.
  json run(const incoming& in, const std::function<json(json)>& ask) const {
    const bool modern = in.protocol == version::v2026_07_28;
    const std::string& m = in.method;
    const bool has_tools = any(tools, in.protocol), has_prompts = any(prompts, in.protocol);
    if (m == "server/discover" && modern) return discover();
    if (m == "ping" && !modern) return json::object();
    if (m == "tools/list" && has_tools) return {{"tools", listed(tools, in.protocol)}};
    if (m == "prompts/list" && has_prompts) return {{"prompts", listed(prompts, in.protocol)}};
    if ((m == "tools/call" && has_tools) || (m == "prompts/get" && has_prompts)) return call_entry(in, ask);
    throw rpc_error(-32601, "Method not found: " + shown(m));
  }

  // One request answered: a whole JSON-RPC response. A cancelled call has none (call_cancelled).
  json dispatch(const incoming& in, const std::function<json(json)>& ask) const {
    try {
      json result = run(in, ask);
      if (in.protocol == version::v2026_07_28) result = finished(in.method, std::move(result));
      return rpc_result(in.id, std::move(result));
    } catch (const call_cancelled&) {
      throw;
    } catch (const rpc_error& e) {
      return rpc_error_message(in.id, e);
    } catch (const std::exception& e) {
      return rpc_error_message(in.id, -32603, std::string("Internal error: ") + e.what());
    }
  }

  void post(const httplib::Request& req, const std::string& body, httplib::Response& res) {
    // Within limits before anything else: no value deeper or longer than them is ever built,
    // so that nothing below copies, compares or prints one (each of which recurses per level).
    elicit::parsed_json parsed = elicit::parse_json(body, http_limits);
    if (!parsed) return reply(res, 400, rpc_error_message(nullptr, -32700, parsed.error()->message));
    const json message = json(std::move(parsed).value());
    if (!message.is_object())
      return reply(res, 400, rpc_error_message(nullptr, -32600, "Invalid Request: a JSON-RPC message is an object"));
    if (message.contains("method") && !message["method"].is_string())
      return reply(res, 400, rpc_error_message(nullptr, -32600, "Invalid Request: the method must be a string"));
    if (message.contains("id") && message.contains("method") && !valid_id(message["id"]))
      return reply(res, 400, rpc_error_message(nullptr, -32600, "Invalid Request: an id is a string or an integer"));
    if (is_modern(req, message)) post_modern(req, message, res);
    else post_legacy(req, message, res);
  }

  void post_modern(const httplib::Request& req, const json& message, httplib::Response& res) const {
    if (!message.contains("method"))
      return reply(res, 400,
                   transport_error(-32600,
                                   "Invalid Request: at 2026-07-28 this server asks the client nothing "
                                   "to answer; input comes back in inputResponses"));
    if (!message.contains("id")) {  // a notification: nothing of 2026-07-28 needs one over HTTP
      res.status = 202;
      return;
    }
    const json& id = message["id"];
    if (const auto refusal = refused_modern(req, message)) return reply(res, 400, rpc_error_message(id, *refusal));
    const incoming in{id,     text_of(message, "method"), params_of(message), version::v2026_07_28, principal_of(req),
                      nullptr};
    const json answer = dispatch(in, no_asking);
    reply(res, status_of(answer), answer);
  }

  void post_legacy(const httplib::Request& req, const json& message, httplib::Response& res) {
    const json id = message.value("id", json(nullptr));
    const std::string method = text_of(message, "method");
    if (method == "initialize" && message.contains("id")) return initialize(message, res);
    const std::shared_ptr<session> s = session_of(req, id, res);
    if (!s) return;
    if (!message.contains("method")) {  // the client's answer to one of our questions
      if (sessions.deliver(*s, message)) {
        res.status = 202;
        return;
      }
      return reply(res, 400,
                   transport_error(-32600, "No elicitation of this session waits for an answer with this id"));
    }
    if (!message.contains("id")) return notification(*s, method, params_of(message), res);
    const incoming in{id, method, params_of(message), version::v2025_11_25, principal_of(req), s};
    if (method == "tools/call" || method == "prompts/get") return stream_call(in, res);
    reply(res, 200, dispatch(in, no_asking));
  }

  // The live session a legacy request names, or nothing with the response set: 400 without a
  // session id, 404 for one that is unknown, deleted or expired (the client then initializes).
  std::shared_ptr<session> session_of(const httplib::Request& req, const json& id, httplib::Response& res) {
    const auto header = single_header(req, "Mcp-Session-Id");
    if (!header) {
      reply(res, 400, rpc_error_message(id, -32600, "Bad Request: send one Mcp-Session-Id header (from initialize)"));
      return nullptr;
    }
    auto s = sessions.find(*header);
    if (!s) reply(res, 404, rpc_error_message(id, -32001, "Session not found"));
    return s;
  }

  void notification(session& s, const std::string& method, const json& params, httplib::Response& res) {
    if (method == "notifications/cancelled" && params.contains("requestId") && valid_id(params["requestId"]))
      sessions.cancel(s, params["requestId"]);
    res.status = 202;
  }

  void initialize(const json& message, httplib::Response& res) {
    const json params = params_of(message);
    const json declared =
        params.contains("capabilities") && params["capabilities"].is_object() ? params["capabilities"] : json::object();
    const std::shared_ptr<session> s = sessions.open(declared);
    if (!s) {
      res.set_header("Retry-After", "60");
      return reply(res, 503,
                   rpc_error_message(message["id"], -32603, "This server has too many sessions open; try later"));
    }
    const std::string requested = text_of(params, "protocolVersion");
    const std::string answer = requested == "2025-06-18" || requested == "2025-03-26" ? requested : "2025-11-25";
    res.set_header("Mcp-Session-Id", s->id);
    reply(res, 200,
          rpc_result(message["id"], {{"protocolVersion", answer},
                                     {"capabilities", capabilities(version::v2025_11_25)},
                                     {"serverInfo", server_info()}}));
  }

  // 2025-11-25 tools/call and prompts/get: answered on an SSE stream, on which the handler may
  // ask the client. The stream's worker thread waits for the answer; sessions bounds how many
  // may wait, and for how long, and ends the wait when the call is cancelled or the client leaves.
  void stream_call(const incoming& in, httplib::Response& res) {
    const std::shared_ptr<call_in_flight> flight = sessions.begin_call(in.s, in.id);
    if (!flight)
      return reply(res, 200,
                   rpc_error_message(in.id, -32600, "Invalid Request: a call with this id is in flight already"));
    res.set_header("Cache-Control", "no-cache");
    res.set_header("X-Accel-Buffering", "no");  // a proxy must not hold the question back
    const auto provide = [this, in, flight](std::size_t, httplib::DataSink& sink) {
      const auto send = [&sink](const json& m) {
        const std::string event = "event: message\ndata: " + text(m) + "\n\n";
        return sink.write(event.data(), event.size());
      };
      const auto alive = [&sink] { return sink.write(":\n\n", 3); };  // an SSE comment: ignored by clients
      const auto ask = [&](json params) { return answer_of(sessions.ask(*flight, std::move(params), send, alive)); };
      try {
        send(dispatch(in, ask));
      } catch (const call_cancelled& e) {
        std::fprintf(stderr, "mcp_server: %s %s ended without a response: %s\n", in.method.c_str(),
                     shown(text(in.id)).c_str(), e.what());
      }
      sessions.end_call(*flight);
      sink.done();
      return true;
    };
    res.set_chunked_content_provider("text/event-stream", provide,
                                     [this, flight](bool) { sessions.end_call(*flight); });
  }
};

server::server(std::string name, std::string version_text, server_limits limits)
    : impl_(std::make_unique<impl>(std::move(name), std::move(version_text), limits)) {}
server::~server() = default;

void server::tool(std::string name, std::string description, json input_schema, serves eras, handler h) {
  impl_->tools.push_back({std::move(name), std::move(description), std::move(input_schema), eras, std::move(h)});
}

void server::prompt(std::string name, std::string description, serves eras, handler h) {
  impl_->prompts.push_back({std::move(name), std::move(description), nullptr, eras, std::move(h)});
}

void server::listen(int port) {
  httplib::Server http;
  const server_limits& limits = impl_->limits;
  http.new_task_queue = [n = limits.threads] { return new httplib::ThreadPool(n); };
  // Small writes (headers, then the body) are not held back waiting for the client's delayed
  // ACK: about 40 ms per keep-alive request without it.
  http.set_tcp_nodelay(true);
  // A connection that sends nothing, or too slowly, gives its thread back after this long.
  http.set_read_timeout(limits.read_timeout);
  http.set_keep_alive_timeout(limits.read_timeout.count());
  http.set_keep_alive_max_count(100);
  http.set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
    return admitted(req, res) ? httplib::Server::HandlerResponse::Unhandled : httplib::Server::HandlerResponse::Handled;
  });
  // A body longer than the limit is refused (413) and never held whole in memory: one with a
  // longer Content-Length is skipped unread, a chunked one is read only up to the limit.
  http.set_payload_max_length(http_limits.max_bytes);
  const std::string too_long = text(rpc_error_message(
      nullptr, -32700,
      "The JSON is more than " + std::to_string(http_limits.max_bytes) + " bytes long, more than this server reads."));
  http.set_error_handler([too_long](const httplib::Request&, httplib::Response& res) {
    if (res.status == 413 && res.body.empty()) res.set_content(too_long, "application/json");
  });
  http.Post("/mcp",
            [this, too_long](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& read) {
              std::string body;
              bool over = false;
              const bool complete = read([&](const char* data, std::size_t n) {
                over = n > http_limits.max_bytes - body.size();
                if (!over) body.append(data, n);
                return !over;
              });
              if (over || res.status == 413) {
                res.status = 413;
                res.set_header("Connection", "close");
                res.set_content(too_long, "application/json");
              } else if (!complete) {
                res.status = 400;
                res.set_header("Connection", "close");
              } else {
                impl_->post(req, body, res);
              }
            });
  // No standalone stream (2025-11-25 lets a server refuse it; 2026-07-28 has none).
  http.Get("/mcp", [](const httplib::Request&, httplib::Response& res) {
    res.status = 405;
    res.set_header("Allow", "POST, DELETE");
  });
  http.Delete("/mcp", [this](const httplib::Request& req, httplib::Response& res) {
    const auto id = single_header(req, "Mcp-Session-Id");
    if (!id) {
      res.status = 405;  // 2026-07-28 has no session to delete
      res.set_header("Allow", "POST");
      return;
    }
    res.status = impl_->sessions.close(*id) ? 200 : 404;
  });
  std::fprintf(stderr, "%s listening on http://127.0.0.1:%d/mcp\n", impl_->name.c_str(), port);
  if (!http.listen("127.0.0.1", port)) throw std::runtime_error("cannot listen on 127.0.0.1:" + std::to_string(port));
}

}  // namespace mcp
