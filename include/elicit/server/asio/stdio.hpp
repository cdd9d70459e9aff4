// The MCP stdio transport on a Boost.Asio executor: newline-delimited JSON-RPC on stdin and
// stdout for one client, served by a dispatcher (<elicit/server/dispatcher.hpp>) at both
// protocol versions, each call in a coroutine of its own. CMake target elicit::server_asio
// (elicit::server and elicit::asio).
//
//   int main() {
//     elicit::key_ring ring;
//     ring.add("k1", elicit::state_key::generate());
//     elicit::dispatcher server({"my-server", "1.0.0"}, ring);
//     server.tools().add({"book", "Book a table."}, [](const elicit::tool_call& c) { return book(c); });
//     boost::asio::io_context io;
//     boost::asio::co_spawn(io, elicit::async_serve_stdio(server), boost::asio::detached);
//     io.run();  // until the client closes stdin and every call has ended
//   }
//
// What it does, as serve_stdio (<elicit/server/stdio.hpp>) does, with the same stdio_options,
// but without blocking: while a 2025-11-25 question waits, every other message is read and
// answered, and every tools/call of a tool that asks runs at once beside the others (at most
// stdio_options::max_waiting at a time), each a coroutine co_spawned with a cancellation slot
// of its own. A question's answer is matched by the id the server gave it; the question's
// coroutine waits on a timer that the answer cancels. notifications/cancelled for a call emits
// its cancellation: the question waiting ends with outcome::stopped, the tool runs to its end,
// and no response is sent, as the spec says. Where the call gave a progressToken,
// notifications/progress goes out every progress_interval while it waits (async_keepalive);
// answer_timeout bounds each wait (outcome::timed_out). One writer: every message is queued and
// written in order; a client that does not read what it is sent is read no further once
// the queue holds more than four times limits.max_bytes. When stdin ends, every waiting call is
// cancelled; the coroutine completes once they have ended and the queue is written.
//
// The executor must run the transport's coroutines one at a time: an io_context run by one
// thread, or a strand.
#pragma once

#include <elicit/asio/ask.hpp>
#include <elicit/server/dispatcher.hpp>
#include <elicit/server/stdio.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/system/system_error.hpp>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace elicit {

namespace detail {

// One end of the connection: a descriptor Asio waits on, or, where epoll refuses it (a regular
// file: stdin redirected from one), read and written directly (that never blocks).
class stdio_end {
 public:
  stdio_end(const boost::asio::any_io_executor& executor, int fd) : stream_(executor), fd_(::dup(fd)) {
    if (fd_ < 0) throw boost::system::system_error(errno, boost::system::system_category(), "elicit: dup");
    boost::system::error_code ec;
    stream_.assign(fd_, ec);
    if (ec) direct_ = true;
  }
  stdio_end(const stdio_end&) = delete;
  stdio_end& operator=(const stdio_end&) = delete;
  ~stdio_end() {
    if (direct_) ::close(fd_);  // else the stream closes it
  }

  // Some bytes into `to`: how many, 0 at the end of the input or on an error.
  boost::asio::awaitable<std::size_t> read_some(std::vector<char>& to) {
    if (direct_) co_return retry([&] { return ::read(fd_, to.data(), to.size()); });
    auto [ec, got] = co_await stream_.async_read_some(boost::asio::buffer(to), as_tuple);
    co_return ec ? 0 : got;
  }

  // Writes all of `text`: false when the reader went away.
  boost::asio::awaitable<bool> write(std::string_view text) {
    if (!direct_) {
      auto [ec, put] = co_await boost::asio::async_write(stream_, boost::asio::buffer(text), as_tuple);
      co_return !ec;
    }
    while (!text.empty()) {
      const auto put = retry([&] { return ::write(fd_, text.data(), text.size()); });
      if (put == 0) co_return false;
      text.remove_prefix(put);
    }
    co_return true;
  }

 private:
  static constexpr auto as_tuple = boost::asio::as_tuple(boost::asio::use_awaitable);

  template <class F>
  static std::size_t retry(F f) {
    ssize_t n = 0;
    do n = f();
    while (n < 0 && errno == EINTR);
    return n > 0 ? static_cast<std::size_t>(n) : 0;
  }

