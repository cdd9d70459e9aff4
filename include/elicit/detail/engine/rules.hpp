// What a form may not be, and the message for each rule.
//
// Every rule is found by a constexpr function that returns the first problem of a member;
// one static_assert per problem turns it into a diagnostic that says what to do instead.
// The static_asserts sit in member_rules<Form, I, Probe>, whose last argument names the
// member, so that the compiler's "in instantiation of" line shows which field is wrong.
#pragma once

#include <elicit/detail/engine/describe.hpp>
#include <elicit/detail/fixed_string.hpp>
#include <elicit/detail/fnv1a.hpp>
#include <elicit/detail/indices.hpp>
#include <elicit/detail/model/field_spec.hpp>
#include <elicit/detail/model/value_traits.hpp>
#include <elicit/detail/reflection.hpp>
#include <elicit/detail/text_formats.hpp>
#include <elicit/detail/utf8.hpp>
#include <elicit/form/annotations.hpp>
#include <elicit/form/enums.hpp>
#include <elicit/form/field.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

namespace elicit::detail {

// The most fields a form may have; the reflection and the diagnostics are built for this many.
inline constexpr std::size_t max_fields = 100;

// Every rule of a form's declaration and of form<F>'s refinements, with its words, written once:
// X(problem, "what is wrong: what to do"). The compile-time diagnostic is "elicit: " and the
// words (static_assert needs a literal, so the table is a macro that the asserts expand); the
// run-time form_error is "elicit::form: field \"key\": " and the same words (rule_text).
// clang-format off
#define ELICIT_FORM_RULES(X) \
  /* the member's type */ \
  X(const_member, "a form field cannot be const or volatile: the decoder fills it in; drop the qualifier") \
  X(pointer, "a form field cannot be a pointer: store the value itself, or std::optional<T> for a field the user may leave empty") \
  X(character, "a form field cannot be a character type: use std::string for text, or an integer type for a number") \
  X(string_view, "a form field cannot be a std::string_view, which would not own the answer: use std::string") \
  X(variant_or_tuple, "a form field cannot be a std::variant, std::tuple or std::pair: use one field per value, or an enum for a choice") \
  X(nested_optional, "std::optional<std::optional<T>> means nothing more in a form: use std::optional<T>") \
  X(optional_of_field, "write elicit::field<std::optional<T>, ...> instead of std::optional<elicit::field<T, ...>>") \
  X(field_in_field, "an elicit::field cannot hold another elicit::field: list all the annotations in one field") \
  X(container, "a form field cannot be a container of free values: for a multi-select use std::vector<Enum> or std::set<Enum>; otherwise ask for a fixed set of fields (one bool per choice), or take the list in a tool argument instead") \
  X(nested_object, "a form field cannot be a nested object or class: flatten it into top-level fields, and ask only for the field the others derive from; a type that holds one value is a field once an elicit_value_as beside it maps it onto a field type (elicit/form/value_as.hpp)") \
  X(value_as_incomplete, "this type's elicit_value_as mapping is incomplete: it needs using held = H (a field type elicit knows, not another mapped type), static H to(const T&) and static T from(H&&); elicit::held_as<H, &T::member> gives all three") \
  X(unsupported, "unsupported field type: use bool, an integer type, float, double, std::string, elicit::email, elicit::uri, std::chrono::year_month_day, std::chrono::sys_seconds, an enum, std::vector or std::set of an enum, a type mapped onto one of them by elicit_value_as (elicit/form/value_as.hpp), or std::optional of one of them") \
  /* the annotations */ \
  X(not_an_annotation, "every argument of elicit::field after the value type must be an annotation (elicit::title, elicit::range, ...)") \
  X(numeric_misfit, "range, minimum and maximum apply to integer and number fields only: use length, min_length or max_length on a string") \
  X(length_misfit, "length, min_length and max_length apply to string fields only: use range, minimum or maximum on a number") \
  X(length_on_date, "length, min_length and max_length do not apply to date and date-time fields: their format fixes their shape") \
  X(items_misfit, "items, min_items and max_items apply to multi-select fields only (std::vector<Enum> or std::set<Enum>)") \
  X(legacy_names_misfit, "legacy_enum_names applies to single-select enum fields only: a multi-select is titled through its options") \
  X(repeated_annotation, "the same annotation is given twice (range also sets minimum and maximum; length sets min_length and max_length): keep one") \
  X(many_defaults, "default_value takes exactly one value on this field (several enumerators only on a multi-select)") \
  /* the values they give */ \
  X(text_not_utf8, "title, description, name and string defaults must be valid UTF-8") \
  X(empty_name, "elicit::name<\"\"> gives an empty property key: give a non-empty wire name") \
  X(bound_not_finite, "bounds and defaults must be finite numbers (no infinity, no NaN)") \
  X(bound_outside_type, "a minimum or maximum lies outside what the field's C++ type can hold: tighten the bound or widen the type") \
  X(min_above_max, "the minimum is greater than the maximum: swap them") \
  X(min_length_above_max_length, "min_length is greater than max_length: swap them") \
  X(default_type_mismatch, "the default's type does not match the field: a bool field takes true or false, a number field a number, a string field a string literal, an enum field enumerators of its own enum") \
  X(default_not_whole, "an integer field's default must be a whole number") \
  X(default_out_of_range, "the default lies outside the field's own minimum and maximum (or its C++ type's range): change the default or the range") \
  X(default_out_of_length, "the default's length (in code points) lies outside the field's own min_length and max_length: change the default or the length") \
  X(default_format, "the default does not have the field's format (an e-mail address, an absolute URI, a real YYYY-MM-DD date, an RFC 3339 date-time in whole seconds): fix the default") \
  /* the choices of a select */ \
  X(enum_not_reflectable, "this enum has no enumerator in [-128, 127] that elicit can name: list its choices with a constexpr elicit_options(E) function in the enum's namespace") \
  X(enum_past_reflection, "this enum has an enumerator at -128 or 127, the ends of the values elicit reflects, or one past them: reflection would leave out those past [-128, 127]; list its choices with a constexpr elicit_options(E) function in the enum's namespace") \
  X(empty_options, "the field offers no option (elicit_options returns none, or choices() was given none): offer at least one choice") \
  X(option_without_wire, "an option has no wire value: give each one (an enumerator outside [-128, 127], which elicit cannot name, as elicit::option{E::x, \"wire\", \"Title\"})") \
  X(repeated_option_wire, "two options have the same wire value: give each choice its own") \
  X(repeated_option_value, "the same enumerator is offered twice: list each choice once") \
  X(min_items_above_max_items, "min_items is greater than max_items: swap them") \
  X(min_items_above_options, "min_items asks for more choices than the field offers: lower it") \
  X(default_not_offered, "the default is not among the offered options: pick an offered enumerator, or offer it in elicit_options") \
  X(default_repeats, "the multi-select default names the same enumerator twice: list each once") \
  X(default_items_count, "the multi-select default has fewer or more choices than min_items / max_items allow: change the default or the bounds")
// clang-format on

enum class problem : unsigned char {
  none,
#define ELICIT_RULE_ID(id, text) id,
  ELICIT_FORM_RULES(ELICIT_RULE_ID)
#undef ELICIT_RULE_ID
};

// The words of a rule, as both its static_assert and its form_error say them ("" for none).
constexpr std::string_view rule_text(problem p) noexcept {
  switch (p) {
#define ELICIT_RULE_CASE(id, text) \
  case problem::id: return text;
    ELICIT_FORM_RULES(ELICIT_RULE_CASE)
#undef ELICIT_RULE_CASE
    default: return {};
  }
}

// Each rule that a member breaks, as its diagnostic: expanded where `found` is the problem.
#define ELICIT_RULE_ASSERT(id, text) static_assert(found != problem::id, "elicit: " text);

template <class T>
inline constexpr bool is_string_view = false;
template <class C, class Tr>
inline constexpr bool is_string_view<std::basic_string_view<C, Tr>> = true;

template <class T>
inline constexpr bool is_variant_or_tuple = false;
template <class... T>
inline constexpr bool is_variant_or_tuple<std::variant<T...>> = true;
template <class... T>
inline constexpr bool is_variant_or_tuple<std::tuple<T...>> = true;
template <class A, class B>
inline constexpr bool is_variant_or_tuple<std::pair<A, B>> = true;

template <class V>
constexpr problem type_problem() {
  if constexpr (std::is_const_v<V> || std::is_volatile_v<V>) {
    return problem::const_member;
  } else if constexpr (is_optional<V>::value) {
    using inner = typename V::value_type;
    if constexpr (is_optional<inner>::value) return problem::nested_optional;
    else if constexpr (is_field<inner>) return problem::optional_of_field;
    else return type_problem<inner>();
  } else if constexpr (is_field<V>) {
    return problem::field_in_field;
  } else if constexpr (value_traits<V>::known) {
    return problem::none;
  } else if constexpr (has_value_as<V>) {
    return problem::value_as_incomplete;
  } else if constexpr (std::is_pointer_v<V> || std::is_member_pointer_v<V> || std::is_null_pointer_v<V>) {
    return problem::pointer;
  } else if constexpr (character<V>) {
    return problem::character;
  } else if constexpr (is_string_view<V>) {
    return problem::string_view;
  } else if constexpr (is_variant_or_tuple<V>) {
    return problem::variant_or_tuple;
  } else if constexpr (std::ranges::range<V> || std::is_array_v<V>) {
    return problem::container;
  } else if constexpr (std::is_class_v<V> || std::is_union_v<V>) {
    return problem::nested_object;
  } else {
    return problem::unsupported;
  }
}

// Whether a keyword (an annotation's, or form<F>'s refinement of it: `slots`, for the fields
// `fits`) applies to a field of kind `fit`.
constexpr problem misfit_problem(unsigned fits, unsigned slots, unsigned fit) noexcept {
  if ((fits & fit) != 0) return problem::none;
  if ((slots & (slot_minimum | slot_maximum)) != 0) return problem::numeric_misfit;
  if ((slots & (slot_min_length | slot_max_length)) != 0)
    return fit == fits_dates ? problem::length_on_date : problem::length_misfit;
  if ((slots & (slot_min_items | slot_max_items)) != 0) return problem::items_misfit;
  return problem::legacy_names_misfit;
}

template <class M>
struct annotation_rules {
  static constexpr problem found = problem::none;
};
template <class T, class... A>
struct annotation_rules<field<T, A...>> {
  static constexpr problem check() {
    if constexpr (!(is_annotation<A> && ...)) {
      return problem::not_an_annotation;
    } else {
      using traits = value_traits<without_optional_t<T>>;
      const unsigned fit = fit_of(traits::type, traits::fmt);
      const unsigned all_slots = (0u | ... | A::slots);
      const unsigned slot_count = (0u + ... + static_cast<unsigned>(std::popcount(A::slots)));
      for (const auto& [fits, slots] : {std::pair{A::fits, A::slots}...})
        if (const problem p = misfit_problem(fits, slots, fit); p != problem::none) return p;
      if (static_cast<unsigned>(std::popcount(all_slots)) != slot_count) return problem::repeated_annotation;
      return problem::none;
    }
  }
  static constexpr problem found = check();
};

constexpr bool within(const number& v, const bound<number>& lo, const bound<number>& hi) {
  return (!lo || compare(v, *lo) >= 0) && (!hi || compare(v, *hi) <= 0);
}

// A string default must be what the decoder would accept for the field's format.
constexpr bool default_has_its_format(format f, std::string_view text) {
  switch (f) {
    case format::email: return is_email(text);
    case format::uri: return is_uri(text);
    case format::date: return parse_date(text).has_value();
    case format::date_time: {
      const auto t = parse_date_time(text);
      return t.has_value() && !t->has_fraction;  // the field holds whole seconds
    }
    default: return true;
  }
}

// The options already seen, by wire value and by enumerator, in open-addressed tables of twice
// their count: the repeat check costs a hash per option rather than a comparison per pair of
// options, which at 250 options took clang++-14 past its default constexpr step limit (the
// pairs of 1,000 options would take 500,000 comparisons).
class seen_options {
  std::size_t slots_;
  std::size_t* wires_ = nullptr;
  std::size_t* values_ = nullptr;

