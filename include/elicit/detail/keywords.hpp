// The keywords of a property schema, in the order the schema writes them: type, title,
// description, the constraints, format, default. Each keyword is written from the field's
// description (field_spec) and nowhere else; the validator reads the same description.
#pragma once

#include <elicit/detail/field_spec.hpp>
#include <elicit/detail/json_text.hpp>
#include <elicit/detail/number.hpp>

#include <string_view>

namespace elicit::detail {

constexpr std::string_view type_keyword(value_type t) noexcept {
  switch (t) {
    case value_type::boolean: return "boolean";
    case value_type::integer: return "integer";
    case value_type::number: return "number";
    case value_type::multi_select: return "array";
    default: return "string";
  }
}

constexpr std::string_view format_keyword(format f) noexcept {
  switch (f) {
    case format::date: return "date";
    case format::date_time: return "date-time";
    case format::email: return "email";
    case format::uri: return "uri";
    default: return "";
  }
}

template <class Sink>
constexpr void write_default(Sink& out, const field_spec& s, bool& first) {
  if (!s.has_default()) return;
  write_key(out, "default", first);
  switch (s.def.kind) {
    case default_spec::kind_t::boolean: out.put(s.def.boolean ? "true" : "false"); break;
    case default_spec::kind_t::number: write_number(out, s.def.num); break;
    default: write_string(out, s.def.text); break;
  }
}

template <class Sink>
constexpr void write_property(Sink& out, const field_spec& s) {
  bool first = true;
  out.put('{');
  write_key(out, "type", first);
  write_string(out, type_keyword(s.type));
  if (!s.title.empty()) {
    write_key(out, "title", first);
    write_string(out, s.title);
  }
  if (!s.description.empty()) {
    write_key(out, "description", first);
    write_string(out, s.description);
  }
  if (s.minimum) {
    write_key(out, "minimum", first);
    write_number(out, *s.minimum);
  }
  if (s.maximum) {
    write_key(out, "maximum", first);
    write_number(out, *s.maximum);
  }
  if (s.min_length) {
    write_key(out, "minLength", first);
    write_unsigned(out, *s.min_length);
  }
  if (s.max_length) {
    write_key(out, "maxLength", first);
    write_unsigned(out, *s.max_length);
  }
  if (s.fmt != format::none) {
    write_key(out, "format", first);
    write_string(out, format_keyword(s.fmt));
  }
  write_default(out, s, first);
  out.put('}');
}

// The requestedSchema: {"type":"object","properties":{...},"required":[...]}.
template <class Sink, class Specs>
constexpr void write_schema(Sink& out, const Specs& specs) {
  out.put(R"({"type":"object","properties":{)");
  bool first = true;
  for (const field_spec& s : specs) {
    write_key(out, s.wire, first);
    write_property(out, s);
  }
  out.put('}');
  bool first_required = true;
  for (const field_spec& s : specs) {
    if (!s.required()) continue;
    out.put(first_required ? R"(,"required":[)" : ",");
    first_required = false;
    write_string(out, s.wire);
  }
  if (!first_required) out.put(']');
  out.put('}');
}

}  // namespace elicit::detail
