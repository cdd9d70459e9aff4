// A 2025-11-25 call of a tool that asks, answered on an SSE stream: the stream's head, each
// question an elicitation/create event waited for as a coroutine on the call's timer (the answer
// comes as another POST of the session, which wakes it), progress events while it waits, and the
// response as the last event. The client leaving the stream (its end of file, seen at once)
// cancels the call. Machinery of <elicit/server/http/server.hpp>.
#pragma once

#include <elicit/asio/ask.hpp>
#include <elicit/server/detail/notifications.hpp>
#include <elicit/server/dispatcher.hpp>
#include <elicit/server/http/detail/request_reader.hpp>
#include <elicit/server/http/detail/shared_state.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/serializer.hpp>
#include <nlohmann/json.hpp>
#include <sys/socket.h>

#include <cerrno>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>

namespace elicit::detail::http {

// How a call's SSE stream is framed: in chunks (HTTP/1.1), or, for an HTTP/1.0 client, which
// has no chunked coding, as bytes that end when the connection does.
enum class framing { chunked, until_close };

// One SSE event carrying one JSON-RPC message.
inline std::string sse_event(std::string_view message_text) {
  return "event: message\ndata: " + std::string(message_text) + "\n\n";
}

// One SSE event, in one chunk. The text is taken by value and freed once written.
inline boost::asio::awaitable<boost::beast::error_code> write_event(stream_type& stream, std::string event,
                                                                    std::chrono::seconds timeout, framing how) {
  stream.expires_after(timeout);
  boost::beast::error_code ec;
  if (how == framing::chunked) {
    const auto chunk = bhttp::make_chunk(boost::asio::buffer(event));  // named: see request_reader.hpp
    std::tie(ec, std::ignore) = co_await boost::asio::async_write(stream, chunk, no_throw);
  } else {
    std::tie(ec, std::ignore) = co_await boost::asio::async_write(stream, boost::asio::buffer(event), no_throw);
  }
  stream.expires_never();
  co_return ec;
}

// What the watch of a stream and its call share: the watch's handler may be queued already when
// the call ends, so it must not touch the socket after `ended`.
struct watch_state {
  bool gone = false, ended = false;
  std::string pipelined;  // bytes the client sent after its request: the start of its next one
  std::size_t room = 0;   // how many of them the connection's read buffer can take
};

// Watches a stream's socket while it is open: the client's end of file (or a reset) calls
// `leave` at once (a call is cancelled, a subscription ends). A wake-up with nothing to read (the
// reactor may report one) waits again. Bytes to read are a pipelined next request: they are kept
// in `pipelined` (given to the connection's buffer when the stream ends) and the watch goes on,
// so that no byte sent before a leave hides the leave. More than the read buffer holds is a leave.
template <class Leave>
void watch_leave(boost::asio::ip::tcp::socket& socket, const std::shared_ptr<watch_state>& watch, Leave leave) {
  socket.async_wait(boost::asio::ip::tcp::socket::wait_read,
                    [&socket, watch, leave = std::move(leave)](boost::beast::error_code ec) mutable {
                      if (ec || watch->ended) return;  // the stream ended first
                      std::array<char, 4096> bytes{};
                      const ssize_t n = ::recv(socket.native_handle(), bytes.data(), bytes.size(), MSG_DONTWAIT);
                      const bool again = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR);
                      const bool taken = n > 0 && watch->pipelined.size() + static_cast<std::size_t>(n) <= watch->room;
                      if (taken) watch->pipelined.append(bytes.data(), static_cast<std::size_t>(n));
                      if (again || taken) {
                        watch_leave(socket, watch, std::move(leave));
                        return;
                      }
                      watch->gone = true;  // the end of file, a reset, or more pipelined than a request may hold
                      leave();
                    });
}

