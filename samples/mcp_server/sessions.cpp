#include "sessions.hpp"

#include <elicit/state.hpp>

#include <boost/asio/post.hpp>

#include <algorithm>
#include <utility>

namespace mcp {

namespace {

using clock = std::chrono::steady_clock;

// How often open() drops expired sessions at most: a sweep walks every session.
constexpr std::chrono::seconds sweep_every{1};

}  // namespace

bool session_table::expired(const session& s, clock::time_point now) const {
  return s.calls.empty() && now - s.last_used > limits_.session_idle;
}

void session_table::erase(std::map<std::string, std::shared_ptr<session>, std::less<>>::iterator it) {
  const auto usage = clients_.find(it->second->client);
  if (usage != clients_.end() && usage->second.sessions > 0) --usage->second.sessions;
  sessions_.erase(it);
}

void session_table::sweep(clock::time_point now) {
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

opened session_table::open(json capabilities, const std::string& client) {
  std::lock_guard lock(mutex_);
  const auto now = clock::now();
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
  auto s = std::make_shared<session>(elicit::new_elicitation_id(), std::move(capabilities), client);
  sessions_.emplace(s->id, s);
  return {std::move(s), 200, {}};
}

std::shared_ptr<session> session_table::find(std::string_view id) {
  std::lock_guard lock(mutex_);
  const auto it = sessions_.find(id);
  if (it == sessions_.end()) return nullptr;
  const auto now = clock::now();
  if (expired(*it->second, now)) {
    erase(it);
    return nullptr;
  }
  it->second->last_used = now;
  return it->second;
}

// The call's coroutine is woken on its own executor: its timer and signal are not thread-safe.
void session_table::cancel_locked(const std::shared_ptr<call_in_flight>& call) {
  call->cancelled = true;
  boost::asio::post(call->executor, [call] {
    if (call->finished) return;  // its coroutine is done: the signal has no handler any more
    call->cancel.emit(boost::asio::cancellation_type::terminal);
    call->wake.cancel();
  });
}

bool session_table::close(std::string_view id) {
  std::lock_guard lock(mutex_);
  const auto it = sessions_.find(id);
  if (it == sessions_.end()) return false;
  for (auto& [key, call] : it->second->calls) cancel_locked(call);
  erase(it);
  return true;
}

std::shared_ptr<call_in_flight> session_table::begin_call(const std::shared_ptr<session>& s, const json& request_id,
                                                          std::size_t request_bytes,
                                                          const boost::asio::any_io_executor& executor) {
  auto call = std::make_shared<call_in_flight>(s, request_id.dump(), request_bytes, executor);
  std::lock_guard lock(mutex_);
  if (!s->calls.emplace(call->request_key, call).second) return nullptr;
  return call;
}

void session_table::end_call(call_in_flight& call) {
  std::lock_guard lock(mutex_);
  const auto it = call.owner->calls.find(call.request_key);
  if (it != call.owner->calls.end() && it->second.get() == &call) call.owner->calls.erase(it);
  call.owner->last_used = clock::now();
}

void session_table::cancel(session& s, const json& request_id) {
  std::lock_guard lock(mutex_);
  if (const auto it = s.calls.find(request_id.dump()); it != s.calls.end()) cancel_locked(it->second);
}

void session_table::cancel(const std::shared_ptr<call_in_flight>& call) {
  std::lock_guard lock(mutex_);
  cancel_locked(call);
}

bool session_table::deliver(session& s, const json& message) {
  const auto id = message.find("id");
  if (id == message.end() || !id->is_number_integer()) return false;
  std::lock_guard lock(mutex_);
  const auto it = s.questions.find(id->get<long long>());
  if (it == s.questions.end()) return false;
  std::shared_ptr<call_in_flight> call = it->second;
  call->answer = message;
  s.questions.erase(it);
  boost::asio::post(call->executor, [call] { call->wake.cancel(); });
  return true;
}

long long session_table::start_question(call_in_flight& call, std::size_t question_bytes) {
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
  const std::size_t cost = server_limits::bytes_per_waiting + call.request_bytes + 2 * question_bytes;
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

void session_table::end_question(call_in_flight& call, long long id) {
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

std::optional<json> session_table::answer(call_in_flight& call) {
  std::lock_guard lock(mutex_);
  if (call.cancelled) throw call_cancelled("the call was cancelled");
  return std::exchange(call.answer, std::nullopt);
}

}  // namespace mcp
