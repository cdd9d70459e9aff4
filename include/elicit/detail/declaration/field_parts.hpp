// What elicit::field<T, A...> (field.hpp) is made of, for the rest of elicit: the value a field
// starts from (its default, read at compile time only when it has one), and the parts of a
// member (its value type, its annotations applied to a field_spec), plain or a field.
#pragma once

#include <elicit/detail/maybe_value.hpp>
#include <elicit/detail/model/field_spec.hpp>
#include <elicit/detail/model/value_traits.hpp>
#include <elicit/form/annotations.hpp>

#include <optional>
#include <type_traits>
#include <utility>

namespace elicit {
template <class T, class... A>
class field;
}  // namespace elicit

namespace elicit::detail {

// The value a field starts from: its default, as its type's entry reads it (value_traits.hpp,
// `start`), when it has one of a type that takes it.
template <class T, class... A>
constexpr T default_of() {
  constexpr field_spec spec = [] {  // at compile time: a field is built often, at run time
    field_spec s;
    apply_annotations<A...>(s);
    return s;
  }();
  using value = typename std::conditional_t<is_optional<T>::value, T, std::optional<T>>::value_type;
  if constexpr (requires { value_traits<value>::start(spec.def); }) {
    if (auto start = value_traits<value>::start(spec.def)) return T(std::move(*start));
  }
  return T{};
}

// Whether annotation A sets a default (an argument that is no annotation has its own diagnostic).
template <class A>
constexpr bool sets_default() {
  if constexpr (requires { A::slots; }) return (A::slots & slot_default) != 0;
  else return false;
}

// The value a field starts with: its default_value, or T{}. Only a field with a default pays
// for describing its annotations at compile time (measured with GCC: 1.1 MB of compiler memory
// per form of four annotated fields, when every field did).
template <class T, class... A>
constexpr T initial_value() {
  if constexpr (!(sets_default<A>() || ...)) return T{};
  else return default_of<T, A...>();
}

template <class M>
struct field_parts {  // a plain member: no annotations
  using value = M;
  static constexpr bool annotated = false;
  static constexpr void apply(field_spec&) noexcept {}
};
template <class T, class... A>
struct field_parts<field<T, A...>> {
  using value = T;
  static constexpr bool annotated = true;
  static constexpr void apply(field_spec& s) noexcept { apply_annotations<A...>(s); }
};
template <class M>
inline constexpr bool is_field = field_parts<M>::annotated;

}  // namespace elicit::detail
