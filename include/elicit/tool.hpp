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
//   // 2025-11-25: each question is an elicitation/create through `send` (or co_await
//   // elicit::async_run_tool from Asio, <elicit/asio_tool.hpp>).
//   std::string text = elicit::run_tool(send, book(carrier));
//   // 2026-07-28: one round per request, nothing kept between requests.
//   elicit::round_result<std::string> round = elicit::tool_round(book(carrier), params, ring, binding);
//   if (!round.done()) return round.input_required();   // the InputRequiredResult of this round
//   return text_result(round.value());
//
// The tool is a coroutine of elicit's own type that only ever awaits its questions: one
// (co_await elicit::question(key, form, message)) or several asked in one round
// (co_await elicit::together(q1, q2, ...)). Each co_await gives what elicit::ask gives, an
// ask_result<Form>, with the same outcomes, re-asks and attempt counts in both eras.
//
// How each era runs it:
// - 2025-11-25 (tool_loop, run_tool, async_run_tool): the tool runs once. Each question goes
//   through an ask_loop (<elicit/ask.hpp>): an invalid answer is asked again in plain words
//   with its valid parts prefilled; questions asked together are sent one after another.
// - 2026-07-28 (tool_round): the tool runs again from the start on every retry (replay). The
//   answers given so far ride in the sealed requestState (<elicit/state.hpp>, bound to the
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

#include <elicit/ask.hpp>
#include <elicit/decode.hpp>
#include <elicit/form.hpp>
#include <elicit/print.hpp>
#include <elicit/protocol.hpp>
#include <elicit/state.hpp>

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

// The ask loop of a whole tool at 2025-11-25, as a value with no I/O (sans-I/O), as ask_loop
// is for one question: whoever holds it sends params() as an elicitation/create, hands the
// client's response to take(), and does it again until done(); then result() is what the tool
// returned. run_tool (blocking, below) and async_run_tool (<elicit/asio_tool.hpp>) drive it.
//
//   elicit::tool_loop loop(book(carrier));
//   while (!loop.done()) loop.take(send(loop.params()));
//   std::string text = std::move(loop).result();
template <class R>
class tool_loop {
 public:
  // Runs the tool up to its first question. Throws only std::bad_alloc (what the tool throws
  // comes out of result()).
  explicit tool_loop(tool<R> t, const tool_options& options = {}) : tool_(std::move(t)), options_(options) {
    options_.max_rounds = std::max<std::size_t>(options_.max_rounds, 1);
    advance();
  }

  // True once the tool returned or threw, or the call failed (result() says how).
  [[nodiscard]] bool done() const noexcept { return current_ == nullptr; }

  // The params of the elicitation/create to send now: the same each time it is called. Throws
  // std::logic_error when done(), form_error as ask_loop::params does.
  [[nodiscard]] nlohmann::ordered_json params() const {
    if (done()) throw std::logic_error("elicit::tool_loop::params: the tool is done; read result()");
    return current_->params();
  }
  // The key of the question asked now. Throws std::logic_error when done().
  [[nodiscard]] const std::string& key() const {
    if (done()) throw std::logic_error("elicit::tool_loop::key: the tool is done; read result()");
    return current_->key();
  }

  // The client's JSON-RPC response to the last params, as ask_loop::take reads it; then the
  // next question, or the tool's end. Throws std::logic_error when done(), else only
  // std::bad_alloc.
  void take(const nlohmann::json& reply) {
    if (done()) throw std::logic_error("elicit::tool_loop::take: the tool is done; a late reply belongs to no one");
    group_rounds_ = std::max(group_rounds_, current_->attempt());
    current_->take(reply);
    advance();
  }

  // The server stops waiting (the call was cancelled, or no reply came in time): the question
  // asked now, and every one after it, ends with outcome::stopped (or timed_out) and the reason, unsent; the
  // tool runs on to its end with them. Nothing when done(). Throws only std::bad_alloc.
  void stop(stop_reason why) {
    if (done()) return;
    stopped_ = why;
    for (detail::asked_question* q : waiting_) q->stop(why);
    advance();
  }