  boost::asio::posix::stream_descriptor stream_;
  int fd_;
  bool direct_ = false;
};

// One client on two file descriptors, served by a dispatcher from coroutines. Shared: every
// coroutine it starts and every completion handler holds it, so that it outlives them however
// the serving coroutine ends (cancelled, or by an exception).
class async_stdio_connection : public std::enable_shared_from_this<async_stdio_connection> {
 public:
  async_stdio_connection(const dispatcher& server, stdio_options options, const boost::asio::any_io_executor& executor)
      : server_(server),
        options_(std::move(options)),
        executor_(executor),
        input_(executor, options_.input),
        output_(executor, options_.output),
        lines_(options_.limits.max_bytes),
        changed_(executor) {
    if (!options_.log) options_.log = log_to_stderr;
  }

  // Serves until the input ends, then stops every call and waits for them and the writer. Cut
  // short (a cancellation of the serving coroutine, an exception), it stops every call as it
  // goes: they end on their own, holding the connection.
  boost::asio::awaitable<void> run() {
    try {
      co_await serve_input();
    } catch (...) {
      stop_all();
      throw;
    }
    stop_all();
    while (!calls_.empty() || writing_) co_await changes();
  }

 private:
  boost::asio::awaitable<void> serve_input() {
    std::vector<char> buffer(std::size_t{64} * 1024);
    std::size_t at = 0, size = 0;
    while (!gone_) {
      if (queued_bytes_ > 4 * options_.limits.max_bytes) {  // the client reads what it was sent first
        co_await changes();
        continue;
      }
      if (at == size) {
        size = co_await input_.read_some(buffer);
        at = 0;
        if (size == 0) {
          if (lines_.end_of_input()) take_line();  // a last line without its newline
          break;
        }
      }
      at += lines_.feed({buffer.data() + at, size - at});
      if (lines_.complete()) take_line();
    }
  }

  void stop_all() {
    gone_ = true;
    std::vector<std::string> running;
    for (const auto& [id, call] : calls_) running.push_back(id);
    for (const auto& id : running) stop(id);
  }

  // A question sent and not answered yet: its answer, once it came, and the timer its
  // coroutine waits on, cancelled when it comes.
  struct question {
    explicit question(const boost::asio::any_io_executor& executor) : arrived(executor) {}
    boost::asio::steady_timer arrived;
    std::optional<nlohmann::json> reply;
  };

  void take_line() {
    auto message = read_message(lines_, options_.limits);
    if (auto* refused = std::get_if<nlohmann::ordered_json>(&message)) write(*refused);
    if (auto* m = std::get_if<nlohmann::json>(&message)) serve(std::move(*m));
  }

  void serve(nlohmann::json message) {
    dispatched d = server_.handle(message, session_, options_.principal);
    switch (d.what) {
      case dispatched::kind::nothing: return;
      case dispatched::kind::response: return write(d.response);
      case dispatched::kind::answer: return deliver(d.id, std::move(message));
      case dispatched::kind::cancel: return cancel(d.id);
      case dispatched::kind::push: return start(std::move(*d.call));
      case dispatched::kind::listen: return start_listening(std::move(*d.listen));
    }
  }

  void deliver(const nlohmann::json& id, nlohmann::json reply) {
    if (id.is_number_integer()) {
      if (const auto it = asked_.find(id.get<std::int64_t>()); it != asked_.end()) {
        it->second->reply = std::move(reply);
        it->second->arrived.cancel();
        asked_.erase(it);
        return;
      }
    }
    options_.log(ignored_response(id));
  }

  void cancel(const nlohmann::json& id) { stop(id.dump()); }

  // Ends the wait of the call with the id `key`: its question is no longer asked (an answer
  // that comes now is not its, even when read before the call resumes), and its cancellation
  // is emitted.
  void stop(const std::string& key) {
    const auto it = calls_.find(key);
    if (it == calls_.end()) return;
    asked_.erase(it->second.asking);
    const auto signal = it->second.signal;  // emitting may end the call, and erase it from calls_
    signal->emit(boost::asio::cancellation_type::terminal);
  }

