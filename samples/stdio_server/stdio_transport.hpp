// Newline-delimited JSON-RPC over stdin and stdout (the MCP stdio transport), for one client.
// The plumbing only: what a server author writes is in shipment_server.cpp.
#pragma once

#include <elicit/limits.hpp>
#include <elicit/progress.hpp>

#include <nlohmann/json.hpp>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stdio_rpc {

using json = nlohmann::json;                  // what is read: requests and responses from the client
using ordered_json = nlohmann::ordered_json;  // what is sent: keys in the order they were written

class connection {
 public:
  using handler = std::function<ordered_json(const json& params)>;  // returns the result, or throws rpc_error

  // What one line from the client may be: a longer or deeper one is answered with a parse error
  // (-32700), and no value of it is ever built, copied or compared.
  static constexpr elicit::json_limits limits{.max_bytes = 1024 * 1024, .max_depth = 64};

  struct rpc_error {
    int code;
    std::string message;
    ordered_json data = nullptr;  // the error's data member, when not null
  };

  // Thrown out of request() when the client cancels the request being served
  // (notifications/cancelled) or goes away: the handler stops, and no response is sent.
  struct cancelled {
    std::string why;
  };

  void on(const std::string& method, handler h) { handlers_[method] = std::move(h); }

  // While request() waits for the client, a notifications/progress goes out every `interval`
  // where the request being served gave a progressToken (elicit::keepalive: one count per call);
  // zero sends none. The default is elicit::keepalive_interval (15 s).
  void progress_every(std::chrono::milliseconds interval) { interval_ = interval; }

  // Sends a request to the client and waits for its response message: an object with "result"
  // or "error" (a client's error is its answer too: the caller tells it from a user's). Messages
  // that arrive meanwhile are served as usual. Throws cancelled when the client cancels the
  // request being served, or goes away. The params go out as they were built: a
  // requestedSchema's properties in the form's order.
  json request(const std::string& method, ordered_json params) {
    const int id = next_id_++;
    send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
    while (auto message = (keep_alive(), receive())) {
      if (cancels_current(*message)) throw cancelled{"the client cancelled the request"};
      if (message->contains("method")) serve(*message);
      else if (message->value("id", json()) == id) return std::move(*message);
      else serve(*message);  // a response to another request, or no message at all
    }
    throw cancelled{"the client went away"};
  }

  // Serves requests until the client closes stdin.
  void run() {
    while (auto message = receive()) serve(*message);
  }

 private:
  static void send(const ordered_json& message) { std::cout << message.dump() << "\n" << std::flush; }

  // Waits until a byte can be read, sending a notifications/progress each interval meanwhile
  // when the call being served has a progress token. Returns at once without one.
  void keep_alive() {
    if (serving_.empty() || !serving_.back().progress || interval_.count() <= 0) return;
    while (!in_.readable_within(interval_))
      send({{"jsonrpc", "2.0"}, {"method", "notifications/progress"}, {"params", serving_.back().progress->next()}});
  }

  // stdin read through a buffer of its own, so that whether a byte is waiting is known: in the
  // buffer, or else from poll() on the file descriptor (a stream's hidden buffer would hide a
  // message already read and wait for the next one).
  class input {
   public:
    // The next byte, or EOF at the end (or on a read error).
    int next() {
      if (at_ == size_ && !fill()) return EOF;
      return static_cast<unsigned char>(buffer_[at_++]);
    }
    // True when a byte (or the end) can be read within `wait`.
    bool readable_within(std::chrono::milliseconds wait) {
      if (at_ < size_) return true;
      pollfd fd{.fd = 0, .events = POLLIN, .revents = 0};
      const int ready = ::poll(&fd, 1, static_cast<int>(wait.count()));
      return ready != 0;  // ready, hung up, or an error: the read says which
    }

   private:
    bool fill() {
      ssize_t got = 0;
      do got = ::read(0, buffer_, sizeof buffer_);
      while (got < 0 && errno == EINTR);
      at_ = 0;
      size_ = got > 0 ? static_cast<std::size_t>(got) : 0;
      return size_ != 0;
    }
    char buffer_[64 * 1024];
    std::size_t at_ = 0, size_ = 0;
  };

  static void send_error(const json& id, int code, const std::string& message, const ordered_json& data = nullptr) {
    ordered_json error{{"code", code}, {"message", message}};
    if (!data.is_null()) error["data"] = data;
    send({{"jsonrpc", "2.0"}, {"id", ordered_json(id)}, {"error", std::move(error)}});
  }

