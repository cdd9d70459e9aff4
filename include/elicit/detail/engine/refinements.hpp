// What form<F> (form.hpp) keeps of a field's run-time refinements, and the checks they meet:
// the rules of detail/engine/rules.hpp applied to the refined description, and the decoder's reading of
// a refined default.
#pragma once

#include <elicit/answer/violation.hpp>
#include <elicit/detail/engine/describe.hpp>
#include <elicit/detail/engine/read_value.hpp>
#include <elicit/detail/engine/rules.hpp>
#include <elicit/detail/engine/secrets.hpp>
#include <elicit/detail/engine/write_value.hpp>
#include <elicit/detail/indices.hpp>
#include <elicit/detail/json_escape.hpp>
#include <elicit/detail/message.hpp>
#include <elicit/detail/model/field_spec.hpp>
#include <elicit/detail/model/keywords.hpp>
#include <elicit/detail/model/option_index.hpp>
#include <elicit/detail/model/reporter.hpp>
#include <elicit/detail/model/value_traits.hpp>
#include <elicit/detail/utf8.hpp>
#include <elicit/form/choice.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace elicit::detail {

// The options of an elicit::choice field, as choices() was given them: what the schema writer
// and the checks read (`entries`, viewing `offers`), their index, and what is wrong with them.
// Made once per choices() and never changed, so that every copy of a form, and every later
// refinement, shares it as it is: nothing is copied, rebuilt or checked again.
struct offered_set {
  std::vector<choice_option> offers;
  std::vector<enum_entry> entries;
  option_index index;
  bool titled = false;
  bool plain = false;       // plain_shown(entries)
  std::string choice_head;  // write_choice_head(entries), and its json_escape_extra
  std::size_t choice_head_extra = 0;
  std::string english_options;  // write_english_options(entries), and its json_escape_extra
  std::size_t english_options_extra = 0;
  std::string problem;  // "" when the options can be offered

  offered_set() = default;
  offered_set(const offered_set&) = delete;  // `entries` and `index` point into this one
  offered_set& operator=(const offered_set&) = delete;
  ~offered_set() = default;
};

// Who a rule's words speak to: a C++ author (rule_text, form_error's words), or a host reading a
// schema it received (client/detail/schema_reader.hpp: the same rules in the schema's keywords).
using rule_words = std::string_view (*)(problem) noexcept;

// A rule's words for form_error, with what the refinement gave that breaks it.
inline std::string rule_message(problem p, std::string_view detail = {}, rule_words words = rule_text) {
  return detail.empty() ? std::string(words(p)) : message(words(p), " (", detail, ")");
}

// The options, checked by the rule elicit_options meets at compile time (options_problem):
// none, an empty or repeated wire value, text that is not UTF-8 (the first of these, in the
// options' order). Linear in the options. Throws std::bad_alloc.
inline std::shared_ptr<const offered_set> make_offered(std::vector<choice_option> offers,
                                                       rule_words words = rule_text) {
  auto set = std::make_shared<offered_set>();
  set->offers = std::move(offers);
  const std::size_t n = set->offers.size();
  set->entries.reserve(n);
  bool texts_ok = true;  // every wire value given, every text UTF-8
  for (std::size_t i = 0; i < n; ++i) {
    const choice_option& o = set->offers[i];
    set->entries.push_back({static_cast<std::int64_t>(i), o.value, o.title});
    set->titled = set->titled || !o.title.empty();
    texts_ok = texts_ok && option_text_problem(set->entries.back()) == problem::none;
  }
  set->plain = plain_shown(set->entries.data(), n);
  // On the stack, then copied once: a few dozen small pieces each.
  scratch_sink head, english;
  write_choice_head(head, set->entries.data(), n);
  set->choice_head = std::string(head.text());
  set->choice_head_extra = json_escape_extra(set->choice_head);
  write_english_options(english, set->entries.data(), n);
  set->english_options = std::string(english.text());
  set->english_options_extra = json_escape_extra(set->english_options);
  if (!option_index::fits(n)) {
    set->problem = "offer fewer choices";
    return set;
  }
  set->index = option_index(set->entries.data(), n);
  // Options that pass options_problem, found without it: the index has found any repeated
  // wire value, and an entry's value is its position, never repeated. options_problem builds
  // tables of its own over the options (as costly as the index again), so it runs only to say
  // which problem there is, and where.
  if (n != 0 && texts_ok && set->index.repeated() == option_index::none) return set;
  const auto [found, at] = options_problem(set->entries.data(), n);
  if (found == problem::empty_options) set->problem = rule_message(found, {}, words);
  else if (found == problem::repeated_option_wire)
    set->problem = rule_message(found, message("\"", set->offers[at].value, "\" is offered twice"), words);
  else if (found != problem::none) set->problem = rule_message(found, message("option ", at + 1), words);
  return set;
}

