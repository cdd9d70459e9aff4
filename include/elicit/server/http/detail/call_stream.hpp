// A 2025-11-25 call of a tool that asks, answered on an SSE stream: the stream's head, each
// question an elicitation/create event, progress events while it waits, and the response as the
// last event. Driven by completions, not a coroutine: while a question waits for its answer
// (another POST of the session, which wakes the stream), what is held is this object (the
// socket, the call with the tool's own frame, their ids), one wait for the socket to be readable
// and, with an answer timeout or progress, one timer entry: no frame per layer, no copy of the
// request (docs/internals/performance.md). The client leaving the stream (its end of file, seen
// at once) cancels the call. Machinery of <elicit/server/http/server.hpp>.
#pragma once

#include <elicit/detail/steady_after.hpp>
#include <elicit/server/detail/notifications.hpp>
#include <elicit/server/http/detail/long_lived.hpp>
#include <elicit/server/http/detail/session_table.hpp>
#include <elicit/server/http/detail/shared_state.hpp>
#include <elicit/server/http/detail/sse_stream.hpp>
#include <elicit/server/pushed_call.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace elicit::detail::http {

// One 2025-11-25 call on its stream, from its first question to its response. `Next` takes the
// connection back when the stream ends and the connection can go on (its next request, read or
// waited for): `Next{}(state, open_connection)`.
template <class Next>
class call_stream final : public call_waiter, public std::enable_shared_from_this<call_stream<Next>> {
 public:
  // Streams `call` on `c`, registered as `flight` (session_table::begin_call, on the socket's
  // executor, where this runs). Returns at once: the stream goes on by its completions.
  static void start(shared_state& state, open_connection c, std::shared_ptr<call_in_flight> flight, pushed_call call,
                    unsigned version, bool persistent) {
    auto stream =
        std::make_shared<call_stream>(state, std::move(c), std::move(flight), std::move(call), version, persistent);
    stream->flight_->waiter = stream;
    stream->begin();
  }

  call_stream(shared_state& state, open_connection c, std::shared_ptr<call_in_flight> flight, pushed_call call,
              unsigned version, bool persistent)
      : state_(state),
        c_(std::move(c)),
        flight_(std::move(flight)),
        call_(std::move(call)),
        timer_(c_.socket.get_executor()),
        how_(version >= 11 ? framing::chunked : framing::until_close),
        persistent_(persistent && how_ == framing::chunked) {}  // an HTTP/1.0 stream ends with its connection
  call_stream(const call_stream&) = delete;
  call_stream& operator=(const call_stream&) = delete;
  ~call_stream() {
    end_question();
    end_call();
  }

  // The answer came, or the call was cancelled (session_table, on this stream's executor).
  void woken() override {
    guarded([&] {
      if (phase_ == phase::waiting) take_answer();
      else woke_ = true;  // seen once the event being written is written
    });
  }

  // The log line of a call that ended without a response.
  static std::string ended(const pushed_call& call, std::string_view why) {
    return message(call.method(), " ", shown(call.id().dump()), " ended without a response: ", why);
  }

 private:
  enum class phase : unsigned char { running, writing, waiting, done };
  using clock = std::chrono::steady_clock;

  // The head, then the first question (or the response of a call that asks nothing), in one write.
  void begin() {
    guarded([&] {
      out_ = stream_head(version(), persistent_, how_, state_.options);
      const auto& token = call_.progress_token();
      if (token && state_.options.progress_interval.count() > 0) progress_.emplace(*token);
      watch();
      call_.start();  // the tool runs once the call is taken: a refused call never ran
      advance();
    });
  }

  [[nodiscard]] unsigned version() const noexcept { return how_ == framing::chunked ? 11 : 10; }

