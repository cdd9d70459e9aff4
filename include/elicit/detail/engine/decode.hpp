// The reader of answers behind decode.hpp: an ElicitResult or its content, as a parsed document
// or as text, read field by field into a form, every rule checked, with the description of each
// field from the type (static_specs) or from a form<F> (runtime_specs).
#pragma once

#include <elicit/answer/answer.hpp>
#include <elicit/answer/messages.hpp>
#include <elicit/answer/violation.hpp>
#include <elicit/detail/engine/describe.hpp>
#include <elicit/detail/engine/read_value.hpp>
#include <elicit/detail/engine/reply.hpp>
#include <elicit/detail/engine/write_value.hpp>
#include <elicit/detail/indices.hpp>
#include <elicit/detail/model/limits.hpp>
#include <elicit/detail/model/reporter.hpp>
#include <elicit/detail/reflection.hpp>
#include <elicit/detail/same_text.hpp>
#include <elicit/detail/utf8.hpp>
#include <elicit/form/field.hpp>

#include <boost/pfr.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elicit::detail {

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
// is written per form stays one call per field (compiler memory per form, docs/internals/performance.md).
template <class T>
void read_field(value_view value, const field_spec& s, T& target, violation_list& violations, bool plain_text) {
  const reporter at{violations, s.wire, reporter::no_item, plain_text, s.plain_pointer};
  if (value.present()) {
    read_value(value, s, target, at);
  } else if (s.has_default()) {
    read_value(default_json(s), s, target, at);
  } else if (s.optional) {
    target = {};
  } else {
    at("required", say<message_kind::required>, label_part(s));
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
  // "accept" first: the answer a form is read for, and the one whose cost is measured.
  if (named && same_text(said, "accept")) return {action::accept, std::nullopt};
  if (named && same_text(said, "decline")) return {action::decline, std::nullopt};
  if (named && same_text(said, "cancel")) return {action::cancel, std::nullopt};
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
  if (auto refused = walk_limits(content, options.limits()))
    return decoded<Form>(violation_list({std::move(*refused)}));
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
  if (auto refused = walk_limits(result, options.limits())) return unread<Form>(std::move(*refused));
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

}  // namespace elicit::detail
