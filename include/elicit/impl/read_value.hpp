// Reading one field's answer out of JSON into its C++ value, checking every keyword of its
// schema on the way (the checks themselves are in keywords.hpp, beside the writers), and a
// field's default as the JSON a client would have sent.
#pragma once

#include <elicit/detail/message.hpp>
#include <elicit/detail/number.hpp>
#include <elicit/detail/text_formats.hpp>
#include <elicit/detail/text_policy.hpp>
#include <elicit/detail/utf8.hpp>
#include <elicit/field.hpp>
#include <elicit/formats.hpp>
#include <elicit/impl/field_spec.hpp>
#include <elicit/impl/keywords.hpp>
#include <elicit/impl/option_index.hpp>
#include <elicit/impl/reporter.hpp>
#include <elicit/impl/value_traits.hpp>
#include <elicit/impl/value_view.hpp>
#include <elicit/violation.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace elicit::detail {

// A JSON number as an exact `number`, or nothing when it is not a finite number.
inline std::optional<number> json_number(value_view j) noexcept { return j.as_number(); }

template <class I>
I integer_from(const number& n) {
  switch (n.kind) {
    case number::kind_t::signed_int: return static_cast<I>(n.i);
    case number::kind_t::unsigned_int: return static_cast<I>(n.u);
    default: return static_cast<I>(n.as_double());
  }
}

template <class T>
inline constexpr bool is_enum_container = false;
template <class E>
inline constexpr bool is_enum_container<std::vector<E>> = std::is_enum_v<E>;
template <class E>
inline constexpr bool is_enum_container<std::set<E>> = std::is_enum_v<E>;

template <class T>
inline constexpr bool is_choice_container = false;
template <>
inline constexpr bool is_choice_container<std::vector<choice>> = true;
template <>
inline constexpr bool is_choice_container<std::set<choice>> = true;

// A NUL or a direction control in text (detail/text_policy.hpp), reported without the text:
// repeated into the message, the control would reorder the message itself.
inline void check_plain_text(const field_spec& s, std::string_view text, const reporter& r) {
  const std::optional<hidden_control> found = find_hidden_control(text);
  if (!found) return;
  if (found->code == 0)
    return r("plainText", label_of(s), " must not contain a NUL character (U+0000); one is at character ",
             found->character, ".");
  constexpr char hex[] = "0123456789ABCDEF";
  const char code[] = {hex[(found->code >> 12) & 15], hex[(found->code >> 8) & 15], hex[(found->code >> 4) & 15],
                       hex[found->code & 15], '\0'};
  r("plainText", label_of(s), " must not contain the invisible direction control U+", code, ", at character ",
    found->character, ": it changes the order in which the text is shown. Remove it.");
}

// Up to this many options, a wire value is found by reading them in turn; past it, through
// an option_index.
inline constexpr std::size_t listed_options = 8;

// The option whose wire value is `wire`, or nullptr: through `index` when there is one.
inline const enum_entry* find_option(const field_spec& s, std::string_view wire, const option_index* index) noexcept {
  return index != nullptr ? index->find(wire) : find_choice(s, wire);
}

// The index of a field's options, when they are many: a run-time choice's, built by
// form<F>::choices(); a large enum's, built at its first answer, once for every field of the
// enum (they all offer enum_table<E>). Throws only std::bad_alloc.
template <class E>
const option_index* index_for(const field_spec& s) {
  if (s.option_count <= listed_options) return nullptr;
  if constexpr (std::is_enum_v<E>) {
    if (!option_index::fits(s.option_count)) return nullptr;
    static const option_index index(s.options, s.option_count);
    return index.indexes(s.options, s.option_count) ? &index : nullptr;
  } else {
    return s.index;
  }
}

// The option `j` names, or nothing (reported) when it names none of the field's options.
inline const enum_entry* read_option(value_view j, const field_spec& s, const reporter& r, const option_index* index) {
  const bool text = j.is(json_kind::string);
  const enum_entry* choice = text ? find_option(s, j.text(), index) : nullptr;
  if (choice == nullptr && r.out.full()) {
    r.out.omit();  // counted, not described: a long list of wrong items costs no message each
    return nullptr;
  }
  if (choice == nullptr)
    r(text ? "enum" : "type", label_of(s), " must be one of ", offered_options{s}, "; got ", described{j}, ".");
  return choice;
}

// An enumerator, or a run-time choice (by its wire value), from the option it names.
template <class E>
std::optional<E> read_choice(value_view j, const field_spec& s, const reporter& r, const option_index* index) {
  const enum_entry* option = read_option(j, s, r, index);
  if (option == nullptr) return std::nullopt;
  if constexpr (std::is_same_v<E, choice>) return choice{std::string(option->wire)};
  else return static_cast<E>(option->value);
}

