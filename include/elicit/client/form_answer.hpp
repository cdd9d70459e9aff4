// A person's answer to a received form (received_form.hpp), built field by field from what they
// typed and checked by the rules and words a server checks it with, before anything is sent.
//
//   elicit::form_answer answer(*r.form);                        // starts from the form's defaults
//   for (elicit::violation_view v : answer.set("age", "forty"))  // "Age must be a whole number; got the text "forty"."
//     show(v.message);
//   if (answer.check().empty()) send(answer.accept());          // {"action":"accept","content":{...}}
//
// The checks are the decoder's own (detail/model/value_traits.hpp), in the catalogue the options
// name (English by default; messages::french() or one of the host's own): what the server would
// refuse, the host says first, in the same words.
#pragma once

#include <elicit/answer/answer.hpp>
#include <elicit/answer/violation.hpp>
#include <elicit/client/received_form.hpp>
#include <elicit/detail/engine/decode.hpp>
#include <elicit/detail/engine/read_value.hpp>
#include <elicit/detail/model/reporter.hpp>
#include <elicit/detail/model/value_traits.hpp>
#include <elicit/detail/text_formats.hpp>
#include <elicit/form/choice.hpp>
#include <elicit/form/limits.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elicit {

struct answer_options {
  // Each field starts from the form's default, as the spec asks of clients that support
  // defaults: a field left as it is sends its default.
  bool prefill_defaults = true;
  // The catalogue (words), plain_text and max_violations, as a server decodes with them.
  decode_options decode{};
};

namespace detail {

// Reads one field's value (absent: its default, nothing, or "required") with the reader of the
// C++ type a form<F> field of its kind has: the same checks, the same words.
inline void check_received_field(value_view value, const field_spec& s, violation_list& out, bool plain_text) {
  const auto read = [&]<class T>(T target) { read_field(value, s, target, out, plain_text); };
  switch (s.type) {
    case value_type::boolean: return read(false);
    case value_type::integer: return read(std::int64_t{});
    case value_type::number: return read(0.0);
    case value_type::single_select: return read(choice{});
    case value_type::multi_select: return read(std::vector<choice>{});
    default: break;
  }
  if (s.fmt == format::date) return read(std::chrono::year_month_day{});
  if (s.fmt == format::date_time) return read(std::chrono::sys_seconds{});
  read(std::string{});
}

// Text with the spaces around it taken off.
inline std::string_view trimmed(std::string_view t) noexcept {
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\r' || t.back() == '\n'))
    t.remove_suffix(1);
  return t;
}

// A choice as typed: the title the person was shown, or a wire value (exactly, then in any
// case); otherwise the text itself, which the field's check refuses with the options named.
// Titles first: what the person reads is what they mean, even where a server gave one option a
// value that is another's title.
inline std::string typed_choice(const field_spec& s, std::string_view typed) {
  for (std::size_t i = 0; i < s.option_count; ++i)
    if (!s.options[i].title.empty() && s.options[i].title == typed) return std::string(s.options[i].wire);
  for (std::size_t i = 0; i < s.option_count; ++i)
    if (s.options[i].wire == typed) return std::string(typed);
  for (std::size_t i = 0; i < s.option_count; ++i)
    if (!s.options[i].title.empty() && equals_any_case(s.options[i].title, typed))
      return std::string(s.options[i].wire);
  for (std::size_t i = 0; i < s.option_count; ++i)
    if (equals_any_case(s.options[i].wire, typed)) return std::string(s.options[i].wire);
  return std::string(typed);
}

// A number as typed: JSON's own form, or with a decimal comma ("2,5") in a number field;
// otherwise the text, which the field's check refuses as not a number, saying what it got. A
// comma with three digits after it ("1,000") may be a thousands separator: it is not read.
inline nlohmann::json typed_number(std::string_view typed, bool fractions) {
  std::string text(typed);
  const std::size_t comma = text.find(',');
  if (fractions && comma != std::string::npos && text.find('.') == std::string::npos &&
      text.find(',', comma + 1) == std::string::npos && text.size() - comma - 1 != 3)
    text[comma] = '.';
  if (text.empty() || text.front() == '[' || text.front() == '{' || text.front() == '"') return std::string(typed);
  parsed_json parsed = parse_json(text, json_limits{.max_bytes = 64, .max_depth = 1, .max_values = 1});
  if (parsed && parsed->is_number()) return *parsed;
  return std::string(typed);
}

// Yes or no as typed; otherwise the text, which the field's check refuses.
inline nlohmann::json typed_boolean(std::string_view typed) {
  const auto is = [&](std::string_view word) { return equals_lower(typed, word); };
  // In JSON, and in the words of the two catalogues elicit ships (English, French).
  if (is("true") || is("yes") || is("y") || is("1") || is("oui") || is("o")) return true;
  if (is("false") || is("no") || is("n") || is("0") || is("non")) return false;
  return std::string(typed);
}

// What a person typed into a field, as the JSON its answer holds. Empty text is no value.
inline nlohmann::json typed_value(const field_spec& s, std::string_view typed_text) {
  const std::string_view typed = s.type == value_type::string ? typed_text : trimmed(typed_text);
  if (typed.empty()) return nullptr;
  switch (s.type) {
    case value_type::boolean: return typed_boolean(typed);
    case value_type::integer: return typed_number(typed, false);
    case value_type::number: return typed_number(typed, true);
    case value_type::single_select: return typed_choice(s, typed);
    case value_type::multi_select: {
      nlohmann::json picks = nlohmann::json::array();
      std::size_t at = 0;
      while (at <= typed.size()) {
        const std::size_t comma = std::min(typed.find(',', at), typed.size());
        if (const std::string_view one = trimmed(typed.substr(at, comma - at)); !one.empty())
          picks.push_back(typed_choice(s, one));
        at = comma + 1;
      }
      return picks;
    }
    default: return std::string(typed);
  }
}

}  // namespace detail

