// Streamable HTTP for the sample server, with cpp-httplib.
//
// 2025-11-25: `initialize` opens a session (Mcp-Session-Id); a `tools/call` is answered on an SSE
// stream, on which the handler may send `elicitation/create` and wait for the client's answer,
// which arrives as a separate POST. 2026-07-28: every request stands alone (no initialize, no
// session), the client's capabilities come in `_meta`, and results carry `resultType`.
#include "transport.hpp"

#include <elicit/state.hpp>

#include <httplib.h>

#include <chrono>
#include <cstdio>
#include <future>
#include <map>
#include <mutex>

namespace mcp {

namespace {

constexpr const char* meta_capabilities = "io.modelcontextprotocol/clientCapabilities";
constexpr const char* meta_version = "io.modelcontextprotocol/protocolVersion";

// The string member `key` of `object`, or "" when it is absent or not a string: a client's
// `"method": 5` is no method, not an exception.
std::string text_of(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

json rpc_result(const json& id, json result) { return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}; }

json rpc_error_message(const json& id, int code, const std::string& message, const json& data = nullptr) {
  json error{{"code", code}, {"message", message}};
  if (!data.is_null()) error["data"] = data;
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}};
}

}  // namespace

rpc_error rpc_error::from_message(const json& message) {
  const json& e = message.at("error");
  return rpc_error(e.at("code").get<int>(), e.at("message").get<std::string>(), e.value("data", json(nullptr)));
}

// What a 2025-11-25 session remembers: the client's capabilities from initialize.
class session {
 public:
  explicit session(json capabilities) : capabilities(std::move(capabilities)) {}
  const json capabilities;
};

std::string call::target() const {
  const auto n = params_.find("name");
  return n != params_.end() && n->is_string() ? n->get<std::string>() : std::string();
}

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
  return declared_capabilities(version_, params_, session_).contains(capability);
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
  handler run;
};

struct server::impl {
  std::string name, version_text;
  std::vector<entry> tools, prompts;

  std::mutex mutex;
  std::map<std::string, std::shared_ptr<session>> sessions;
  std::map<long long, std::promise<json>> pending;  // our elicitation/create requests, by id
  long long next_id = 1;

  const entry* find(const std::vector<entry>& list, const json& params) const {
    if (!params.contains("name") || !params["name"].is_string()) return nullptr;
    for (const entry& e : list)
      if (e.name == params["name"].get<std::string>()) return &e;
    return nullptr;
  }

  json list_tools() const {
    json list = json::array();
    for (const entry& t : tools)
      list.push_back({{"name", t.name}, {"description", t.description}, {"inputSchema", t.input_schema}});
    return {{"tools", list}};
  }
  json list_prompts() const {
    json list = json::array();
    for (const entry& p : prompts) list.push_back({{"name", p.name}, {"description", p.description}});
    return {{"prompts", list}};
  }

  // One request, answered: a whole JSON-RPC response.
  json dispatch(const json& message, version v, const std::string& principal, const std::shared_ptr<session>& s,
               const std::function<json(json)>& ask) {
    const json id = message.value("id", json(nullptr));
    const std::string method = text_of(message, "method");
    const json params = message.contains("params") && message["params"].is_object() ? message["params"] : json::object();
    try {
      json result;
      if (method == "ping") {
        result = json::object();
      } else if (method == "tools/list") {
        result = list_tools();
      } else if (method == "prompts/list") {
        result = list_prompts();
      } else if (method == "tools/call" || method == "prompts/get") {
        const bool is_tool = method == "tools/call";
        const entry* e = find(is_tool ? tools : prompts, params);
        if (!e) throw rpc_error(-32602, std::string(is_tool ? "Unknown tool: " : "Unknown prompt: ") + text_of(params, "name"));
        if (v == version::v2026_07_28) {
          if (params.contains("inputResponses") && !params["inputResponses"].is_object())
            throw rpc_error(-32602, "Invalid params: inputResponses must be an object");
          if (params.contains("requestState") && !params["requestState"].is_string())
            throw rpc_error(-32602, "Invalid params: requestState must be a string");
        }
        result = e->run(call(v, method, params, principal, s, ask));
      } else {
        return rpc_error_message(id, -32601, "Method not found: " + method);
      }
      if (v == version::v2026_07_28) {
        if (!result.contains("resultType")) result["resultType"] = "complete";
        if (method == "tools/list" || method == "prompts/list") {
          result["ttlMs"] = 0;
          result["cacheScope"] = "public";
        }
      }
      return rpc_result(id, std::move(result));
    } catch (const rpc_error& e) {
      return rpc_error_message(id, e.code, e.what(), e.data);
    } catch (const std::exception& e) {
      return rpc_error_message(id, -32603, std::string("Internal error: ") + e.what());
    }
  }

