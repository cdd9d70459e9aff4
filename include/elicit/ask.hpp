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

#include <elicit/decode.hpp>
#include <elicit/form.hpp>
#include <elicit/protocol.hpp>
#include <elicit/violation.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace elicit {

// The message of a form asked again: the first message, then what to fix, one line each, in
// the violations' own words. Throws only std::bad_alloc.
[[nodiscard]] inline std::string reask_message(std::string_view message, const violation_list& violations) {
  std::string text(message);
  text += violations.size() == 1 ? "\n\nPlease correct this:" : "\n\nPlease correct these:";
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

// What came of ask(): the last answer, how many times the form was sent, and the client's
// JSON-RPC error when one ended the loop.
template <class Form>
class ask_result {
 public:
  ask_result(response<Form> answer, std::size_t attempts, std::optional<nlohmann::json> error = std::nullopt)
      : answer_(std::move(answer)), attempts_(attempts), error_(std::move(error)) {}

  // outcome::error when the client sent a JSON-RPC error; otherwise the last answer's outcome.
  [[nodiscard]] elicit::outcome outcome() const noexcept { return error_ ? elicit::outcome::error : answer_.outcome(); }
  [[nodiscard]] bool accepted() const noexcept { return !error_ && answer_.accepted(); }
  // Throws bad_answer_access when there is no valid answer (see response::value).
  [[nodiscard]] const Form& value() const { return answer_.value(); }
  const Form& operator*() const { return value(); }
  const Form* operator->() const { return &value(); }

  [[nodiscard]] const response<Form>& answer() const noexcept { return answer_; }
  [[nodiscard]] const violation_list& violations() const& noexcept { return answer_.violations(); }
  [[nodiscard]] violation_list violations() && noexcept { return std::move(answer_).violations(); }
  [[nodiscard]] std::size_t attempts() const noexcept { return attempts_; }
  // The client's JSON-RPC error object ({"code":...,"message":...}), when it ended the loop.
  [[nodiscard]] const std::optional<nlohmann::json>& error() const noexcept { return error_; }

 private:
  response<Form> answer_;
  std::size_t attempts_;
  std::optional<nlohmann::json> error_;
};

// Asks `f` through `send` until the answer is valid, declined or cancelled, the client errs, or
// max_attempts forms were sent. `send(params)` sends an elicitation/create with these params and
// returns the client's JSON-RPC response: an object with "result" (the ElicitResult) or "error";
// an object with neither is read as the ElicitResult itself. Throws what `send` throws, and
// form_error when an elicit::choice field of `f` has no choices.
template <class Form, class Send>
[[nodiscard]] ask_result<Form> ask(Send&& send, elicit::form<Form> f, std::string_view message,
                                   const ask_options& options = {}) {
  std::string text(message);
  const std::size_t attempts = options.max_attempts == 0 ? 1 : options.max_attempts;
  for (std::size_t attempt = 1;; ++attempt) {
    const nlohmann::json reply = send(form_params(f, text));
    if (reply.is_object() && reply.contains("error"))
      return {response<Form>(action::cancel, std::nullopt, {}), attempt, reply["error"]};
    const nlohmann::json& result = reply.is_object() && reply.contains("result") ? reply["result"] : reply;
    response<Form> answer = f.decode(result, options.decode);
    // Only an accepted answer that broke a rule is the user's to fix; a malformed result is not.
    if (answer.action() != action::accept || answer.accepted() || attempt == attempts)
      return {std::move(answer), attempt};
    next_attempt<Form> next = reask(std::move(f), message, result, answer.violations());
    f = std::move(next.form);
    text = std::move(next.message);
  }
}

// The same for a form with nothing set at run time.
template <class Form, class Send>
[[nodiscard]] ask_result<Form> ask(Send&& send, std::string_view message, const ask_options& options = {}) {
  return ask(std::forward<Send>(send), elicit::form<Form>(), message, options);
}

}  // namespace elicit