  // Reads one line of stdin into `line`, without its newline, keeping at most limits.max_bytes
  // + 1 bytes of it: the rest of a longer line is read and dropped, so that no line is held
  // whole in memory however long it is. Returns the line's whole length, or nothing at the end.
  std::optional<std::size_t> read_line(std::string& line) {
    line.clear();
    std::size_t length = 0;
    bool any = false;
    for (int c = in_.next(); c != EOF; c = in_.next()) {
      any = true;
      if (c == '\n') return length;
      if (length++ <= limits.max_bytes) line.push_back(static_cast<char>(c));
    }
    if (!any) return std::nullopt;
    return length;
  }

  // The next message, parsed within `limits`; a line that is not one is answered with an error.
  std::optional<json> receive() {
    std::string line;
    while (const auto length = read_line(line)) {
      if (*length == 0) continue;
      if (*length > limits.max_bytes) {  // parse_json would refuse it too; only its first bytes were kept
        send_error(nullptr, -32700,
                   "The JSON is " + std::to_string(*length) + " bytes long, more than the " +
                       std::to_string(limits.max_bytes) + " this server reads.");
        continue;
      }
      elicit::parsed_json parsed = elicit::parse_json(line, limits);
      if (!parsed) {
        send_error(nullptr, -32700, parsed.error()->message);
        continue;
      }
      json message = std::move(parsed).value();
      if (message.is_object()) return message;
      send_error(nullptr, -32600, "Invalid Request: a JSON-RPC message is an object");
    }
    return std::nullopt;
  }

  // notifications/cancelled for the request this server is serving now.
  bool cancels_current(const json& message) const {
    if (serving_.empty() || message.value("method", json()) != "notifications/cancelled") return false;
    const auto params = message.find("params");
    return params != message.end() && params->is_object() && params->value("requestId", json()) == serving_.back().id;
  }

  // A message without "method" is a response (it has "result" or "error"), never answered: a
  // late one (to a question this server stopped waiting for, after a cancellation) is logged and
  // dropped, as JSON-RPC wants; answering it would make the client report an unknown id.
  static bool drop_response(const json& message) {
    if (message.contains("method")) return false;
    if (message.contains("result") || message.contains("error")) {
      std::cerr << "ignored a response to request " << message.value("id", json()).dump() << ": not waiting for it\n";
      return true;
    }
    if (message.contains("id")) send_error(message["id"], -32600, "Invalid Request: no method, result or error");
    return true;
  }

  void serve(const json& message) {
    if (drop_response(message)) return;
    const auto m = message.find("method");
    const std::string method = m != message.end() && m->is_string() ? m->get<std::string>() : std::string();
    const bool is_request = message.contains("id");
    const auto h = handlers_.find(method);
    if (h == handlers_.end()) {
      if (is_request)
        send({{"jsonrpc", "2.0"},
              {"id", ordered_json(message["id"])},
              {"error", {{"code", -32601}, {"message", "Method not found: " + method}}}});
      return;
    }
    const json params = message.value("params", json::object());
    if (is_request) {
      std::optional<elicit::keepalive> progress;
      if (auto token = elicit::progress_token(params)) progress.emplace(std::move(*token));
      serving_.push_back({message["id"], std::move(progress)});
    }
    struct done_serving {
      std::vector<in_service>& serving;
      bool request;
      ~done_serving() {
        if (request) serving.pop_back();
      }
    } done{serving_, is_request};
    try {
      ordered_json result = h->second(params);
      if (is_request) send({{"jsonrpc", "2.0"}, {"id", ordered_json(message["id"])}, {"result", std::move(result)}});
    } catch (const cancelled& c) {  // the spec: no response to a cancelled request
      std::cerr << "request " << message["id"].dump() << " ended: " << c.why << "\n";
    } catch (const rpc_error& e) {
      if (is_request) send_error(message["id"], e.code, e.message, e.data);
    } catch (const std::exception& e) {  // e.g. a parameter of the wrong type: an error, not the end
      if (is_request) send_error(message["id"], -32603, std::string("Internal error: ") + e.what());
    }
  }

  struct in_service {
    json id;
    std::optional<elicit::keepalive> progress;  // when the request gave a progressToken
  };
  std::map<std::string, handler> handlers_;
  std::vector<in_service> serving_;  // the client's requests being served, innermost last
  input in_;
  std::chrono::milliseconds interval_ = elicit::keepalive_interval;
  int next_id_ = 1;
};

}  // namespace stdio_rpc