  // Enters option i in `table` unless an earlier one is `same` (defined before its callers:
  // clang++-14 cannot constant-evaluate a member template defined later in the class).
  template <class Same>
  constexpr bool add(std::size_t* table, std::uint64_t hash, std::size_t i, Same same) {
    for (std::size_t at = (hash ^ (hash >> 32)) & (slots_ - 1);; at = (at + 1) & (slots_ - 1)) {
      if (table[at] == 0) {
        table[at] = i + 1;
        return true;
      }
      if (same(table[at] - 1)) return false;
    }
  }

 public:
  constexpr explicit seen_options(std::size_t count) : slots_(std::bit_ceil(2 * count)) {
    wires_ = new std::size_t[slots_]{};  // 0: empty; k: option k - 1
    values_ = new std::size_t[slots_]{};
  }
  seen_options(const seen_options&) = delete;
  seen_options& operator=(const seen_options&) = delete;
  constexpr ~seen_options() {
    delete[] wires_;
    delete[] values_;
  }

  // Records option i of `options`; false when an earlier one has the same wire value.
  constexpr bool add_wire(const enum_entry* options, std::size_t i) {
    return add(wires_, fnv1a(options[i].wire), i, [&](std::size_t j) { return options[j].wire == options[i].wire; });
  }
  // Records option i of `options`; false when an earlier one has the same enumerator.
  constexpr bool add_value(const enum_entry* options, std::size_t i) {
    const auto v = static_cast<std::uint64_t>(options[i].value);
    return add(values_, (v ^ (v >> 29)) * 0x9E3779B97F4A7C15ull, i,
               [&](std::size_t j) { return options[j].value == options[i].value; });
  }
};

// The first problem of the options, in their order: for each option its wire value, its texts,
// then whether an earlier one has its wire value or its enumerator.
// The same for elicit_options at compile time and for form<F>::choices() at run time (linear in
// the options); `at` is the option found wrong.
struct option_problem {
  problem found = problem::none;
  std::size_t at = 0;
};

// One option's own texts: a wire value given, and UTF-8 (what options_problem asks of each
// option before it looks for repeats; make_offered asks it alone, its index finding repeats).
constexpr problem option_text_problem(const enum_entry& o) {
  if (o.wire.empty()) return problem::option_without_wire;
  if (!is_utf8(o.wire) || !is_utf8(o.title)) return problem::text_not_utf8;
  return problem::none;
}

constexpr option_problem options_problem(const enum_entry* options, std::size_t count) {
  if (count == 0) return {problem::empty_options};
  seen_options seen(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (const problem p = option_text_problem(options[i]); p != problem::none) return {p, i};
    if (!seen.add_wire(options, i)) return {problem::repeated_option_wire, i};
    if (!seen.add_value(options, i)) return {problem::repeated_option_value, i};
  }
  return {};
}

constexpr problem select_default_problem(const field_spec& s) {
  const default_spec& d = s.def;
  if (d.kind != default_spec::kind_t::enumerators || d.enum_type != s.enum_type) return problem::default_type_mismatch;
  for (std::size_t i = 0; i < d.enumerator_count; ++i) {
    if (s.option_for(d.enumerators[i]) == nullptr) return problem::default_not_offered;
    for (std::size_t j = 0; j < i; ++j)
      if (d.enumerators[j] == d.enumerators[i]) return problem::default_repeats;
  }
  const bool fits =
      (!s.min_items || d.enumerator_count >= *s.min_items) && (!s.max_items || d.enumerator_count <= *s.max_items);
  return fits ? problem::none : problem::default_items_count;
}

// A field's texts: UTF-8, and a property key.
constexpr problem texts_problem(const field_spec& s) {
  if (!is_utf8(s.title) || !is_utf8(s.description) || !is_utf8(s.wire)) return problem::text_not_utf8;
  if (s.wire.empty()) return problem::empty_name;
  return problem::none;
}

// A number field's bounds: finite, and within what its C++ type holds.
template <class Traits>
constexpr problem bounds_problem(const field_spec& s) {
  if ((s.minimum && !s.minimum->is_finite()) || (s.maximum && !s.maximum->is_finite()))
    return problem::bound_not_finite;
  if constexpr (requires { Traits::type_min; }) {
    const bound<number> lo = Traits::type_min, hi = Traits::type_max;
    if ((s.minimum && !within(*s.minimum, lo, hi)) || (s.maximum && !within(*s.maximum, lo, hi)))
      return problem::bound_outside_type;
  }
  return problem::none;
}

// Each lower bound at most its upper bound; min_items at most the choices, once they are known.
constexpr problem order_problem(const field_spec& s, bool options_known) {
  if (s.minimum && s.maximum && compare(*s.minimum, *s.maximum) > 0) return problem::min_above_max;
  if (s.min_length && s.max_length && *s.min_length > *s.max_length) return problem::min_length_above_max_length;
  if (s.min_items && s.max_items && *s.min_items > *s.max_items) return problem::min_items_above_max_items;
  if (s.min_items && options_known && *s.min_items > s.option_count) return problem::min_items_above_options;
  return problem::none;
}

// The default, if any: of the field's type, within its bounds, of its format, among its options.
template <class Traits>
constexpr problem default_problem(const field_spec& s) {
  using kind = default_spec::kind_t;
  if (!s.has_default()) return problem::none;
  const default_spec& d = s.def;
  const bool several = d.kind == kind::mixed || (d.kind == kind::enumerators && d.enumerator_count > 1);
  if (several && s.type != value_type::multi_select) return problem::many_defaults;
  switch (s.type) {
    case value_type::boolean: return d.kind == kind::boolean ? problem::none : problem::default_type_mismatch;
    case value_type::integer:
    case value_type::number:
      if (d.kind != kind::number) return problem::default_type_mismatch;
      if (!d.num.is_finite()) return problem::bound_not_finite;
      if (s.type == value_type::integer && !d.num.is_whole()) return problem::default_not_whole;
      if constexpr (requires { Traits::type_min; }) {
        if (!within(d.num, Traits::type_min, Traits::type_max)) return problem::default_out_of_range;
      }
      return within(d.num, s.minimum, s.maximum) ? problem::none : problem::default_out_of_range;
    case value_type::string: {
      if (d.kind != kind::text) return problem::default_type_mismatch;
      const std::size_t n = code_points(d.text);
      if (n == invalid_utf8) return problem::text_not_utf8;
      const bool fits = (!s.min_length || n >= *s.min_length) && (!s.max_length || n <= *s.max_length);
      if (!fits) return problem::default_out_of_length;
      return default_has_its_format(s.fmt, d.text) ? problem::none : problem::default_format;
    }
    default: return select_default_problem(s);
  }
}

// Every rule of a member's values, in order. form<F> applies the same pieces to a refined field.
template <class Traits>
constexpr problem value_problem(const field_spec& s) {
  if (const problem p = texts_problem(s); p != problem::none) return p;
  if (const problem p = bounds_problem<Traits>(s); p != problem::none) return p;
  if constexpr (requires { typename Traits::enum_type; }) {
    using E = typename Traits::enum_type;
    if (s.option_count == 0) return has_options<E> ? problem::empty_options : problem::enum_not_reflectable;
    if constexpr (!has_options<E>) {
      if (reflection_incomplete<E>) return problem::enum_past_reflection;
    }
    if (const problem p = options_problem(s.options, s.option_count).found; p != problem::none) return p;
  }
  if (const problem p = order_problem(s, !s.runtime_options); p != problem::none) return p;
  return default_problem<Traits>(s);
}

template <class Form, std::size_t I>
constexpr problem member_problem() {
  using member = described_member_t<Form, I>;
  using value = typename field_parts<std::remove_cv_t<member>>::value;
  if constexpr (!std::is_same_v<member, std::remove_cv_t<member>>) {
    return type_problem<member>();
  } else if constexpr (type_problem<value>() != problem::none) {
    return type_problem<value>();
  } else if constexpr (annotation_rules<member>::found != problem::none) {
    return annotation_rules<member>::found;
  } else {
    return value_problem<value_traits<without_optional_t<value>>>(spec_of<Form, I>);
  }
}

template <class Form, std::size_t I, auto Member = probe_of<Form, I>()>
constexpr bool member_rules() {
  constexpr problem found = member_problem<Form, I>();

  ELICIT_FORM_RULES(ELICIT_RULE_ASSERT)
  return found == problem::none;
}

// Two members with the same wire name: the diagnostic names the second one.
template <class Form, std::size_t I, auto Member = probe_of<Form, I>()>
constexpr bool unique_name_rule() {
  static_assert(I == static_cast<std::size_t>(-1),
                "elicit: two properties of this form have the same wire name: rename one member, "
                "or give it elicit::name<\"other\">");
  return false;
}

template <class Form>
constexpr std::size_t first_repeated_name() {
  const auto& specs = form_spec<Form>;
  for (std::size_t i = 0; i < specs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (specs[i].wire == specs[j].wire) return i;
  return specs.size();
}

// Annotations beside the struct for a name it has no member of: the diagnostic shows the name
// (elicit::member<"...">) in its "required from" line.
template <class Form, class Member>
constexpr bool annotated_name_rule() {
  static_assert(
      sizeof(Member) == 0,
      "elicit: elicit::member names a member this struct does not have: check its spelling against the struct");
  return false;
}

// The same name twice: one list of annotations per member.
template <class Form, class Member>
constexpr bool repeated_name_rule() {
  static_assert(sizeof(Member) == 0,
                "elicit: elicit::member names the same member twice: list all its annotations in one elicit::member");
  return false;
}

template <class Form>
constexpr bool names_a_member(std::string_view name) {
  for (const field_spec& s : form_spec<Form>)
    if (s.member == name) return true;
  return false;
}

// The first list beside the struct that names no member or a member named before, or the count.
template <class Form, class... M>
constexpr std::size_t first_misnamed() {
  constexpr std::array<std::string_view, sizeof...(M)> names{M::name()...};
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!names_a_member<Form>(names[i])) return i;
    for (std::size_t j = 0; j < i; ++j)
      if (names[j] == names[i]) return i;
  }
  return names.size();
}

