// Asking until the answer is valid: the ask loop of 2025-11-25, and the same re-ask for the
// rounds of 2026-07-28.
//
// 2025-11-25, over any transport: `send` takes the params of an `elicitation/create` and returns
// the client's JSON-RPC response to it ({"result": ElicitResult} or {"error": {...}}).
//
//   auto asked = elicit::ask(send, elicit::form<Address>(), "Where should the parcel go?");
//   switch (asked.outcome()) {
//     case elicit::outcome::accepted: ship_to(*asked); break;
//     case elicit::outcome::invalid:  ...  // still invalid after the last attempt
//     case elicit::outcome::error:    ...  // the client answered with an error: not the user's doing
//     ...
//   }
//
// On an invalid answer the form is sent again with the valid parts of that answer prefilled and
// the message followed by what to fix, in the words a person reads (the violations' messages;
// no JSON Pointer, no keyword: those stay in violations() for logs and errors).
//
// 2026-07-28 has no loop inside one request: each round is a retry. reask() gives the form and
// message of the next round; the attempts so far travel in the server's sealed state.
#pragma once

#include <elicit/answer/decode.hpp>
#include <elicit/answer/print.hpp>
#include <elicit/answer/violation.hpp>
#include <elicit/form/form.hpp>
#include <elicit/protocol/protocol.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace elicit {

// The message of a form asked again: the first message, then what to fix, one line each, in
// the violations' own words, under the header of their catalogue (violation_list::words():
// "Please correct these:" in English). Throws only std::bad_alloc.
[[nodiscard]] inline std::string reask_message(std::string_view message, const violation_list& violations) {
  std::string text(message);
  text += "\n\n";
  detail::scratch_sink header;
  if (violations.size() == 1) violations.words().write(header, detail::say<message_kind::reask_one>);
  else violations.words().write(header, detail::say<message_kind::reask_many>);
  text += header.text();
  for (const violation_view v : violations) {
    text += "\n- ";
    text += v.message;
  }
  return text;
}

// The form and message of the next attempt after `answer` (the client's ElicitResult) broke the
// rules: the answer's valid fields prefilled, the message saying what to fix.
template <class Form>
struct next_attempt {
  elicit::form<Form> form;
  std::string message;
};

template <class Form>
[[nodiscard]] next_attempt<Form> reask(elicit::form<Form> f, std::string_view message, const nlohmann::json& answer,
                                       const violation_list& violations) {
  if (answer.is_object())
    if (const auto content = answer.find("content"); content != answer.end()) f.prefill_valid(*content);
  return {std::move(f), reask_message(message, violations)};
}

struct ask_options {
  std::size_t max_attempts = 3;  // how many times the form is sent, at most (at least once)
  decode_options decode{};
};

// Why the server stopped waiting: neither is the user's doing, so neither reads as the user's
// cancel. Each has its outcome (cancelled: outcome::stopped; timed_out: outcome::timed_out), since
// a transport ends the two differently (a cancelled call has no response; one that waited too
// long says so); stop_reason() says the same for code that reads the reason.
enum class stop_reason {
  cancelled,  // the server cancelled: an Asio cancellation, the client's notifications/cancelled
  timed_out,  // no reply came in time
};
template <>
inline constexpr bool detail::printable_enum<stop_reason> = true;  // print.hpp: printed by name

// What came of ask(): the last answer, how many times the form was sent, and the client's
// JSON-RPC error or the server's stop when one ended the loop.
template <class Form>
class ask_result {
 public:
  ask_result(response<Form> answer, std::size_t attempts, std::optional<nlohmann::json> error = std::nullopt)
      : answer_(std::move(answer)), attempts_(attempts), error_(std::move(error)) {}
  // The server stopped waiting; `answer` is the last answer before the stop, or a cancel.
  ask_result(response<Form> answer, std::size_t attempts, elicit::stop_reason why)
      : answer_(std::move(answer)), attempts_(attempts), stopped_(why) {}