  // What the tool returned. Throws what the tool threw, tool_error (too_many_rounds) when the
  // cap stopped it, std::logic_error for a key asked twice or when not done(), form_error for a
  // choice field with no choices.
  [[nodiscard]] R result() && {
    if (!done()) throw std::logic_error("elicit::tool_loop::result: the tool is not done; take() the reply first");
    if (failure_) std::rethrow_exception(failure_);
    return detail::tool_access::result(tool_);
  }

  // The rounds asked so far, counted as max_rounds counts them.
  [[nodiscard]] std::size_t rounds() const noexcept { return base_rounds_ + group_rounds_; }

 private:
  using access = detail::tool_access;

  // Finds the next question to send, resuming the tool whenever the questions it waits on are done.
  void advance() {
    try {
      for (;;) {
        for (detail::asked_question* q : waiting_)
          if (!q->done()) {
            if (base_rounds_ + std::max(group_rounds_, q->attempt()) > options_.max_rounds)
              throw detail::too_many_rounds(options_.max_rounds);
            current_ = q;
            return;
          }
        current_ = nullptr;
        base_rounds_ += group_rounds_;
        group_rounds_ = 0;
        waiting_ = {};
        if (access::resume(tool_)) return;
        waiting_ = access::waiting(tool_);
        for (detail::asked_question* q : waiting_) {
          detail::note_key(keys_, q->key());
          q->begin(options_.ask);
          if (stopped_) q->stop(*stopped_);
        }
      }
    } catch (...) {
      failure_ = std::current_exception();
      current_ = nullptr;
      waiting_ = {};
      access::destroy(tool_);
    }
  }

  tool<R> tool_;
  tool_options options_;
  std::span<detail::asked_question* const> waiting_;
  detail::asked_question* current_ = nullptr;
  std::vector<std::string> keys_;
  std::size_t base_rounds_ = 0, group_rounds_ = 0;
  std::optional<stop_reason> stopped_;
  std::exception_ptr failure_;
};

// Runs `t` at 2025-11-25, each question sent through `send` as ask() sends it: `send(params)`
// sends an elicitation/create with these params and returns the client's JSON-RPC response.
// Returns what the tool returned. Throws what `send` throws, and what tool_loop::result throws.
template <class R, class Send>
[[nodiscard]] R run_tool(Send&& send, tool<R> t, const tool_options& options = {}) {
  tool_loop<R> loop(std::move(t), options);
  while (!loop.done()) loop.take(send(loop.params()));
  return std::move(loop).result();
}

// What one request of a tool at 2026-07-28 gives: the tool's value, when it has every answer it
// needs, or the InputRequiredResult of the next round.
template <class R>
class round_result {
 public:
  explicit round_result(R value) : value_(std::move(value)) {}
  round_result(nlohmann::ordered_json input_required, std::size_t round)
      : input_required_(std::move(input_required)), round_(round) {}

  // True when the tool returned: value() is what it returned.
  [[nodiscard]] bool done() const noexcept { return value_.has_value(); }
  // Throws std::logic_error when the tool still waits for answers.
  [[nodiscard]] R& value() & { return checked(); }
  [[nodiscard]] R&& value() && { return std::move(checked()); }
  // {"resultType":"input_required","inputRequests":{...},"requestState":"..."}: the answer to
  // this request. Throws std::logic_error when done().
  [[nodiscard]] const nlohmann::ordered_json& input_required() const {
    if (done()) throw std::logic_error("elicit::round_result::input_required: the tool is done; read value()");
    return input_required_;
  }
  // The number of this round's InputRequiredResult in the call, from 1; 0 when done().
  [[nodiscard]] std::size_t round() const noexcept { return round_; }

 private:
  R& checked() {
    if (!done()) throw std::logic_error("elicit::round_result::value: the tool still waits for answers");
    return *value_;
  }
  std::optional<R> value_;
  nlohmann::ordered_json input_required_;
  std::size_t round_ = 0;
};