// True when every list beside the struct names a member of its own; otherwise the one
// diagnostic, for the first list that does not.
template <class Form, class... M>
constexpr bool annotated_names_ok(members<M...> /*beside*/) {
  constexpr std::size_t bad = first_misnamed<Form, M...>();
  if constexpr (bad == sizeof...(M)) {
    return true;
  } else {
    using named = std::tuple_element_t<bad, std::tuple<M...>>;
    if constexpr (!names_a_member<Form>(named::name())) return annotated_name_rule<Form, named>();
    else return repeated_name_rule<Form, named>();
  }
}

// An enum reflected without elicit_options that may have enumerators past [-128, 127]: the
// diagnostic's "in instantiation of" line names the enum and the member.
template <class E, class Form, std::size_t I, auto Member = probe_of<Form, I>()>
constexpr bool reflected_range_rule() {
  constexpr problem found =
      sizeof(E) != 0 ? problem::enum_past_reflection : problem::none;  // dependent: fires here only
  ELICIT_FORM_RULES(ELICIT_RULE_ASSERT)
  return false;
}

// Member I's rules. The class that carries the diagnostics (member_rules, whose arguments name
// the member) is instantiated only for a member that breaks one, so that a valid form does not
// pay for a class and forty static_asserts per member (0.1 to 0.2 MB of compiler memory per
// form, measured).
template <class Form, std::size_t I>
constexpr bool member_ok() {
  constexpr problem found = member_problem<Form, I>();
  if constexpr (found == problem::none) {
    return true;
  } else if constexpr (found == problem::enum_past_reflection) {
    using value = typename field_parts<described_member_t<Form, I>>::value;
    return reflected_range_rule<typename value_traits<without_optional_t<value>>::enum_type, Form, I>();
  } else {
    return member_rules<Form, I>();
  }
}