  // Runs the call in a coroutine of its own, its cancellation slot bound to a signal that the
  // completion handler keeps alive until the coroutine has ended (a signal freed while bound is
  // a use after free).
  void start(pushed_call call) {
    const nlohmann::json id = call.id();
    if (!may_start(id)) return;
    std::string key = id.dump();
    auto running = drive(shared_from_this(), std::move(call), key);
    spawn(std::move(running), std::move(key));
  }

  // A subscription, run as a call is: in a coroutine of its own, counted with the calls, stopped
  // by notifications/cancelled (without a response) and when the input ends.
  void start_listening(subscription s) {
    if (!may_start(s.id)) return;
    std::string key = s.id.dump();
    auto running = listening(shared_from_this(), std::move(s));
    spawn(std::move(running), std::move(key));
  }

  // Whether a request of `id` may run now: one more than max_waiting, or an id in use, is refused.
  bool may_start(const nlohmann::json& id) {
    if (calls_.size() >= options_.max_waiting) {
      write(busy_response(id, calls_.size()));
      return false;
    }
    if (calls_.count(id.dump()) == 0) return true;
    write(rpc_error(-32600, message("Invalid Request: request ", shown(id.dump()),
                                    " is still running; a request's id is new while it runs"))
              .response(id));
    return false;
  }

  void spawn(boost::asio::awaitable<void> running, std::string key) {
    auto signal = std::make_shared<boost::asio::cancellation_signal>();
    calls_.emplace(key, running_call{signal, 0});
    boost::asio::co_spawn(
        executor_, std::move(running),
        boost::asio::bind_cancellation_slot(signal->slot(), [self = shared_from_this(), signal,
                                                             key = std::move(key)](const std::exception_ptr& failure) {
          self->calls_.erase(key);
          self->changed_.cancel();
          if (failure) self->log_failure(failure);
        }));
  }

  // `self` keeps the connection for as long as the subscription is open: its acknowledgement,
  // then what changes() says every notify_interval, and its closing response once it ended.
  boost::asio::awaitable<void> listening(std::shared_ptr<async_stdio_connection> /*self*/, subscription s) {
    write(s.acknowledged());
    boost::asio::steady_timer tick(executor_);
    for (;;) {
      for (const nlohmann::ordered_json& n : server_.changes(s)) write(n);
      if (s.ended()) break;
      tick.expires_after(server_.notify_interval());
      co_await tick.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
      if ((co_await boost::asio::this_coro::cancellation_state).cancelled() != boost::asio::cancellation_type::none)
        co_return;  // cancelled, or the input ended: no response
    }
    write(server_.closing(s));
  }

  // `self` keeps the connection for as long as the call runs.
  boost::asio::awaitable<void> drive(std::shared_ptr<async_stdio_connection> /*self*/, pushed_call call,
                                     std::string key) {
    std::shared_ptr<async_keepalive> keep;
    if (call.progress_token() && options_.progress_interval.count() > 0) {
      keep = std::make_shared<async_keepalive>(
          async_keepalive{keepalive(*call.progress_token()), options_.progress_interval,
                          [this](nlohmann::ordered_json params) -> boost::asio::awaitable<void> {
                            write(progress_notification(std::move(params)));
                            co_return;
                          }});
    }
    auto send = [this, key](nlohmann::ordered_json params) { return ask(key, std::move(params)); };
    while (!call.done()) {
      nlohmann::ordered_json params;
      try {
        params = call.params();
      } catch (const std::logic_error&) {
        break;  // the call failed: its response says how
      }
      auto reply = co_await await_reply(send, std::move(params), options_.answer_timeout, keep.get());
      if (const auto* why = std::get_if<stop_reason>(&reply)) {
        withdraw(key, *why);
        call.stop(*why);
      } else {
        call.take(std::get<nlohmann::json>(reply));
      }
    }
    if (call.cancelled()) {
      options_.log(ended_unanswered(call.id(), gone_));
      co_return;
    }
    write(call.response());
  }

  // The call `key` stopped waiting for its question: the client is told, unless it is gone.
  void withdraw(const std::string& key, stop_reason why) {
    const auto it = calls_.find(key);
    if (it == calls_.end() || it->second.asking == 0) return;
    asked_.erase(it->second.asking);
    if (!gone_) write(question_withdrawn(it->second.asking, why));
    it->second.asking = 0;
  }

