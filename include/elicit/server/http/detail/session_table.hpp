// The 2025-11-25 sessions of the HTTP transport: who initialized, which calls are in flight, and
// which of the server's elicitation/create questions wait for an answer. Bounded everywhere:
// sessions in number (in all and per client), in the rate a client opens them and in idle time;
// questions in number (per session, per client and in all) and in the bytes they hold, so that
// no client can hold the server's memory or take what every client shares. A waiting question
// is its call's stream parked until the answer (or the call's end) wakes it: no thread waits.
// Machinery of <elicit/server/http/server.hpp>.
#pragma once

#include <elicit/server/dispatcher.hpp>
#include <elicit/server/http/options.hpp>
#include <elicit/server/rpc_error.hpp>
#include <elicit/state/state.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/post.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace elicit::detail::http {

using json = nlohmann::json;

// Thrown out of an ask when its call was cancelled: notifications/cancelled, the session
// deleted, or the client gone from the stream. The call then ends without a response.
struct call_cancelled : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct call_in_flight;

// What a call's answer or its cancellation wakes: its stream, on the call's executor.
class call_waiter {
 public:
  virtual void woken() = 0;

 protected:
  call_waiter() = default;
  call_waiter(const call_waiter&) = default;
  call_waiter& operator=(const call_waiter&) = default;
  ~call_waiter() = default;
};

// What a 2025-11-25 session remembers: what the client declared in initialize.
class session {
 public:
  session(std::string id, const client_session& declared, std::string client)
      : id(std::move(id)), client_state(declared), client(std::move(client)) {}
  const std::string id;
  const client_session client_state;
  const std::string client;  // who opened it: the peer address

 private:
  friend class session_table;
  std::chrono::steady_clock::time_point last_used = std::chrono::steady_clock::now();
  long long next_question = 1;  // our request ids: per session, so no session can guess another's
  bool closed = false;          // deleted or expired: a call that found it before may not start in it
  std::size_t waiting = 0;      // questions of this session waiting for an answer
  std::map<std::string, std::shared_ptr<call_in_flight>> calls;    // by the client's request id (its JSON text)
  std::map<long long, std::shared_ptr<call_in_flight>> questions;  // by our question's id
};

// One tools/call or prompts/get of a session, from its start to its response. Its stream runs on
// `executor` (the connection's event loop, one thread): another connection that answers or
// cancels, on any thread, posts there.
struct call_in_flight {
  call_in_flight(std::shared_ptr<session> s, std::string key, std::size_t request,
                 const boost::asio::any_io_executor& ex)
      : owner(std::move(s)), request_key(std::move(key)), request_bytes(request), executor(ex) {}
  std::shared_ptr<session> owner;
  std::string request_key;  // the client's request id, as JSON text
  // What the call's request costs while it runs (its body's length: its params are held once,
  // as a value about as large), and what its waiting question costs in all (start_question):
  // what the waiting budget counts.
  std::size_t request_bytes;
  std::size_t charged = 0;
  boost::asio::any_io_executor executor;
  std::weak_ptr<call_waiter> waiter;  // the call's stream: set and read on `executor` only
  bool cancelled = false;             // guarded by the table's mutex, as is answer
  std::optional<json> answer;         // the client's whole response to the question we asked
};

// What came of begin_call: the call registered, or nothing and why.
struct begun_call {
  std::shared_ptr<call_in_flight> call;
  bool session_gone = false;  // refused because the session was deleted (or expired) after it was
                              // found; else because a call with its request id is in flight already
};

// What came of initialize: a session, or the HTTP status and words of the refusal.
struct opened {
  std::shared_ptr<session> s;
  int status = 200;  // 503: the server is full; 429: this client has its share, or opens too fast
  std::string why;
};

class session_table {
 public:
  explicit session_table(const http_options& limits) : limits_(limits) {}
  session_table(const session_table&) = delete;
  session_table& operator=(const session_table&) = delete;
  // Frees every session, whatever calls it still has (they and it hold each other).
  ~session_table() {
    while (!sessions_.empty()) erase(sessions_.begin());
  }

  // A new session for `client`, or the refusal: the table full (503), the client's share of it
  // taken (429), or the client opening sessions faster than http_options::session_rate (429).
  opened open(const client_session& declared, const std::string& client);
  // The live session with this id, its idle time restarted; nullptr when unknown, deleted or
  // expired (an expired session is dropped here).
  std::shared_ptr<session> find(std::string_view id);
  // Deletes the session and cancels its calls in flight. False when there was none.
  bool close(std::string_view id);

