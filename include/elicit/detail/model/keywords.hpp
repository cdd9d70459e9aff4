// The keywords of a property schema: how each is written into the schema, in the order the
// schema writes them (type, title, description, the constraints, the choices, format,
// default), and how each is checked against an answer (the check_* functions at the end).
// Both read the field's description (field_spec) and nothing else, so they cannot disagree.
#pragma once

#include <elicit/answer/messages.hpp>
#include <elicit/detail/json_escape.hpp>
#include <elicit/detail/json_text.hpp>
#include <elicit/detail/message.hpp>
#include <elicit/detail/model/field_spec.hpp>
#include <elicit/detail/number_text.hpp>
#include <elicit/detail/same_text.hpp>
#include <elicit/detail/text_formats.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace elicit::detail {

// The wire value of an enumerator the field offers (the rules ensure it is offered).
constexpr std::string_view wire_of(const field_spec& s, std::int64_t value) noexcept {
  const enum_entry* e = s.option_for(value);
  return e != nullptr ? e->wire : std::string_view{};
}

template <class Sink>
constexpr void write_default(Sink& out, const field_spec& s, bool& first) {
  if (!s.has_default()) return;
  write_key(out, "default", first);
  switch (s.def.kind) {
    case default_spec::kind_t::boolean: out.put(s.def.boolean ? "true" : "false"); break;
    case default_spec::kind_t::number: write_number(out, s.def.num); break;
    case default_spec::kind_t::enumerators:
      if (s.type == value_type::multi_select) out.put('[');
      for (std::size_t i = 0; i < s.def.enumerator_count; ++i) {
        if (i != 0) out.put(',');
        write_string(out, wire_of(s, s.def.enumerators[i]));
      }
      if (s.type == value_type::multi_select) out.put(']');
      break;
    default: write_string(out, s.def.text); break;
  }
}

// The choices as a list of one of their strings: wire values (`enum`) or labels (`enumNames`).
template <class Sink>
constexpr void write_option_strings(Sink& out, const field_spec& s, bool labels) {
  out.put('[');
  for (std::size_t i = 0; i < s.option_count; ++i) {
    if (i != 0) out.put(',');
    const enum_entry& o = s.options[i];
    write_string(out, labels && !o.title.empty() ? o.title : o.wire);
  }
  out.put(']');
}

// The choices as [{"const":wire,"title":label},...]; an option without a title shows its wire value.
template <class Sink>
constexpr void write_titled_options(Sink& out, const field_spec& s) {
  out.put('[');
  for (std::size_t i = 0; i < s.option_count; ++i) {
    const enum_entry& o = s.options[i];
    out.put(i == 0 ? R"({"const":)" : R"(,{"const":)");
    write_string(out, o.wire);
    out.put(R"(,"title":)");
    write_string(out, o.title.empty() ? o.wire : o.title);
    out.put('}');
  }
  out.put(']');
}

// The five shapes of a choice (SEP-1330): enum, oneOf, enum + enumNames, items.enum, items.anyOf.
template <class Sink>
constexpr void write_choices(Sink& out, const field_spec& s, bool& first) {
  if (s.type == value_type::single_select) {
    if (s.titled && !s.legacy_names) {
      write_key(out, "oneOf", first);
      write_titled_options(out, s);
      return;
    }
    write_key(out, "enum", first);
    write_option_strings(out, s, false);
    if (s.legacy_names) {
      write_key(out, "enumNames", first);
      write_option_strings(out, s, true);
    }
    return;
  }
  write_key(out, "items", first);
  if (s.titled) {
    out.put(R"({"anyOf":)");
  } else {
    out.put(R"({"type":"string","enum":)");
  }
  if (s.titled) write_titled_options(out, s);
  else write_option_strings(out, s, false);
  out.put('}');
}

template <class Sink>
constexpr void write_optional_count(Sink& out, std::string_view key, const bound<std::size_t>& v, bool& first) {
  if (!v) return;
  write_key(out, key, first);
  write_unsigned(out, *v);
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
  write_optional_count(out, "minLength", s.min_length, first);
  write_optional_count(out, "maxLength", s.max_length, first);
  write_optional_count(out, "minItems", s.min_items, first);
  write_optional_count(out, "maxItems", s.max_items, first);
  if (s.is_select()) write_choices(out, s, first);
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

// ---- Checks: the same keywords, judged on an answer -----------------------------------------
// Each takes the value already read from JSON and a `report(keyword, message parts...)` callable.

// How a message names a field: its title, or else its wire name.
constexpr std::string_view label_of(const field_spec& s) noexcept { return s.title.empty() ? s.wire : s.title; }
// The label as a message part, what it costs as JSON known (field_spec::label_extra).
constexpr known_text label_part(const field_spec& s) noexcept { return {label_of(s), s.label_extra}; }

// minimum / maximum, compared exactly (no rounding of 64-bit integers through double).
template <class Report>
void check_bounds(const field_spec& s, const number& v, Report&& report) {
  if (s.minimum && compare(v, *s.minimum) < 0)
    report("minimum", say<message_kind::minimum>, label_part(s), *s.minimum, v);
  if (s.maximum && compare(v, *s.maximum) > 0)
    report("maximum", say<message_kind::maximum>, label_part(s), *s.maximum, v);
}

// minLength / maxLength, in code points.
template <class Report>
void check_length(const field_spec& s, std::size_t code_point_count, Report&& report) {
  if (s.min_length && code_point_count < *s.min_length)
    report("minLength", say<message_kind::min_length>, label_part(s), *s.min_length, code_point_count);
  if (s.max_length && code_point_count > *s.max_length)
    report("maxLength", say<message_kind::max_length>, label_part(s), *s.max_length, code_point_count);
}

// minItems / maxItems of a multi-select.
template <class Report>
void check_items(const field_spec& s, std::size_t count, Report&& report) {
  if (s.min_items && count < *s.min_items)
    report("minItems", say<message_kind::min_items>, label_part(s), *s.min_items, count);
  if (s.max_items && count > *s.max_items)
    report("maxItems", say<message_kind::max_items>, label_part(s), *s.max_items, count);
}

// enum / oneOf / items: the choice whose wire value this is, never matched by title.
inline const enum_entry* find_choice(const field_spec& s, std::string_view wire) noexcept {
  for (std::size_t i = 0; i < s.option_count; ++i)
    if (same_text(s.options[i].wire, wire)) return &s.options[i];
  return nullptr;
}

// The choices of a field as a message part: "GB", "IE", "FR".
struct choices_of {
  const field_spec& s;

  template <class Sink>
  void write(Sink& out) const {
    for (std::size_t i = 0; i < s.option_count; ++i) {
      if (i != 0) out.put(", ");
      out.put('"');
      out.put(s.options[i].wire);
      out.put('"');
    }
  }
};

// format: email and uri (dates and times are checked as they are read, in read_value.hpp).
template <class Report>
void check_format(const field_spec& s, std::string_view text, Report&& report) {
  if (s.fmt == format::email && !is_email(text)) report("format", say<message_kind::email>, label_part(s));
  if (s.fmt == format::uri && !is_uri(text)) report("format", say<message_kind::uri>, label_part(s));
}

}  // namespace elicit::detail