  void log_failure(const std::exception_ptr& failure) {
    try {
      std::rethrow_exception(failure);
    } catch (const std::exception& e) {
      options_.log(message("a call ended with an error: ", e.what()));
    } catch (...) {
      options_.log("a call ended with an error");
    }
  }

  // Sends one elicitation/create and waits for its answer: the client's whole response. A
  // cancelled wait throws operation_aborted, as Asio's own operations do.
  boost::asio::awaitable<nlohmann::json> ask(std::string call, nlohmann::ordered_json params) {
    const std::int64_t id = next_id_++;
    if (const auto it = calls_.find(call); it != calls_.end()) it->second.asking = id;
    auto q = std::make_shared<question>(executor_);
    q->arrived.expires_at(std::chrono::steady_clock::time_point::max());
    asked_.emplace(id, q);
    struct forget {  // however the wait ends, the question is no longer asked
      async_stdio_connection& self;
      std::int64_t id;
      ~forget() { self.asked_.erase(id); }
    } on_exit{*this, id};
    write(elicitation_request_of(id, std::move(params)));
    co_await q->arrived.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));  // the answer, or a cancellation
    const auto state = co_await boost::asio::this_coro::cancellation_state;
    if (!q->reply || state.cancelled() != boost::asio::cancellation_type::none)
      throw boost::system::system_error(boost::asio::error::operation_aborted);  // drive() says why
    co_return std::move(*q->reply);
  }

  // Queues `message`; the one writer writes the queue in order.
  void write(const nlohmann::ordered_json& message) {
    if (gone_ && failed_write_) return;
    std::string text = line_of(message);
    queued_bytes_ += text.size();
    queue_.push_back(std::move(text));
    if (writing_) return;
    writing_ = true;
    boost::asio::co_spawn(executor_, drain(shared_from_this()), boost::asio::detached);
  }

  // `self` keeps the connection until the queue is written.
  boost::asio::awaitable<void> drain(std::shared_ptr<async_stdio_connection> /*self*/) {
    while (!queue_.empty()) {
      const bool written = !failed_write_ && co_await output_.write(queue_.front());
      if (!written) failed_write_ = gone_ = true;  // the client closed its end: it is gone
      queued_bytes_ -= queue_.front().size();
      queue_.pop_front();
    }
    writing_ = false;
    changed_.cancel();
  }

  // Waits until a call ends or the queue is written.
  boost::asio::awaitable<void> changes() {
    changed_.expires_at(std::chrono::steady_clock::time_point::max());
    co_await changed_.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
  }

  const dispatcher& server_;
  stdio_options options_;
  boost::asio::any_io_executor executor_;
  stdio_end input_, output_;
  line_splitter lines_;
  client_session session_;
  // A call running: its cancellation, and the id of the question it waits for (0: none).
  struct running_call {
    std::shared_ptr<boost::asio::cancellation_signal> signal;
    std::int64_t asking = 0;
  };
  std::map<std::string, running_call> calls_;  // by the request id's text
  std::map<std::int64_t, std::shared_ptr<question>> asked_;
  std::int64_t next_id_ = 1;
  std::deque<std::string> queue_;
  std::size_t queued_bytes_ = 0;
  bool writing_ = false, gone_ = false, failed_write_ = false;
  boost::asio::steady_timer changed_;
};

}  // namespace detail

// Serves `server` to one client on options.input and options.output, on the executor of the
// awaiting coroutine, until the input ends and every call in progress has ended. Throws
// boost::system::system_error when a descriptor cannot be duplicated, and std::bad_alloc; a
// message that is not JSON-RPC is answered with its error, never thrown.
inline boost::asio::awaitable<void> async_serve_stdio(const dispatcher& server, stdio_options options = {}) {
  if (options.ignore_sigpipe) detail::ignore_sigpipe();
  const auto connection = std::make_shared<detail::async_stdio_connection>(server, std::move(options),
                                                                           co_await boost::asio::this_coro::executor);
  co_await connection->run();
}

}  // namespace elicit
