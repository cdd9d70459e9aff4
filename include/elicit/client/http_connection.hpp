// A connection to an MCP server over Streamable HTTP (Boost.Beast, blocking): each message a POST
// on a connection of its own, its response read as JSON or as an SSE stream as it comes; the
// session id the server gives kept and sent back; at 2025-11-25 the session's own GET stream read
// on a thread of its own (listen), where some servers send the requests they do not tie to a call.
//
//   elicit::http_connection server("http://127.0.0.1:8080/mcp", "2025-11-25");
#pragma once

#include <elicit/client/connection.hpp>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include <sys/socket.h>

namespace elicit {

class http_connection : public client_connection {
 public:
  // `url`: http://host[:port]/path; `version`: the protocol version sent in MCP-Protocol-Version.
  // Throws connection_error for a URL it cannot read (https is not spoken here).
  http_connection(std::string_view url, std::string version, json_limits limits = detail::client_limits)
      : version_(std::move(version)), limits_(limits) {
    constexpr std::string_view scheme = "http://";
    if (!url.starts_with(scheme)) throw connection_error("http_connection: the URL must begin with http://");
    url.remove_prefix(scheme.size());
    const std::size_t slash = url.find('/');
    const std::string_view authority = url.substr(0, slash);
    target_ = slash == std::string_view::npos ? "/" : std::string(url.substr(slash));
    const std::size_t colon = authority.rfind(':');
    host_ = std::string(authority.substr(0, colon));
    port_ = colon == std::string_view::npos ? "80" : std::string(authority.substr(colon + 1));
    if (host_.empty()) throw connection_error("http_connection: the URL names no host");
  }
  ~http_connection() override { stop_listening(); }

  void stop_listening() override {
    if (!listener_.joinable()) return;
    {
      // The listener blocks in a read: shutting its socket down ends it. Under the lock, so that
      // the descriptor is the listener's own, still open.
      std::lock_guard lock(mutex_);
      stopping_ = true;
      if (listening_fd_ >= 0) ::shutdown(listening_fd_, SHUT_RDWR);
    }
    listener_.join();
  }

  // Reads the response's stream until the response itself, then drops the connection: a server
  // that keeps the stream open after it does not hold the call.
  void exchange(const client_message& request, const on_client_message& each) override {
    bool answered = false;
    post(
        request,
        [&](const client_message& m) {
          answered =
              answered || (m.is_object() && !m.contains("method") && m.contains("id") && m["id"] == request["id"]);
          each(m);
        },
        [&] { return answered; });
    if (!answered) throw connection_error("the server ended its response without answering");
  }
  void send(const client_message& message) override {
    post(
        message, [](const client_message&) {}, [] { return false; });
  }
  // Returns once the server has answered the GET (or refused it, or 5 s have passed), so that a
  // request the server sends there after the next call begins is not sent before the stream is.
  void listen(const on_client_message& each) override {
    if (listener_.joinable()) return;
    auto answered = std::make_shared<std::promise<void>>();
    std::future<void> ready = answered->get_future();
    listener_ = std::thread([this, each, answered] {
      boost::asio::io_context io;
      boost::beast::tcp_stream stream(io);
      namespace http = boost::beast::http;
      http::request<http::string_body> req(http::verb::get, target_, 11);
      req.set(http::field::accept, "text/event-stream");
      bool told = false;
      const auto tell = [&] {
        if (!std::exchange(told, true)) answered->set_value();
      };
      try {
        const auto connected = [this](int fd) {
          std::lock_guard lock(mutex_);
          if (stopping_) throw connection_error("stopped");
          listening_fd_ = fd;
        };
        exchange_http(stream, std::move(req), each, connected, tell);
      } catch (const std::exception&) {  // refused, ended, or shut down when this connection ended
      }
      tell();
      std::lock_guard lock(mutex_);  // before the socket closes: its descriptor is not shut down later
      listening_fd_ = -1;
    });
    ready.wait_for(std::chrono::seconds(5));
  }

 private:
  void post(const client_message& message, const on_client_message& each, const std::function<bool()>& finished) {
    namespace http = boost::beast::http;
    boost::asio::io_context io;
    boost::beast::tcp_stream stream(io);
    http::request<http::string_body> req(http::verb::post, target_, 11);
    req.set(http::field::content_type, "application/json");
    req.set(http::field::accept, "application/json, text/event-stream");
    if (message.contains("method")) {
      req.set("Mcp-Method", message["method"].get<std::string>());
      if (message.contains("params") && message["params"].is_object() && message["params"].contains("name") &&
          message["params"]["name"].is_string())
        req.set("Mcp-Name", header_value(message["params"]["name"].get_ref<const std::string&>()));
    }
    req.body() = message.dump();
    exchange_http(stream, std::move(req), each, {}, {}, finished);
  }

