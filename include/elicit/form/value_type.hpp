// The vocabulary of a field's kind: its JSON type as a client renders it, and its string format.
// Both are read from a form's description (elicit::fields<F>(), form<F>::fields()).
#pragma once

#include <string_view>

namespace elicit {

// The JSON type of a field, as a client renders it.
enum class value_type : unsigned char { boolean, integer, number, string, single_select, multi_select };

// The `format` keyword of a string field.
enum class format : unsigned char { none, date, date_time, email, uri };

// The keyword as the schema writes it: "boolean", "integer", "number", "string"; a single-select
// is a "string", a multi-select an "array".
constexpr std::string_view type_keyword(value_type t) noexcept {
  switch (t) {
    case value_type::boolean: return "boolean";
    case value_type::integer: return "integer";
    case value_type::number: return "number";
    case value_type::multi_select: return "array";
    default: return "string";
  }
}

// The value of `format` as the schema writes it ("date", "date-time", "email", "uri"); "" for none.
constexpr std::string_view format_keyword(format f) noexcept {
  switch (f) {
    case format::date: return "date";
    case format::date_time: return "date-time";
    case format::email: return "email";
    case format::uri: return "uri";
    default: return "";
  }
}

}  // namespace elicit
