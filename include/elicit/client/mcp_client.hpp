// The client's side of the envelope, both protocol versions, on any client_connection: start a
// session (2025-11-25: initialize; 2026-07-28: server/discover), list tools, and call one to its
// end, every question it asks handed to the host's `answerer`:
//   - 2025-11-25: elicitation/create requests met while the call runs, answered as they come;
//   - 2026-07-28: input-required rounds, every inputRequests entry answered, the call sent again
//     with the answers and the requestState exactly as received (none when none came), under a
//     new JSON-RPC id, until the result is complete.
//
//   elicit::stdio_connection server({"shipment_server"});
//   elicit::mcp_client client(server, {.version = "2026-07-28"});
//   client.start();
//   nlohmann::ordered_json result = client.call_tool("book_shipment", {{"shipment_id", "SHP-1"}},
//       [](const nlohmann::ordered_json& params) { return my_form_ui(params); });   // an ElicitResult
#pragma once

#include <elicit/client/connection.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace elicit {

struct client_options {
  std::string version = "2025-11-25";  // or "2026-07-28"
  std::string name = "elicit-client", client_version = "1.0.0";
  client_message capabilities = {{"elicitation", {{"form", client_message::object()}}}};
  std::size_t max_rounds = 16;  // input-required rounds of one call before it is given up
};

// A JSON-RPC error the server answered with.
class rpc_failure : public std::runtime_error {
 public:
  rpc_failure(const std::string& method, client_message error)
      : std::runtime_error(method + ": " + error.dump()), error_(std::move(error)) {}
  [[nodiscard]] const client_message& error() const noexcept { return error_; }

 private:
  client_message error_;
};

// What the host answers a question with: the elicitation/create params in, the ElicitResult out.
using client_answerer = std::function<client_message(const client_message& params)>;

class mcp_client {
 public:
  mcp_client(client_connection& server, client_options options) : server_(server), options_(std::move(options)) {}
  mcp_client(const mcp_client&) = delete;
  mcp_client& operator=(const mcp_client&) = delete;
  // The session's own stream ends first: its thread answers through this client.
  ~mcp_client() { server_.stop_listening(); }

  // Starts the session; at 2025-11-25 over HTTP also the session's own stream. Throws rpc_failure
  // or connection_error (a server that answers initialize with another version included).
  void start() {
    if (modern()) {
      request("server/discover", client_message::object());
      return;
    }
    const client_message result =
        request("initialize", {{"protocolVersion", options_.version},
                               {"capabilities", options_.capabilities},
                               {"clientInfo", {{"name", options_.name}, {"version", options_.client_version}}}});
    if (result.value("protocolVersion", client_message()) != options_.version)
      throw connection_error("the server answered initialize with another protocol version: " +
                             result.value("protocolVersion", client_message()).dump());
    server_.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    server_.listen([this](const client_message& m) { serve(m); });
  }

  // The tools the server lists (its first page). Throws as request() does, and connection_error
  // when the result holds no list.
  client_message list_tools() {
    client_message tools = request("tools/list", client_message::object()).value("tools", client_message());
    if (!tools.is_array()) throw connection_error("tools/list: the result holds no list of tools");
    return tools;
  }

  // Calls a tool to its end and returns its result; each question goes to `answer`, one at a time
  // (also when the session's own stream asks), never after this returns. Throws rpc_failure,
  // connection_error (a result of the wrong shape included), or std::runtime_error past max_rounds.
  client_message call_tool(const std::string& name, client_message arguments, const client_answerer& answer) {
    const answering during(*this, answer);
    client_message params{{"name", name}, {"arguments", std::move(arguments)}};
    for (std::size_t round = 0; round < options_.max_rounds; ++round) {
      client_message result = request("tools/call", params);
      const client_message kind = result.value("resultType", client_message("complete"));
      if (!kind.is_string()) throw connection_error("tools/call: resultType is not text");
      if (kind != "input_required") return result;
      const client_message asked = result.value("inputRequests", client_message::object());
      if (!asked.is_object()) throw connection_error("tools/call: inputRequests is not an object");
      client_message responses = client_message::object();
      for (const auto& [key, question] : asked.items()) {
        if (!question.is_object()) throw connection_error("tools/call: an input request is not an object");
        responses[key] = answer_request(question);
      }
      params["inputResponses"] = std::move(responses);
      params.erase("requestState");  // a state is echoed only when this round sent one
      if (const auto state = result.find("requestState"); state != result.end()) {
        if (!state->is_string()) throw connection_error("tools/call: requestState is not text");
        params["requestState"] = *state;
      }
    }
    throw std::runtime_error(name + ": the server still asked after " + std::to_string(options_.max_rounds) +
                             " rounds");
  }

