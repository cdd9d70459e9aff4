// Decoding an answer: the user's reply to a form, back into the form's own struct, with every
// rule of the schema checked (the schema describes the form; it does not constrain what
// arrives), every violation reported, and accept / decline / cancel kept apart.
//
//   elicit::response<Address> r = elicit::decode<Address>(result_json);
//   switch (r.action()) {
//     case elicit::action::accept:
//       if (r.accepted()) ship_to(*r);          // r->postcode, r.value()...
//       else reask(r.violations());             // accepted, but the answer broke a rule
//       break;
//     case elicit::action::decline: ...          // the user said no
//     case elicit::action::cancel: ...           // the user dismissed the form
//   }
#pragma once

#include <elicit/detail/indices.hpp>
#include <elicit/detail/maybe_value.hpp>
#include <elicit/detail/reflection.hpp>
#include <elicit/detail/same_text.hpp>
#include <elicit/detail/utf8.hpp>
#include <elicit/impl/describe.hpp>
#include <elicit/impl/read_value.hpp>
#include <elicit/impl/reply.hpp>
#include <elicit/impl/write_value.hpp>
#include <elicit/limits.hpp>
#include <elicit/print.hpp>
#include <elicit/schema.hpp>
#include <elicit/violation.hpp>

#include <boost/pfr.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

namespace detail {

// What `->` on an answer gives: the form, or for a one-question form (elicit::single) its one
// value, so that `r->size()` reads the text the user gave.
template <class Form>
const auto* arrow_of(const Form& form) noexcept {
  if constexpr (requires { typename Form::elicit_one_value; }) return &form.get();
  else return &form;
}

}  // namespace detail

// Thrown by value() when there is no valid answer to give.
class bad_answer_access : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

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

namespace detail {

template <class M>
auto& value_of(M& member) {
  if constexpr (is_field<std::remove_cv_t<M>>) return member.value;
  else return member;
}

// Where decoding finds the description of each field: compile-time constants for a type
// (`static_specs`: the checks fold into the code), or the values a form<F> was refined to.
template <class Form>
struct static_specs {
  static constexpr std::span<const field_spec> all() noexcept { return form_spec<Form>; }
  static constexpr const field_spec& at(std::size_t i) noexcept { return form_spec<Form>[i]; }
};
template <class Form>
struct runtime_specs {
  std::span<const field_spec> specs;
  [[nodiscard]] std::span<const field_spec> all() const noexcept { return specs; }
  [[nodiscard]] const field_spec& at(std::size_t i) const noexcept { return specs[i]; }
};

// The longest unknown key a violation names (its pointer and message); longer ones are counted.
inline constexpr std::size_t max_shown_key = 128;

// A key of the content as a message part: `"key"`, or, when it is long or not UTF-8 (JSON built
// in the program, not parsed, may not be), `A key of 300 bytes`: never repeated back then, so
// that every violation stays short.
struct named_key {
  std::string_view key;

