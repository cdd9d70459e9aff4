// Reading a received requestedSchema into field descriptions (detail::field_spec), keyword by
// keyword, every problem reported at its JSON Pointer. The descriptions are the ones the schema
// writer writes and the decoder checks with (detail/model/keywords.hpp), so a form read here is
// written back and checked by the same code as a form declared in C++.
#pragma once

#include <elicit/answer/violation.hpp>
#include <elicit/detail/engine/refinements.hpp>
#include <elicit/detail/engine/rules.hpp>
#include <elicit/detail/engine/secrets.hpp>
#include <elicit/detail/json_pointer.hpp>
#include <elicit/detail/message.hpp>
#include <elicit/detail/model/field_spec.hpp>
#include <elicit/detail/model/reporter.hpp>
#include <elicit/detail/number.hpp>
#include <elicit/detail/utf8.hpp>
#include <elicit/form/choice.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elicit::detail {

// One field of a received form: its key, its description, and what the description points into
// (title, description, options, default: a form<F>'s run-time refinements, detail/engine/refinements.hpp).
struct received_field {
  std::string key;
  field_spec spec;
  refinements owned;
};

// Links a field's description to what it owns: after it is made and after every copy.
inline void relink(received_field& f) {
  f.spec.wire = f.key;
  f.spec.member = f.key;
  link(f.spec, field_spec{}, f.owned);
}

// Where a problem of a received schema is reported: "/properties/<key>/<keyword>".
struct schema_reporter {
  violation_list& out;

  // At the keyword `at` of the property `key` ("" for the schema itself, or the property
  // whole), named by `keyword` (by default `at`, or "type" when it is about the whole).
  void operator()(std::string_view key, std::string_view at, std::string_view why,
                  std::string_view keyword = {}) const {
    std::string pointer;
    if (!key.empty()) pointer = message("/properties/", pointer_token(key));
    if (!at.empty()) pointer += message("/", pointer_token(at));
    if (keyword.empty()) keyword = at.empty() ? "type" : at;
    out.push_back(violation{std::move(pointer), std::string(keyword), std::string(why)});
  }
};

// The keywords each type of property may have, beyond type, title, description and default.
// A key or a type named in a problem: up to 40 code points, and never bytes that are not UTF-8.
struct shown_key {
  std::string_view text;
  template <class Sink>
  void write(Sink& out) const {
    if (!is_utf8(text)) return out.put("(text that is not UTF-8)");
    shown_text{text}.write(out);
  }
};

inline bool keyword_fits(std::string_view type, std::string_view keyword) {
  if (keyword == "type" || keyword == "title" || keyword == "description" || keyword == "default") return true;
  if (type == "string")
    return keyword == "minLength" || keyword == "maxLength" || keyword == "format" || keyword == "enum" ||
           keyword == "enumNames" || keyword == "oneOf";
  if (type == "integer" || type == "number") return keyword == "minimum" || keyword == "maximum";
  if (type == "array") return keyword == "items" || keyword == "minItems" || keyword == "maxItems";
  return false;
}

// A count keyword (minLength, maxItems...): a whole number from 0 up.
template <class Json>
bool read_count(const Json& v, bound<std::size_t>& out) {
  if (v.is_number_unsigned()) {
    out = v.template get<std::size_t>();
    return true;
  }
  if (v.is_number_integer() && v.template get<std::int64_t>() >= 0) {
    out = static_cast<std::size_t>(v.template get<std::int64_t>());
    return true;
  }
  if (v.is_number_float()) {
    const double d = v.template get<double>();
    if (d >= 0 && d < 1e15 && d == static_cast<double>(static_cast<std::uint64_t>(d))) {
      out = static_cast<std::size_t>(d);
      return true;
    }
  }
  return false;
}

// Options as [{"const": wire, "title": label}, ...]: the oneOf and items.anyOf shapes.
template <class Json>
bool read_titled_options(const Json& list, std::vector<choice_option>& out) {
  if (!list.is_array()) return false;
  for (const Json& o : list) {
    if (!o.is_object() || o.size() != 2 || !o.contains("const") || !o.contains("title")) return false;
    if (!o["const"].is_string() || !o["title"].is_string()) return false;
    out.emplace_back(o["const"].template get<std::string>(), o["title"].template get<std::string>());
  }
  return true;
}
template <class Json>
bool read_plain_options(const Json& list, std::vector<choice_option>& out) {
  if (!list.is_array()) return false;
  for (const Json& o : list) {
    if (!o.is_string()) return false;
    out.emplace_back(o.template get<std::string>());
  }
  return true;
}

