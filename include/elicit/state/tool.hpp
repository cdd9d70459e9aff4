// A tool that asks, written once and served at both protocol versions (MCP 2025-11-25 and
// 2026-07-28). CMake target elicit::state (it seals the answers of 2026-07-28: OpenSSL).
//
//   elicit::tool<std::string> book(const Carrier& carrier) {
//     auto address = co_await elicit::question<DeliveryAddress>("address", "Where should it go?");
//     if (!address.accepted()) co_return "Not booked.";
//     auto slot = co_await elicit::question("slot", slot_form(carrier.free_slots()), "When?");
//     ...
//     co_return "Booked for " + slot->slot->value + ".";
//   }
//
// run_tool(send, book(carrier)) runs it at 2025-11-25, tool_round(book(carrier), params, ring,
// binding) one request of it at 2026-07-28 (the two headers below).
//
// The tool is a coroutine of elicit's own type that only ever awaits its questions: one
// (co_await elicit::question(key, form, message)) or several asked in one round
// (co_await elicit::together(q1, q2, ...)). Each co_await gives what elicit::ask gives, an
// ask_result<Form>, with the same outcomes, re-asks and attempt counts in both eras.
//
// How each era runs it (each driver in a header of its own):
// - 2025-11-25 (tool_loop, run_tool: <elicit/state/tool_loop.hpp>; async_run_tool:
//   <elicit/asio/tool.hpp>): the tool runs once. Each question goes
//   through an ask_loop (<elicit/protocol/ask.hpp>): an invalid answer is asked again in plain words
//   with its valid parts prefilled; questions asked together are sent one after another.
// - 2026-07-28 (tool_round: <elicit/state/tool_round.hpp>): the tool runs again from the start
//   on every retry (replay). The
//   answers given so far ride in the sealed requestState (<elicit/state/state.hpp>, bound to the
//   binding given: audience, principal, method, target, arguments); each question is fed its
//   recorded answers through the same ask_loop, so it ends as it would have at 2025-11-25,
//   and the first one still unanswered stops the run: its frame is destroyed, and every
//   question the tool asked at that co_await that is still open goes into one
//   InputRequiredResult, asked in the same words (a re-ask included) as 2025-11-25 would ask.
//
// The tool must be deterministic up to its questions: run again with the same answers, it asks
// the same questions in the same order. Each recorded answer is pinned to the question it
// answered, by a digest of the message and the requestedSchema (run-time choices, bounds and
// defaults included): a question that changed between rounds (the free slots are not the same
// any more) is asked again, never answered with a stale answer. Do the tool's other waiting
// (a database, a carrier's API) before it runs or after it returns; what it reads while it runs
// it reads again on every retry.
#pragma once

#include <elicit/answer/decode.hpp>
#include <elicit/answer/print.hpp>
#include <elicit/form/form.hpp>
#include <elicit/protocol/ask.hpp>
#include <elicit/protocol/protocol.hpp>
#include <elicit/state/state.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <coroutine>
#include <cstddef>
#include <exception>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace elicit {

namespace detail {

// One question as a driver sees it, whatever its form: its key, the digest of what it asks,
// and its ask_loop once begun. digest() is read before begin(), which moves the form into the loop.
class asked_question {
 public:
  [[nodiscard]] virtual const std::string& key() const noexcept = 0;
  [[nodiscard]] virtual std::string digest() const = 0;
  virtual void begin(const ask_options& options) = 0;
  [[nodiscard]] virtual bool done() const noexcept = 0;
  [[nodiscard]] virtual nlohmann::ordered_json params() const = 0;
  virtual void take(const nlohmann::json& reply) = 0;
  virtual void stop(stop_reason why) noexcept = 0;
  [[nodiscard]] virtual std::size_t attempt() const noexcept = 0;

 protected:
  asked_question() = default;
  asked_question(const asked_question&) = default;
  asked_question(asked_question&&) = default;
  asked_question& operator=(const asked_question&) = default;
  asked_question& operator=(asked_question&&) = default;
  ~asked_question() = default;  // owned by its question, never deleted through this base
};

// What the tool's frame tells its driver: the questions it waits on (in the awaiter, which
// lives in the frame while it is suspended) and the exception it ended with.
struct tool_promise_base {
  std::span<asked_question* const> waiting;
  std::exception_ptr failure;
};

template <class T>
inline constexpr bool is_question_awaitable = false;

// The digest a recorded answer is pinned to: SHA-256 of the message (its length first, so that
// no text moves between the two parts) and the requestedSchema, 128 bits as hex.
inline std::string question_digest(std::string_view message_text, std::string_view schema_json) {
  std::string head = std::to_string(message_text.size());
  head += ':';
  head += message_text;
  const auto hash = sha256(head, schema_json);
  return hex_of(std::span(hash.data(), 16));
}

struct tool_access;

}  // namespace detail