  // The call's next step: its next question, or its response once done.
  void advance() {
    phase_ = phase::running;
    if (std::exchange(woke_, false)) {  // a wake-up while the last event was written: a cancellation?
      try {
        (void)state_.sessions.answer(*flight_);  // no question waits: nothing to take
      } catch (const call_cancelled& e) {
        return cancel(e.what());
      }
    }
    if (call_.done()) return finish(call_.cancelled() ? std::nullopt : std::optional(call_.response()));
    std::string form;
    try {
      form = text(call_.params());
    } catch (const std::logic_error&) {
      return finish(call_.response());  // the call failed: its response says how
    }
    try {
      // The question's params as text, once: their length is what the waiting budget counts.
      asking_ = state_.sessions.start_question(*flight_, form.size());
    } catch (const call_cancelled& e) {
      return cancel(e.what());
    } catch (const rpc_error& e) {  // too many questions wait: the call fails with that
      return finish(e.response(call_.id()));
    }
    // The message as elicitation_request_of prints it, its params printed once.
    const std::string question = R"({"jsonrpc":"2.0","id":)" + std::to_string(asking_) +
                                 R"(,"method":"elicitation/create","params":)" + form + "}";
    form = std::string();
    append_event(out_, question, how_);
    write([](call_stream& s) { s.wait_for_answer(); });
  }

  // The question is written: the answer is awaited, up to the answer timeout.
  void wait_for_answer() {
    const auto timeout = state_.options.answer_timeout;
    deadline_ = timeout.count() > 0 ? steady_after(timeout) : clock::time_point::max();
    keep_waiting();
  }

  // Back to waiting (after the question or a progress event): what came meanwhile is taken.
  void keep_waiting() {
    phase_ = phase::waiting;
    if (std::exchange(woke_, false)) {
      take_answer();
      if (phase_ != phase::waiting) return;
    }
    clock::time_point next = deadline_;
    if (progress_) next = std::min(next, steady_after(state_.options.progress_interval));
    if (next != clock::time_point::max()) arm_timer(next, [](call_stream& s) { s.waited(); });
  }

  // The timer of the wait ran out: the deadline (the question is withdrawn and the call told),
  // or the next progress event.
  void waited() {
    if (clock::now() >= deadline_) {
      const long long question = asking_;
      end_question();
      append_event(out_, text(question_withdrawn(question, stop_reason::timed_out)), how_);
      call_.stop(stop_reason::timed_out);
      return write([](call_stream& s) { s.advance(); });
    }
    if (!progress_) return keep_waiting();  // early by the clock: wait on
    append_event(out_, text(progress_notification(progress_->next())), how_);
    write([](call_stream& s) { s.keep_waiting(); });
  }

  void take_answer() {
    std::optional<nlohmann::json> answer;
    try {
      answer = state_.sessions.answer(*flight_);
    } catch (const call_cancelled& e) {
      return cancel(e.what());
    }
    if (!answer) return;  // a wake-up for an answer taken already
    ++turn_;              // the wait's timer: stale
    timer_.cancel();
    end_question();
    phase_ = phase::running;
    call_.take(*answer);
    answer.reset();
    advance();
  }

  // The call ends without a response (the spec sends nothing for a cancelled request).
  void cancel(std::string_view why) {
    end_question();
    call_.stop(stop_reason::cancelled);
    state_.options.log(ended(call_, why));
    finish(std::nullopt);
  }

  // The stream's end: its last event (`response`, none when cancelled), then the end of its
  // chunks, and the connection goes on, or closes (HTTP/1.0, or the client asked it).
  void finish(std::optional<nlohmann::ordered_json> response) {
    end_question();
    end_call();  // before the response is written: the client may reuse the id once it reads it
    if (gone_) return close();
    if (response) append_event(out_, text(*response), how_);
    response.reset();
    append_end(out_, how_);
    if (out_.empty()) return close();
    write([](call_stream& s) {
      s.phase_ = phase::done;
      if (!s.persistent_) return s.close();
      s.stop_watching();
      Next{}(s.state_, std::move(s.c_));
    });
  }