// The bytes a stream's watch read of the client's next request, given to the connection's buffer.
inline void take_pipelined(boost::beast::flat_buffer& buffer, const watch_state& watch) {
  if (watch.pipelined.empty()) return;
  buffer.commit(boost::asio::buffer_copy(buffer.prepare(watch.pipelined.size()), boost::asio::buffer(watch.pipelined)));
}

// A stream's end, its client still there: its last event (`last`, none when empty), then the
// end of its chunks (HTTP/1.1; an HTTP/1.0 stream ends with its connection). Whether the
// connection can go on.
inline boost::asio::awaitable<bool> end_stream(stream_type& stream, std::string last, framing how,
                                               const http_options& options, bool persistent) {
  if (!last.empty() && co_await write_event(stream, std::move(last), options.write_timeout, how)) co_return false;
  if (how == framing::until_close) co_return false;
  stream.expires_after(options.write_timeout);
  const auto chunk_last = bhttp::make_chunk_last();
  auto [ec, n] = co_await boost::asio::async_write(stream, chunk_last, no_throw);
  stream.expires_never();
  co_return !ec && persistent;
}

// The head of a call's SSE stream. A coroutine of its own: the response and its serializer live
// in a frame freed once the head is written, not in the frame of the call that then waits.
inline boost::asio::awaitable<bool> write_stream_head(stream_type& stream, unsigned version, bool persistent,
                                                      framing how, const http_options& options) {
  bhttp::response<bhttp::empty_body> res{bhttp::status::ok, version};
  res.set(bhttp::field::content_type, "text/event-stream");
  res.set(bhttp::field::cache_control, "no-cache");
  res.set("X-Accel-Buffering", "no");  // a proxy must not hold the question back
  res.keep_alive(persistent);
  if (persistent) res.set(bhttp::field::keep_alive, keep_alive_value(options.idle_timeout));
  res.chunked(how == framing::chunked);
  bhttp::response_serializer<bhttp::empty_body> head{res};
  stream.expires_after(options.write_timeout);
  auto [ec, n] = co_await bhttp::async_write_header(stream, head, no_throw);
  co_return !ec;
}

// One 2025-11-25 call on its stream, from its first question to its response.
class call_stream {
 public:
  call_stream(shared_state& state, std::shared_ptr<call_in_flight> flight, stream_type& stream, framing how)
      : state_(state), flight_(std::move(flight)), stream_(stream), how_(how) {}

  // Runs the call, its cancellation bound to the flight's signal: the response to send (as an
  // event), or nothing when it was cancelled (the spec sends nothing for a cancelled request).
  boost::asio::awaitable<std::optional<nlohmann::ordered_json>> run(pushed_call call) {
    std::shared_ptr<async_keepalive> keep;
    const http_options& options = state_.options;
    if (call.progress_token() && options.progress_interval.count() > 0) {
      keep = std::make_shared<async_keepalive>(
          async_keepalive{keepalive(*call.progress_token()), options.progress_interval,
                          [this](nlohmann::ordered_json params) { return progress(std::move(params)); }});
    }
    auto send = [this](nlohmann::ordered_json params) { return ask(std::move(params)); };
    try {
      while (!call.done()) {
        // A cancelled coroutine awaits nothing more (Asio would throw operation_aborted at the
        // await): a cancellation that came between two questions stops the call here.
        if ((co_await boost::asio::this_coro::cancellation_state).cancelled() != boost::asio::cancellation_type::none) {
          call.stop(stop_reason::cancelled);
          break;
        }
        nlohmann::ordered_json params;
        try {
          params = call.params();
        } catch (const std::logic_error&) {
          break;  // the call failed: its response says how
        }
        auto reply = co_await await_reply(send, std::move(params), options.answer_timeout, keep.get());
        if (const auto* why = std::get_if<stop_reason>(&reply)) {
          if (*why == stop_reason::timed_out && !cancelled_now(co_await boost::asio::this_coro::cancellation_state))
            co_await withdraw(*why);
          asking_ = 0;
          call.stop(*why);
        } else {
          call.take(std::get<nlohmann::json>(reply));
        }
      }
    } catch (const call_cancelled& e) {
      state_.options.log(ended(call, e.what()));
      co_return std::nullopt;
    } catch (const rpc_error& e) {  // too many questions wait: the call fails with that
      co_return e.response(call.id());
    }
    if (call.cancelled()) {
      state_.options.log(ended(call, "the call was cancelled"));
      co_return std::nullopt;
    }
    co_return call.response();
  }