// One question of a tool, under its key: a form (static, or refined at run time) and a message.
// co_await it in an elicit::tool: it gives the ask_result<Form> that elicit::ask would give.
//
//   auto address = co_await elicit::question<DeliveryAddress>("address", "Where should it go?");
//   auto slot = co_await elicit::question("slot", elicit::form<DeliverySlot>().choices(...), "When?");
//
// The key names the question in the InputRequiredResult of 2026-07-28 and in the recorded
// answers: each question of a call needs a key of its own (the spec: keys are unique within the
// request), and the same question keeps the same key on every run.
template <class Form>
class question final : public detail::asked_question {
 public:
  // Throws only std::bad_alloc.
  question(std::string key, elicit::form<Form> f, std::string message)
      : key_(std::move(key)), form_(std::move(f)), message_(std::move(message)) {}
  question(std::string key, std::string message) : question(std::move(key), elicit::form<Form>(), std::move(message)) {}

  [[nodiscard]] bool await_ready() const noexcept { return false; }
  template <class Promise>
  void await_suspend(std::coroutine_handle<Promise> h) noexcept {
    static_assert(std::is_base_of_v<detail::tool_promise_base, Promise>,
                  "elicit::question: co_await a question inside an elicit::tool coroutine; a driver (run_tool, "
                  "async_run_tool, tool_round) asks it");
    self_[0] = this;
    h.promise().waiting = self_;
  }
  // What came of it; the driver resumes the tool only once the question is done.
  ask_result<Form> await_resume() { return std::move(*loop_).result(); }

  [[nodiscard]] const std::string& key() const noexcept override { return key_; }
  // Throws form_error when an elicit::choice field has no choices.
  [[nodiscard]] std::string digest() const override { return detail::question_digest(message_, form_.schema_json()); }
  void begin(const ask_options& options) override { loop_.emplace(std::move(form_), message_, options); }
  [[nodiscard]] bool done() const noexcept override { return loop_->done(); }
  [[nodiscard]] nlohmann::ordered_json params() const override { return loop_->params(); }
  void take(const nlohmann::json& reply) override { loop_->take(reply); }
  void stop(stop_reason why) noexcept override { loop_->stop(why); }
  [[nodiscard]] std::size_t attempt() const noexcept override { return loop_->attempt(); }

 private:
  std::string key_;
  elicit::form<Form> form_;
  std::string message_;
  std::optional<ask_loop<Form>> loop_;
  std::array<detail::asked_question*, 1> self_{};
};

// Several questions asked in one round: at 2026-07-28 one InputRequiredResult holds them all;
// at 2025-11-25 they are asked one after another, in order. co_await gives a std::tuple of their
// ask_results, in the same order:
//
//   auto [slot, options] = co_await elicit::together(elicit::question(...), elicit::question(...));
template <class... Forms>
class together_t {
 public:
  explicit together_t(question<Forms>... questions) : questions_(std::move(questions)...) {}

  [[nodiscard]] bool await_ready() const noexcept { return false; }
  template <class Promise>
  void await_suspend(std::coroutine_handle<Promise> h) noexcept {
    std::apply([this](auto&... q) { slots_ = {&q...}; }, questions_);
    h.promise().waiting = slots_;
  }
  std::tuple<ask_result<Forms>...> await_resume() {
    return std::apply([](auto&... q) { return std::tuple<ask_result<Forms>...>(q.await_resume()...); }, questions_);
  }

 private:
  std::tuple<question<Forms>...> questions_;
  std::array<detail::asked_question*, sizeof...(Forms)> slots_{};
};

template <class... Forms>
  requires(sizeof...(Forms) > 0)
[[nodiscard]] together_t<Forms...> together(question<Forms>... questions) {
  return together_t<Forms...>(std::move(questions)...);
}

