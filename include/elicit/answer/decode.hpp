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

#include <elicit/answer/answer.hpp>
#include <elicit/detail/engine/decode.hpp>
#include <elicit/form/limits.hpp>
#include <elicit/form/schema.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace elicit {

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
// The text is read straight into the form's fields (detail/engine/reply.hpp, detail/json_scanner.hpp),
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
