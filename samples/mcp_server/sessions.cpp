#include "sessions.hpp"

#include <elicit/state.hpp>

#include <algorithm>
#include <utility>

namespace mcp {

namespace {

using clock = std::chrono::steady_clock;

// How often a waiting question checks that its client is still on the stream.
constexpr std::chrono::seconds heartbeat{1};

}  // namespace

bool session_table::expired(const session& s, clock::time_point now) const {
  return s.calls.empty() && now - s.last_used > limits_.session_idle;
}

std::shared_ptr<session> session_table::open(json capabilities) {
  std::lock_guard lock(mutex_);
  const auto now = clock::now();
  std::erase_if(sessions_, [&](const auto& entry) { return expired(*entry.second, now); });
  if (sessions_.size() >= limits_.max_sessions) return nullptr;
  auto s = std::make_shared<session>(elicit::new_elicitation_id(), std::move(capabilities));
  sessions_.emplace(s->id, s);
  return s;
}

std::shared_ptr<session> session_table::find(std::string_view id) {
  std::lock_guard lock(mutex_);
  const auto it = sessions_.find(id);
  if (it == sessions_.end()) return nullptr;
  const auto now = clock::now();
  if (expired(*it->second, now)) {
    sessions_.erase(it);
    return nullptr;
  }
  it->second->last_used = now;
  return it->second;
}

bool session_table::close(std::string_view id) {
  std::lock_guard lock(mutex_);
  const auto it = sessions_.find(id);
  if (it == sessions_.end()) return false;
  for (auto& [key, call] : it->second->calls) {
    call->cancelled = true;
    call->wake.notify_all();
  }
  sessions_.erase(it);
  return true;
}

std::shared_ptr<call_in_flight> session_table::begin_call(const std::shared_ptr<session>& s, const json& request_id) {
  auto call = std::make_shared<call_in_flight>();
  call->owner = s;
  call->request_key = request_id.dump();
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
  if (const auto it = s.calls.find(request_id.dump()); it != s.calls.end()) {
    it->second->cancelled = true;
    it->second->wake.notify_all();
  }
}

bool session_table::deliver(session& s, const json& message) {
  const auto id = message.find("id");
  if (id == message.end() || !id->is_number_integer()) return false;
  std::lock_guard lock(mutex_);
  const auto it = s.questions.find(id->get<long long>());
  if (it == s.questions.end()) return false;
  it->second->answer = message;
  it->second->wake.notify_all();
  s.questions.erase(it);
  return true;
}

long long session_table::start_question(call_in_flight& call) {
  std::lock_guard lock(mutex_);
  session& s = *call.owner;
  if (call.cancelled) throw call_cancelled("the call was cancelled before it asked");
  if (waiting_ >= limits_.max_waiting || s.waiting >= limits_.max_waiting_per_session)
    throw rpc_error(-32603, "This server has too many elicitations waiting for an answer (" +
                                std::to_string(s.waiting) + " of this session's " +
                                std::to_string(limits_.max_waiting_per_session) + ", " + std::to_string(waiting_) +
                                " of " + std::to_string(limits_.max_waiting) + " in all); try again later");
  const long long id = s.next_question++;
  s.questions.emplace(id, call.owner->calls.at(call.request_key));
  ++s.waiting;
  ++waiting_;
  call.answer.reset();
  return id;
}

void session_table::end_question(call_in_flight& call, long long id) {
  std::lock_guard lock(mutex_);
  call.owner->questions.erase(id);
  --call.owner->waiting;
  --waiting_;
}

json session_table::ask(call_in_flight& call, json params, const std::function<bool(const json&)>& send,
                        const std::function<bool()>& alive) {
  const long long id = start_question(call);
  struct question_end {
    session_table& table;
    call_in_flight& call;
    long long id;
    ~question_end() { table.end_question(call, id); }
  } done{*this, call, id};
  if (!send({{"jsonrpc", "2.0"}, {"id", id}, {"method", "elicitation/create"}, {"params", std::move(params)}}))
    throw call_cancelled("the client left the stream");
  const auto deadline = clock::now() + limits_.answer_timeout;
  std::unique_lock lock(mutex_);
  for (;;) {
    if (call.cancelled) throw call_cancelled("the call was cancelled");
    if (call.answer) return *std::exchange(call.answer, std::nullopt);
    if (clock::now() >= deadline)
      throw rpc_error(-32603, "The client did not answer the elicitation within " +
                                  std::to_string(limits_.answer_timeout.count()) + " s");
    call.wake.wait_until(lock, std::min(deadline, clock::now() + heartbeat));
    if (call.cancelled || call.answer) continue;
    lock.unlock();
    const bool present = alive();
    lock.lock();
    if (!present) throw call_cancelled("the client left the stream");
  }
}

}  // namespace mcp