  // Registers a call as in flight, its stream on `executor`; refused when that request id already
  // is, in that session, or when the session was deleted since it was found (a DELETE on another
  // connection: a call registered then would never be cancelled, nor its question answered).
  begun_call begin_call(const std::shared_ptr<session>& s, const json& request_id, std::size_t request_bytes,
                        const boost::asio::any_io_executor& executor);
  void end_call(call_in_flight& call);
  // notifications/cancelled: cancels the call with that request id, if it is in flight.
  void cancel(session& s, const json& request_id);
  // The client's response to one of this session's questions. False when no question of this
  // session waits under that id: an answer from another session, a late or a made-up one.
  bool deliver(session& s, const json& message);

  // A new question of `call`, `question_bytes` long as text: its id. Throws call_cancelled when
  // the call is cancelled already, rpc_error when too many questions wait (in the session, of
  // its client, or in all) or when what it holds (http_options::bytes_per_waiting, its request
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
  static void wake(const std::shared_ptr<call_in_flight>& call);

  const http_options& limits_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<session>, std::less<>> sessions_;
  std::map<std::string, client_usage, std::less<>> clients_;
  std::chrono::steady_clock::time_point swept_{};
  std::size_t waiting_ = 0;        // questions waiting, all sessions
  std::size_t waiting_bytes_ = 0;  // what they hold
};

// How often open() drops expired sessions at most: a sweep walks every session.
inline constexpr std::chrono::seconds sweep_every{1};

inline bool session_table::expired(const session& s, std::chrono::steady_clock::time_point now) const {
  return s.calls.empty() && now - s.last_used > limits_.session_idle;
}

inline void session_table::erase(std::map<std::string, std::shared_ptr<session>, std::less<>>::iterator it) {
  const auto usage = clients_.find(it->second->client);
  if (usage != clients_.end() && usage->second.sessions > 0) --usage->second.sessions;
  // A call and its session hold each other (call_in_flight::owner, session::calls and
  // ::questions): the maps are cleared here so that each is freed when the last stream lets go.
  session& s = *it->second;
  s.closed = true;
  s.calls.clear();
  s.questions.clear();
  sessions_.erase(it);
}

inline void session_table::sweep(std::chrono::steady_clock::time_point now) {
  swept_ = now;
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    const auto next = std::next(it);
    if (expired(*it->second, now)) erase(it);
    it = next;
  }
  // A client with nothing held and a full bucket is as good as new: forgotten.
  std::erase_if(clients_, [&](const auto& entry) {
    const client_usage& u = entry.second;
    return u.sessions == 0 && u.waiting == 0 && u.waiting_bytes == 0 &&
           u.tokens + std::chrono::duration<double>(now - u.refilled).count() *
                          static_cast<double>(limits_.session_rate) >=
               static_cast<double>(limits_.session_burst);
  });
}

inline opened session_table::open(const client_session& declared, const std::string& client) {
  std::lock_guard lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  if (now - swept_ >= sweep_every || sessions_.size() >= limits_.max_sessions) sweep(now);
  auto [it, fresh] = clients_.try_emplace(client);
  client_usage& usage = it->second;
  if (fresh) {
    usage.tokens = static_cast<double>(limits_.session_burst);
    usage.refilled = now;
  }
  usage.tokens = std::min(static_cast<double>(limits_.session_burst),
                          usage.tokens + std::chrono::duration<double>(now - usage.refilled).count() *
                                             static_cast<double>(limits_.session_rate));
  usage.refilled = now;
  if (sessions_.size() >= limits_.max_sessions)
    return {nullptr, 503,
            "This server has too many sessions open (" + std::to_string(limits_.max_sessions) + "); try later"};
  if (usage.sessions >= limits_.max_sessions_per_client)
    return {nullptr, 429,
            "This client has " + std::to_string(usage.sessions) + " sessions open, as many as one client may (" +
                std::to_string(limits_.max_sessions_per_client) + "); delete one or try later"};
  if (usage.tokens < 1.0)
    return {nullptr, 429,
            "This client opens sessions faster than " + std::to_string(limits_.session_rate) +
                " a second; try again in a second"};
  usage.tokens -= 1.0;
  ++usage.sessions;
  auto s = std::make_shared<session>(new_elicitation_id(), declared, client);
  sessions_.emplace(s->id, s);
  return {std::move(s), 200, {}};
}

inline std::shared_ptr<session> session_table::find(std::string_view id) {
  std::lock_guard lock(mutex_);
  const auto it = sessions_.find(id);
  if (it == sessions_.end()) return nullptr;
  const auto now = std::chrono::steady_clock::now();
  if (expired(*it->second, now)) {
    erase(it);
    return nullptr;
  }
  it->second->last_used = now;
  return it->second;
}

// The call's stream is woken on its own executor, where it runs; a stream that ended is gone.
inline void session_table::wake(const std::shared_ptr<call_in_flight>& call) {
  boost::asio::post(call->executor, [call] {
    if (const std::shared_ptr<call_waiter> waiter = call->waiter.lock()) waiter->woken();
  });
}

inline void session_table::cancel_locked(const std::shared_ptr<call_in_flight>& call) {
  call->cancelled = true;
  wake(call);
}