  // 2025-11-25: a request of ours to the client, on the stream `send` writes to; waits for the answer.
  json ask_client(const std::function<bool(const json&)>& send, json params) {
    long long id;
    std::future<json> answer;
    {
      std::lock_guard lock(mutex);
      id = next_id++;
      answer = pending[id].get_future();
    }
    const bool sent = send({{"jsonrpc", "2.0"}, {"id", id}, {"method", "elicitation/create"}, {"params", std::move(params)}});
    const bool answered = sent && answer.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
    if (!answered) {
      std::lock_guard lock(mutex);
      pending.erase(id);
      throw rpc_error(-32603, "The client did not answer the elicitation");
    }
    json reply = answer.get();
    if (reply.contains("error")) throw rpc_error::from_message(reply);
    return reply.value("result", json::object());
  }

  void post(const httplib::Request& req, const std::string& body, httplib::Response& res) {
    // Within limits before anything else: no value deeper or longer than them is ever built,
    // so that nothing below copies, compares or prints one (each of which recurses per level).
    elicit::parsed_json parsed = elicit::parse_json(body, http_limits);
    if (!parsed) {
      res.status = 400;
      res.set_content(rpc_error_message(nullptr, -32700, parsed.error()->message).dump(), "application/json");
      return;
    }
    const json message = json(std::move(parsed).value());
    if (!message.is_object()) {
      res.status = 400;
      res.set_content(rpc_error_message(nullptr, -32600, "Invalid Request: a JSON-RPC message is an object").dump(),
                      "application/json");
      return;
    }
    const std::string authorization = req.get_header_value("Authorization");
    const std::string principal = authorization.empty() ? "anonymous" : authorization;
    const std::string method = text_of(message, "method");
    const bool has_id = message.contains("id");

    if (!message.contains("method") && has_id) {  // the client's answer to one of our requests
      std::lock_guard lock(mutex);
      if (message["id"].is_number_integer())
        if (const auto p = pending.find(message["id"].get<long long>()); p != pending.end()) {
          p->second.set_value(message);
          pending.erase(p);
        }
      res.status = 202;
      return;
    }
    if (!has_id) {  // a notification
      res.status = 202;
      return;
    }

    const json params = message.contains("params") && message["params"].is_object() ? message["params"] : json::object();
    const bool stateless = req.get_header_value("MCP-Protocol-Version") == "2026-07-28" ||
                           (params.contains("_meta") && params["_meta"].is_object() &&
                            text_of(params["_meta"], meta_version) == "2026-07-28");

    if (method == "initialize" && !stateless) {
      const std::string requested = text_of(params, "protocolVersion");
      const std::string version_answer =
          requested == "2025-06-18" || requested == "2025-03-26" ? requested : "2025-11-25";
      const std::string id = elicit::new_elicitation_id();
      {
        std::lock_guard lock(mutex);
        sessions[id] = std::make_shared<session>(params.value("capabilities", json::object()));
      }
      res.set_header("Mcp-Session-Id", id);
      res.set_content(rpc_result(message["id"], {{"protocolVersion", version_answer},
                                                 {"capabilities", {{"tools", json::object()}, {"prompts", json::object()}}},
                                                 {"serverInfo", {{"name", name}, {"version", version_text}}}})
                          .dump(),
                      "application/json");
      return;
    }

    std::shared_ptr<session> s;
    if (!stateless && req.has_header("Mcp-Session-Id")) {
      std::lock_guard lock(mutex);
      const auto it = sessions.find(req.get_header_value("Mcp-Session-Id"));
      if (it == sessions.end()) {
        res.status = 404;
        res.set_content(rpc_error_message(message["id"], -32001, "Session not found").dump(), "application/json");
        return;
      }
      s = it->second;
    }

    if (stateless || method != "tools/call") {
      const auto no_asking = [](json) -> json {
        throw rpc_error(-32603, "This request cannot send requests to the client");
      };
      res.set_content(
          dispatch(message, stateless ? version::v2026_07_28 : version::v2025_11_25, principal, s, no_asking).dump(),
          "application/json");
      return;
    }

    // 2025-11-25 tools/call: answer on an SSE stream, on which the tool may ask the client.
    res.set_header("Cache-Control", "no-cache");
    const auto stream = [this, message, principal, s](std::size_t, httplib::DataSink& sink) {
      const auto send = [&sink](const json& m) {
        const std::string event = "event: message\ndata: " + m.dump() + "\n\n";
        return sink.is_writable() && sink.write(event.data(), event.size());
      };
      const auto ask = [this, &send](json params) { return ask_client(send, std::move(params)); };
      send(dispatch(message, version::v2025_11_25, principal, s, ask));
      sink.done();
      return true;
    };
    res.set_chunked_content_provider("text/event-stream", stream);
  }
};