template <class Form>
constexpr bool members_ok() {
  constexpr bool each_ok = with_indices<member_count<Form>>(
      []<std::size_t... I>(std::index_sequence<I...>) { return (member_ok<Form, I>() && ...); });
  if constexpr (!each_ok) {
    return false;
  } else if constexpr (!annotated_names_ok<Form>(beside_t<Form>{})) {
    return false;
  } else {
    constexpr std::size_t repeated = first_repeated_name<Form>();
    if constexpr (repeated != member_count<Form>) return unique_name_rule<Form, repeated>();
    else return true;
  }
}

// A field whose choices are given at run time has no schema of its own: the diagnostic names it.
template <class Form, std::size_t I, auto Member = probe_of<Form, I>()>
constexpr bool fixed_options_rule() {
  static_assert(I == static_cast<std::size_t>(-1),
                "elicit: this field's choices are given at run time (elicit::choice): build the form per request "
                "with elicit::form<F>().choices(...), and ask and decode with it");
  return false;
}

// True when every field's choices are known at compile time; otherwise the one diagnostic.
template <class Form>
constexpr bool options_fixed() {
  constexpr std::size_t i = first_runtime_field<Form>();
  if constexpr (i != member_count<Form>) return fixed_options_rule<Form, i>();
  else return true;
}

