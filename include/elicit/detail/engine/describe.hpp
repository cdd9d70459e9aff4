// Builds the description (field_spec) of every member of a form, at compile time.
#pragma once

#include <elicit/detail/indices.hpp>
#include <elicit/detail/json_escape.hpp>
#include <elicit/detail/json_text.hpp>
#include <elicit/detail/model/field_spec.hpp>
#include <elicit/detail/model/reporter.hpp>
#include <elicit/detail/model/value_traits.hpp>
#include <elicit/detail/reflection.hpp>
#include <elicit/form/enums.hpp>
#include <elicit/form/field.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace elicit::detail {

// ---- Annotations beside the struct (elicit::members, field.hpp) ----

template <class Form>
concept annotated_beside = requires(const Form& f) {
  elicit_annotations(f);
};

template <class Form>
struct beside {
  using type = members<>;
};
template <annotated_beside Form>
struct beside<Form> {
  using type = decltype(elicit_annotations(std::declval<const Form&>()));
};
template <class Form>
using beside_t = typename beside<Form>::type;

// A member's type with the annotations of `M` added: a plain T becomes field<T, A...>.
template <class M, class Member>
struct with_annotations;
template <fixed_string N, class... A, class T>
struct with_annotations<member<N, A...>, T> {
  using type = field<T, A...>;
};
template <fixed_string N, class... A, class T, class... B>
struct with_annotations<member<N, A...>, field<T, B...>> {
  using type = field<T, B..., A...>;
};

template <std::size_t K, class... M>
using nth_t = std::tuple_element_t<K, std::tuple<M...>>;

template <class Form, std::size_t I, class List>
struct described_member {
  using type = member_type<Form, I>;
};
template <class Form, std::size_t I, class... M>
  requires(sizeof...(M) > 0)
struct described_member<Form, I, members<M...>> {
  static constexpr std::size_t k = [] {
    std::size_t at = 0, found = sizeof...(M);
    ((found = found == sizeof...(M) && M::name() == member_name<Form, I>() ? at : found, ++at), ...);
    return found;
  }();
  using type = typename std::conditional_t<k == sizeof...(M), std::type_identity<member_type<Form, I>>,
                                           with_annotations<nth_t<k % sizeof...(M), M...>, member_type<Form, I>>>::type;
};

// Member I's type as the form describes it: its own, with the annotations written beside the
// struct for its name. What the description and the rules read (reading an answer writes the
// member itself).
template <class Form, std::size_t I>
using described_member_t = typename described_member<Form, I, beside_t<Form>>::type;

// An enum's choice head (write_choice_head of enum_table<E>), a constant: its size, then its text.
template <class E>
constexpr std::size_t choice_head_size() {
  length_counter size;
  write_choice_head(size, enum_table<E>.data(), enum_table<E>.size());
  return size.size;
}
template <class E>
inline constexpr text_buffer<choice_head_size<E>()> choice_head_of = [] {
  text_buffer<choice_head_size<E>()> text;
  write_choice_head(text, enum_table<E>.data(), enum_table<E>.size());
  return text;
}();

// An enum's options in English (write_english_options of enum_table<E>), a constant.
template <class E>
constexpr std::size_t english_options_size() {
  length_counter size;
  write_english_options(size, enum_table<E>.data(), enum_table<E>.size());
  return size.size;
}
template <class E>
inline constexpr text_buffer<english_options_size<E>()> english_options_of = [] {
  text_buffer<english_options_size<E>()> text;
  write_english_options(text, enum_table<E>.data(), enum_table<E>.size());
  return text;
}();

template <class Form, std::size_t I>
constexpr field_spec describe_member() {
  using parts = field_parts<described_member_t<Form, I>>;
  using value = typename parts::value;
  using traits = value_traits<without_optional_t<value>>;
  field_spec s;
  s.member = member_name<Form, I>();
  s.wire = s.member;
  s.optional = is_optional<value>::value;
  if constexpr (traits::known) {
    s.type = traits::type;
    s.fmt = traits::fmt;
  }
  if constexpr (requires { typename traits::enum_type; }) {
    using E = typename traits::enum_type;
    s.options = enum_table<E>.data();
    s.option_count = enum_table<E>.size();
    s.enum_type = type_id<E>;
    for (const enum_entry& e : enum_table<E>) s.titled = s.titled || !e.title.empty();
    s.plain_options = plain_shown(s.options, s.option_count);
    s.choice_head = choice_head_of<E>.view();
    s.choice_head_extra = json_extra_of(s.choice_head);
    s.english_options = english_options_of<E>.view();
    s.english_options_extra = json_extra_of(s.english_options);
  }
  if constexpr (requires { traits::runtime_options; }) s.runtime_options = true;
  parts::apply(s);
  s.plain_wire = plain_in_json(s.wire);
  s.plain_pointer = s.wire.find_first_of("~/") == std::string_view::npos && json_extra_of(s.wire) == 0;
  s.label_extra = json_extra_of(label_of(s));
  if constexpr (traits::known) {
    if (!s.minimum) s.minimum = traits::lowest;
    if (!s.maximum) s.maximum = traits::highest;
  }
  return s;
}

template <class Form, std::size_t I>
inline constexpr field_spec spec_of = describe_member<Form, I>();

template <class Form>
inline constexpr auto form_spec = with_indices<member_count<Form>>([]<std::size_t... I>(std::index_sequence<I...>) {
  return std::array<field_spec, sizeof...(I)>{spec_of<Form, I>...};
});

// The first field whose choices are given at run time (elicit::choice), or member_count.
template <class Form>
constexpr std::size_t first_runtime_field() {
  const auto& specs = form_spec<Form>;
  for (std::size_t i = 0; i < specs.size(); ++i)
    if (specs[i].runtime_options) return i;
  return specs.size();
}

}  // namespace elicit::detail