namespace detail {
template <class Form>
inline constexpr bool is_question_awaitable<question<Form>> = true;
template <class... Forms>
inline constexpr bool is_question_awaitable<together_t<Forms...>> = true;
}  // namespace detail

// The coroutine type of a tool that asks, returning R (a tool's result, a prompt's, any value).
// It starts only when a driver runs it, and awaits nothing but its questions: at 2026-07-28 it
// is run again from the start on every retry, so other waiting inside it would be done again.
template <class R>
class tool {
  static_assert(!std::is_void_v<R> && !std::is_reference_v<R>,
                "elicit::tool<R>: R is what the tool returns, a value (a result JSON, a string): not void, not a "
                "reference");

 public:
  struct promise_type : detail::tool_promise_base {
    std::optional<R> value;

    tool get_return_object() noexcept { return tool(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(R v) { value.emplace(std::move(v)); }
    void unhandled_exception() noexcept { failure = std::current_exception(); }

    template <class Awaitable>
    Awaitable&& await_transform(Awaitable&& a) noexcept {
      static_assert(detail::is_question_awaitable<std::remove_cvref_t<Awaitable>>,
                    "elicit::tool: a tool co_awaits only its questions (elicit::question, elicit::together); do "
                    "other waiting before the tool runs or after it returns: at 2026-07-28 it runs again from the "
                    "start on every retry");
      return std::forward<Awaitable>(a);
    }
  };

  tool(tool&& other) noexcept : h_(std::exchange(other.h_, {})) {}
  tool& operator=(tool&& other) noexcept {
    if (this != &other) {
      reset();
      h_ = std::exchange(other.h_, {});
    }
    return *this;
  }
  tool(const tool&) = delete;
  tool& operator=(const tool&) = delete;
  ~tool() { reset(); }

 private:
  friend struct detail::tool_access;
  explicit tool(std::coroutine_handle<promise_type> h) noexcept : h_(h) {}
  void reset() noexcept {
    if (h_) h_.destroy();
    h_ = {};
  }

  std::coroutine_handle<promise_type> h_;
};

namespace detail {

// What the drivers do with a tool's frame.
struct tool_access {
  // Runs the tool until it awaits its next questions or returns; true when it returned (or threw).
  template <class R>
  static bool resume(tool<R>& t) {
    if (!t.h_) throw std::logic_error("elicit::tool: this tool was moved from or already run");
    t.h_.promise().waiting = {};
    t.h_.resume();
    return t.h_.done();
  }
  template <class R>
  static std::span<asked_question* const> waiting(const tool<R>& t) noexcept {
    return t.h_.promise().waiting;
  }
  // The returned value, or the exception the tool ended with.
  template <class R>
  static R result(tool<R>& t) {
    auto& p = t.h_.promise();
    if (p.failure) std::rethrow_exception(p.failure);
    return std::move(*p.value);
  }
  // Destroys the frame (and the questions it waits on).
  template <class R>
  static void destroy(tool<R>& t) noexcept {
    t.reset();
  }
};

// Each key once per call; throws std::logic_error naming the key asked twice.
inline void note_key(std::vector<std::string>& keys, const std::string& key) {
  if (key.empty()) throw std::logic_error("elicit::tool: a question needs a non-empty key");
  if (std::find(keys.begin(), keys.end(), key) != keys.end())
    throw std::logic_error(message("elicit::tool: the key \"", key,
                                   "\" is asked twice in one call; give each question of a call a key of its own "
                                   "(keys are unique within a request)"));
  keys.push_back(key);
}

}  // namespace detail

struct tool_options {
  ask_options ask{};  // per question, as elicit::ask: max_attempts (3) and the decode options
  // The most rounds of questions in one call, at least 1. At 2026-07-28 a round is one
  // InputRequiredResult; at 2025-11-25 the questions asked at one co_await count as one round
  // per attempt of the one asked most often (as 2026-07-28 would ask them, all at once), so that
  // the same answers meet the same cap in both eras. Past it: tool_error, too_many_rounds.
  std::size_t max_rounds = 10;
  // 2026-07-28: the most bytes of JSON the recorded answers may take in the sealed state (every
  // answer given so far in the call, as the client sent it, invalid attempts included), at most
  // 48 KiB (what seal() takes). Past it: tool_error, state_too_large, at the server; the client
  // never gets a state too large to send back. Give text fields a max_length to stay well within.
  std::size_t max_state_bytes = std::size_t{16} * 1024;
  std::chrono::seconds time_to_live = std::chrono::minutes(15);  // 2026-07-28: of each round's state
  std::chrono::seconds clock_skew = std::chrono::seconds(30);    // 2026-07-28: between the instances
  replay_guard* replay = nullptr;  // 2026-07-28, set: each round's state opens once (open_options::replay)
  // 2026-07-28: a retry with inputResponses and no requestState. false: refused, invalid_state
  // (-32602). true: its answers answer the first round, and the call goes on as from that round's
  // state. Safe because that state would hold no answer (only the binding, which the server
  // knows anyway): any caller gets one by calling without answers, so taking the answers without
  // it gives nobody more. Clients that answer from the first round's questions alone rely on it
  // (the conformance suite's missing-input-response and ignore-extra-params scenarios).
  bool answers_without_state = false;
};

// Why a call of a tool failed in the driver, not in the tool.
enum class tool_failure {
  too_many_rounds,  // max_rounds rounds were asked and the tool still waits for answers
  state_too_large,  // 2026-07-28: the answers given so far are more than max_state_bytes
  invalid_state,    // 2026-07-28: the requestState did not open (altered, expired, replayed, misplaced, missing)
  invalid_params,   // 2026-07-28: the retry's params were beyond the decode limits, or misshapen: refused unread
  // 2026-07-28: the tool would ask a form of a client whose request declares no form-mode
  // elicitation: -32021 (MissingRequiredClientCapabilityError), data() naming the capability
  missing_capability,
};
template <>
inline constexpr bool detail::printable_enum<tool_failure> = true;  // print.hpp: printed by name

// What a driver throws for a call it cannot go on with. what() is for the server's log (for an
// invalid state: why it did not open); code() and client_message() are what the client is
// told, error_response(id) the JSON-RPC error itself. An invalid state is always -32602 with
// invalid_state_message, whatever the reason, as invalid_state_error gives it.
class tool_error : public std::runtime_error {
 public:
  tool_error(tool_failure failure, int code, std::string client_message, const std::string& log_message,
             nlohmann::json data = nullptr)
      : std::runtime_error(log_message),
        failure_(failure),
        code_(code),
        client_(std::move(client_message)),
        data_(std::move(data)) {}

