// The requestedSchema of a form, as a compile-time constant.
//
//   struct Contact { std::string name; elicit::email email; std::optional<int> age; };
//   static_assert(elicit::schema_json<Contact>.starts_with(R"({"type":"object")"));
//   nlohmann::ordered_json s = elicit::schema<Contact>();
#pragma once

#include <elicit/detail/engine/describe.hpp>
#include <elicit/detail/engine/rules.hpp>
#include <elicit/detail/engine/secrets.hpp>
#include <elicit/detail/json_text.hpp>
#include <elicit/detail/model/keywords.hpp>

#include <nlohmann/json.hpp>

#include <string_view>

namespace elicit {

namespace detail {
template <class Form>
constexpr std::size_t schema_length() {
  length_counter counter;
  write_schema(counter, form_spec<Form>);
  return counter.size;
}

template <class Form>
inline constexpr auto schema_text = [] {
  text_buffer<schema_length<Form>()> buffer;
  write_schema(buffer, form_spec<Form>);
  return buffer;
}();

// The rules run first; a form that breaks one gets its diagnostic and an empty schema,
// instead of a cascade of errors from the reflection.
//
// checked_schema is what decoding and sealed state read: the description of a type, with the
// rules of what a schema can express. A state type is not a form and is never sent, so its
// field names may say "token".
template <class Form>
constexpr std::string_view checked_schema() {
  if constexpr (form_rules<Form>::ok) return schema_text<Form>.view();
  else return {};
}

// True when T's description compiles: what decode, to_content, seal and open require.
template <class T>
inline constexpr bool describable = !checked_schema<T>().empty();

// The schema of a form that may be asked: the rules, then no field named for a credential
// (the spec: servers MUST NOT ask for passwords, API keys, tokens... in form mode). Every way a
// schema leaves elicit (schema_json, schema(), the request builders, the generator) reads it
// from here, so none of them can produce one for a password; the diagnostic names the field.
template <class Form>
constexpr std::string_view askable_schema() {
  if constexpr (!form_rules<Form>::ok) return {};
  else if constexpr (!no_secrets<Form>()) return {};
  else if constexpr (!options_fixed<Form>()) return {};
  else return schema_text<Form>.view();
}

// What decode<Form> reads without a form<Form>: a describable type whose choices are all known
// at compile time. A form that breaks a rule has had its diagnostic already: no second one.
template <class Form>
constexpr bool decodable() {
  if constexpr (!describable<Form>) return false;
  else return options_fixed<Form>();
}
}  // namespace detail

// The requestedSchema of `Form` as compact JSON text, computed at compile time. A form that
// breaks a rule, has a field named for a credential, or a choice given at run time
// (elicit::choice: use elicit::form<Form>) does not compile; the one diagnostic names the field
// and says what to do.
template <class Form>
inline constexpr std::string_view schema_json = detail::askable_schema<Form>();

// The same schema as a JSON value, keys in the order the text has them. Parsed once, on first
// use; each call returns a copy. Throws only std::bad_alloc.
template <class Form>
[[nodiscard]] nlohmann::ordered_json schema() {
  static const nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(schema_json<Form>);
  return parsed;
}

}  // namespace elicit