  // Whether a write failed or was cut (the client gone, or a write cancelled half way): the
  // stream is broken, nothing more is written on it, and its connection is closed.
  [[nodiscard]] bool broken() const noexcept { return broken_; }

  // The log line of a call that ended without a response.
  static std::string ended(const pushed_call& call, std::string_view why) {
    return message(call.method(), " ", shown(call.id().dump()), " ended without a response: ", why);
  }

 private:
  // A question of the call, the `send` of await_reply: registers it, writes it on the stream,
  // and sleeps on the call's timer until the answer comes (another connection delivers it and
  // wakes the timer) or the wait is cancelled (operation_aborted, which await_reply reads as
  // stop_reason::cancelled).
  boost::asio::awaitable<nlohmann::json> ask(nlohmann::ordered_json params) {
    // The question's params as text, once: their length is what the waiting budget counts, and
    // the event is written from them. Their JSON (the whole form) is freed before the wait.
    std::string form = text(params);
    params = nullptr;
    const long long id = state_.sessions.start_question(*flight_, form.size());
    struct question_end {
      session_table& table;
      call_in_flight& call;
      long long id;
      question_end(session_table& t, call_in_flight& c, long long i) : table(t), call(c), id(i) {}
      question_end(const question_end&) = delete;
      question_end& operator=(const question_end&) = delete;
      ~question_end() { table.end_question(call, id); }
    } done{state_.sessions, *flight_, id};
    asking_ = id;
    // The message as elicitation_request_of prints it, its params printed once.
    std::string question = sse_event(R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
                                     R"(,"method":"elicitation/create","params":)" + form + "}");
    form = std::string();
    if (!co_await write(std::move(question))) throw call_cancelled("the client left the stream");
    for (;;) {
      if (std::optional<nlohmann::json> answer = state_.sessions.answer(*flight_)) co_return std::move(*answer);
      flight_->wake.expires_at(std::chrono::steady_clock::time_point::max());
      co_await flight_->wake.async_wait(no_throw);
      if ((co_await boost::asio::this_coro::cancellation_state).cancelled() != boost::asio::cancellation_type::none)
        throw boost::system::system_error(boost::asio::error::operation_aborted);
    }
  }

  // A keep-alive event, skipped while the question itself is being written (one write at a time
  // on a stream; the next comes an interval later). Throws call_cancelled when the client left
  // the stream, which ends the wait as a failed send does.
  boost::asio::awaitable<void> progress(nlohmann::ordered_json params) {
    if (flight_->writing) co_return;
    std::string event = sse_event(text(progress_notification(std::move(params))));
    if (!co_await write(std::move(event))) throw call_cancelled("the client left the stream");
  }

  // The question the call stopped waiting for when it timed out, withdrawn on the stream (a
  // cancelled call's client cancelled it, or left).
  boost::asio::awaitable<void> withdraw(stop_reason why) {
    if (asking_ == 0 || flight_->writing) co_return;
    std::string event = sse_event(text(question_withdrawn(asking_, why)));
    co_await write(std::move(event));
  }

  boost::asio::awaitable<bool> write(std::string event) {
    if (broken_) co_return false;
    flight_->writing = true;
    const boost::beast::error_code written =
        co_await write_event(stream_, std::move(event), state_.options.write_timeout, how_);
    flight_->writing = false;
    if (written) broken_ = true;
    co_return !written;
  }

  static bool cancelled_now(const boost::asio::cancellation_state& state) {
    return state.cancelled() != boost::asio::cancellation_type::none;
  }

