// The MCP stdio transport, blocking: newline-delimited JSON-RPC on stdin and stdout for one
// client, served by a dispatcher (<elicit/server/dispatcher.hpp>) at both protocol versions.
// CMake target elicit::server.
//
//   int main() {
//     elicit::key_ring ring;
//     ring.add("k1", elicit::state_key::generate());  // states live as long as the process
//     elicit::dispatcher server({"my-server", "1.0.0"}, ring);
//     server.tools().add({"book", "Book a table."}, [](const elicit::tool_call& c) { return book(c); });
//     elicit::serve_stdio(server);  // until the client closes stdin
//   }
//
// While a 2025-11-25 question waits for its answer, the transport goes on reading: a ping and
// any other request is answered meanwhile (a tools/call that asks too is served inside the
// wait, its questions answered before the outer one's go on), an answer to a question asked
// earlier is kept for it, notifications/cancelled for a call stops its questions (the tool runs
// to its end with outcome::stopped, and no response is sent, as the spec says), and where the
// call gave a progressToken a notifications/progress goes out every progress_interval. A
// question waits at most answer_timeout (then outcome::timed_out). When stdin ends, every
// waiting call stops and serve_stdio returns.
#pragma once

#include <elicit/form/limits.hpp>
#include <elicit/protocol/progress.hpp>
#include <elicit/protocol/protocol.hpp>
#include <elicit/server/detail/notifications.hpp>
#include <elicit/server/dispatcher.hpp>

#include <nlohmann/json.hpp>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace elicit {

struct stdio_options {
  // What one line from the client may be: a longer or deeper one is answered with a parse
  // error (-32700), and no value of it is built; a longer line is never held whole.
  json_limits limits{.max_bytes = std::size_t{1024} * 1024, .max_depth = 64};
  // How often a waiting call that gave a progressToken sends notifications/progress; zero: never.
  std::chrono::milliseconds progress_interval = keepalive_interval;
  // How long one question waits for its answer; zero: as long as it takes.
  std::chrono::milliseconds answer_timeout{0};
  // The most calls waiting for answers at once (each one served inside the wait of the one
  // before): one more is refused with -32603, so that no client can make the server recurse
  // without end.
  std::size_t max_waiting = 8;
  // Who calls, for the states sealed: whoever started the process.
  std::string principal = "stdio";
  int input = 0;   // the file descriptor read: stdin
  int output = 1;  // the file descriptor written: stdout
  // Where the transport writes what the client is not told (late answers, cancelled calls).
  // Null: stderr.
  std::function<void(std::string_view)> log;
  // Whether serving sets SIGPIPE to be ignored when it has its default action (ending the
  // process), so that a client that closes its end is a client gone, whose calls stop, and not
  // the end of the server. A program that handles SIGPIPE itself keeps its handler.
  bool ignore_sigpipe = true;
};

namespace detail {

// SIGPIPE ignored where it would end the process (stdio_options::ignore_sigpipe).
inline void ignore_sigpipe() noexcept {
  struct sigaction current {};
  if (::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
    struct sigaction ignored {};
    ignored.sa_handler = SIG_IGN;
    sigemptyset(&ignored.sa_mask);
    ::sigaction(SIGPIPE, &ignored, nullptr);
  }
}

// The lines of a byte stream, split as the bytes arrive (both stdio transports read with it):
// of each line its first max_bytes + 1 bytes are kept, so that a longer one is known to be too
// long and is never held whole, and its whole length is counted.
class line_splitter {
 public:
  explicit line_splitter(std::size_t max_bytes) : max_(max_bytes) {}

  // Takes bytes up to and including the first newline: how many it took. complete() says
  // whether a line ended; the next feed starts the next line.
  std::size_t feed(std::string_view bytes) {
    if (complete_) restart();
    const std::size_t newline = bytes.find('\n');
    const std::size_t taken = newline == std::string_view::npos ? bytes.size() : newline;
    const std::size_t room = max_ + 1 - std::min(text_.size(), max_ + 1);
    text_.append(bytes.data(), std::min(taken, room));
    length_ += taken;
    started_ = true;
    if (newline == std::string_view::npos) return bytes.size();
    complete_ = true;
    return taken + 1;
  }
  // The input ended: a last line without its newline is complete; whether there was one.
  bool end_of_input() {
    if (complete_) restart();
    complete_ = started_;
    return complete_;
  }

