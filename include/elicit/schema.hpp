// The requestedSchema of a form, as a compile-time constant.
//
//   struct Contact { std::string name; elicit::email email; std::optional<int> age; };
//   static_assert(elicit::schema_json<Contact>.starts_with(R"({"type":"object")"));
//   nlohmann::ordered_json s = elicit::schema<Contact>();
#pragma once

#include <elicit/detail/describe.hpp>
#include <elicit/detail/json_text.hpp>
#include <elicit/detail/keywords.hpp>
#include <elicit/detail/rules.hpp>

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
template <class Form>
constexpr std::string_view checked_schema() {
  if constexpr (form_rules<Form>::ok) return schema_text<Form>.view();
  else return {};
}
}  // namespace detail

// The requestedSchema of `Form` as compact JSON text, computed at compile time.
template <class Form>
inline constexpr std::string_view schema_json = detail::checked_schema<Form>();

// The same schema as a JSON value, keys in the order the text has them. Parsed once, on first
// use; each call returns a copy.
template <class Form>
[[nodiscard]] nlohmann::ordered_json schema() {
  static const nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(schema_json<Form>);
  return parsed;
}

}  // namespace elicit