// The form's own rules, then its members'. Each diagnostic sits in a function, not a class: a
// class whose static_assert fails is invalid for clang++, and every constant read from it
// fails again (a cascade of errors); a function's verdict stays a constant. Every later
// rule, and every later step of elicit, is guarded by the verdict of the one before.
template <class T>
constexpr bool aggregate_rule() {
  constexpr bool ok = std::is_class_v<T> && std::is_aggregate_v<T> && !std::is_polymorphic_v<T>;
  static_assert(ok,
                "elicit: a form must be an aggregate struct: no constructors, no virtual functions, no private "
                "members, no base classes");
  return ok;
}
template <class T>
constexpr bool field_count_rule() {
  constexpr bool ok = member_count<T> <= max_fields;
  static_assert(ok,
                "elicit: a form has at most 100 fields; a question that large belongs in configuration, not in a form");
  return ok;
}
template <class T>
constexpr bool reference_rule() {
  constexpr bool ok = !has_reference_member<T>;
  static_assert(ok, "elicit: a form cannot have a reference member: store the value itself");
  return ok;
}

template <class T>
constexpr bool form_ok() {
  if constexpr (!aggregate_rule<T>()) return false;
  else if constexpr (!field_count_rule<T>()) return false;
  else if constexpr (!reference_rule<T>()) return false;
  else return members_ok<T>();
}

template <class Form>
struct form_rules {
  static constexpr bool ok = form_ok<std::remove_cv_t<Form>>();
};

}  // namespace elicit::detail