// A multi-select's items: {"type":"string","enum":[...]} or {"anyOf":[{"const","title"}...]}.
template <class Json>
bool read_items(const Json& items, std::vector<choice_option>& out, bool& titled) {
  if (!items.is_object()) return false;
  if (items.size() == 1 && items.contains("anyOf")) return titled = true, read_titled_options(items["anyOf"], out);
  if (items.size() == 2 && items.contains("type") && items["type"] == "string" && items.contains("enum"))
    return read_plain_options(items["enum"], out);
  return false;
}

inline std::optional<format> format_of(std::string_view keyword) {
  for (const format f : {format::date, format::date_time, format::email, format::uri})
    if (format_keyword(f) == keyword) return f;
  return std::nullopt;
}

inline std::optional<value_type> type_of(std::string_view keyword) {
  for (const value_type t :
       {value_type::string, value_type::integer, value_type::number, value_type::boolean, value_type::multi_select})
    if (type_keyword(t) == keyword) return t;
  return std::nullopt;
}

// The rules of detail/engine/rules.hpp as a host reads them about a schema it received: what is
// wrong, in the schema's keywords (a C++ author reads the same rules as annotations to change).
constexpr std::string_view schema_rule_text(problem p) noexcept {
  switch (p) {
    case problem::many_defaults: return "a single-choice field's default must be one value";
    case problem::text_not_utf8: return "its key, title, description and text defaults must be valid UTF-8";
    case problem::empty_name: return "a property key must not be empty";
    case problem::bound_not_finite: return "bounds and defaults must be finite numbers";
    case problem::bound_outside_type: return "an integer field's minimum and maximum must be within a 64-bit integer";
    case problem::min_above_max: return "its minimum is greater than its maximum";
    case problem::min_length_above_max_length: return "its minLength is greater than its maxLength";
    case problem::default_type_mismatch: return "its default is not of the field's type";
    case problem::default_not_whole: return "an integer field's default must be a whole number";
    case problem::default_out_of_range: return "its default is outside its minimum and maximum";
    case problem::default_out_of_length: return "its default's length is outside its minLength and maxLength";
    case problem::default_format: return "its default does not have the field's format";
    case problem::empty_options: return "a choice must offer at least one option";
    case problem::option_without_wire: return "an option's value must not be empty";
    case problem::repeated_option_wire: return "two options have the same value";
    case problem::min_items_above_max_items: return "its minItems is greater than its maxItems";
    case problem::min_items_above_options: return "its minItems asks for more choices than it offers";
    case problem::default_not_offered: return "its default is not one of its options";
    case problem::default_repeats: return "its default names the same option twice";
    case problem::default_items_count: return "its default has fewer or more choices than minItems and maxItems allow";
    default: return rule_text(p);
  }
}

// The rules a field declared in C++ meets, applied to one read from a schema, in their words;
// "" when it meets them. The C++ type each is checked as: what a form<F> field of that kind is.
inline std::string received_problem(const field_spec& s, const refinements& r) {
  if (asks_for_secret(s))
    return "its name says it is a credential (password, API key, token, card number, one-time code...), and a "
           "form must never ask for one: a server sends the user to a page of its own in URL mode instead";
  switch (s.type) {
    case value_type::boolean: return field_problem<bool>(s, r, schema_rule_text);
    case value_type::integer: return field_problem<std::int64_t>(s, r, schema_rule_text);
    case value_type::number: return field_problem<double>(s, r, schema_rule_text);
    case value_type::single_select: return field_problem<choice>(s, r, schema_rule_text);
    case value_type::multi_select: return field_problem<std::vector<choice>>(s, r, schema_rule_text);
    default: break;
  }
  if (s.fmt == format::date) return field_problem<std::chrono::year_month_day>(s, r, schema_rule_text);
  if (s.fmt == format::date_time) return field_problem<std::chrono::sys_seconds>(s, r, schema_rule_text);
  return field_problem<std::string>(s, r, schema_rule_text);
}