  [[nodiscard]] bool complete() const noexcept { return complete_; }
  // The line's first max_bytes + 1 bytes, and its whole length.
  [[nodiscard]] std::string_view text() const noexcept { return text_; }
  [[nodiscard]] std::size_t length() const noexcept { return length_; }

 private:
  void restart() {
    text_.clear();
    length_ = 0;
    started_ = complete_ = false;
  }

  std::size_t max_;
  std::string text_;
  std::size_t length_ = 0;
  bool started_ = false, complete_ = false;
};

// What a complete line is: nothing (an empty line), a message, or the -32700 error response it
// gets (too long, or not JSON within the limits).
inline std::variant<std::monostate, nlohmann::json, nlohmann::ordered_json> read_message(const line_splitter& line,
                                                                                         const json_limits& limits) {
  if (line.length() == 0) return std::monostate{};
  if (line.length() > limits.max_bytes)  // only its first bytes were kept
    return rpc_error(-32700, message("Parse error: the JSON is ", line.length(), " bytes long, more than the ",
                                     limits.max_bytes, " this server reads"))
        .response(nullptr);
  parsed_json parsed = parse_json(line.text(), limits);
  if (!parsed) return rpc_error(-32700, parsed.error()->message).response(nullptr);
  return std::move(parsed).value();
}

// One message as a line of the stream: compact JSON (text that is not UTF-8 replaced, never
// thrown on), then a newline.
inline std::string line_of(const nlohmann::ordered_json& message) {
  std::string text = message.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  text += '\n';
  return text;
}

// What the log says of an answer nobody waits for, and of a call that ended without a response.
inline std::string ignored_response(const nlohmann::json& id) {
  return message("ignored a response to request ", shown(id.dump()), ": not waiting for it");
}
inline std::string ended_unanswered(const nlohmann::json& id, bool client_gone) {
  return message("request ", shown(id.dump()),
                 " ended unanswered: ", client_gone ? "the client went away" : "the client cancelled it");
}

// The refusal of a call that would wait beside `waiting` others, at stdio_options::max_waiting.
inline nlohmann::ordered_json busy_response(const nlohmann::json& id, std::size_t waiting) {
  return rpc_error(-32603,
                   message("Server busy: ", waiting, " calls wait for answers already; answer their questions first"))
      .response(id);
}

// One client on two file descriptors, served by a dispatcher.
class stdio_connection {
 public:
  stdio_connection(const dispatcher& server, stdio_options options) : server_(server), options_(std::move(options)) {
    if (!options_.log) options_.log = log_to_stderr;
  }

  void run() {
    while (auto message = receive()) serve(std::move(*message));
  }

 private:
  using clock = std::chrono::steady_clock;

  // A call waiting for the answer to one of its questions.
  struct waiting_call {
    nlohmann::json id;
    std::optional<keepalive> progress;
    bool cancelled = false;
  };

  void serve(nlohmann::json message) {
    dispatched d = server_.handle(message, session_, options_.principal);
    switch (d.what) {
      case dispatched::kind::nothing: return;
      case dispatched::kind::response: return send(d.response);
      case dispatched::kind::answer: return deliver(d.id, std::move(message));
      case dispatched::kind::cancel: return cancel(d.id);
      case dispatched::kind::push: return drive(std::move(*d.call));
      case dispatched::kind::listen: return listen(std::move(*d.listen));
    }
  }

  // A subscription: acknowledged, then its tasks as they are now, then a tick every
  // notify_interval while the transport waits for input. Counted with the waiting calls.
  void listen(subscription s) {
    if (calls_.size() + listens_.size() >= options_.max_waiting)
      return send(busy_response(s.id, calls_.size() + listens_.size()));
    send(s.acknowledged());
    listens_.push_back(std::move(s));
    tick();
  }