// What a form<F> owns for one field: the run-time parts its description points into.
struct refinements {
  std::optional<std::string> title;
  std::optional<std::string> description;
  std::shared_ptr<const offered_set> offered;  // an elicit::choice field's options, once given
  nlohmann::json default_value;                // as a client would send it; null: the compile-time one
  std::vector<std::int64_t> default_options;   // the default's options, by their value in `entries`
};

// The index of the option whose wire value is `wire`, as enum_entry::value; -1 for none.
inline std::int64_t option_value(const field_spec& s, std::string_view wire) noexcept {
  const enum_entry* e = find_option(s, wire, s.index);
  return e != nullptr ? e->value : -1;
}

// The default_spec that `value` (a client's JSON for the field) reads as, pointing into `r`.
inline default_spec default_from_json(const field_spec& s, refinements& r) {
  const nlohmann::json& v = r.default_value;
  default_spec d;
  if (v.is_boolean()) {
    d.kind = default_spec::kind_t::boolean;
    d.boolean = v.get<bool>();
  } else if (const auto n = json_number(v)) {
    d.kind = default_spec::kind_t::number;
    d.num = *n;
  } else if (v.is_string() && !s.is_select()) {
    d.kind = default_spec::kind_t::text;
    d.text = v.get_ref<const std::string&>();
  } else {  // a select: its options by value; one that is not offered is left out (and refused)
    r.default_options.clear();
    const bool one = s.type == value_type::single_select && v.is_string();
    const bool list = s.type == value_type::multi_select && v.is_array() &&
                      std::all_of(v.begin(), v.end(), [](const nlohmann::json& item) { return item.is_string(); });
    if (!one && !list) {  // not the field's type: the default rule refuses it
      d.kind = default_spec::kind_t::text;
      return d;
    }
    if (one) r.default_options.push_back(option_value(s, v.get_ref<const std::string&>()));
    else
      for (const nlohmann::json& item : v)
        r.default_options.push_back(option_value(s, item.get_ref<const std::string&>()));
    d.kind = default_spec::kind_t::enumerators;
    d.enumerators = r.default_options.data();
    d.enumerator_count = r.default_options.size();
    d.enum_type = s.enum_type;
  }
  return d;
}

// Points the field's description at what `r` owns: called after every change and every copy.
inline void link(field_spec& s, const field_spec& base, refinements& r) {
  s.title = r.title ? std::string_view(*r.title) : base.title;
  s.label_extra = json_escape_extra(label_of(s));
  s.description = r.description ? std::string_view(*r.description) : base.description;
  if (r.offered) {  // pointed at, never rebuilt
    s.options = r.offered->entries.data();
    s.option_count = r.offered->entries.size();
    s.titled = r.offered->titled;
    s.plain_options = r.offered->plain;
    s.choice_head = r.offered->choice_head;
    s.choice_head_extra = r.offered->choice_head_extra;
    s.english_options = r.offered->english_options;
    s.english_options_extra = r.offered->english_options_extra;
    s.index = &r.offered->index;
  }
  s.def = r.default_value.is_null() ? base.def : default_from_json(s, r);
}

// What is wrong with one field's refined description, or "": the rules its declaration met at
// compile time (detail/engine/rules.hpp, in the same words), applied to what was refined; then the
// default read by the decoder's own checks, as if a client had sent it (what an answer must
// meet beyond a declaration: no hidden controls, a float's rounding).
template <class Value>
std::string field_problem(const field_spec& s, const refinements& r, rule_words words = rule_text) {
  using traits = value_traits<without_optional_t<Value>>;
  if (const problem p = texts_problem(s); p != problem::none) return rule_message(p, {}, words);
  if (const problem p = bounds_problem<traits>(s); p != problem::none) return rule_message(p, {}, words);
  if (r.offered && !r.offered->problem.empty()) return r.offered->problem;  // found once, by choices()
  const bool options_known = !s.runtime_options || r.offered;
  if (const problem p = order_problem(s, options_known); p != problem::none) {
    if (p != problem::min_items_above_options) return rule_message(p, {}, words);
    return rule_message(p, message("min_items ", *s.min_items, ", ", s.option_count, " offered"), words);
  }
  const nlohmann::json given = !r.default_value.is_null() ? r.default_value
                               : s.has_default()          ? default_json(s)
                                                          : nlohmann::json();
  if (given.is_null() || !options_known) return {};
  if (const problem p = default_problem<traits>(s); p != problem::none)
    return rule_message(p, message("the default ", given.dump()), words);
  violation_list found;
  Value held{};
  read_value(given, s, held, reporter{found, s.wire});
  if (!found.empty()) return message("the default ", given.dump(), " is refused: ", found[0].message);
  return {};
}

