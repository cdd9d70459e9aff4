// The 2025-11-25 sessions of the sample server: who initialized, which calls are in flight, and
// which of our elicitation/create questions wait for an answer. Bounded everywhere: sessions in
// number (in all and per client), in the rate a client opens them and in idle time; questions in
// number (per session, per client and in all) and in waiting time, so that no client can hold
// the server's memory or take what every client shares. A waiting question is a coroutine
// suspended on its call's timer: no thread waits.
#pragma once

#include "transport.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mcp {

// Thrown out of an ask when its call was cancelled: notifications/cancelled, the session
// deleted, or the client gone from the stream. The call then ends without a response.
struct call_cancelled : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct call_in_flight;

// What a 2025-11-25 session remembers: the client's capabilities from initialize.
class session {
 public:
  session(std::string id, json capabilities, std::string client)
      : id(std::move(id)), capabilities(std::move(capabilities)), client(std::move(client)) {}
  const std::string id;
  const json capabilities;
  const std::string client;  // who opened it: the peer address

 private:
  friend class session_table;
  std::chrono::steady_clock::time_point last_used = std::chrono::steady_clock::now();
  long long next_question = 1;  // our request ids: per session, so no session can guess another's
  std::size_t waiting = 0;      // questions of this session waiting for an answer
  std::map<std::string, std::shared_ptr<call_in_flight>> calls;    // by the client's request id (its JSON text)
  std::map<long long, std::shared_ptr<call_in_flight>> questions;  // by our question's id
};

// One tools/call or prompts/get of a session, from its start to its response. Its timer and
// cancellation signal belong to the executor (the connection's strand) its coroutine runs on:
// another connection that answers or cancels posts there.
struct call_in_flight {
  call_in_flight(std::shared_ptr<session> s, std::string key, std::size_t request,
                 const boost::asio::any_io_executor& ex)
      : owner(std::move(s)), request_key(std::move(key)), request_bytes(request), executor(ex), wake(ex) {}
  std::shared_ptr<session> owner;
  std::string request_key;  // the client's request id, as JSON text
  // What the call's request costs while it runs (its body's length: its params are held once,
  // as a value about as large), and what its waiting question costs in all (start_question):
  // what the waiting budget counts.
  std::size_t request_bytes;
  std::size_t charged = 0;
  boost::asio::any_io_executor executor;
  boost::asio::steady_timer wake;           // a waiting question sleeps on it; cancelled to wake it
  boost::asio::cancellation_signal cancel;  // emitted to end the call's ask (async_ask: stopped)
  bool finished = false;                    // the call's coroutine is done: read and set on `executor` only
  bool writing = false;                     // an event is being written on the call's stream (`executor` only)
  bool cancelled = false;                   // guarded by the table's mutex, as is answer
  std::optional<json> answer;               // the client's whole response to the question we asked
};

// What came of initialize: a session, or the HTTP status and words of the refusal.
struct opened {
  std::shared_ptr<session> s;
  int status = 200;  // 503: the server is full; 429: this client has its share, or opens too fast
  std::string why;
};

class session_table {
 public:
  explicit session_table(const server_limits& limits) : limits_(limits) {}

  // A new session for `client`, or the refusal: the table full (503), the client's share of it
  // taken (429), or the client opening sessions faster than limits.session_rate (429).
  opened open(json capabilities, const std::string& client);
  // The live session with this id, its idle time restarted; nullptr when unknown, deleted or
  // expired (an expired session is dropped here).
  std::shared_ptr<session> find(std::string_view id);
  // Deletes the session and cancels its calls in flight. False when there was none.
  bool close(std::string_view id);

  // Registers a call as in flight, its coroutine on `executor`; nullptr when that request id
  // already is, in that session.
  std::shared_ptr<call_in_flight> begin_call(const std::shared_ptr<session>& s, const json& request_id,
                                             std::size_t request_bytes, const boost::asio::any_io_executor& executor);
  void end_call(call_in_flight& call);
  // notifications/cancelled: cancels the call with that request id, if it is in flight.
  void cancel(session& s, const json& request_id);
  // Cancels the call (its client left the stream): its ask ends at once.
  void cancel(const std::shared_ptr<call_in_flight>& call);
  // The client's response to one of this session's questions. False when no question of this
  // session waits under that id: an answer from another session, a late or a made-up one.
  bool deliver(session& s, const json& message);

  // A new question of `call`, `question_bytes` long as text: its id. Throws call_cancelled when
  // the call is cancelled already, rpc_error when too many questions wait (in the session, of
  // its client, or in all) or when what it holds (server_limits::bytes_per_waiting, its request
  // and twice its question) would pass the waiting memory budget, of its client or in all.
  long long start_question(call_in_flight& call, std::size_t question_bytes);
  void end_question(call_in_flight& call, long long id);
  // The answer to the call's question, once it came (taken out), else nothing. Throws
  // call_cancelled when the call was cancelled.
  std::optional<json> answer(call_in_flight& call);

 private:
  struct client_usage {
    std::size_t sessions = 0, waiting = 0;
    std::size_t waiting_bytes = 0;  // what its waiting questions hold (call_in_flight::charged)
    double tokens = 0;              // new sessions it may open now (a token bucket)
    std::chrono::steady_clock::time_point refilled;
  };
  bool expired(const session& s, std::chrono::steady_clock::time_point now) const;
  void sweep(std::chrono::steady_clock::time_point now);
  void erase(std::map<std::string, std::shared_ptr<session>, std::less<>>::iterator it);
  static void cancel_locked(const std::shared_ptr<call_in_flight>& call);

  const server_limits limits_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<session>, std::less<>> sessions_;
  std::map<std::string, client_usage, std::less<>> clients_;
  std::chrono::steady_clock::time_point swept_{};
  std::size_t waiting_ = 0;        // questions waiting, all sessions
  std::size_t waiting_bytes_ = 0;  // what they hold
};

}  // namespace mcp
