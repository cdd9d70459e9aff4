// Builds the description (field_spec) of every member of a form, at compile time.
#pragma once

#include <elicit/detail/field_spec.hpp>
#include <elicit/detail/reflection.hpp>
#include <elicit/detail/value_traits.hpp>
#include <elicit/field.hpp>

#include <array>
#include <cstddef>
#include <utility>

namespace elicit::detail {

template <class Form, std::size_t I>
constexpr field_spec describe_member() {
  using parts = field_parts<member_type<Form, I>>;
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
  }
  parts::apply(s);
  if constexpr (traits::known) {
    if (!s.minimum) s.minimum = traits::lowest;
    if (!s.maximum) s.maximum = traits::highest;
  }
  return s;
}

template <class Form, std::size_t I>
inline constexpr field_spec spec_of = describe_member<Form, I>();

template <class Form>
inline constexpr auto form_spec = []<std::size_t... I>(std::index_sequence<I...>) {
  return std::array<field_spec, sizeof...(I)>{spec_of<Form, I>...};
}(std::make_index_sequence<member_count<Form>>{});

}  // namespace elicit::detail
