// What form<F> (form.hpp) keeps of a field's run-time refinements, and the checks they meet:
// the rules of impl/rules.hpp applied to the refined description, and the decoder's reading of
// a refined default.
#pragma once

#include <elicit/answer/violation.hpp>
#include <elicit/detail/indices.hpp>
#include <elicit/detail/message.hpp>
#include <elicit/detail/utf8.hpp>
#include <elicit/form/choice.hpp>
#include <elicit/impl/describe.hpp>
#include <elicit/impl/field_spec.hpp>
#include <elicit/impl/keywords.hpp>
#include <elicit/impl/option_index.hpp>
#include <elicit/impl/read_value.hpp>
#include <elicit/impl/reporter.hpp>
#include <elicit/impl/rules.hpp>
#include <elicit/impl/secrets.hpp>
#include <elicit/impl/value_traits.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
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
  std::string problem;  // "" when the options can be offered

  offered_set() = default;
  offered_set(const offered_set&) = delete;  // `entries` and `index` point into this one
  offered_set& operator=(const offered_set&) = delete;
  ~offered_set() = default;
};

// A rule's words for form_error, with what the refinement gave that breaks it.
inline std::string rule_message(problem p, std::string_view detail = {}) {
  return detail.empty() ? std::string(rule_text(p)) : message(rule_text(p), " (", detail, ")");
}

// The options, checked by the rule elicit_options meets at compile time (options_problem):
// none, an empty or repeated wire value, text that is not UTF-8 (the first of these, in the
// options' order). Linear in the options. Throws std::bad_alloc.
inline std::shared_ptr<const offered_set> make_offered(std::vector<choice_option> offers) {
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
  if (found == problem::empty_options) set->problem = rule_message(found);
  else if (found == problem::repeated_option_wire)
    set->problem = rule_message(found, message("\"", set->offers[at].value, "\" is offered twice"));
  else if (found != problem::none) set->problem = rule_message(found, message("option ", at + 1));
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
  s.description = r.description ? std::string_view(*r.description) : base.description;
  if (r.offered) {  // pointed at, never rebuilt
    s.options = r.offered->entries.data();
    s.option_count = r.offered->entries.size();
    s.titled = r.offered->titled;
    s.index = &r.offered->index;
  }
  s.def = r.default_value.is_null() ? base.def : default_from_json(s, r);
}

// What is wrong with one field's refined description, or "": the rules its declaration met at
// compile time (impl/rules.hpp, in the same words), applied to what was refined; then the
// default read by the decoder's own checks, as if a client had sent it (what an answer must
// meet beyond a declaration: no hidden controls, a float's rounding).
template <class Value>
std::string field_problem(const field_spec& s, const refinements& r) {
  using traits = value_traits<without_optional_t<Value>>;
  if (const problem p = texts_problem(s); p != problem::none) return rule_message(p);
  if (const problem p = bounds_problem<traits>(s); p != problem::none) return rule_message(p);
  if (r.offered && !r.offered->problem.empty()) return r.offered->problem;  // found once, by choices()
  const bool options_known = !s.runtime_options || r.offered;
  if (const problem p = order_problem(s, options_known); p != problem::none) {
    if (p != problem::min_items_above_options) return rule_message(p);
    return rule_message(p, message("min_items ", *s.min_items, ", ", s.option_count, " offered"));
  }
  const nlohmann::json given = !r.default_value.is_null() ? r.default_value
                               : s.has_default()          ? default_json(s)
                                                          : nlohmann::json();
  if (given.is_null() || !options_known) return {};
  if (const problem p = default_problem<traits>(s); p != problem::none)
    return rule_message(p, message("the default ", given.dump()));
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

}  // namespace elicit::detail