  // What every subscription sends now; the next tick an interval from now.
  void tick() {
    next_tick_ = clock::now() + server_.notify_interval();
    for (auto s = listens_.begin(); s != listens_.end();) {
      for (const nlohmann::ordered_json& n : server_.changes(*s)) send(n);
      if (!s->ended()) {
        ++s;
        continue;
      }
      send(server_.closing(*s));
      s = listens_.erase(s);
    }
  }

  void deliver(const nlohmann::json& id, nlohmann::json reply) {
    if (id.is_number_integer()) {
      const auto n = id.get<std::int64_t>();
      if (asked_.erase(n) != 0) {
        arrived_.insert_or_assign(n, std::move(reply));
        return;
      }
    }
    options_.log(ignored_response(id));
  }

  void cancel(const nlohmann::json& id) {
    for (waiting_call* c : calls_)
      if (c->id == id) c->cancelled = true;
    // A subscription cancelled ends without a response, as a request cancelled does.
    std::erase_if(listens_, [&](const subscription& s) { return s.id == id; });
  }

  void drive(pushed_call call) {
    if (calls_.size() >= options_.max_waiting) {
      send(busy_response(call.id(), calls_.size()));
      return;
    }
    waiting_call self{call.id(), std::nullopt, false};
    if (call.progress_token() && options_.progress_interval.count() > 0) self.progress.emplace(*call.progress_token());
    calls_.push_back(&self);
    while (!call.done()) {
      if (self.cancelled || gone_) {
        call.stop(stop_reason::cancelled);
        continue;
      }
      nlohmann::ordered_json params;
      try {
        params = call.params();
      } catch (const std::logic_error&) {
        break;  // the call failed: its response says how
      }
      const std::int64_t question = next_id_++;
      asked_.insert(question);
      send(elicitation_request_of(question, std::move(params)));
      auto reply = wait_for(question, self);
      if (auto* why = std::get_if<stop_reason>(&reply)) call.stop(*why);
      else call.take(std::get<nlohmann::json>(reply));
    }
    calls_.pop_back();
    if (call.cancelled()) {
      options_.log(ended_unanswered(call.id(), gone_));
      return;
    }
    send(call.response());
  }

  // The client's response to `question`, or why the call stops waiting for it. Serves every
  // other message meanwhile.
  std::variant<nlohmann::json, stop_reason> wait_for(std::int64_t question, waiting_call& self) {
    const auto start = clock::now();
    std::optional<clock::time_point> deadline;
    if (options_.answer_timeout.count() > 0) deadline = start + options_.answer_timeout;
    auto next_progress = start + options_.progress_interval;
    for (;;) {
      if (auto it = arrived_.find(question); it != arrived_.end()) {
        nlohmann::json reply = std::move(it->second);
        arrived_.erase(it);
        return reply;
      }
      if (self.cancelled || gone_) return withdraw(question, stop_reason::cancelled);
      if (deadline && clock::now() >= *deadline) return withdraw(question, stop_reason::timed_out);
      auto until = deadline.value_or(clock::time_point::max());
      if (any_progress()) until = std::min(until, next_progress);
      if (!listens_.empty()) until = std::min(until, next_tick_);
      if (!readable_until(until)) {
        if (any_progress() && clock::now() >= next_progress) {
          send_progress();
          // From now: after a call served inside this wait, no burst to catch up.
          next_progress = clock::now() + options_.progress_interval;
        }
        if (!listens_.empty() && clock::now() >= next_tick_) tick();
        continue;
      }
      if (auto message = receive_available()) serve(std::move(*message));
    }
  }

  // Stops waiting for `question`: the client is told, unless it is gone.
  stop_reason withdraw(std::int64_t question, stop_reason why) {
    asked_.erase(question);
    if (!gone_) send(question_withdrawn(question, why));
    return why;
  }