  [[nodiscard]] tool_failure failure() const noexcept { return failure_; }
  [[nodiscard]] int code() const noexcept { return code_; }
  [[nodiscard]] const std::string& client_message() const noexcept { return client_; }
  // The error's data, or null: for missing_capability {"requiredCapabilities":{...}}.
  [[nodiscard]] const nlohmann::json& data() const noexcept { return data_; }

  // {"jsonrpc":"2.0","id":...,"error":{"code":...,"message":...[,"data":...]}}. Throws only
  // std::bad_alloc.
  template <detail::ordered_json_type Json = nlohmann::ordered_json>
  [[nodiscard]] Json error_response(const nlohmann::json& id) const {
    Json error{{"code", code_}, {"message", client_}};
    if (!data_.is_null()) error["data"] = data_;
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}};
  }

 private:
  tool_failure failure_;
  int code_;
  std::string client_;
  nlohmann::json data_;
};

namespace detail {

inline tool_error too_many_rounds(std::size_t rounds) {
  return {tool_failure::too_many_rounds, -32602,
          message("The tool asked ", rounds,
                  " rounds of questions, the most it may ask, and still needs answers; "
                  "call it again to start over."),
          message("elicit::tool: ", rounds,
                  " rounds of questions asked (tool_options::max_rounds) and the tool "
                  "still waits for answers")};
}

// In the words of missing_capability_error (protocol.hpp), written once there.
inline tool_error no_form_mode(std::string_view key) {
  const nlohmann::json required{{"elicitation", {{"form", nlohmann::json::object()}}}};
  const nlohmann::ordered_json error = missing_capability_error(nullptr, required)["error"];
  return {tool_failure::missing_capability, -32021, error["message"].get<std::string>(),
          message("elicit::tool: the client did not declare form-mode elicitation; it cannot be asked \"", key, "\""),
          nlohmann::json(error["data"])};
}

inline tool_error invalid_state(std::string_view why) {
  return {tool_failure::invalid_state, -32602, std::string(invalid_state_message),
          message("elicit::tool: requestState refused: ", why)};
}

}  // namespace detail

}  // namespace elicit