namespace detail {

// The sealed state of a tool between the rounds of 2026-07-28: what it asked last, and every
// answer given in the call so far, pinned to its question. The JSON is written ASCII-only, so
// the text fields meet the state's text policy whatever the answers hold.
struct tool_state {
  int round;            // the InputRequiredResults sent so far in this call
  std::string asked;    // ["key", ...]: the questions of the last round
  std::string answers;  // [["key", "digest", [ElicitResult, ...]], ...], in the order asked
};

struct recorded_answers {
  std::string key;
  std::string digest;
  std::vector<nlohmann::json> answers;  // as the client sent them, in order
};

inline std::string ascii_json(const nlohmann::json& j) {
  return j.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
}

// The recorded answers and the keys asked last, read back; false when they do not read as the
// shape this driver writes.
inline bool read_state(const tool_state& s, std::vector<recorded_answers>& records, std::vector<std::string>& asked) {
  const auto keys = nlohmann::json::parse(s.asked, nullptr, false);
  const auto list = nlohmann::json::parse(s.answers, nullptr, false);
  if (!keys.is_array() || !list.is_array() || s.round < 1) return false;
  for (const auto& k : keys) {
    if (!k.is_string()) return false;
    asked.push_back(k.get<std::string>());
  }
  for (const auto& r : list) {
    if (!r.is_array() || r.size() != 3 || !r[0].is_string() || !r[1].is_string() || !r[2].is_array()) return false;
    records.push_back({r[0].get<std::string>(), r[1].get<std::string>(), r[2].get<std::vector<nlohmann::json>>()});
  }
  return true;
}

inline tool_state write_state(int round, const std::vector<asked_question*>& pending,
                              const std::vector<recorded_answers>& records) {
  nlohmann::json keys = nlohmann::json::array();
  for (const asked_question* q : pending) keys.push_back(q->key());
  nlohmann::json list = nlohmann::json::array();
  for (const recorded_answers& r : records) list.push_back({r.key, r.digest, r.answers});
  return {round, ascii_json(keys), ascii_json(list)};
}

// What is wrong with the shape of a 2026-07-28 retry's params, or nullptr: inputResponses that
// is no object (null included: it is no first call either) or a requestState that is no text.
inline const char* misshapen_retry(const nlohmann::json& params) noexcept {
  if (!params.is_object()) return nullptr;
  if (const auto r = params.find("inputResponses"); r != params.end() && !r->is_object())
    return "inputResponses must be an object";
  if (const auto s = params.find("requestState"); s != params.end() && !s->is_string())
    return "requestState must be a string";
  return nullptr;
}

}  // namespace detail