template <class Form, std::size_t I>
using field_value_t = typename field_parts<described_member_t<Form, I>>::value;

// field_problem for field I, chosen by an index known at run time.
template <class Form>
std::string problem_of(std::size_t i, const field_spec& s, const refinements& r) {
  std::string found;
  if constexpr (form_rules<Form>::ok) {  // otherwise its diagnostic is given: nothing more of it compiles
    for_each_index<member_count<Form>>([&]<std::size_t I>() {
      if (I == i) found = field_problem<field_value_t<Form, I>>(s, r);
    });
  }
  return found;
}

template <class Form>
inline constexpr bool form_askable = [] {
  if constexpr (!form_rules<Form>::ok) return false;
  else return no_secrets<Form>();
}();

// Which counted bound narrow_count narrows: a text field's length, or a multi-select's items.
inline constexpr unsigned text_fields = 1, list_fields = 2;

// A keyword the field does not take (the rule annotations meet at compile time): its problem, or "".
inline std::string misfit(const field_spec& s, unsigned fits, unsigned slots) {
  const problem p = misfit_problem(fits, slots, fit_of(s.type, s.fmt));
  return p == problem::none ? std::string() : rule_message(p);
}

// form<F>::minimum/maximum: narrows a number field's bound to n, or says why it cannot (and
// leaves it as it was): a bound it does not take, not finite, a fraction on an integer field, a
// bound that would widen the form's own, or cross the other one. Throws only std::bad_alloc.
inline std::string narrowed_bound(field_spec& s, number n, bool lower) {
  if (std::string why = misfit(s, fits_numbers, lower ? slot_minimum : slot_maximum); !why.empty()) return why;
  if (!n.is_finite()) return rule_message(problem::bound_not_finite);
  if (s.type == value_type::integer && !n.is_whole()) return "an integer field's bound must be a whole number";
  const std::optional<number>& lo = s.minimum;
  const std::optional<number>& hi = s.maximum;
  if (lower && lo && compare(n, *lo) < 0)
    return message("a minimum of ", n, " would widen the form's own minimum of ", *lo);
  if (!lower && hi && compare(n, *hi) > 0)
    return message("a maximum of ", n, " would widen the form's own maximum of ", *hi);
  if (lower && hi && compare(n, *hi) > 0)
    return rule_message(problem::min_above_max, message("minimum ", n, ", maximum ", *hi));
  if (!lower && lo && compare(n, *lo) < 0)
    return rule_message(problem::min_above_max, message("minimum ", *lo, ", maximum ", n));
  (lower ? s.minimum : s.maximum) = n;
  return {};
}

// form<F>'s length and items: narrows a counted bound to n, or says why it cannot, as above.
inline std::string narrowed_count(field_spec& s, bound<std::size_t>& counted, std::size_t n, bool lower,
                                  unsigned kind) {
  std::string why;
  if (kind == text_fields) why = misfit(s, fits_strings, lower ? slot_min_length : slot_max_length);
  if (kind == list_fields) why = misfit(s, fits_arrays, lower ? slot_min_items : slot_max_items);
  if (!why.empty()) return why;
  if (counted && (lower ? n < *counted : n > *counted))
    return message("a ", lower ? "minimum" : "maximum", " of ", n, " would widen the form's own ", *counted);
  counted = n;
  return {};
}
inline std::string narrowed_length(field_spec& s, bound<std::size_t>& counted, std::size_t n, bool lower) {
  return narrowed_count(s, counted, n, lower, text_fields);
}
inline std::string narrowed_items(field_spec& s, bound<std::size_t>& counted, std::size_t n, bool lower) {
  return narrowed_count(s, counted, n, lower, list_fields);
}

// A default given to form<F>::default_value as JSON: the value written as the field writes it, a
// text as it is (checked later as an answer would be), std::nullopt as null (no default). Throws
// std::invalid_argument for an enumerator the field does not offer.
template <class V>
nlohmann::json default_json(const field_spec& s, const V& value) {
  if constexpr (is_optional<V>::value) {
    return value ? default_json(s, *value) : nlohmann::json();
  } else if constexpr (std::is_same_v<V, std::nullopt_t>) {
    return nlohmann::json();
  } else if constexpr (std::is_convertible_v<const V&, std::string_view> && !std::is_same_v<V, std::string>) {
    return std::string(std::string_view(value));
  } else {
    return nlohmann::json(write_value(s, value));
  }
}

}  // namespace elicit::detail