  [[nodiscard]] bool shown() const noexcept { return is_utf8(key) && key.size() <= max_shown_key; }
  template <class Sink>
  void write(Sink& out, const messages& words) const {
    if (shown()) words.write(out, say<message_kind::key_named>, key);
    else if (is_utf8(key)) words.write(out, say<message_kind::key_long>, key.size());
    else words.write(out, say<message_kind::key_long_not_utf8>, key.size());
  }
};

// One violation per key of `keys`, kind K's sentence, at the key's pointer (at the content's,
// for a key not repeated back).
template <message_kind K>
void report_keys(std::span<const std::string_view> keys, const char* keyword, kind_tag<K> kind,
                 violation_list& violations) {
  for (std::string_view key : keys) {
    const named_key named{key};
    if (named.shown()) reporter{violations, key}(keyword, kind, named);
    else reporter::whole(violations)(keyword, kind, named);
  }
}

// Keys the form does not have (strict), and (strict, decode(text)) keys the content holds more
// than once: the client and the server may each have read another of its values, so the answer
// is refused rather than guessed at.
inline void report_unknown_keys(const reply& r, violation_list& violations) {
  report_keys(r.unknown, "additionalProperties", say<message_kind::unknown_key>, violations);
  report_keys(r.repeated, "duplicateKey", say<message_kind::repeated_key>, violations);
}

// Reads one field's value (absent: its default, nothing, or "required") into `target`. A
// template on the member's type only, shared by every form with a member of that type: what
// is written per form stays one call per field (compiler memory per form, docs/performance.md).
template <class T>
void read_field(value_view value, const field_spec& s, T& target, violation_list& violations, bool plain_text) {
  const reporter at{violations, s.wire, reporter::no_item, plain_text};
  if (value.present()) {
    read_value(value, s, target, at);
  } else if (s.has_default()) {
    read_value(default_json(s), s, target, at);
  } else if (s.optional) {
    target = {};
  } else {
    at("required", say<message_kind::required>, label_of(s));
  }
}

// False, with the violation, when the answer's content is there but not an object.
inline bool content_readable(const reply& r, violation_list& violations) {
  if (!r.content_not_object.present()) return true;
  reporter::whole(violations)("type", say<message_kind::not_an_object>, described{r.content_not_object});
  return false;
}

// Reads every field of the content into `form`, in order: one function per form, its calls
// folded (not a lambda per field).
template <class Form, class Specs, std::size_t... I>
void read_fields(const reply& r, const Specs& specs, Form& form, violation_list& violations,
                 [[maybe_unused]] bool plain_text, std::index_sequence<I...>) {
  (read_field(r.fields[I], specs.at(I), value_of(boost::pfr::get<I>(form)), violations, plain_text), ...);
}

// Reads the content of an answer into `form`, field by field, reporting every rule it breaks
// to `violations`.
template <class Form, class Specs>
void read_content(const reply& r, const Specs& specs, Form& form, violation_list& violations, bool plain_text) {
  if (!content_readable(r, violations)) return;
  read_fields(r, specs, form, violations, plain_text, std::make_index_sequence<member_count<Form>>{});
  report_unknown_keys(r, violations);
}

// The reply whose content is `content` (an object or not); `fields` holds one slot per field.
inline void add_content(reply& r, const nlohmann::json& content, std::span<const field_spec> specs,
                        std::span<value_view> fields, bool strict, std::vector<std::string_view>& unknown) {
  if (content.is_object()) find_fields(content, specs, fields, strict, unknown);
  else r.content_not_object = content;
  r.unknown = unknown;
}

// A result that could not be read as an answer (not JSON, beyond a limit, malformed): it reads
// as cancel, with the one violation that says why.
template <class Form>
response<Form> unread(violation why) {
  return response<Form>(action::cancel, std::nullopt, violation_list({std::move(why)}));
}

// What an ElicitResult's action says before any content is read: accept, decline, cancel, or
// a violation that makes the result unreadable (it then reads as cancel).
struct verdict {
  action said = action::cancel;
  std::optional<violation> unreadable;
};
inline verdict judge_action(const reply& r) {
  if (r.not_object.present())
    return {action::cancel,
            violation{"", "type",
                      message("An elicitation result must be a JSON object; got ", described{r.not_object}, ".")}};
  if (!r.action.present())
    return {action::cancel, violation{"/action", "required",
                                      R"(The result has no action: it must be "accept", "decline" or "cancel".)"}};
  const bool named = r.action.is(json_kind::string);
  const std::string_view said = r.action.text();
  if (named && same_text(said, "decline")) return {action::decline, std::nullopt};
  if (named && same_text(said, "cancel")) return {action::cancel, std::nullopt};
  if (named && same_text(said, "accept")) return {action::accept, std::nullopt};
  return {action::cancel,
          violation{"/action", "enum",
                    message(R"(The action must be "accept", "decline" or "cancel"; got )", described{r.action}, ".")}};
}

// An ElicitResult judged: the action, and for accept the content read into a Form.
template <class Form, class Specs>
response<Form> judge(const reply& r, const Specs& specs, const decode_options& options) {
  verdict v = judge_action(r);
  if (v.unreadable) return unread<Form>(std::move(*v.unreadable));
  if (v.said != action::accept) return response<Form>(v.said, std::nullopt, {});
  std::optional<Form> form(std::in_place);  // read in place: the answer is moved once, into the response
  violation_list violations(options.max_violations, member_count<Form>, options.words);
  read_content(r, specs, *form, violations, options.plain_text);  // no content reads as an empty object
  violations.summarize();
  if (!violations.empty()) form.reset();
  return response<Form>(action::accept, std::move(form), std::move(violations));
}

template <class Form, class Specs>
decoded<Form> decode_content(const nlohmann::json& content, const Specs& specs, const decode_options& options) {
  if (auto refused = exceeds(content, options.limits())) return decoded<Form>(violation_list({std::move(*refused)}));
  std::array<value_view, member_count<Form>> fields{};
  std::vector<std::string_view> unknown;
  reply r;
  add_content(r, content, specs.all(), fields, options.strict, unknown);
  r.fields = fields;
  violation_list violations(options.max_violations, member_count<Form>, options.words);
  Form form{};
  read_content(r, specs, form, violations, options.plain_text);
  violations.summarize();
  if (!violations.empty()) return decoded<Form>(std::move(violations));
  return decoded<Form>(std::move(form));
}

template <class Form, class Specs>
response<Form> decode_result(const nlohmann::json& result, const Specs& specs, const decode_options& options) {
  if (auto refused = exceeds(result, options.limits())) return unread<Form>(std::move(*refused));
  std::array<value_view, member_count<Form>> fields{};
  std::vector<std::string_view> unknown;
  reply r;
  r.fields = fields;
  if (!result.is_object()) {
    r.not_object = result;
  } else {
    if (const auto a = result.find("action"); a != result.end()) r.action = *a;
    if (const auto c = result.find("content"); c != result.end())
      add_content(r, *c, specs.all(), fields, options.strict, unknown);
  }
  return judge<Form>(r, specs, options);
}

// Why a text could not be read. The message says where the text stopped being JSON, never
// what it held there: those bytes need not be UTF-8, and the message must always be sendable
// as JSON.
inline violation why_unread(const json_scanner& scan, const decode_options& options) {
  if (scan.failed() == json_scanner::failure::too_deep) return too_deep(options.max_depth);
  if (scan.failed() == json_scanner::failure::number_range) return number_too_large("answer");
  return not_json("answer", scan.error_byte());
}

template <class Form, class Specs>
response<Form> decode_text(std::string_view json_text, const Specs& specs, const decode_options& options) {
  if (json_text.size() > options.max_bytes) return unread<Form>(too_long(json_text.size(), options.max_bytes));
  text_reply reader(json_text, specs.all(), options.strict, options.max_depth);
  if (!reader.read()) return unread<Form>(why_unread(reader.scanner(), options));
  std::array<value_view, member_count<Form>> fields{};
  return judge<Form>(reader.result(fields), specs, options);
}

// What a decode of a form that does not compile returns: never run, since its diagnostic
// stops the build; it keeps the body of decode from adding errors of its own after it.
template <class Form>
response<Form> not_decodable() {
  return response<Form>(action::cancel, std::nullopt, {});
}

template <class Form>
nlohmann::ordered_json write_content(const Form& form, const std::array<field_spec, member_count<Form>>& specs) {
  nlohmann::ordered_json content = nlohmann::ordered_json::object();
  for_each_index<member_count<Form>>([&]<std::size_t I>() {
    const field_spec& s = specs[I];
    const auto& v = value_of(boost::pfr::get<I>(form));
    if constexpr (is_optional<std::remove_cvref_t<decltype(v)>>::value) {
      if (v) content[std::string(s.wire)] = write_value(s, *v);
    } else {
      content[std::string(s.wire)] = write_value(s, v);
    }
  });
  return content;
}

}  // namespace detail

