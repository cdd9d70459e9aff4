// What each C++ value type means in a form, in one entry per type: its JSON type and format,
// the range the type itself can hold, how an answer is read into it (`read`, every keyword of
// the field checked on the way, what is broken filed through the reporter), how it is written
// back as a client would send it (`write`), the value a field of it starts from given its
// default (`start`), and the words a message uses for what it expects (`expected`: the kind of
// those words in the catalogue, messages.hpp).
// describe.hpp, rules.hpp, read_value.hpp, write_value.hpp and field.hpp read these entries and
// nothing else about a type; adding a type is adding an entry here (or, for a user's own type,
// an elicit_value_as beside it: value_as.hpp).
#pragma once

#include <elicit/detail/message.hpp>
#include <elicit/detail/model/field_spec.hpp>
#include <elicit/detail/model/keywords.hpp>
#include <elicit/detail/model/option_index.hpp>
#include <elicit/detail/model/reporter.hpp>
#include <elicit/detail/model/value_view.hpp>
#include <elicit/detail/number.hpp>
#include <elicit/detail/text_formats.hpp>
#include <elicit/detail/text_policy.hpp>
#include <elicit/detail/utf8.hpp>
#include <elicit/form/choice.hpp>
#include <elicit/form/enums.hpp>
#include <elicit/form/formats.hpp>
#include <elicit/form/value_as.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <limits>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace elicit::detail {

// Character types hold text, not numbers. signed char and unsigned char are left out: they
// are std::int8_t and std::uint8_t, the narrowest integers.
template <class T>
concept character = std::is_same_v<T, char> || std::is_same_v<T, wchar_t> || std::is_same_v<T, char8_t> ||
    std::is_same_v<T, char16_t> || std::is_same_v<T, char32_t>;

// ---- Pieces the entries share ----

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

