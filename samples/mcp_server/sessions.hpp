// The 2025-11-25 sessions of the sample server: who initialized, which calls are in flight, and
// which of our elicitation/create questions wait for an answer. Bounded everywhere: sessions in
// number and idle time, questions in number (per session and in all) and in waiting time, so
// that no client can hold the server's memory or all of its threads.
#pragma once

#include "transport.hpp"

#include <chrono>
#include <condition_variable>
#include <functional>
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
  session(std::string id, json capabilities) : id(std::move(id)), capabilities(std::move(capabilities)) {}
  const std::string id;
  const json capabilities;

 private:
  friend class session_table;
  std::chrono::steady_clock::time_point last_used = std::chrono::steady_clock::now();
  long long next_question = 1;  // our request ids: per session, so no session can guess another's
  std::size_t waiting = 0;      // questions of this session waiting for an answer
  std::map<std::string, std::shared_ptr<call_in_flight>> calls;    // by the client's request id (its JSON text)
  std::map<long long, std::shared_ptr<call_in_flight>> questions;  // by our question's id
};

// One tools/call or prompts/get of a session, from its start to its response.
struct call_in_flight {
  std::shared_ptr<session> owner;
  std::string request_key;  // the client's request id, as JSON text
  std::condition_variable wake;
  bool cancelled = false;
  std::optional<json> answer;  // the client's whole response to the question we asked
};

class session_table {
 public:
  explicit session_table(const server_limits& limits) : limits_(limits) {}

  // A new session, or nullptr when the table holds limits.max_sessions live ones.
  std::shared_ptr<session> open(json capabilities);
  // The live session with this id, its idle time restarted; nullptr when unknown, deleted or
  // expired (an expired session is dropped here).
  std::shared_ptr<session> find(std::string_view id);
  // Deletes the session and cancels its calls in flight. False when there was none.
  bool close(std::string_view id);

  // Registers a call as in flight; nullptr when that request id already is, in that session.
  std::shared_ptr<call_in_flight> begin_call(const std::shared_ptr<session>& s, const json& request_id);
  void end_call(call_in_flight& call);
  // notifications/cancelled: cancels the call with that request id, if it is in flight.
  void cancel(session& s, const json& request_id);
  // The client's response to one of this session's questions. False when no question of this
  // session waits under that id: an answer from another session, a late or a made-up one.
  bool deliver(session& s, const json& message);

  // Sends our elicitation/create with `params` through `send`, then waits for the client's
  // response and returns it (a whole JSON-RPC response). Every second of waiting calls `alive`
  // (a heartbeat on the stream), which says whether the client is still there. Throws
  // call_cancelled when the call is cancelled or the client gone; rpc_error when too many
  // questions wait already or the answer does not come within limits.answer_timeout.
  json ask(call_in_flight& call, json params, const std::function<bool(const json&)>& send,
           const std::function<bool()>& alive);

 private:
  bool expired(const session& s, std::chrono::steady_clock::time_point now) const;
  long long start_question(call_in_flight& call);
  void end_question(call_in_flight& call, long long id);

  const server_limits limits_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<session>, std::less<>> sessions_;
  std::size_t waiting_ = 0;  // questions waiting, all sessions
};

}  // namespace mcp
