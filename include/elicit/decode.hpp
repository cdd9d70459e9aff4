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

#include <elicit/detail/describe.hpp>
#include <elicit/detail/reflection.hpp>
#include <elicit/detail/validate.hpp>
#include <elicit/schema.hpp>
#include <elicit/violation.hpp>

#include <boost/pfr.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
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

// What came of a question, in one word: the action, with an accepted answer split into valid
// and invalid, and "missing" for a question that was not answered at all (InputResponses).
enum class outcome {
  accepted,   // accept, and the content met every rule
  invalid,    // accept with content that broke a rule, or a malformed result
  declined,   // decline
  cancelled,  // cancel
  missing,    // no answer under the question's key
};

// Thrown by value() when there is no valid answer to give.
class bad_answer_access : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

struct decode_options {
  bool strict = false;                   // report keys the form does not have (additionalProperties)
  std::size_t max_bytes = 1024 * 1024;   // decode(text): longer text is refused unread
  std::size_t max_depth = 32;            // decode(text): deeper nesting of [ and { is refused
};

// The content of an answer, decoded: a T, or the violations that kept it from being one.
template <class T>
class decoded {
 public:
  explicit decoded(T value) : value_(std::move(value)) {}
  explicit decoded(violation_list violations) : violations_(std::move(violations)) {}

  [[nodiscard]] bool has_value() const noexcept { return value_.has_value(); }
  explicit operator bool() const noexcept { return has_value(); }
  [[nodiscard]] const T& value() const& {
    if (!value_) throw bad_answer_access(fmt::format("elicit: the answer is invalid: {}", violations_));
    return *value_;
  }
  [[nodiscard]] T&& value() && {
    if (!value_) throw bad_answer_access(fmt::format("elicit: the answer is invalid: {}", violations_));
    return std::move(*value_);
  }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }
  [[nodiscard]] const violation_list& violations() const& noexcept { return violations_; }
  [[nodiscard]] violation_list violations() && noexcept { return std::move(violations_); }

 private:
  std::optional<T> value_;
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
  [[nodiscard]] const T& value() const {
    if (accepted()) return *value_;
    if (action_ != elicit::action::accept && violations_.empty() && !missing_)
      throw bad_answer_access(action_ == elicit::action::decline ? "elicit: the user declined the form"
                                                                 : "elicit: the user cancelled the form");
    throw bad_answer_access(fmt::format("elicit: no valid answer: {}", violations_));
  }
  const T& operator*() const { return value(); }
  const T* operator->() const { return &value(); }
  [[nodiscard]] const violation_list& violations() const noexcept { return violations_; }

 private:
  elicit::action action_;
  std::optional<T> value_;
  violation_list violations_;
  bool missing_ = false;
};

namespace detail {

template <class M>
auto& value_of(M& member) {
  if constexpr (is_field<std::remove_cv_t<M>>) return member.value;
  else return member;
}

// Builds the parsed value as nlohmann::json::parse does, from the parser's events, and stops
// at the first list or object nested deeper than the limit: a hostile answer is refused as
// it is read, in the same single pass over the text.
class bounded_builder {
 public:
  bounded_builder(nlohmann::json& root, std::size_t max_depth) : root_(root), max_depth_(max_depth) {}

  bool null() { return add(nullptr); }
  bool boolean(bool v) { return add(v); }
  bool number_integer(std::int64_t v) { return add(v); }
  bool number_unsigned(std::uint64_t v) { return add(v); }
  bool number_float(double v, const std::string& /*text*/) { return add(v); }
  // Strings and keys are copied, not moved: the parser's buffer keeps its capacity for the next.
  bool string(const std::string& v) { return add(v); }
  bool binary(nlohmann::json::binary_t& v) { return add(std::move(v)); }  // never produced by JSON text
  bool start_object(std::size_t /*size*/) { return open(nlohmann::json::value_t::object); }
  bool start_array(std::size_t /*size*/) { return open(nlohmann::json::value_t::array); }
  bool key(const std::string& k) {
    slot_ = &(*open_.back())[k];  // a repeated key: the last value wins, as in parse()
    return true;
  }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool parse_error(std::size_t byte, const std::string& /*token*/, const nlohmann::json::exception& e) {
    error_byte_ = byte;
    error_id_ = e.id;
    return false;
  }