// One request of `t` at 2026-07-28: `request_params` are the params of the tools/call (or
// prompts/get, resources/read) as the client sent them, its inputResponses and requestState
// included. A first call runs the tool; a retry opens the state (sealed with `ring` for exactly
// `binding`), adds the answers to the questions of the last round, and runs the tool again from
// the start, each question fed the answers it was given. It returns the tool's value, or the
// InputRequiredResult of every question still open where the tool stopped, with a fresh state.
//
// A missing answer, or an invalid one (while max_attempts allows), is asked again in a new
// round, not an error. An answer under a key the last round did not ask is not read.
//
// A retry with answers and no requestState is refused, unless options.answers_without_state:
// then its answers answer the questions of the first round (the first the tool asks at once).
//
// Throws tool_error: invalid_state (-32602, invalid_state_message) for a retry whose state is
// missing (without answers_without_state) or does not open (altered, expired, replayed with
// options.replay set, sealed for another binding), invalid_params (-32602, "Invalid params:
// inputResponses must be an object", or requestState "must be a string") for params beyond the
// decode limits or of the wrong shape, too_many_rounds when a
// round past max_rounds would be needed, state_too_large when the answers would take more than
// max_state_bytes, missing_capability (-32021, data() naming elicitation's form mode) when the
// request's capabilities declare no form mode;
// std::logic_error for a key asked twice; what the tool throws; form_error; std::bad_alloc.
template <class R>
[[nodiscard]] round_result<R> tool_round(tool<R> t, const nlohmann::json& request_params, const key_ring& ring,
                                         const state_binding& binding, const tool_options& options = {}) {
  using access = detail::tool_access;
  const input_responses answers(request_params, options.ask.decode);
  if (const auto& refused = answers.refused())
    throw tool_error(tool_failure::invalid_params, -32602, refused->message,
                     detail::message("elicit::tool: the retry's params were refused unread: ", refused->message));
  if (const char* misshapen = detail::misshapen_retry(request_params))
    throw tool_error(tool_failure::invalid_params, -32602, detail::message("Invalid params: ", misshapen),
                     detail::message("elicit::tool: the retry's params were refused unread: ", misshapen));
  int round = 0;
  std::vector<detail::recorded_answers> records;
  // The answers of a retry without a state, for the first round's questions (answers_without_state).
  bool stateless = false;
  if (answers.is_retry() && !answers.request_state() && options.answers_without_state) {
    stateless = true;
    round = 1;  // the first round counts as asked
  } else if (answers.is_retry()) {
    if (!answers.request_state()) throw detail::invalid_state("the retry has no requestState");
    open_options how;
    how.clock_skew = options.clock_skew;
    how.replay = options.replay;
    const opened<detail::tool_state> state = open<detail::tool_state>(*answers.request_state(), ring, binding, how);
    if (!state) throw detail::invalid_state(state.message());
    std::vector<std::string> asked;
    if (!detail::read_state(*state, records, asked))
      throw detail::invalid_state("the recorded answers in it do not read");
    round = state->round;
    for (const std::string& key : asked) {
      const nlohmann::json* given = answers.raw(key);
      const auto it = std::find_if(records.begin(), records.end(), [&](const auto& r) { return r.key == key; });
      if (given != nullptr && it != records.end()) it->answers.push_back(*given);
    }
  }

  const ask_options per_question = options.ask;
  std::vector<std::string> keys;
  std::vector<detail::recorded_answers> kept;
  std::vector<detail::asked_question*> pending;
  while (!access::resume(t)) {
    for (detail::asked_question* q : access::waiting(t)) {
      detail::note_key(keys, q->key());
      detail::recorded_answers record{q->key(), q->digest(), {}};
      q->begin(per_question);
      const auto old = std::find_if(records.begin(), records.end(), [&](const auto& r) { return r.key == q->key(); });
      if (old != records.end() && old->digest == record.digest) record.answers = std::move(old->answers);
      if (const nlohmann::json* given = stateless ? answers.raw(q->key()) : nullptr) record.answers.push_back(*given);
      for (const nlohmann::json& answer : record.answers) {
        if (q->done()) break;
        q->take(answer);
      }
      if (!q->done()) pending.push_back(q);
      kept.push_back(std::move(record));
    }
    stateless = false;  // the first round's questions only
    if (pending.empty()) continue;

    const std::size_t cap = std::max<std::size_t>(options.max_rounds, 1);
    if (static_cast<std::size_t>(round) >= cap) throw detail::too_many_rounds(cap);
    if (!modes_from_request(request_params).form) throw detail::no_form_mode(pending.front()->key());
    input_required out;
    for (detail::asked_question* q : pending)
      out.request(q->key(), nlohmann::ordered_json{{"method", "elicitation/create"}, {"params", q->params()}});
    const detail::tool_state next = detail::write_state(round + 1, pending, kept);
    const std::size_t bound = std::min(options.max_state_bytes, detail::max_state_bytes);
    if (const std::size_t size = to_content(next).dump().size(); size > bound)
      throw tool_error(tool_failure::state_too_large, -32602,
                       detail::message("The answers given are too large for this tool to carry between rounds (", size,
                                       " bytes, at most ", bound, ")."),
                       detail::message("elicit::tool: the recorded answers are ", size,
                                       " bytes of JSON, more than tool_options::max_state_bytes (", bound,
                                       "): give the forms' text fields a max_length, or ask fewer questions"));
    out.state(seal(next, ring, binding, options.time_to_live));
    pending.clear();
    access::destroy(t);  // the suspended frame goes: the next retry runs the tool from the start
    return {out.result(), static_cast<std::size_t>(round) + 1};
  }
  return round_result<R>(access::result(t));
}

}  // namespace elicit