  shared_state& state_;
  std::shared_ptr<call_in_flight> flight_;
  stream_type& stream_;
  framing how_;
  long long asking_ = 0;  // the id of the question the call waits for, 0: none
  bool broken_ = false;
};

// Streams the pushed call of `in` on the connection: false when the connection cannot go on.
// `in` is the connection's, and the call is used where it is (every byte a frame keeps is kept
// for as long as the question waits): its running coroutine takes it.
inline boost::asio::awaitable<bool> stream_call(shared_state& state, stream_type& stream,
                                                boost::beast::flat_buffer& buffer, routed& in, unsigned version,
                                                bool persistent) {
  const framing how = version >= 11 ? framing::chunked : framing::until_close;
  if (how == framing::until_close) persistent = false;  // the stream's end is the connection's
  const auto executor = co_await boost::asio::this_coro::executor;
  pushed_call& call = *in.push;
  const nlohmann::json call_id = call.id();
  const std::shared_ptr<call_in_flight> flight = state.sessions.begin_call(in.s, call.id(), in.request_bytes, executor);
  const http_options& options = state.options;
  if (!flight) {
    response res = json_response(
        version, 200,
        rpc_error(-32600, "Invalid Request: a call with this id is in flight already").response(call.id()));
    co_return !co_await write_response(stream, std::move(res), persistent, options) && persistent;
  }
  struct call_end {
    session_table& table;
    call_in_flight& call;
    call_end(session_table& t, call_in_flight& c) : table(t), call(c) {}
    call_end(const call_end&) = delete;
    call_end& operator=(const call_end&) = delete;
    ~call_end() { table.end_call(call); }
  } ended{state.sessions, *flight};
  if (!co_await write_stream_head(stream, version, persistent, how, options)) co_return false;
  stream.expires_never();
  const auto watch = std::make_shared<watch_state>();
  watch->room = buffer.max_size() - buffer.size();
  boost::asio::ip::tcp::socket& socket = stream.socket();
  watch_leave(socket, watch, [&sessions = state.sessions, flight] { sessions.cancel(flight); });
  // However the call ends (an exception included), its cancellation reaches no handler any more
  // and the watch for the client's leave ends before the socket can go.
  struct watch_end {
    call_in_flight& flight;
    watch_state& watch;
    boost::asio::ip::tcp::socket& socket;
    watch_end(call_in_flight& f, watch_state& w, boost::asio::ip::tcp::socket& s) : flight(f), watch(w), socket(s) {}
    watch_end(const watch_end&) = delete;
    watch_end& operator=(const watch_end&) = delete;
    ~watch_end() {
      flight.cancel.slot().clear();
      flight.finished = true;
      watch.ended = true;
      boost::beast::error_code ignored;
      socket.cancel(ignored);
    }
  };
  std::optional<nlohmann::ordered_json> response;
  bool broken = false;
  {
    const watch_end ending(*flight, *watch, socket);
    call.start();  // the tool runs once the call is taken: a refused call never ran
    const std::string method = call.method();
    call_stream streaming(state, flight, stream, how);
    auto running = streaming.run(std::move(call));
    in.push.reset();  // moved into the running coroutine's frame
    auto token = boost::asio::bind_cancellation_slot(flight->cancel.slot(), boost::asio::use_awaitable);
    try {
      response = co_await boost::asio::co_spawn(executor, std::move(running), std::move(token));
    } catch (const std::exception& e) {  // the call's end, unforeseen: said, and no response
      state.options.log(message(method, " ", shown(call_id.dump()), " ended without a response: ", e.what()));
    }
    broken = streaming.broken();
  }
  if (broken) co_return false;  // a write failed or was cut: the stream cannot go on
  if (watch->gone) co_return false;
  take_pipelined(buffer, *watch);  // the next request's first bytes, read by the watch
  std::string last = response ? sse_event(text(*response)) : std::string();
  response.reset();
  co_return co_await end_stream(stream, std::move(last), how, options, persistent);
}

}  // namespace elicit::detail::http
