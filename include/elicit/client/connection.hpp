// How a host reaches an MCP server: a client_connection sends one JSON-RPC message and hands back
// every message the server sends in return; stdio_connection runs the server as a child process
// and speaks JSON-RPC lines on its stdin and stdout (POSIX). The Streamable HTTP one is
// http_connection.hpp; the envelope of both protocol versions on top of either is mcp_client.hpp.
#pragma once

#include <elicit/answer/json_limits.hpp>
#include <elicit/detail/model/limits.hpp>
#include <elicit/form/limits.hpp>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <csignal>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace elicit {

namespace detail {
// What a message from a server may be by default: larger than a client's answer (a tools/list of
// many tools with their input schemas), still bounded: 16 MiB, 64 levels, 2^20 values.
inline constexpr json_limits client_limits{
    .max_bytes = std::size_t{16} << 20, .max_depth = 64, .max_values = std::size_t{1} << 20};
}  // namespace detail

// A message a server sent, kept in its own key order (a form's fields come in order).
using client_message = nlohmann::ordered_json;
using on_client_message = std::function<void(const client_message&)>;

// Thrown when a server cannot be reached, ends, or sends what is not JSON-RPC within the limits.
class connection_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
// A message's text read within `limits` (elicit::parse_json: its size, depth and count of values),
// then as an ordered value. Throws connection_error saying why it was refused.
// An object of more members than this is refused before the ordered parse (widest_object).
inline constexpr std::size_t max_message_members = 4096;

inline client_message parse_client_message(std::string_view text, const json_limits& limits) {
  const parsed_json checked = parse_json(text, limits);
  if (!checked) throw connection_error("the server sent what elicit refuses: " + checked.error()->message);
  if (const std::size_t widest = widest_object(*checked); widest > max_message_members)
    throw connection_error("the server sent an object of " + std::to_string(widest) + " members (at most " +
                           std::to_string(max_message_members) + ")");
  return client_message::parse(text);
}
}  // namespace detail

class client_connection {
 public:
  client_connection() = default;
  client_connection(const client_connection&) = delete;
  client_connection& operator=(const client_connection&) = delete;
  virtual ~client_connection() = default;

  // Sends a request and calls `each` with every message the server sends until the response to
  // it (the response included; requests of the server's on the way too). Throws
  // connection_error when the server ends or breaks the protocol first.
  virtual void exchange(const client_message& request, const on_client_message& each) = 0;
  // Sends a notification or a response: nothing is awaited.
  virtual void send(const client_message& message) = 0;
  // The server's own stream of requests, where one has it (HTTP at 2025-11-25: the GET stream);
  // `each` is called from another thread, until stop_listening(). Nothing by default.
  virtual void listen(const on_client_message& /*each*/) {}
  // Ends that stream and waits until `each` is no longer called.
  virtual void stop_listening() {}
};

// A server run as a child process: `argv[0]` found on PATH, its stdin and stdout piped to this
// connection, its stderr left as it is. Ended when the connection is: its stdin closed, SIGTERM
// if it has not ended within a second, SIGKILL a second after that. Writing to a server that
// ended must not kill the host: SIGPIPE is set to be ignored for the process (as serve_stdio
// does), and the write fails with connection_error instead.
class stdio_connection : public client_connection {
 public:
  // Throws connection_error when the program cannot be started.
  explicit stdio_connection(const std::vector<std::string>& argv, json_limits limits = detail::client_limits)
      : limits_(limits) {
    if (argv.empty()) throw connection_error("stdio_connection: no program to run");
    // Everything the child needs is made before fork(): between fork and exec a threaded
    // program may not allocate (another thread may have held the allocator's lock).
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // Close-on-exec: a later child of the host does not inherit these ends (a server would
    // then never see its stdin end).
    int to_child[2] = {-1, -1}, from_child[2] = {-1, -1};
    if (::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0) {
      close_all({to_child[0], to_child[1], from_child[0], from_child[1]});
      throw connection_error("stdio_connection: pipe failed");
    }
    ::signal(SIGPIPE, SIG_IGN);
    child_ = ::fork();
    if (child_ < 0) {
      close_all({to_child[0], to_child[1], from_child[0], from_child[1]});
      throw connection_error("stdio_connection: fork failed");
    }
    if (child_ == 0) {  // dup2 clears close-on-exec on the copies: stdin and stdout stay open
      ::dup2(to_child[0], 0);
      ::dup2(from_child[1], 1);
      ::execvp(args[0], args.data());
      ::_exit(127);
    }
    close_all({to_child[0], from_child[1]});
    in_ = to_child[1];
    out_ = from_child[0];
  }
  ~stdio_connection() override {
    ::close(in_);
    if (!ended_within(100)) {
      ::kill(child_, SIGTERM);
      if (!ended_within(100)) {
        ::kill(child_, SIGKILL);
        ::waitpid(child_, nullptr, 0);
      }
    }
    ::close(out_);
  }

  void exchange(const client_message& request, const on_client_message& each) override {
    send(request);
    for (;;) {
      const client_message m = detail::parse_client_message(read_line(), limits_);
      each(m);
      if (!m.contains("method") && m.contains("id") && m["id"] == request["id"]) return;
    }
  }
  void send(const client_message& message) override {
    const std::string line = message.dump() + "\n";
    for (std::size_t at = 0; at < line.size();) {
      const ssize_t n = ::write(in_, line.data() + at, line.size() - at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw connection_error("the server's stdin is closed: it has ended");
      at += static_cast<std::size_t>(n);
    }
  }

 private:
  // The next line the server writes, at most limits_.max_bytes long.
  std::string read_line() {
    for (;;) {
      if (const std::size_t end = buffer_.find('\n'); end != std::string::npos) {
        std::string line = buffer_.substr(0, end);
        buffer_.erase(0, end + 1);
        if (line.empty()) continue;
        return line;
      }
      if (buffer_.size() > limits_.max_bytes) throw connection_error("the server wrote a line longer than the limit");
      char chunk[65536];
      const ssize_t n = ::read(out_, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw connection_error("the server ended");
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  static void close_all(std::initializer_list<int> fds) noexcept {
    for (const int fd : fds)
      if (fd >= 0) ::close(fd);
  }
  // True once the child has ended (and is reaped), waiting up to `ticks` of 10 ms.
  [[nodiscard]] bool ended_within(int ticks) const noexcept {
    for (int i = 0; i < ticks; ++i) {
      if (::waitpid(child_, nullptr, WNOHANG) != 0) return true;  // reaped, or not ours to wait for
      ::usleep(10'000);
    }
    return false;
  }

  json_limits limits_;
  pid_t child_ = -1;
  int in_ = -1, out_ = -1;
  std::string buffer_;
};

}  // namespace elicit