  // outcome::error when the client sent a JSON-RPC error, outcome::stopped when the server
  // stopped waiting (cancelled), outcome::timed_out when no reply came in time; otherwise the
  // last answer's outcome.
  [[nodiscard]] elicit::outcome outcome() const noexcept {
    if (error_) return elicit::outcome::error;
    if (stopped_)
      return *stopped_ == elicit::stop_reason::timed_out ? elicit::outcome::timed_out : elicit::outcome::stopped;
    return answer_.outcome();
  }
  [[nodiscard]] bool accepted() const noexcept { return !error_ && !stopped_ && answer_.accepted(); }
  // The same, as every result type says it (result.hpp).
  [[nodiscard]] bool has_value() const noexcept { return accepted(); }
  explicit operator bool() const noexcept { return accepted(); }
  // Throws bad_answer_access when there is no valid answer (see response::value).
  [[nodiscard]] const Form& value() const {
    if (stopped_)
      throw bad_answer_access(*stopped_ == elicit::stop_reason::timed_out
                                  ? "elicit: no answer: the server stopped waiting (timed out)"
                                  : "elicit: no answer: the server stopped waiting (cancelled)");
    return answer_.value();
  }
  const Form& operator*() const { return value(); }
  // As response's: the form's members, or a one-question form's one value's.
  auto operator->() const { return detail::arrow_of(value()); }

  [[nodiscard]] const response<Form>& answer() const noexcept { return answer_; }
  [[nodiscard]] const violation_list& violations() const& noexcept { return answer_.violations(); }
  [[nodiscard]] violation_list violations() && noexcept { return std::move(answer_).violations(); }
  [[nodiscard]] std::size_t attempts() const noexcept { return attempts_; }
  // Why there is no valid answer: the outcome (invalid, declined, cancelled, missing, error,
  // stopped, timed_out), or empty when accepted (result.hpp).
  [[nodiscard]] std::optional<elicit::outcome> error() const noexcept {
    if (accepted()) return std::nullopt;
    return outcome();
  }
  // The client's JSON-RPC error object ({"code":...,"message":...}), when it ended the loop
  // (outcome::error).
  [[nodiscard]] const std::optional<nlohmann::json>& client_error() const noexcept { return error_; }
  // Why the server stopped waiting, when it did (outcome::stopped or outcome::timed_out).
  [[nodiscard]] std::optional<elicit::stop_reason> stop_reason() const noexcept { return stopped_; }

 private:
  response<Form> answer_;
  std::size_t attempts_;
  std::optional<nlohmann::json> error_;
  std::optional<elicit::stop_reason> stopped_;
};

// The ask loop as a value, with no I/O (sans-I/O): whoever holds it sends params() as an
// elicitation/create, hands the client's response to take(), and does it again until done().
// elicit::ask (here, blocking) and elicit::async_ask (<elicit/asio/ask.hpp>, a coroutine) are such
// drivers; a server with its own event loop can be one too.
//
//   elicit::ask_loop loop(elicit::form<Address>(), "Where should the parcel go?");
//   while (!loop.done()) loop.take(send(loop.params()));
//   auto asked = std::move(loop).result();
//
// A loop is born asking: attempt() is 1, and params() the form to send first. Its state is
// explicit and independent of the transport (what is asked now: form() and message(); how often:
// attempt(); the last answer: last_answer()), and params() carry no JSON-RPC id: the driver
// numbers its requests. While it waits it holds the form, the two messages and the last answer;
// the params are built afresh by params() and held by no one once sent.
template <class Form>
class ask_loop {
 public:
  // Throws only std::bad_alloc.
  ask_loop(elicit::form<Form> f, std::string_view message, const ask_options& options = {})
      : form_(std::move(f)),
        message_(message),
        text_(message),
        decode_(options.decode),
        max_attempts_(options.max_attempts == 0 ? 1 : options.max_attempts) {}
  explicit ask_loop(std::string_view message, const ask_options& options = {})
      : ask_loop(elicit::form<Form>(), message, options) {}

  // True once the answer is valid, declined or cancelled, the client erred, max_attempts forms
  // were sent, or the server stopped the loop.
  [[nodiscard]] bool done() const noexcept { return state_ != state::waiting; }

  // The params of the elicitation/create to send for attempt(): the same each time it is called
  // (a driver may send them again). Throws std::logic_error when done(), and form_error when an
  // elicit::choice field of the form has no choices.
  [[nodiscard]] nlohmann::ordered_json params() const {
    if (done()) throw std::logic_error("elicit::ask_loop::params: the loop is done; read result()");
    return form_params(form_, text_);
  }