// Reads `j` into `out` when it meets the field's schema; otherwise reports every rule it
// breaks and leaves `out` alone.
template <class V>
void read_value(value_view j, const field_spec& s, V& out, const reporter& r) {
  if constexpr (is_optional<V>::value) {
    typename V::value_type inner{};
    const std::size_t before = r.out.total();
    read_value(j, s, inner, r);
    if (r.out.total() == before) out = std::move(inner);
  } else if constexpr (std::is_same_v<V, bool>) {
    if (j.is(json_kind::boolean)) out = j.boolean();
    else report_type(r, s, "true or false", j);
  } else if constexpr (std::is_integral_v<V>) {
    const std::optional<number> n = json_number(j);
    if (!n || !n->is_whole()) return report_type(r, s, "a whole number", j);
    const std::size_t before = r.out.total();
    constexpr number lowest = std::numeric_limits<V>::min(), highest = std::numeric_limits<V>::max();
    // Never wrapped or truncated. A number written with a fraction or an exponent, or an integer
    // beyond 64 bits, arrives as a double; a double of -2^63 or below cannot tell INT64_MIN from
    // its neighbours (-9223372036854775809 reads as -2^63), so it is below every integer type.
    const bool below_64_bits = n->is_floating() && n->as_double() <= -0x1p63;
    const bool outside_type = below_64_bits || compare(*n, lowest) < 0 || compare(*n, highest) > 0;
    const bool outside_field =
        outside_type && ((s.minimum && compare(*n, *s.minimum) < 0) || (s.maximum && compare(*n, *s.maximum) > 0));
    if (outside_type && !outside_field) {  // the field's own bounds, when it has them, say it better
      r(below_64_bits || compare(*n, lowest) < 0 ? "minimum" : "maximum", label_of(s), " must be between ", lowest,
        " and ", highest, "; got ", *n, ".");
    } else {
      check_bounds(s, *n, r);
    }
    if (r.out.total() == before) out = integer_from<V>(*n);
  } else if constexpr (std::is_floating_point_v<V>) {
    const std::optional<number> n = json_number(j);
    if (!n) return report_type(r, s, "a number", j);
    const double d = n->as_double();
    const std::size_t before = r.out.total();
    if (std::abs(d) > static_cast<double>(std::numeric_limits<V>::max())) {
      r(d < 0 ? "minimum" : "maximum", label_of(s), " is too large for this field; got ", *n, ".");
    } else if constexpr (std::is_same_v<V, double>) {
      check_bounds(s, *n, r);
    } else {
      // The bounds hold for the value the field will hold, after rounding to its type.
      const double held = static_cast<double>(static_cast<V>(d));
      if (held == d) check_bounds(s, *n, r);
      else check_bounds(s, number{held}, r);
    }
    if (r.out.total() == before) out = static_cast<V>(d);
  } else if constexpr (std::is_same_v<V, std::string> || std::is_same_v<V, email> || std::is_same_v<V, uri>) {
    if (!j.is(json_kind::string)) return report_type(r, s, "text", j);
    const std::string_view text = j.text();
    const std::size_t length = code_points(text);
    if (length == invalid_utf8) return r("type", label_of(s), " is not valid UTF-8 text.");
    const std::size_t before = r.out.total();
    if constexpr (std::is_same_v<V, std::string>)
      if (r.plain_text) check_plain_text(s, text, r);
    check_length(s, length, r);
    check_format(s, text, r);
    if (r.out.total() == before) out = V(text);
  } else if constexpr (std::is_same_v<V, std::chrono::year_month_day>) {
    if (!j.is(json_kind::string)) return report_type(r, s, "a date (YYYY-MM-DD)", j);
    const auto date = parse_date(j.text());
    if (!date)
      return r("format", label_of(s), " must be a calendar date as YYYY-MM-DD, e.g. 2025-01-31; got ", described{j},
               ".");
    out = *date;
  } else if constexpr (std::is_same_v<V, std::chrono::sys_seconds>) {
    if (!j.is(json_kind::string)) return report_type(r, s, "a date and time", j);
    const auto t = parse_date_time(j.text());
    if (!t)
      return r("format", label_of(s), " must be a date and time as in RFC 3339, e.g. 2025-01-31T09:30:00Z; got ",
               described{j}, ".");
    if (t->has_fraction)
      return r("format", label_of(s), " holds whole seconds; got a fraction of a second in ", described{j}, ".");
    out = t->instant;
  } else if constexpr (std::is_enum_v<V> || std::is_same_v<V, choice>) {
    if (auto e = read_choice<V>(j, s, r, index_for<V>(s))) out = std::move(*e);
  } else if constexpr (is_enum_container<V> || is_choice_container<V>) {
    using E = typename V::value_type;
    if (!j.is(json_kind::array)) return report_type(r, s, "a list of choices", j);
    const std::size_t before = r.out.total();
    check_items(s, j.size(), r);
    V selected;
    const option_index* index = index_for<E>(s);
    // A std::set takes each at its place in O(log n); a std::vector keeps repeats as they come.
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (auto e = read_choice<E>(j[i], s, r.at(i), index)) selected.insert(selected.end(), std::move(*e));
    }
    // A std::set keeps each choice once: repeats must not make up the minimum.
    if (r.out.total() == before && s.min_items && selected.size() < *s.min_items && j.size() >= *s.min_items)
      r("minItems", "Pick at least ", *s.min_items, " different choices for ", label_of(s), "; got ", selected.size(),
        ".");
    if (r.out.total() == before) out = std::move(selected);
  } else {
    static_assert(sizeof(V) == 0, "elicit: no reader for this field type");
  }
}

// The default of a field as the JSON a client would have sent for it.
inline nlohmann::json default_json(const field_spec& s) {
  const default_spec& d = s.def;
  switch (d.kind) {
    case default_spec::kind_t::boolean: return d.boolean;
    case default_spec::kind_t::number:
      if (d.num.kind == number::kind_t::signed_int) return d.num.i;
      if (d.num.kind == number::kind_t::unsigned_int) return d.num.u;
      return d.num.as_double();
    case default_spec::kind_t::enumerators: {
      nlohmann::json wires = nlohmann::json::array();
      for (std::size_t i = 0; i < d.enumerator_count; ++i) wires.push_back(wire_of(s, d.enumerators[i]));
      return s.type == value_type::multi_select ? wires : wires[0];
    }
    default: return std::string(d.text);
  }
}

}  // namespace elicit::detail