// Reads one property into `f`, or reports why it cannot be one. False when it was refused.
template <class Json>
bool read_property(std::string_view key, const Json& p, bool listed_required, received_field& f,
                   const schema_reporter& report) {
  const std::size_t before = report.out.total();
  if (!p.is_object()) {
    report(key, "", "A property must be a JSON object describing one field.");
    return false;
  }
  const auto type_it = p.find("type");
  if (type_it == p.end() || !type_it->is_string()) {
    report(key, "type", R"(A property needs a "type": "string", "number", "integer", "boolean" or "array".)");
    return false;
  }
  const std::string& type = type_it->template get_ref<const std::string&>();
  const std::optional<value_type> known = type_of(type);
  if (!known) {
    report(key, "type",
           type == "object"
               ? "A form is flat: a property cannot be an object."
               : message(R"(A property's type must be "string", "number", "integer", "boolean" or "array"; got ")",
                         shown_key{type}, "\"."));
    return false;
  }
  for (const auto& [keyword, value] : p.items())
    if (!keyword_fits(type, keyword))
      report(key, keyword, message("A ", type, " property has no keyword \"", shown_key{keyword}, "\"."));
  f.key = std::string(key);
  field_spec& s = f.spec;
  s.type = *known;
  s.listed_required = false;
  const auto text = [&](const char* keyword, std::optional<std::string>& out) {
    if (const auto it = p.find(keyword); it != p.end()) {
      if (it->is_string()) out = it->template get<std::string>();
      else report(key, keyword, message("\"", keyword, "\" must be text."));
    }
  };
  text("title", f.owned.title);
  text("description", f.owned.description);
  const auto count = [&](const char* keyword, bound<std::size_t>& out) {
    if (const auto it = p.find(keyword); it != p.end() && !read_count(*it, out))
      report(key, keyword, message("\"", keyword, "\" must be a whole number from 0 up."));
  };
  const auto bound_of = [&](const char* keyword, bound<number>& out) {
    if (const auto it = p.find(keyword); it != p.end()) {
      if (const auto n = json_number(nlohmann::json(*it))) out = *n;  // a view of the value read at once
      else report(key, keyword, message("\"", keyword, "\" must be a number."));
    }
  };
  bound_of("minimum", s.minimum);
  bound_of("maximum", s.maximum);
  if (s.type != value_type::multi_select) {
    count("minLength", s.min_length);
    count("maxLength", s.max_length);
  } else {
    count("minItems", s.min_items);
    count("maxItems", s.max_items);
  }
  if (const auto it = p.find("format"); it != p.end()) {
    const std::optional<format> fmt =
        it->is_string() ? format_of(it->template get_ref<const std::string&>()) : std::nullopt;
    if (fmt) s.fmt = *fmt;
    else report(key, "format", R"(A string's format must be "date", "date-time", "email" or "uri".)");
  }
  std::vector<choice_option> options;
  bool select = false;
  if (s.type == value_type::string) {
    const bool has_enum = p.contains("enum"), has_one_of = p.contains("oneOf"), has_names = p.contains("enumNames");
    if (has_enum && has_one_of) report(key, "oneOf", R"(A choice is written as "enum" or as "oneOf", not both.)");
    else if (has_names && !has_enum) report(key, "enumNames", R"("enumNames" names the options of an "enum".)");
    else if (has_one_of) {
      select = true;
      if (!read_titled_options(p["oneOf"], options))
        report(key, "oneOf", R"("oneOf" must list the options as {"const": value, "title": label}, both text.)");
    } else if (has_enum) {
      select = true;
      if (!read_plain_options(p["enum"], options)) report(key, "enum", R"("enum" must list the options as text.)");
      else if (has_names) {
        const Json& names = p["enumNames"];
        if (!names.is_array() || names.size() != options.size() ||
            !std::all_of(names.begin(), names.end(), [](const Json& n) { return n.is_string(); }))
          report(key, "enumNames", R"("enumNames" must give one label, as text, for each option of "enum".)");
        else
          for (std::size_t i = 0; i < options.size(); ++i) options[i].title = names[i].template get<std::string>();
        s.legacy_names = true;
      }
    }
    if (select) s.type = value_type::single_select;
  } else if (s.type == value_type::multi_select) {
    select = true;
    bool titled = false;
    if (const auto it = p.find("items"); it == p.end())
      report(key, "items", R"(An array property needs "items": its options.)");
    else if (!read_items(*it, options, titled))
      report(
          key, "items",
          R"("items" must be {"type": "string", "enum": [...]} or {"anyOf": [{"const": value, "title": label}, ...]}.)");
  }
  // A choice's shape is its options: a length or a format on it is no shape the spec has.
  if (select && s.type == value_type::single_select)
    for (const char* keyword : {"minLength", "maxLength", "format"})
      if (p.contains(keyword))
        report(key, keyword, message("A choice has no keyword \"", keyword, "\": its options say what it takes."));
  if (select) {
    s.runtime_options = true;
    f.owned.offered = make_offered(std::move(options), schema_rule_text);
  }
  if (const auto it = p.find("default"); it != p.end()) {
    if (it->is_null()) report(key, "default", R"(A default must be a value of the field's type, not null.)");
    f.owned.default_value = nlohmann::json(*it);
  }
  if (report.out.total() != before) return false;
  s.optional = !listed_required && f.owned.default_value.is_null();
  s.listed_required = listed_required && !f.owned.default_value.is_null();
  relink(f);
  if (const std::string why = received_problem(s, f.owned); !why.empty()) {
    const bool of_default = !f.owned.default_value.is_null() && why.find("default") != std::string::npos;
    // A default that breaks the field's rules is reported at the default; the others at the field.
    if (of_default) report(key, "default", message("The field \"", shown_key{key}, "\": ", why, "."));
    else report(key, "", message("The field \"", shown_key{key}, "\": ", why, "."), "property");
    return false;
  }
  return true;
}

}  // namespace elicit::detail