  [[nodiscard]] bool too_deep() const noexcept { return too_deep_; }
  [[nodiscard]] std::size_t error_byte() const noexcept { return error_byte_; }
  [[nodiscard]] int error_id() const noexcept { return error_id_; }

 private:
  // Where the next value goes: the root, the end of the open list, or the slot of the last key.
  template <class V>
  nlohmann::json& place(V&& v) {
    if (open_.empty()) return root_ = nlohmann::json(std::forward<V>(v));
    if (open_.back()->is_array()) return open_.back()->emplace_back(std::forward<V>(v));
    return *slot_ = nlohmann::json(std::forward<V>(v));
  }
  template <class V>
  bool add(V&& v) {
    place(std::forward<V>(v));
    return true;
  }
  bool open(nlohmann::json::value_t kind) {
    if (open_.size() >= max_depth_) {
      too_deep_ = true;
      return false;
    }
    open_.push_back(&place(kind));
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }

  nlohmann::json& root_;
  std::size_t max_depth_;
  std::vector<nlohmann::json*> open_;  // the lists and objects still open, outermost first
  nlohmann::json* slot_ = nullptr;
  bool too_deep_ = false;
  std::size_t error_byte_ = 0;
  int error_id_ = 0;
};

// Parses JSON text within the limits, or reports why not.
inline std::optional<nlohmann::json> parse_answer(std::string_view text, const decode_options& options,
                                                  violation_list& violations) {
  if (text.size() > options.max_bytes) {
    violations.push_back({"", "maxBytes", message("The answer is ", text.size(), " bytes long, more than the ",
                                                  options.max_bytes, " this server reads.")});
    return std::nullopt;
  }
  std::optional<nlohmann::json> parsed(std::in_place);
  bounded_builder builder(*parsed, options.max_depth);
  if (nlohmann::json::sax_parse(text.begin(), text.end(), &builder)) return parsed;
  // The parser's own messages quote the bytes it stopped at, which need not be UTF-8; the
  // message says where instead, so that it can always be sent on as JSON.
  if (builder.too_deep())
    violations.push_back(
        {"", "maxDepth", message("The answer nests lists and objects more than ", options.max_depth, " levels deep.")});
  else if (builder.error_id() == 406)  // out_of_range.406: a number beyond double
    violations.push_back({"", "json", "The answer holds a number too large to read."});
  else
    violations.push_back({"", "json", message("The answer is not valid JSON (at byte ", builder.error_byte(), ").")});
  return std::nullopt;
}

}  // namespace detail

namespace detail {

// Reads the content object of an answer into `form`, field by field, reporting every rule it
// breaks to `violations`.
template <class Form>
void read_content(const nlohmann::json& content, const decode_options& options, Form& form,
                  violation_list& violations) {
  if (!content.is_object()) {
    violations.push_back(
        {"", "type", message("The answer's content must be a JSON object; got ", described{content}, ".")});
    return;
  }
  // The object's own map: a heterogeneous lookup by the wire name, without building a key.
  const auto& members = content.get_ref<const nlohmann::json::object_t&>();
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          const field_spec& s = spec_of<Form, I>;
          auto& target = value_of(boost::pfr::get<I>(form));
          const reporter at{violations, s.wire};
          if (const auto it = members.find(s.wire); it != members.end()) {
            read_value(it->second, s, target, at);
          } else if (s.has_default()) {
            read_value(default_json(s), s, target, at);
          } else if (s.optional) {
            target = {};
          } else {
            at("required", message(label_of(s), " is required."));
          }
        }(),
        ...);
  }(std::make_index_sequence<member_count<Form>>{});
  if (options.strict) {
    for (const auto& [key, value] : members) {
      bool known = false;
      for (const field_spec& s : form_spec<Form>) known = known || s.wire == key;
      if (known) continue;
      // A key of JSON built in the program, not parsed, may not be UTF-8: never quote it then.
      const bool shown = is_utf8(key);
      violations.push_back({shown ? "/" + reporter::escape(key) : "", "additionalProperties",
                            message("\"", shown ? std::string_view(key) : "(a key that is not UTF-8)",
                                    "\" is not a field of this form.")});
    }
  }
}

}  // namespace detail