  // One HTTP exchange: each JSON-RPC message of the response to `each`, as it comes.
  void exchange_http(boost::beast::tcp_stream& stream, boost::beast::http::request<boost::beast::http::string_body> req,
                     const on_client_message& each, const std::function<void(int)>& connected = {},
                     const std::function<void()>& answered = {}, const std::function<bool()>& finished = {}) {
    namespace http = boost::beast::http;
    try {
      boost::asio::ip::tcp::resolver resolver(stream.get_executor());
      stream.connect(resolver.resolve(host_, port_));
      if (connected) connected(stream.socket().native_handle());
      req.set(http::field::host, host_);
      req.set("MCP-Protocol-Version", version_);
      if (const std::string id = session(); !id.empty()) req.set("Mcp-Session-Id", id);
      req.prepare_payload();
      http::write(stream, req);
      boost::beast::flat_buffer buffer;
      http::response_parser<http::buffer_body> parser;
      parser.body_limit(limits_.max_bytes);
      http::read_header(stream, buffer, parser);
      const auto& head = parser.get();
      if (const auto id = head.find("Mcp-Session-Id"); id != head.end()) set_session(std::string(id->value()));
      if (head.result_int() >= 400)
        throw connection_error("the server answered HTTP " + std::to_string(head.result_int()));
      if (answered) answered();
      const bool sse = head[http::field::content_type].starts_with("text/event-stream");
      // A stream lasts as long as its call: each event is bounded (sse_reader), not the whole.
      if (sse) parser.body_limit(boost::none);
      std::string body;
      sse_reader events;
      char chunk[16384];
      while (!parser.is_done() && !(finished && finished())) {
        parser.get().body().data = chunk;
        parser.get().body().size = sizeof chunk;
        boost::beast::error_code ec;
        http::read_some(stream, buffer, parser, ec);  // what has come: an SSE stream may stay open
        if (ec == http::error::need_buffer) ec = {};
        if (ec) throw boost::beast::system_error(ec);
        const std::string_view got(chunk, sizeof chunk - parser.get().body().size);
        if (!sse) body += got;
        else events.take(got, each, limits_, finished);
      }
      if (!sse && !body.empty()) each(detail::parse_client_message(body, limits_));
    } catch (const boost::system::system_error& e) {
      throw connection_error(std::string("the server cannot be reached or ended the response: ") + e.what());
    }
  }

  // An SSE stream's events as they come: each event's `data:` lines joined by new lines, as one
  // JSON-RPC message; an event's text bounded by the limits, not the whole stream.
  struct sse_reader {
    std::string lines, data;
    bool has_data = false;

    void take(std::string_view got, const on_client_message& each, const json_limits& limits,
              const std::function<bool()>& finished) {
      lines += got;
      std::size_t at = 0;
      for (std::size_t end; (end = lines.find('\n', at)) != std::string::npos; at = end + 1) {
        std::string_view line(lines.data() + at, end - at);
        if (line.ends_with('\r')) line.remove_suffix(1);
        if (line.empty()) {  // the end of an event
          if (has_data && !data.empty()) each(detail::parse_client_message(data, limits));
          data.clear();
          has_data = false;
          if (finished && finished()) return;
          continue;
        }
        if (!line.starts_with("data:")) continue;  // event:, id:, retry:, and comments
        line.remove_prefix(5);
        if (line.starts_with(' ')) line.remove_prefix(1);
        if (has_data) data += '\n';
        data += line;
        has_data = true;
        if (data.size() > limits.max_bytes) throw connection_error("the server sent an event longer than the limit");
      }
      lines.erase(0, at);
      if (lines.size() > limits.max_bytes) throw connection_error("the server sent an event longer than the limit");
    }
  };

  // A header's value as sent: plain printable ASCII as it is; anything else (a tool name the
  // server chose, with a new line, say) as the spec's `=?base64?...?=`, never a broken header.
  static std::string header_value(std::string_view v) {
    const bool plain = !v.empty() && v.front() != ' ' && v.back() != ' ' &&
                       std::all_of(v.begin(), v.end(), [](char c) { return c >= 0x20 && c < 0x7F; });
    if (plain && !v.starts_with("=?")) return std::string(v);
    static constexpr char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out = "=?base64?";
    for (std::size_t i = 0; i < v.size(); i += 3) {
      const auto byte = [&](std::size_t k) { return k < v.size() ? static_cast<unsigned char>(v[k]) : 0u; };
      const unsigned n = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
      out += digits[n >> 18 & 63];
      out += digits[n >> 12 & 63];
      out += i + 1 < v.size() ? digits[n >> 6 & 63] : '=';
      out += i + 2 < v.size() ? digits[n & 63] : '=';
    }
    return out + "?=";
  }

  std::string session() {
    std::lock_guard lock(mutex_);
    return session_;
  }
  void set_session(std::string id) {
    std::lock_guard lock(mutex_);
    session_ = std::move(id);
  }

  std::string host_, port_, target_, version_;
  json_limits limits_;
  std::mutex mutex_;  // the session id, which the listener's thread reads too, and the listener's socket
  std::string session_;
  std::thread listener_;
  int listening_fd_ = -1;
  bool stopping_ = false;
};

}  // namespace elicit