  // Writes out_, within the write timeout (past it the socket is closed: the write fails), then
  // `then(*this)`; when the write failed or the client left meanwhile, the call ends without a
  // response, and the connection with it.
  template <class Then>
  void write(Then then) {
    phase_ = phase::writing;
    arm_timer(steady_after(state_.options.write_timeout), [](call_stream& s) {
      s.gone_ = true;  // even when the write completed in the same pass: the socket is closed
      boost::system::error_code ignored;
      s.c_.socket.close(ignored);
    });
    boost::asio::async_write(c_.socket, boost::asio::buffer(out_),
                             [self = this->shared_from_this(), then](boost::system::error_code ec, std::size_t) {
                               self->guarded([&] { self->written(ec, then); });
                             });
  }

  template <class Then>
  void written(boost::system::error_code ec, Then then) {
    ++turn_;
    timer_.cancel();
    std::string().swap(out_);  // a waiting question holds no text of it
    if (ec) gone_ = true;
    if (gone_) return registered_ ? cancel("the client left the stream") : close();
    then(*this);
  }

  template <class Fired>
  void arm_timer(clock::time_point at, Fired fired) {
    timer_.expires_at(at);
    timer_.async_wait(
        long_lived([self = this->shared_from_this(), turn = ++turn_, fired](boost::system::error_code ec) {
          if (ec || turn != self->turn_ || self->phase_ == phase::done) return;
          self->guarded([&] { fired(*self); });
        }));
  }

  // Watches the socket while the stream is open: the client's end of file (or a reset) ends the
  // call at once; a pipelined next request's bytes are kept for the connection.
  void watch() {
    c_.socket.async_wait(boost::asio::ip::tcp::socket::wait_read,
                         long_lived([self = this->shared_from_this()](boost::system::error_code ec) {
                           if (ec || !self->watched_) return;  // the stream ended first
                           self->guarded([&] { self->readable(); });
                         }));
  }

  void readable() {
    switch (read_while_streaming(c_.socket, c_.read)) {
      case after_read::nothing:
      case after_read::kept: return watch();
      case after_read::left: break;
    }
    gone_ = true;
    if (phase_ == phase::waiting) cancel("the client left the stream");
    // writing: seen once the write completes (or fails)
  }

  void stop_watching() {
    watched_ = false;
    boost::system::error_code ignored;
    c_.socket.cancel(ignored);  // the watch's wait ends; a queued completion sees watched_
  }

  // The connection ends: no more is sent; what was written is delivered before the close.
  void close() {
    phase_ = phase::done;
    ++turn_;
    timer_.cancel();
    if (!c_.socket.is_open()) return;
    watched_ = false;
    end_connection(c_.socket);
  }

  void end_question() {
    if (asking_ != 0) state_.sessions.end_question(*flight_, std::exchange(asking_, 0));
  }
  void end_call() {
    if (std::exchange(registered_, false)) state_.sessions.end_call(*flight_);
  }

  // Runs a step; what it throws unforeseen ends the call without a response, said in the log,
  // and closes the connection (a completion handler must not throw: it would stop the server).
  template <class Step>
  void guarded(Step step) noexcept {
    try {
      step();
    } catch (const std::exception& e) {
      log_and_close(e.what());
    } catch (...) {
      log_and_close("an exception of an unknown type");
    }
  }
  void log_and_close(std::string_view why) noexcept {
    try {
      state_.options.log(ended(call_, why));
    } catch (...) {  // nothing more to say
    }
    close();
  }

  shared_state& state_;
  open_connection c_;
  std::shared_ptr<call_in_flight> flight_;
  pushed_call call_;
  std::optional<keepalive> progress_;  // the call's progress token given, and progress_interval set
  boost::asio::steady_timer timer_;    // one at a time: a write's timeout, or the wait's deadline or progress
  clock::time_point deadline_{};       // of the question waiting
  std::string out_;                    // the bytes being written
  long long asking_ = 0;               // the question waiting, 0: none
  unsigned turn_ = 0;                  // the timer's arming: a completion of an earlier one is stale
  framing how_;
  bool persistent_;
  phase phase_ = phase::running;
  bool woke_ = false;       // a wake-up came while an event was being written
  bool gone_ = false;       // the client left the stream
  bool watched_ = true;     // the watch of the socket goes on
  bool registered_ = true;  // the call is in the session's table
};

}  // namespace elicit::detail::http