// A NUL or a direction control in text (detail/text_policy.hpp), reported without the text:
// repeated into the message, the control would reorder the message itself.
inline void check_plain_text(const field_spec& s, std::string_view text, const reporter& r) {
  const std::optional<hidden_control> found = find_hidden_control(text);
  if (!found) return;
  if (found->code == 0) return r("plainText", say<message_kind::nul_character>, label_part(s), found->character);
  constexpr char hex[] = "0123456789ABCDEF";
  const char code[] = {hex[(found->code >> 12) & 15], hex[(found->code >> 8) & 15], hex[(found->code >> 4) & 15],
                       hex[found->code & 15], '\0'};
  r("plainText", say<message_kind::direction_control>, label_part(s), std::string_view(code, 4), found->character);
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

// The option whose title is `text`: a client that sent what the user saw instead of the value
// gets a message that says so, rather than a list that holds what it sent. Looked for among a
// field's first max_title_search options only, so that a long list of wrong picks among 100,000
// choices costs no search of them each.
inline constexpr std::size_t max_title_search = 256;
inline const enum_entry* find_title(const field_spec& s, std::string_view text) noexcept {
  if (!s.titled || s.option_count > max_title_search) return nullptr;
  for (std::size_t i = 0; i < s.option_count; ++i)
    if (!s.options[i].title.empty() && same_text(s.options[i].title, text)) return &s.options[i];
  return nullptr;
}

// The option `j` names, or nothing (reported) when it names none of the field's options.
inline const enum_entry* read_option(value_view j, const field_spec& s, const reporter& r, const option_index* index) {
  const bool text = j.is(json_kind::string);
  const enum_entry* choice = text ? find_option(s, j.text(), index) : nullptr;
  if (choice == nullptr && r.out.full()) {
    r.out.omit();  // counted, not described: a long list of wrong items costs no message each
    return nullptr;
  }
  if (choice != nullptr) return choice;
  if (const enum_entry* titled = text ? find_title(s, j.text()) : nullptr)
    r.with_params(choice_params{s, j}, "enum", say<message_kind::title_for_value>, label_part(s), shown_text{j.text()},
                  shown_text{titled->wire});
  else
    r.with_params(choice_params{s, j}, text ? "enum" : "type", say<message_kind::one_of>, label_part(s),
                  offered_options{s}, described{j});
  return nullptr;
}

// An enumerator, or a run-time choice (by its wire value), from the option it names.
template <class E>
std::optional<E> read_choice(value_view j, const field_spec& s, const reporter& r, const option_index* index) {
  const enum_entry* option = read_option(j, s, r, index);
  if (option == nullptr) return std::nullopt;
  if constexpr (std::is_same_v<E, choice>) return choice{std::string(option->wire)};
  else return static_cast<E>(option->value);
}

// An enumerator's wire value. Throws std::invalid_argument when it is none of the field's options.
template <class E>
std::string wire_for(const field_spec& s, E e) {
  if (const enum_entry* choice = s.option_for(underlying(e))) return std::string(choice->wire);
  throw std::invalid_argument(message("elicit::to_content: ", label_of(s), " holds enumerator value ", underlying(e),
                                      ", which is not one of its options"));
}

// A number answer within the field's bounds, read into T: the value held (after a float's
// rounding) is what the bounds hold for.
template <class T>
void read_floating(value_view j, const field_spec& s, T& out, const reporter& r) {
  const std::optional<number> n = json_number(j);
  if (!n) return report_type(r, s, say<message_kind::expect_number>, j);
  const double d = n->as_double();
  const std::size_t before = r.out.total();
  if (std::abs(d) > static_cast<double>(std::numeric_limits<T>::max())) {
    r(d < 0 ? "minimum" : "maximum", say<message_kind::too_large>, label_part(s), *n);
  } else if constexpr (std::is_same_v<T, double>) {
    check_bounds(s, *n, r);
  } else {
    const double held = static_cast<double>(static_cast<T>(d));
    if (held == d) check_bounds(s, *n, r);
    else check_bounds(s, number{held}, r);
  }
  if (r.out.total() == before) out = static_cast<T>(d);
}

// A numeric default as T.
template <class T>
constexpr std::optional<T> number_default(const default_spec& d) {
  if (d.kind != default_spec::kind_t::number) return std::nullopt;
  if (d.num.kind == number::kind_t::signed_int) return static_cast<T>(d.num.i);
  if (d.num.kind == number::kind_t::unsigned_int) return static_cast<T>(d.num.u);
  return static_cast<T>(d.num.as_double());
}

// ---- The entries ----

// A type with no entry: the rules say so (rules.hpp, type_problem), in one diagnostic.
template <class T>
struct value_traits {
  static constexpr bool known = false;
};

template <value_type Type, format Fmt = format::none>
struct simple_traits {
  static constexpr bool known = true;
  static constexpr value_type type = Type;
  static constexpr format fmt = Fmt;
  static constexpr bound<number> lowest{};
  static constexpr bound<number> highest{};
};

template <>
struct value_traits<bool> : simple_traits<value_type::boolean> {
  static constexpr auto expected = say<message_kind::expect_boolean>;
  static void read(value_view j, const field_spec& s, bool& out, const reporter& r) {
    if (j.is(json_kind::boolean)) out = j.boolean();
    else report_type(r, s, expected, j);
  }
  static nlohmann::ordered_json write(const field_spec& /*s*/, bool v) { return v; }
  static constexpr std::optional<bool> start(const default_spec& d) {
    if (d.kind == default_spec::kind_t::boolean) return d.boolean;
    return std::nullopt;
  }
};

template <plain_integer T>
  requires(!character<T>)
struct value_traits<T> : simple_traits<value_type::integer> {
  // What the C++ type can hold; the schema states it when it is not the whole JSON range a
  // client would assume (narrow types, and 0 for unsigned).
  static constexpr number type_min = std::numeric_limits<T>::min();
  static constexpr number type_max = std::numeric_limits<T>::max();
  static constexpr bound<number> lowest =
      sizeof(T) < 4 || std::is_unsigned_v<T> ? bound<number>(type_min) : bound<number>();
  static constexpr bound<number> highest = sizeof(T) < 4 ? bound<number>(type_max) : bound<number>();
  static constexpr auto expected = say<message_kind::expect_integer>;

  // Never wrapped or truncated. A number written with a fraction or an exponent, or an integer
  // beyond 64 bits, arrives as a double; a double of -2^63 or below cannot tell INT64_MIN from
  // its neighbours (-9223372036854775809 reads as -2^63), so it is below every integer type.
  static void read(value_view j, const field_spec& s, T& out, const reporter& r) {
    const std::optional<number> n = json_number(j);
    if (!n || !n->is_whole()) return report_type(r, s, expected, j);
    const std::size_t before = r.out.total();
    const bool below_64_bits = n->is_floating() && n->as_double() <= -0x1p63;
    const bool outside_type = below_64_bits || compare(*n, type_min) < 0 || compare(*n, type_max) > 0;
    const bool outside_field =
        outside_type && ((s.minimum && compare(*n, *s.minimum) < 0) || (s.maximum && compare(*n, *s.maximum) > 0));
    if (outside_type && !outside_field) {  // the field's own bounds, when it has them, say it better
      r(below_64_bits || compare(*n, type_min) < 0 ? "minimum" : "maximum", say<message_kind::outside_type>,
        label_part(s), type_min, type_max, *n);
    } else {
      check_bounds(s, *n, r);
    }
    if (r.out.total() == before) out = integer_from<T>(*n);
  }
  static nlohmann::ordered_json write(const field_spec& /*s*/, T v) { return v; }
  static constexpr std::optional<T> start(const default_spec& d) { return number_default<T>(d); }
};

template <class T>
struct floating_traits : simple_traits<value_type::number> {
  static constexpr auto expected = say<message_kind::expect_number>;
  static void read(value_view j, const field_spec& s, T& out, const reporter& r) { read_floating(j, s, out, r); }
  static nlohmann::ordered_json write(const field_spec& /*s*/, T v) { return v; }
  static constexpr std::optional<T> start(const default_spec& d) { return number_default<T>(d); }
};
template <>
struct value_traits<float> : floating_traits<float> {
  // What a float holds; not stated in the schema (a client would not expect it), but bounds
  // and defaults must lie within it, and answers beyond it are refused.
  static constexpr number type_min = -std::numeric_limits<float>::max();
  static constexpr number type_max = std::numeric_limits<float>::max();
};
template <>
struct value_traits<double> : floating_traits<double> {};

// Text: std::string, and the string types whose schema carries a format (formats.hpp). Only
// plain text is checked for hidden controls: an e-mail address or a URI has its format's own
// characters.
template <class T, format Fmt>
struct text_traits : simple_traits<value_type::string, Fmt> {
  static constexpr auto expected = say<message_kind::expect_text>;
  static void read(value_view j, const field_spec& s, T& out, const reporter& r) {
    if (!j.is(json_kind::string)) return report_type(r, s, expected, j);
    const std::string_view text = j.text();
    // Counted only when a length is asked for, once the text is known to be UTF-8.
    std::size_t length = 0;
    if (!j.utf8_checked()) length = code_points(text);
    else if (s.min_length || s.max_length) length = utf8_code_points(text);
    if (length == invalid_utf8) return r("type", say<message_kind::not_utf8>, label_part(s));
    const std::size_t before = r.out.total();
    if constexpr (Fmt == format::none)
      if (r.plain_text) check_plain_text(s, text, r);
    check_length(s, length, r);
    check_format(s, text, r);
    if (r.out.total() == before) out = T(text);
  }
  static nlohmann::ordered_json write(const field_spec& /*s*/, const T& v) {
    return static_cast<const std::string&>(v);
  }
  static constexpr std::optional<T> start(const default_spec& d) {
    if (d.kind == default_spec::kind_t::text) return T(d.text);
    return std::nullopt;
  }
};
template <>
struct value_traits<std::string> : text_traits<std::string, format::none> {};
template <>
struct value_traits<email> : text_traits<email, format::email> {};
template <>
struct value_traits<uri> : text_traits<uri, format::uri> {};

template <>
struct value_traits<std::chrono::year_month_day> : simple_traits<value_type::string, format::date> {
  static constexpr auto expected = say<message_kind::expect_date>;
  static void read(value_view j, const field_spec& s, std::chrono::year_month_day& out, const reporter& r) {
    if (!j.is(json_kind::string)) return report_type(r, s, expected, j);
    const auto date = parse_date(j.text());
    if (!date) return r("format", say<message_kind::date>, label_part(s), described{j});
    out = *date;
  }
  static nlohmann::ordered_json write(const field_spec& /*s*/, const std::chrono::year_month_day& v) {
    return format_date(v);
  }
  static constexpr std::optional<std::chrono::year_month_day> start(const default_spec& d) {
    if (d.kind == default_spec::kind_t::text) return parse_date(d.text);  // checked by the rules
    return std::nullopt;
  }
};

template <>
struct value_traits<std::chrono::sys_seconds> : simple_traits<value_type::string, format::date_time> {
  static constexpr auto expected = say<message_kind::expect_date_time>;
  static void read(value_view j, const field_spec& s, std::chrono::sys_seconds& out, const reporter& r) {
    if (!j.is(json_kind::string)) return report_type(r, s, expected, j);
    const auto t = parse_date_time(j.text());
    if (!t) return r("format", say<message_kind::date_time>, label_part(s), described{j});
    if (t->has_fraction) return r("format", say<message_kind::whole_seconds>, label_part(s), described{j});
    out = t->instant;
  }
  static nlohmann::ordered_json write(const field_spec& /*s*/, const std::chrono::sys_seconds& v) {
    return format_date_time(v);
  }
  static constexpr std::optional<std::chrono::sys_seconds> start(const default_spec& d) {
    if (d.kind != default_spec::kind_t::text) return std::nullopt;
    if (const auto t = parse_date_time(d.text)) return t->instant;
    return std::nullopt;
  }
};

// A single-select: an enum (its options at compile time), or elicit::choice (its options come
// with the form<F> that asks, per request).
template <class E>
struct select_traits : simple_traits<value_type::single_select> {
  static void read(value_view j, const field_spec& s, E& out, const reporter& r) {
    if (auto e = read_choice<E>(j, s, r, index_for<E>(s))) out = std::move(*e);
  }
};
template <class E>
  requires(std::is_enum_v<E>)
struct value_traits<E> : select_traits<E> {
  using enum_type = E;
  static nlohmann::ordered_json write(const field_spec& s, E v) { return wire_for(s, v); }
  static constexpr std::optional<E> start(const default_spec& d) {
    if (d.kind == default_spec::kind_t::enumerators && d.enumerator_count == 1) return static_cast<E>(d.enumerators[0]);
    return std::nullopt;
  }
};
template <>
struct value_traits<choice> : select_traits<choice> {
  static constexpr bool runtime_options = true;
  static nlohmann::ordered_json write(const field_spec& /*s*/, const choice& v) { return v.value; }
};

// A multi-select: a std::vector or a std::set of an enum or of elicit::choice. A std::set
// takes each at its place in O(log n) and keeps each choice once; a std::vector keeps repeats
// as they come.
// How many picks of a multi-select kept in a std::vector are made room for at once.
inline constexpr std::size_t reserved_picks = 64;

template <class V>
struct multi_select_traits : simple_traits<value_type::multi_select> {
  using item = typename V::value_type;
  static constexpr auto expected = say<message_kind::expect_choices>;
  static void read(value_view j, const field_spec& s, V& out, const reporter& r) {
    if (!j.is(json_kind::array)) return report_type(r, s, expected, j);
    const std::size_t before = r.out.total();
    check_items(s, j.size(), r);
    V selected;
    // One allocation for the picks of most answers, not one per doubling; a list longer than
    // this (most likely wrong picks) grows as it is read.
    if constexpr (requires { selected.reserve(std::size_t{}); })
      selected.reserve(j.size() < reserved_picks ? j.size() : reserved_picks);
    const option_index* index = index_for<item>(s);
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (auto e = read_choice<item>(j[i], s, r.at(i), index)) selected.insert(selected.end(), std::move(*e));
    }
    // Repeats must not make up the minimum.
    if (r.out.total() == before && s.min_items && selected.size() < *s.min_items && j.size() >= *s.min_items)
      r("minItems", say<message_kind::min_different>, label_part(s), *s.min_items, selected.size());
    if (r.out.total() == before) out = std::move(selected);
  }
  static nlohmann::ordered_json write(const field_spec& s, const V& v) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const item& e : v) list.push_back(value_traits<item>::write(s, e));
    return list;
  }
};
template <class V>
struct enum_list_traits : multi_select_traits<V> {
  using enum_type = typename V::value_type;
  static constexpr std::optional<V> start(const default_spec& d) {
    if (d.kind != default_spec::kind_t::enumerators) return std::nullopt;
    V selected;
    for (std::size_t i = 0; i < d.enumerator_count; ++i)
      selected.insert(selected.end(), static_cast<enum_type>(d.enumerators[i]));
    return selected;
  }
};
template <class E>
  requires(std::is_enum_v<E>)