inline bool session_table::close(std::string_view id) {
  std::lock_guard lock(mutex_);
  const auto it = sessions_.find(id);
  if (it == sessions_.end()) return false;
  for (auto& [key, call] : it->second->calls) cancel_locked(call);
  erase(it);
  return true;
}

inline begun_call session_table::begin_call(const std::shared_ptr<session>& s, const json& request_id,
                                            std::size_t request_bytes, const boost::asio::any_io_executor& executor) {
  auto call = std::make_shared<call_in_flight>(s, request_id.dump(), request_bytes, executor);
  std::lock_guard lock(mutex_);
  if (s->closed) return {nullptr, true};
  if (!s->calls.emplace(call->request_key, call).second) return {};
  return {std::move(call)};
}

inline void session_table::end_call(call_in_flight& call) {
  std::lock_guard lock(mutex_);
  const auto it = call.owner->calls.find(call.request_key);
  if (it != call.owner->calls.end() && it->second.get() == &call) call.owner->calls.erase(it);
  call.owner->last_used = std::chrono::steady_clock::now();
}

inline void session_table::cancel(session& s, const json& request_id) {
  std::lock_guard lock(mutex_);
  if (const auto it = s.calls.find(request_id.dump()); it != s.calls.end()) cancel_locked(it->second);
}

inline bool session_table::deliver(session& s, const json& message) {
  const auto id = message.find("id");
  if (id == message.end() || !id->is_number_integer()) return false;
  std::lock_guard lock(mutex_);
  const auto it = s.questions.find(id->get<long long>());
  if (it == s.questions.end()) return false;
  std::shared_ptr<call_in_flight> call = it->second;
  call->answer = message;
  s.questions.erase(it);
  wake(call);
  return true;
}

inline long long session_table::start_question(call_in_flight& call, std::size_t question_bytes) {
  std::lock_guard lock(mutex_);
  session& s = *call.owner;
  if (call.cancelled) throw call_cancelled("the call was cancelled before it asked");
  client_usage& usage = clients_[s.client];
  const auto too_many = [&](const std::string& which) {
    return rpc_error(-32603,
                     "This server has too many elicitations waiting for an answer (" + which + "); try again later");
  };
  if (s.waiting >= limits_.max_waiting_per_session)
    throw too_many(std::to_string(s.waiting) + " of this session's " + std::to_string(limits_.max_waiting_per_session));
  if (usage.waiting >= limits_.max_waiting_per_client)
    throw too_many(std::to_string(usage.waiting) + " of this client's " +
                   std::to_string(limits_.max_waiting_per_client));
  if (waiting_ >= limits_.max_waiting)
    throw too_many(std::to_string(waiting_) + " of " + std::to_string(limits_.max_waiting) + " in all");
  // The question is held twice: as the text being written, and as the message its asker keeps
  // (measured: a 3.9 MiB message took 19 MiB while a client read none of it, docs/security.md).
  const std::size_t cost = http_options::bytes_per_waiting + call.request_bytes + 2 * question_bytes;
  const auto mib = [](std::size_t bytes) { return std::to_string((bytes + (1U << 20) - 1) >> 20) + " MiB"; };
  if (usage.waiting_bytes + cost > limits_.waiting_memory_per_client)
    throw too_many("this client's hold " + mib(usage.waiting_bytes) + "; this one would add " + mib(cost) + " to its " +
                   mib(limits_.waiting_memory_per_client));
  if (waiting_bytes_ + cost > limits_.waiting_memory)
    throw too_many("they hold " + mib(waiting_bytes_) + "; this one would add " + mib(cost) + " to the " +
                   mib(limits_.waiting_memory) + " of all");
  const long long id = s.next_question++;
  s.questions.emplace(id, s.calls.at(call.request_key));
  ++s.waiting;
  ++usage.waiting;
  ++waiting_;
  call.charged = cost;
  usage.waiting_bytes += cost;
  waiting_bytes_ += cost;
  call.answer.reset();
  return id;
}

inline void session_table::end_question(call_in_flight& call, long long id) {
  std::lock_guard lock(mutex_);
  session& s = *call.owner;
  s.questions.erase(id);
  --s.waiting;
  if (const auto usage = clients_.find(s.client); usage != clients_.end() && usage->second.waiting > 0) {
    --usage->second.waiting;
    usage->second.waiting_bytes -= std::min(usage->second.waiting_bytes, call.charged);
  }
  --waiting_;
  waiting_bytes_ -= std::min(waiting_bytes_, call.charged);
  call.charged = 0;
}

inline std::optional<json> session_table::answer(call_in_flight& call) {
  std::lock_guard lock(mutex_);
  if (call.cancelled) throw call_cancelled("the call was cancelled");
  return std::exchange(call.answer, std::nullopt);
}

}  // namespace elicit::detail::http
