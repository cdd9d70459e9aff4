// The connections elicit's Redis stores share the code of: a small pool of hiredis connections,
// each command on a connection of its own (a call waiting on a slow or lost Redis never holds up
// another: each waits on its own socket, for its own timeouts; a mutex guards only the pool's
// list), a failed connection closed and the next call reconnecting, one retry on a new
// connection when Redis had closed a pooled one (a restart), SIGPIPE blocked while writing.
#pragma once

#include <elicit/detail/message.hpp>
#include <elicit/redis/options.hpp>

#include <hiredis/hiredis.h>
#include <pthread.h>
#include <signal.h>
#include <sys/time.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elicit::detail {

// Blocks SIGPIPE in this thread for its life, and takes back a SIGPIPE that a write raised
// meanwhile, so that writing to a socket the peer closed fails with EPIPE instead of ending the
// process (hiredis writes with write(2), without MSG_NOSIGNAL).
class sigpipe_blocked {
 public:
  sigpipe_blocked() noexcept {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    sigset_t pending;
    sigemptyset(&pending);
    was_pending_ = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
    blocked_ = pthread_sigmask(SIG_BLOCK, &pipe_, &old_) == 0;
  }
  ~sigpipe_blocked() {
    if (!blocked_) return;
    sigset_t pending;
    sigemptyset(&pending);
    if (!was_pending_ && sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1) {
      const timespec none{};
      while (sigtimedwait(&pipe_, nullptr, &none) < 0 && errno == EINTR) {
      }
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  sigpipe_blocked(const sigpipe_blocked&) = delete;
  sigpipe_blocked& operator=(const sigpipe_blocked&) = delete;

 private:
  sigset_t pipe_{}, old_{};
  bool was_pending_ = false, blocked_ = false;
};

inline timeval timeval_of(std::chrono::milliseconds t) noexcept {
  timeval tv{};
  tv.tv_sec = static_cast<decltype(tv.tv_sec)>(t.count() / 1000);
  tv.tv_usec = static_cast<decltype(tv.tv_usec)>(t.count() % 1000 * 1000);
  return tv;
}

// Redis' text, cut and with control characters shown as '?', for a log line.
inline std::string printable(std::string_view text, std::size_t most = 200) {
  std::string out(text.substr(0, most));
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  if (text.size() > most) out += "...";
  return out;
}

class redis_pool {
 public:
  // `who` names the store in every error ("elicit::redis_task_store"). Throws
  // std::invalid_argument for an empty or non-printable prefix (or over 128 bytes), an empty
  // host, a port outside 1-65535, or a timeout outside 1 ms to 1 hour.
  redis_pool(redis_options options, std::string who) : options_(std::move(options)), who_(std::move(who)) {
    const auto refuse = [this](std::string_view why) { return std::invalid_argument(message(who_, ": ", why)); };
    if (options_.prefix.empty() || options_.prefix.size() > 128 || !printable_ascii(options_.prefix))
      throw refuse(
          "the key prefix must be 1 to 128 printable ASCII characters, one per application (\"shipping:replay:\")");
    if (options_.host.empty()) throw refuse("no host");
    if (options_.port < 1 || options_.port > 65535) throw refuse("the port must be from 1 to 65535");
    for (const auto t : {options_.connect_timeout, options_.command_timeout})
      if (t < std::chrono::milliseconds(1) || t > std::chrono::hours(1))
        throw refuse("a timeout must be from 1 ms to 1 hour");
  }
  redis_pool(const redis_pool&) = delete;
  redis_pool& operator=(const redis_pool&) = delete;
  ~redis_pool() = default;

  [[nodiscard]] const redis_options& options() const noexcept { return options_; }

  // Runs one command (at most 12 arguments) on a pooled connection (or a new one), and returns
  // `check(reply)` of Redis' answer. Throws Error (its text saying why: cannot connect, timed
  // out, connection lost, Redis' own error), what `check` throws, std::bad_alloc.
  template <class Error, class Check>
  auto run(std::span<const std::string_view> args, Check&& check) {
    connection c;
    {
      const std::lock_guard lock(mutex_);
      if (!idle_.empty()) {
        c = std::move(idle_.back());
        idle_.pop_back();
      }
    }
    const bool pooled = c != nullptr;
    if (!c) c = connect<Error>();
    outcome said = command(*c, args);
    if (!said.answer && pooled && said.closed) {
      {
        const std::lock_guard lock(mutex_);
        idle_.clear();  // its other connections are as stale
      }
      c = connect<Error>();
      said = command(*c, args);
    }
    if (!said.answer) throw Error(message(where(), ": ", said.why));
    {
      const std::lock_guard lock(mutex_);
      if (idle_.size() < options_.max_idle) idle_.push_back(std::move(c));
    }
    const redisReply& answer = *said.answer;
    if (answer.type == REDIS_REPLY_ERROR)  // READONLY, OOM, NOAUTH, LOADING...: nothing can be told
      throw Error(message(where(), " answered an error: ", printable(answer.str)));
    return check(answer);
  }

  // "elicit::redis_task_store: Redis at HOST:PORT", for errors.
  [[nodiscard]] std::string where() const { return message(who_, ": Redis at ", options_.host, ":", options_.port); }

 private:
  struct free_context {
    void operator()(redisContext* c) const noexcept { redisFree(c); }
  };
  struct free_reply {
    void operator()(redisReply* r) const noexcept { freeReplyObject(r); }
  };
  using connection = std::unique_ptr<redisContext, free_context>;
  using reply = std::unique_ptr<redisReply, free_reply>;

  // What came of one command: a reply, or the connection failed (closed by Redis, or else).
  struct outcome {
    reply answer;
    bool closed = false;  // Redis had closed the connection: a new one may well work
    std::string why;      // when there is no answer
  };

  static timeval timeval_of(std::chrono::milliseconds t) noexcept {
    timeval tv{};
    tv.tv_sec = static_cast<decltype(tv.tv_sec)>(t.count() / 1000);
    tv.tv_usec = static_cast<decltype(tv.tv_usec)>(t.count() % 1000 * 1000);
    return tv;
  }

  template <class Error>
  [[nodiscard]] connection connect() const {
    const sigpipe_blocked quiet;
    connection c(redisConnectWithTimeout(options_.host.c_str(), options_.port, timeval_of(options_.connect_timeout)));
    if (!c) throw std::bad_alloc();
    if (c->err != 0) throw Error(message(where(), ": cannot connect: ", printable(c->errstr)));
    if (redisSetTimeout(c.get(), timeval_of(options_.command_timeout)) != REDIS_OK)
      throw Error(message(where(), ": cannot set the command timeout"));
    if (!options_.password.empty()) {
      const std::array<std::string_view, 2> auth{"AUTH", options_.password};
      outcome said = command(*c, auth);
      if (!said.answer) throw Error(message(where(), ": AUTH: ", said.why));
      if (said.answer->type == REDIS_REPLY_ERROR)  // Redis' text, not the password
        throw Error(message(where(), ": AUTH refused: ", printable(said.answer->str)));
    }
    return c;
  }

  outcome command(redisContext& c, std::span<const std::string_view> args) const {
    std::array<const char*, 12> argv{};
    std::array<std::size_t, 12> lengths{};
    for (std::size_t i = 0; i < args.size() && i < argv.size(); ++i) {
      argv[i] = args[i].data();
      lengths[i] = args[i].size();
    }
    outcome out;
    int error_number = 0;
    {
      const sigpipe_blocked quiet;
      errno = 0;
      out.answer.reset(static_cast<redisReply*>(
          redisCommandArgv(&c, static_cast<int>(std::min(args.size(), argv.size())), argv.data(), lengths.data())));
      error_number = errno;
    }
    if (out.answer) return out;
    if (c.err == 0) throw std::bad_alloc();  // hiredis returns no reply and no error only when out of memory
    const bool timed_out = c.err == REDIS_ERR_IO && (error_number == EAGAIN || error_number == EWOULDBLOCK);
    out.closed =
        c.err == REDIS_ERR_EOF || (c.err == REDIS_ERR_IO && (error_number == ECONNRESET || error_number == EPIPE));
    out.why = timed_out ? message("no answer within the command timeout (", options_.command_timeout.count(), " ms)")
                        : message("connection lost: ", printable(c.errstr));
    return out;
  }

  redis_options options_;
  std::string who_;
  std::mutex mutex_;
  std::vector<connection> idle_;
};

}  // namespace elicit::detail
