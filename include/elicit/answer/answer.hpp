// What an answer is: the user's action, its outcome in one word, and the two values a decode
// gives (decoded: the content; response: a whole ElicitResult), with the options a decode takes.
// decode.hpp reads answers into them; result.hpp has the shape they share with the other
// "a value, or why not" types.
#pragma once

#include <elicit/answer/json_limits.hpp>
#include <elicit/answer/messages.hpp>
#include <elicit/answer/print.hpp>
#include <elicit/answer/result.hpp>
#include <elicit/answer/violation.hpp>
#include <elicit/detail/maybe_value.hpp>

#include <fmt/format.h>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>

namespace elicit {

// What the user did with the form.
enum class action {
  accept,   // submitted it (the content may still break the schema: see response::accepted)
  decline,  // said no: an explicit refusal
  cancel,   // dismissed it without choosing; also how a malformed result reads
};
template <>
inline constexpr bool detail::printable_enum<action> = true;  // print.hpp: printed by name

// What came of a question, in one word: the action, with an accepted answer split into valid
// and invalid, "missing" for a question that was not answered at all (InputResponses), and three
// that only the ask loop gives (ask.hpp): the client's error, the server's own stop, and the wait
// that ran out.
enum class outcome {
  accepted,   // accept, and the content met every rule
  invalid,    // accept with content that broke a rule, or a malformed result
  declined,   // decline
  cancelled,  // cancel
  missing,    // no answer under the question's key
  error,      // the client answered the request with a JSON-RPC error (ask(): not the user's doing)
  stopped,    // the server stopped waiting: the call was cancelled (ask_loop::stop; not the user's cancel)
  timed_out,  // no reply came in time (ask_loop::stop(stop_reason::timed_out); not the user's doing either)
};
template <>
inline constexpr bool detail::printable_enum<outcome> = true;  // print.hpp: printed by name

// The limits hold on every path: decode(text) checks the text as it reads it, decode(json)
// and decode_content check the value they are given (elicit::exceeds) before reading it.
struct decode_options {
  // Report keys the form does not have (additionalProperties) and, in decode(text), keys the
  // content holds twice (duplicateKey). Not strict: other keys are ignored, and of a repeated
  // key the last value is read, as JSON.parse and nlohmann::json::parse read it.
  bool strict = false;
  std::size_t max_bytes = std::size_t{1024} * 1024;  // longer text (or a value that long as text) is refused unread
  std::size_t max_depth = 32;                        // deeper nesting of lists and objects is refused
  std::size_t max_violations = 100;                  // violations listed per answer; then one says how many more
  // Text fields (std::string) refuse NUL and the Unicode direction controls U+202A to U+202E and
  // U+2066 to U+2069 (keyword "plainText"; detail/text_policy.hpp says why). False: kept.
  bool plain_text = true;
  // The catalogue the violations' messages and a re-ask are written in (messages.hpp); nullptr:
  // English. Not owned: it must outlive the decode, and the ask loop that uses these options.
  const messages* words = nullptr;

  [[nodiscard]] json_limits limits() const noexcept { return {max_bytes, max_depth}; }
};

// The content of an answer, decoded: a T, or the violations that kept it from being one.
template <class T>
class decoded {
 public:
  explicit decoded(T value) : value_(std::move(value)) {}
  explicit decoded(violation_list violations) : violations_(std::move(violations)) {}

  [[nodiscard]] bool has_value() const noexcept { return value_.has_value(); }
  explicit operator bool() const noexcept { return has_value(); }
  // Throws bad_answer_access, with the violations, when there is no value.
  [[nodiscard]] const T& value() const& {
    return value_.template get<bad_answer_access>([this] { return why(); });
  }
  [[nodiscard]] T&& value() && {
    return std::move(value_).template get<bad_answer_access>([this] { return why(); });
  }
  const T& operator*() const& { return value(); }
  auto operator->() const { return detail::arrow_of(value()); }  // as response's
  // Why there is no value: outcome::invalid (the violations say what), or empty (result.hpp).
  [[nodiscard]] std::optional<elicit::outcome> error() const noexcept {
    if (has_value()) return std::nullopt;
    return elicit::outcome::invalid;
  }
  [[nodiscard]] const violation_list& violations() const& noexcept { return violations_; }
  [[nodiscard]] violation_list violations() && noexcept { return std::move(violations_); }

 private:
  [[nodiscard]] std::string why() const { return fmt::format("elicit: the answer is invalid: {}", violations_); }

  detail::maybe_value<T> value_;
  violation_list violations_;
};

// A decoded ElicitResult: the action, and for an accepted answer its value or violations.
template <class T>
class response {
 public:
  response(elicit::action a, std::optional<T>&& value, violation_list violations)
      : action_(a), value_(std::move(value)), violations_(std::move(violations)) {}
  response(elicit::action a, const std::optional<T>& value, violation_list violations)
      : action_(a), value_(value), violations_(std::move(violations)) {}

  // The answer to a question that was not answered: reads as cancel, outcome missing.
  static response missing(violation why) {
    response r(elicit::action::cancel, std::nullopt, violation_list({std::move(why)}));
    r.missing_ = true;
    return r;
  }

  [[nodiscard]] elicit::action action() const noexcept { return action_; }
  [[nodiscard]] elicit::outcome outcome() const noexcept {
    if (missing_) return elicit::outcome::missing;
    if (accepted()) return elicit::outcome::accepted;
    if (action_ == elicit::action::accept || !violations_.empty()) return elicit::outcome::invalid;
    return action_ == elicit::action::decline ? elicit::outcome::declined : elicit::outcome::cancelled;
  }
  // True when the user accepted and the content met every rule of the schema.
  [[nodiscard]] bool accepted() const noexcept { return action_ == elicit::action::accept && value_.has_value(); }
  // The same, as every result type says it (result.hpp).
  [[nodiscard]] bool has_value() const noexcept { return accepted(); }
  explicit operator bool() const noexcept { return accepted(); }
  // Why there is no valid answer: the outcome (invalid, declined, cancelled, missing), or empty
  // when accepted.
  [[nodiscard]] std::optional<elicit::outcome> error() const noexcept {
    if (accepted()) return std::nullopt;
    return outcome();
  }
  // Throws bad_answer_access when there is no valid answer: declined, cancelled, missing, or
  // the violations of an invalid one.
  [[nodiscard]] const T& value() const {
    return value_.template get<bad_answer_access>([this]() -> std::string {
      if (action_ == elicit::action::decline && violations_.empty()) return "elicit: the user declined the form";
      if (action_ == elicit::action::cancel && violations_.empty() && !missing_)
        return "elicit: the user cancelled the form";
      return fmt::format("elicit: no valid answer: {}", violations_);
    });
  }
  const T& operator*() const { return value(); }
  // The answer's members; for a one-question form (elicit::single), its one value's
  // (`r->size()` of a text). Throws as value() does.
  auto operator->() const { return detail::arrow_of(value()); }
  [[nodiscard]] const violation_list& violations() const& noexcept { return violations_; }
  // Of a response about to go: the list itself, moved out (its views stay valid while it lives).
  [[nodiscard]] violation_list violations() && noexcept { return std::move(violations_); }

 private:
  elicit::action action_;
  detail::maybe_value<T> value_;
  violation_list violations_;
  bool missing_ = false;
};

}  // namespace elicit