// Decodes and validates the `content` object of an answer.
template <class Form>
[[nodiscard]] decoded<Form> decode_content(const nlohmann::json& content, const decode_options& options = {}) {
  static_assert(!schema_json<Form>.empty(), "elicit: this form does not compile into a schema");
  violation_list violations;
  Form form{};
  detail::read_content(content, options, form, violations);
  if (!violations.empty()) return decoded<Form>(std::move(violations));
  return decoded<Form>(std::move(form));
}

// Decodes an ElicitResult: {"action": "accept" | "decline" | "cancel", "content": {...}}.
// Decline and cancel are answers, not errors, with or without content. A result that is not
// an object, or has a missing or unknown action, reads as cancel with a violation saying why.
template <class Form>
[[nodiscard]] response<Form> decode(const nlohmann::json& result, const decode_options& options = {}) {
  auto malformed = [](std::string pointer, std::string keyword, std::string message) {
    return response<Form>(action::cancel, std::nullopt,
                          violation_list({{std::move(pointer), std::move(keyword), std::move(message)}}));
  };
  if (!result.is_object())
    return malformed("", "type",
                     detail::message("An elicitation result must be a JSON object; got ", detail::described{result}, "."));
  const auto a = result.find("action");
  if (a == result.end())
    return malformed("/action", "required", R"(The result has no action: it must be "accept", "decline" or "cancel".)");
  const std::string* name = a->get_ptr<const std::string*>();
  const std::string_view said = name != nullptr ? std::string_view(*name) : std::string_view();
  if (said == "decline") return response<Form>(action::decline, std::nullopt, {});
  if (said == "cancel") return response<Form>(action::cancel, std::nullopt, {});
  if (name == nullptr || said != "accept")
    return malformed("/action", "enum",
                     detail::message(R"(The action must be "accept", "decline" or "cancel"; got )", detail::described{*a}, "."));
  static_assert(!schema_json<Form>.empty(), "elicit: this form does not compile into a schema");
  const auto content = result.find("content");
  static const nlohmann::json empty = nlohmann::json::object();
  std::optional<Form> form(std::in_place);  // read in place: the answer is moved once, into the response
  violation_list violations;
  detail::read_content(content == result.end() ? empty : *content, options, *form, violations);
  if (!violations.empty()) form.reset();
  return response<Form>(action::accept, std::move(form), std::move(violations));
}

// Decodes an ElicitResult from its JSON text, within options.max_bytes and options.max_depth.
template <class Form>
[[nodiscard]] response<Form> decode(std::string_view json_text, const decode_options& options = {}) {
  violation_list violations;
  const std::optional<nlohmann::json> parsed = detail::parse_answer(json_text, options, violations);
  if (!parsed) return response<Form>(action::cancel, std::nullopt, std::move(violations));
  return decode<Form>(*parsed, options);
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
// text; empty optionals left out.
template <class Form>
[[nodiscard]] nlohmann::ordered_json to_content(const Form& form) {
  static_assert(!schema_json<Form>.empty(), "elicit: this form does not compile into a schema");
  nlohmann::ordered_json content = nlohmann::ordered_json::object();
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          const detail::field_spec& s = detail::spec_of<Form, I>;
          const auto& v = detail::value_of(boost::pfr::get<I>(form));
          if constexpr (detail::is_optional<std::remove_cvref_t<decltype(v)>>::value) {
            if (v) content[std::string(s.wire)] = detail::write_value(s, *v);
          } else {
            content[std::string(s.wire)] = detail::write_value(s, v);
          }
        }(),
        ...);
  }(std::make_index_sequence<detail::member_count<Form>>{});
  return content;
}

}  // namespace elicit