  // One request and its result (an object); requests of the server's met on the way are
  // answered. Throws rpc_failure for an error, connection_error for no response or another shape.
  client_message request(const std::string& method, client_message params) {
    if (modern()) {
      params["_meta"]["io.modelcontextprotocol/protocolVersion"] = options_.version;
      params["_meta"]["io.modelcontextprotocol/clientCapabilities"] = options_.capabilities;
    }
    const client_message message{{"jsonrpc", "2.0"}, {"id", next_id()}, {"method", method}, {"params", params}};
    std::optional<client_message> response;
    server_.exchange(message, [&](const client_message& m) {
      if (!m.is_object()) return;
      if (m.contains("method")) return serve(m);
      if (m.contains("id") && m["id"] == message["id"]) response = m;
    });
    if (!response) throw connection_error(method + ": the server sent no response");
    if (response->contains("error")) throw rpc_failure(method, (*response)["error"]);
    client_message result = response->value("result", client_message());
    if (!result.is_object()) throw connection_error(method + ": the result is not an object");
    return result;
  }

 private:
  // The answerer of one call, taken back when the call ends (however it ends).
  struct answering {
    mcp_client& client;
    answering(mcp_client& c, const client_answerer& answer) : client(c) {
      std::lock_guard lock(client.mutex_);
      client.answerer_ = answer;
    }
    answering(const answering&) = delete;
    answering& operator=(const answering&) = delete;
    ~answering() {
      std::lock_guard lock(client.mutex_);
      client.answerer_ = nullptr;
    }
  };

  [[nodiscard]] bool modern() const { return options_.version >= "2026-07-28"; }
  int next_id() {
    std::lock_guard lock(mutex_);
    return next_id_++;
  }

  // The ElicitResult for one elicitation/create (as a message, or an inputRequests entry); any
  // other request is declined as a question this host cannot answer. One at a time: the
  // session's own stream asks on a thread of its own.
  client_message answer_request(const client_message& question) {
    std::lock_guard one_at_a_time(answering_);
    client_answerer answer;
    {
      std::lock_guard lock(mutex_);
      answer = answerer_;
    }
    const client_message params = question.value("params", client_message::object());
    if (question.value("method", client_message()) != "elicitation/create" || !answer || !params.is_object())
      return {{"action", "decline"}};
    return answer(params);
  }

  // A message of the server's that is not the response awaited: a request is answered (an
  // elicitation by the host, anything else refused), a notification or a stray response passed over.
  void serve(const client_message& m) {
    if (!m.is_object() || !m.contains("id") || !m.contains("method") || !m["method"].is_string()) return;
    client_message reply{{"jsonrpc", "2.0"}, {"id", m["id"]}};
    if (m["method"] == "elicitation/create") reply["result"] = answer_request(m);
    else if (m["method"] == "ping") reply["result"] = client_message::object();
    else reply["error"] = {{"code", -32601}, {"message", "this client does not serve that method"}};
    server_.send(reply);
  }

  client_connection& server_;
  client_options options_;
  std::mutex mutex_;      // the answerer and the ids: the HTTP listener's thread serves too
  std::mutex answering_;  // held while the host answers a question
  client_answerer answerer_;
  int next_id_ = 1;
};

}  // namespace elicit