struct value_traits<std::vector<E>> : enum_list_traits<std::vector<E>> {};
template <class E>
  requires(std::is_enum_v<E>)
struct value_traits<std::set<E>> : enum_list_traits<std::set<E>> {};
template <>
struct value_traits<std::vector<choice>> : multi_select_traits<std::vector<choice>> {
  static constexpr bool runtime_options = true;
};
template <>
struct value_traits<std::set<choice>> : multi_select_traits<std::set<choice>> {
  static constexpr bool runtime_options = true;
};

// ---- A user's own type, mapped onto a value type (value_as.hpp) ----

// Declared beside the type (found by argument-dependent lookup), or elicit::value_as specialized.
template <class T>
concept value_as_beside = requires(const T& t) {
  elicit_value_as(t);
};
template <class T>
struct mapping_of {
  using type = void;
};
template <value_as_beside T>
struct mapping_of<T> {
  using type = decltype(elicit_value_as(std::declval<const T&>()));
};
template <class T>
  requires(!value_as_beside<T> && !requires { typename value_as<T>::elicit_unmapped; })
struct mapping_of<T> {
  using type = value_as<T>;
};
template <class T>
using mapping_t = typename mapping_of<T>::type;

// A type that has a mapping, complete or not; a complete one gives a held type elicit knows
// and both conversions.
template <class T>
concept has_value_as = std::is_class_v<T> && !std::is_void_v<mapping_t<T>>;
template <class T, class M = mapping_t<T>>
concept complete_value_as = has_value_as<T> && requires(const T& value, typename M::held&& held) {
  { M::to(value) } -> std::convertible_to<typename M::held>;
  { M::from(std::move(held)) } -> std::same_as<T>;
} && !has_value_as<typename M::held> && value_traits<typename M::held>::known;

// Everything the held type's entry says (type, format, bounds, options, words), with the value
// converted after reading and before writing.
template <complete_value_as T>
struct value_traits<T> : value_traits<typename mapping_t<T>::held> {
  using mapping = mapping_t<T>;
  using held = typename mapping::held;
  using base = value_traits<held>;

  static void read(value_view j, const field_spec& s, T& out, const reporter& r) {
    held value{};
    const std::size_t before = r.out.total();
    base::read(j, s, value, r);
    if (r.out.total() == before) out = mapping::from(std::move(value));
  }
  static nlohmann::ordered_json write(const field_spec& s, const T& v) { return base::write(s, mapping::to(v)); }
  static constexpr std::optional<T> start(const default_spec& d) requires(requires(const default_spec& x) {
    base::start(x);
  }) {
    if (auto value = base::start(d)) return mapping::from(std::move(*value));
    return std::nullopt;
  }
};

template <class T>
struct without_optional {
  using type = T;
};
template <class T>
struct without_optional<std::optional<T>> {
  using type = T;
};
template <class T>
using without_optional_t = typename without_optional<T>::type;

}  // namespace elicit::detail
