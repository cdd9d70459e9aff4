// The client's end of a stdio transport (<elicit/server/stdio.hpp>, <elicit/server/asio/stdio.hpp>)
// for unit/server/test_stdio.cpp and unit/server/asio/test_stdio.cpp: either transport on a thread,
// two pipes between it and a scripted client, every read bounded in time.
#pragma once

#include "server_fixture.hpp"

#include <elicit/server/asio/stdio.hpp>
#include <elicit/server/stdio.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <catch2/catch.hpp>
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <exception>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace stdio_client {

using namespace server_fixture;

enum class transport { blocking, asio };

// Both transports, for the cases that hold for both.
inline transport each_transport() { return GENERATE(transport::blocking, transport::asio); }

// Serves one client on the calling thread, until the input ends.
inline void serve(transport t, const elicit::dispatcher& d, const elicit::stdio_options& options) {
  if (t == transport::blocking) return elicit::serve_stdio(d, options);
  boost::asio::io_context io;
  boost::asio::co_spawn(io, elicit::async_serve_stdio(d, options), [](const std::exception_ptr& e) {
    if (e) std::rethrow_exception(e);
  });
  io.run();
}

// A transport on a thread, and the client's end of its two pipes.
class client {
 public:
  explicit client(const elicit::dispatcher& d, elicit::stdio_options options = {}, transport t = transport::blocking) {
    REQUIRE(::pipe(to_server_) == 0);
    REQUIRE(::pipe(from_server_) == 0);
    options.input = to_server_[0];
    options.output = from_server_[1];
    options.log = [this](std::string_view line) {
      const std::lock_guard lock(mutex_);
      logged_.emplace_back(line);
    };
    thread_ = std::thread([&d, options, t] { serve(t, d, options); });
  }
  ~client() {
    close_input();
    if (thread_.joinable()) thread_.join();
    ::close(to_server_[0]);
    ::close(from_server_[0]);
    ::close(from_server_[1]);
  }

  void send_text(const std::string& text) { send_bytes(text + "\n"); }
  void send_bytes(const std::string& bytes) {
    REQUIRE(::write(to_server_[1], bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
  }
  void send(const json& message) { send_text(message.dump()); }

  // The next message the server writes, within two seconds.
  json next() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    for (;;) {
      if (const auto nl = buffer_.find('\n'); nl != std::string::npos) {
        const json message = json::parse(buffer_.substr(0, nl));
        buffer_.erase(0, nl + 1);
        return message;
      }
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      pollfd fd{.fd = from_server_[0], .events = POLLIN, .revents = 0};
      REQUIRE(left.count() > 0);
      REQUIRE(::poll(&fd, 1, static_cast<int>(left.count())) == 1);
      char chunk[4096];
      const ssize_t got = ::read(from_server_[0], chunk, sizeof chunk);
      REQUIRE(got > 0);
      buffer_.append(chunk, static_cast<std::size_t>(got));
    }
  }

  void close_input() {
    if (to_server_[1] >= 0) ::close(to_server_[1]);
    to_server_[1] = -1;
  }
  // Waits for serve_stdio to return (it must, once the input ended).
  void join() {
    close_input();
    thread_.join();
  }

  std::vector<std::string> logged() {
    const std::lock_guard lock(mutex_);
    return logged_;
  }

 private:
  int to_server_[2]{-1, -1}, from_server_[2]{-1, -1};
  std::string buffer_;
  std::thread thread_;
  std::mutex mutex_;
  std::vector<std::string> logged_;
};

inline json answer_to(const json& question, json content) {
  return {
      {"jsonrpc", "2.0"}, {"id", question["id"]}, {"result", {{"action", "accept"}, {"content", std::move(content)}}}};
}

inline void open_session(client& c) {
  c.send(request(0, "initialize", initialize_params()));
  CHECK(c.next()["result"]["protocolVersion"] == "2025-11-25");
  c.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
}

}  // namespace stdio_client