  // The client's JSON-RPC response to the last params: an object with "result" (the
  // ElicitResult) or "error"; an object with neither is read as the ElicitResult itself, and
  // anything else as a malformed result (outcome invalid, not asked again: a malformed result
  // is not the user's to fix). Either the loop is done, or params() are the next form: the
  // answer's valid fields prefilled, the message saying what to fix. Throws std::logic_error
  // when done() (a reply that comes after the server stopped belongs to no one), else only
  // std::bad_alloc.
  void take(const nlohmann::json& reply) {
    if (done()) throw std::logic_error("elicit::ask_loop::take: the loop is done; a late reply belongs to no one");
    if (reply.is_object())
      if (const auto error = reply.find("error"); error != reply.end()) {
        error_ = *error;
        state_ = state::finished;
        return;
      }
    const bool wrapped = reply.is_object() && reply.contains("result");
    const nlohmann::json& result = wrapped ? reply["result"] : reply;
    last_.emplace(form_.decode(result, decode_));
    // Only an accepted answer that broke a rule is the user's to fix; a malformed result is not.
    if (last_->action() != action::accept || last_->accepted() || attempt_ == max_attempts_) {
      state_ = state::finished;
      return;
    }
    next_attempt<Form> next = reask(std::move(form_), message_, result, last_->violations());
    form_ = std::move(next.form);
    text_ = std::move(next.message);
    ++attempt_;
  }

  // The server stops waiting (the call was cancelled, or no reply came in time): the loop is
  // done with outcome::stopped or outcome::timed_out, and the reason. Nothing when it is already done (the answer came
  // first). Never throws.
  void stop(elicit::stop_reason why) noexcept {
    if (done()) return;
    stopped_ = why;
    state_ = state::finished;
  }

  // What came of it: throws std::logic_error when the loop is not done.
  [[nodiscard]] ask_result<Form> result() const& { return finish(*this); }
  [[nodiscard]] ask_result<Form> result() && { return finish(std::move(*this)); }

  // The number of the form sent or to be sent now, from 1 to max_attempts.
  [[nodiscard]] std::size_t attempt() const noexcept { return attempt_; }
  [[nodiscard]] std::size_t max_attempts() const noexcept { return max_attempts_; }
  // What is asked now: the form (the prefilled defaults included) and the message (the first
  // message, then what to fix).
  [[nodiscard]] const elicit::form<Form>& form() const noexcept { return form_; }
  [[nodiscard]] const std::string& message() const noexcept { return text_; }
  // The message the loop was given, before any correction.
  [[nodiscard]] const std::string& first_message() const noexcept { return message_; }
  // The last answer decoded, when a result has come (none after a JSON-RPC error alone).
  [[nodiscard]] const response<Form>* last_answer() const noexcept { return last_ ? &*last_ : nullptr; }

 private:
  enum class state : unsigned char { waiting, finished };

  template <class Loop>
  static ask_result<Form> finish(Loop&& loop) {
    if (!loop.done()) throw std::logic_error("elicit::ask_loop::result: the loop is not done; take() the reply first");
    // A JSON-RPC error ends the loop with no answer of its own: a cancel, as ask() always gave.
    if (loop.error_)
      return {response<Form>(action::cancel, std::nullopt, {}), loop.attempt_, std::forward<Loop>(loop).error_};
    response<Form> answer =
        loop.last_ ? *std::forward<Loop>(loop).last_ : response<Form>(action::cancel, std::nullopt, {});
    if (loop.stopped_) return {std::move(answer), loop.attempt_, *loop.stopped_};
    return {std::move(answer), loop.attempt_};
  }

  elicit::form<Form> form_;
  std::string message_;
  std::string text_;
  std::optional<response<Form>> last_;
  std::optional<nlohmann::json> error_;
  decode_options decode_;
  std::size_t max_attempts_;
  std::size_t attempt_ = 1;
  std::optional<elicit::stop_reason> stopped_;
  state state_ = state::waiting;
};

// Asks `f` through `send` until the answer is valid, declined or cancelled, the client errs, or
// max_attempts forms were sent: ask_loop driven by a blocking call. `send(params)` sends an
// elicitation/create with these params and returns the client's JSON-RPC response: an object
// with "result" (the ElicitResult) or "error"; an object with neither is read as the
// ElicitResult itself. Throws what `send` throws, and form_error when an elicit::choice field
// of `f` has no choices.
template <class Form, class Send>
[[nodiscard]] ask_result<Form> ask(Send&& send, elicit::form<Form> f, std::string_view message,
                                   const ask_options& options = {}) {
  ask_loop<Form> loop(std::move(f), message, options);
  while (!loop.done()) loop.take(send(loop.params()));
  return std::move(loop).result();
}

// The same for a form with nothing set at run time.
template <class Form, class Send>
[[nodiscard]] ask_result<Form> ask(Send&& send, std::string_view message, const ask_options& options = {}) {
  return ask(std::forward<Send>(send), elicit::form<Form>(), message, options);
}

}  // namespace elicit