  [[nodiscard]] bool any_progress() const {
    return std::any_of(calls_.begin(), calls_.end(), [](const waiting_call* c) { return c->progress.has_value(); });
  }
  void send_progress() {
    for (waiting_call* c : calls_)
      if (c->progress) send(progress_notification(c->progress->next()));
  }

  // The next message, waiting as long as it takes; nothing once the input ended.
  std::optional<nlohmann::json> receive() {
    while (!gone_) {
      if (!listens_.empty() && !readable_until(next_tick_)) {
        tick();
        continue;
      }
      if (auto message = receive_available()) return message;
    }
    return std::nullopt;
  }

  // The message that the bytes at hand complete, reading once when none are at hand (after
  // poll, that does not block): nothing yet for a line not ended, an empty line, a refused one
  // (answered with its error) or the input's end. A line that never ends blocks no timer.
  std::optional<nlohmann::json> receive_available() {
    if (at_ == size_ && !fill()) {
      gone_ = true;
      if (!lines_.end_of_input()) return std::nullopt;  // else a last line without its newline
    } else {
      at_ += lines_.feed({buffer_.data() + at_, size_ - at_});
      if (!lines_.complete()) return std::nullopt;
    }
    auto message = read_message(lines_, options_.limits);
    if (auto* refused = std::get_if<nlohmann::ordered_json>(&message)) send(*refused);
    if (auto* m = std::get_if<nlohmann::json>(&message)) return std::move(*m);
    return std::nullopt;
  }

  bool fill() {
    ssize_t got = 0;
    do got = ::read(options_.input, buffer_.data(), buffer_.size());
    while (got < 0 && errno == EINTR);
    at_ = 0;
    size_ = got > 0 ? static_cast<std::size_t>(got) : 0;
    return size_ != 0;
  }

  // Whether a byte (or the end) can be read before `until`.
  bool readable_until(clock::time_point until) {
    if (at_ < size_) return true;
    int wait = -1;
    if (until != clock::time_point::max()) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - clock::now()).count();
      wait = static_cast<int>(std::clamp<long long>(left, 0, 24LL * 3600 * 1000));
    }
    pollfd fd{.fd = options_.input, .events = POLLIN, .revents = 0};
    int ready = 0;
    do ready = ::poll(&fd, 1, wait);
    while (ready < 0 && errno == EINTR);
    return ready != 0;  // readable, hung up, or an error: the read says which
  }

  void send(const nlohmann::ordered_json& message) {
    if (gone_ && failed_write_) return;
    const std::string text = line_of(message);
    std::string_view left = text;
    while (!left.empty()) {
      const ssize_t put = ::write(options_.output, left.data(), left.size());
      if (put < 0 && errno == EINTR) continue;
      if (put <= 0) {  // the client closed its end: it is gone
        failed_write_ = gone_ = true;
        return;
      }
      left.remove_prefix(static_cast<std::size_t>(put));
    }
  }

  const dispatcher& server_;
  stdio_options options_;
  client_session session_;
  std::vector<waiting_call*> calls_;                // the calls waiting, innermost last
  std::vector<subscription> listens_;               // the subscriptions open
  clock::time_point next_tick_{};                   // when they are read next
  std::set<std::int64_t> asked_;                    // the questions sent and not answered
  std::map<std::int64_t, nlohmann::json> arrived_;  // answers that came while another call waited
  std::int64_t next_id_ = 1;
  line_splitter lines_{options_.limits.max_bytes};
  std::vector<char> buffer_ = std::vector<char>(std::size_t{64} * 1024);
  std::size_t at_ = 0, size_ = 0;
  bool gone_ = false, failed_write_ = false;
};

}  // namespace detail

// Serves `server` to one client on options.input and options.output until the input ends (the
// client closed stdin) and every call in progress has ended. Throws only std::bad_alloc; a
// message that is not JSON-RPC is answered with its error, never thrown.
inline void serve_stdio(const dispatcher& server, stdio_options options = {}) {
  if (options.ignore_sigpipe) detail::ignore_sigpipe();
  detail::stdio_connection(server, std::move(options)).run();
}

}  // namespace elicit