// Decodes and validates the `content` object of an answer. Content beyond options' limits is
// refused unread (one violation, keyword "maxDepth" or "maxBytes"). Throws only std::bad_alloc.
// A form with choices given at run time decodes with its form<Form> (form.hpp).
template <class Form>
[[nodiscard]] decoded<Form> decode_content(const nlohmann::json& content, const decode_options& options = {}) {
  if constexpr (detail::decodable<Form>())
    return detail::decode_content<Form>(content, detail::static_specs<Form>{}, options);
  else return decoded<Form>(violation_list{});
}

// Decodes an ElicitResult: {"action": "accept" | "decline" | "cancel", "content": {...}}.
// Decline and cancel are answers, not errors, with or without content. A result that is not
// an object, or has a missing or unknown action, reads as cancel with a violation saying why;
// so does a result beyond options' limits, refused before it is read. Throws only std::bad_alloc.
template <class Form>
[[nodiscard]] response<Form> decode(const nlohmann::json& result, const decode_options& options = {}) {
  if constexpr (detail::decodable<Form>())
    return detail::decode_result<Form>(result, detail::static_specs<Form>{}, options);
  else return detail::not_decodable<Form>();
}

// Decodes an ElicitResult from its JSON text, within options.max_bytes and options.max_depth.
// The text is read straight into the form's fields (impl/reply.hpp, detail/json_scanner.hpp),
// without building a document; the answer is judged exactly as decode(nlohmann::json::parse(text)).
// Throws only std::bad_alloc.
template <class Form>
[[nodiscard]] response<Form> decode(std::string_view json_text, const decode_options& options = {}) {
  if constexpr (detail::decodable<Form>())
    return detail::decode_text<Form>(json_text, detail::static_specs<Form>{}, options);
  else return detail::not_decodable<Form>();
}
template <class Form>
[[nodiscard]] response<Form> decode(const char* json_text, const decode_options& options = {}) {
  return decode<Form>(std::string_view(json_text), options);
}
template <class Form>
[[nodiscard]] response<Form> decode(const std::string& json_text, const decode_options& options = {}) {
  return decode<Form>(std::string_view(json_text), options);
}

// The content object a client would send for `form`: wire names, enum wire values, dates as
// text; empty optionals left out. Throws std::invalid_argument when an enum field holds a value
// that is not one of its options.
template <class Form>
[[nodiscard]] nlohmann::ordered_json to_content(const Form& form) {
  if constexpr (detail::describable<Form>) return detail::write_content(form, detail::form_spec<Form>);
  else return {};
}

}  // namespace elicit