// An answer being filled in. It refers to the form it was made from, which must outlive it.
class form_answer {
 public:
  // Throws only std::bad_alloc.
  explicit form_answer(const received_form& form, answer_options options = {})
      : form_(&form), options_(std::move(options)), content_(nlohmann::json::object()) {
    if (!options_.prefill_defaults) return;
    for (std::size_t i = 0; i < form.size(); ++i) {
      const detail::field_spec& s = form.spec(i);
      if (s.has_default()) content_[std::string(s.wire)] = detail::default_json(s);
    }
  }

  // A form about to go would leave the answer pointing at nothing: keep the form.
  form_answer(received_form&&, answer_options = {}) = delete;

  // What the person typed into the field with this key, read by its type: text as typed; a
  // number in JSON's form or with a decimal comma (a number field's); yes/no, true/false, y/n, 1/0 or oui/non; a choice
  // by its value or by the title shown (in any case); several choices separated by commas. Empty text leaves the field
  // empty. Returns what the field breaks, in the catalogue's words (empty: it meets its rules), and keeps the value
  // either way, so that check() reports it again. Throws only std::bad_alloc.
  [[nodiscard]] violation_list set(std::string_view key, std::string_view typed) {
    const std::size_t i = form_->index_of(key);
    if (i == form_->size()) return no_such_field(key);
    return set_value(key, detail::typed_value(form_->spec(i), typed));
  }
  // The same with the value as JSON (null: empty).
  [[nodiscard]] violation_list set_value(std::string_view key, nlohmann::json value) {
    const std::size_t i = form_->index_of(key);
    if (i == form_->size()) return no_such_field(key);
    if (value.is_null()) content_.erase(std::string(key));
    else content_[std::string(key)] = std::move(value);
    return check_field(i);
  }
  // Empties a field (its default is not sent either).
  void clear(std::string_view key) { content_.erase(std::string(key)); }

  // The values so far, as the answer's content holds them.
  [[nodiscard]] const nlohmann::json& content() const noexcept { return content_; }

  // Every rule the answer breaks now, field by field in the form's order (a required field
  // left empty among them); empty when it can be sent. Throws only std::bad_alloc.
  [[nodiscard]] violation_list check() const {
    violation_list out(options_.decode.max_violations, form_->size(), options_.decode.words);
    for (std::size_t i = 0; i < form_->size(); ++i) read(i, out);
    out.summarize();
    return out;
  }
  // What one field breaks now.
  [[nodiscard]] violation_list check_field(std::size_t i) const {
    violation_list out(options_.decode.max_violations, 1, options_.decode.words);
    read(i, out);
    return out;
  }

  // The ElicitResult to send, also what a 2026-07-28 inputResponses entry holds: accept with the
  // content. Meant for an answer whose check() is empty (the server refuses it otherwise).
  [[nodiscard]] nlohmann::json accept() const { return {{"action", "accept"}, {"content", content_}}; }
  [[nodiscard]] static nlohmann::json decline() { return {{"action", "decline"}}; }
  [[nodiscard]] static nlohmann::json cancel() { return {{"action", "cancel"}}; }

 private:
  void read(std::size_t i, violation_list& out) const {
    const detail::field_spec& s = form_->spec(i);
    const auto it = content_.find(std::string(s.wire));
    const detail::value_view value = it == content_.end() ? detail::value_view() : detail::value_view(*it);
    // A value left out is sent as nothing: the server applies a default itself, so only a
    // required field left empty is refused here.
    if (!value.present() && s.has_default()) return;
    detail::check_received_field(value, s, out, options_.decode.plain_text);
  }
  [[nodiscard]] violation_list no_such_field(std::string_view key) const {
    violation_list out;
    out.push_back(violation{detail::message("/", detail::pointer_token(key)), "additionalProperties",
                            detail::message("The form has no field \"", detail::shown_key{key}, "\".")});
    return out;
  }

  const received_form* form_;
  answer_options options_;
  nlohmann::json content_;
};

}  // namespace elicit
