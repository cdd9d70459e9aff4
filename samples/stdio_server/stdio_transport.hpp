// Newline-delimited JSON-RPC over stdin and stdout (the MCP stdio transport), for one client.
// The plumbing only: what a server author writes is in shipment_server.cpp.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <string>

namespace stdio_rpc {

using json = nlohmann::json;

class connection {
 public:
  using handler = std::function<json(const json& params)>;  // returns the result, or throws rpc_error

  struct rpc_error {
    int code;
    std::string message;
  };

  void on(const std::string& method, handler h) { handlers_[method] = std::move(h); }

  // Sends a request to the client and waits for its response (messages that arrive meanwhile
  // are served as usual). Returns the result, or nullopt when the client answered with an error
  // or went away.
  std::optional<json> request(const std::string& method, json params) {
    const int id = next_id_++;
    send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
    while (auto message = receive()) {
      if (message->contains("method")) {
        serve(*message);
      } else if (message->value("id", json()) == id) {
        if (message->contains("result")) return (*message)["result"];
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

  // Serves requests until the client closes stdin.
  void run() {
    while (auto message = receive()) serve(*message);
  }

 private:
  static void send(const json& message) { std::cout << message.dump() << "\n" << std::flush; }

  static std::optional<json> receive() {
    std::string line;
    while (std::getline(std::cin, line)) {
      if (line.empty()) continue;
      json message = json::parse(line, nullptr, false);
      if (message.is_object()) return message;
      send({{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", {{"code", -32700}, {"message", "Parse error"}}}});
    }
    return std::nullopt;
  }

  void serve(const json& message) {
    const std::string method = message.value("method", "");
    const bool is_request = message.contains("id");
    const auto h = handlers_.find(method);
    if (h == handlers_.end()) {
      if (is_request)
        send({{"jsonrpc", "2.0"}, {"id", message["id"]}, {"error", {{"code", -32601}, {"message", "Method not found: " + method}}}});
      return;
    }
    try {
      json result = h->second(message.value("params", json::object()));
      if (is_request) send({{"jsonrpc", "2.0"}, {"id", message["id"]}, {"result", std::move(result)}});
    } catch (const rpc_error& e) {
      if (is_request) send({{"jsonrpc", "2.0"}, {"id", message["id"]}, {"error", {{"code", e.code}, {"message", e.message}}}});
    }
  }

  std::map<std::string, handler> handlers_;
  int next_id_ = 1;
};

}  // namespace stdio_rpc