server::server(std::string name, std::string version_text) : impl_(std::make_unique<impl>()) {
  impl_->name = std::move(name);
  impl_->version_text = std::move(version_text);
}
server::~server() = default;

void server::tool(std::string name, std::string description, json input_schema, handler h) {
  impl_->tools.push_back({std::move(name), std::move(description), std::move(input_schema), std::move(h)});
}

void server::prompt(std::string name, std::string description, handler h) {
  impl_->prompts.push_back({std::move(name), std::move(description), nullptr, std::move(h)});
}

void server::listen(int port) {
  httplib::Server http;
  http.new_task_queue = [] { return new httplib::ThreadPool(16); };  // a waiting call holds one thread
  // A body longer than the limit is refused (413) and never held whole in memory: one with a
  // longer Content-Length is skipped unread, a chunked one is read only up to the limit.
  http.set_payload_max_length(http_limits.max_bytes);
  const std::string too_long = rpc_error_message(nullptr, -32700,
                                                 "The JSON is more than " + std::to_string(http_limits.max_bytes) +
                                                     " bytes long, more than this server reads.")
                                   .dump();
  http.set_error_handler([too_long](const httplib::Request&, httplib::Response& res) {
    if (res.status == 413 && res.body.empty()) res.set_content(too_long, "application/json");
  });
  http.Post("/mcp", [this, too_long](const httplib::Request& req, httplib::Response& res,
                                     const httplib::ContentReader& read) {
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
  http.Get("/mcp", [](const httplib::Request&, httplib::Response& res) { res.status = 405; });
  http.Delete("/mcp", [this](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard lock(impl_->mutex);
    res.status = impl_->sessions.erase(req.get_header_value("Mcp-Session-Id")) ? 200 : 404;
  });
  std::fprintf(stderr, "%s listening on http://127.0.0.1:%d/mcp\n", impl_->name.c_str(), port);
  if (!http.listen("127.0.0.1", port)) throw std::runtime_error("cannot listen on 127.0.0.1:" + std::to_string(port));
}

}  // namespace mcp
