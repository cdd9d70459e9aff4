// Reflection of a form: how many members it has, their types, and their names.
//
// Counting and access come from Boost.PFR. Member names come from boost::pfr::get_name where
// the installed Boost has it (BOOST_PFR_CORE_NAME_ENABLED, Boost 1.84 and later); Boost 1.81,
// the one Debian 12 ships, has none, so the name is read out of the compiler's
// __PRETTY_FUNCTION__ text for a function templated on a pointer to that member.
#pragma once

#include <elicit/detail/fixed_string.hpp>
#include <elicit/detail/identifier.hpp>

#include <boost/pfr.hpp>

#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

namespace elicit::detail {

template <class T>
inline constexpr std::size_t member_count = boost::pfr::tuple_size_v<T>;

template <class T, std::size_t I>
using member_type = boost::pfr::tuple_element_t<I, T>;

// The object whose members' addresses name them. It is declared, never defined, and never
// read: only addresses of its members are formed, in constant expressions. For a form with
// internal linkage (in an anonymous namespace, or local to a function) Clang notes that such an
// object is never defined; that is by design, hence the pragma. Not const: decoding writes the
// members of a Form, and naming them through the same (non-const) access saves Boost.PFR's
// machinery a second instantiation per form.
template <class T>
struct reflected {
  T value;
};
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wundefined-var-template"
#pragma clang diagnostic ignored "-Wundefined-internal"
#endif
template <class T>
extern reflected<T> reflected_object;

// Clang 14 rejects a pointer to a subobject as a template argument unless it is wrapped.
template <class P>
struct member_probe {
  P pointer;
};
template <class P>
member_probe(P) -> member_probe<P>;

// Boost.PFR reports a reference member by the type it refers to, and cannot form any member's
// address in a form that has one. Such a form is copy-assignable in none of its members'
// types' fault: that is how it is told apart (a const member is reported by its own rule).
template <class T, std::size_t... I>
constexpr bool members_copy_assignable(std::index_sequence<I...>) {
  return ((std::is_copy_assignable_v<boost::pfr::tuple_element_t<I, T>> &&
           !std::is_const_v<boost::pfr::tuple_element_t<I, T>>)&&...);
}
template <class T>
inline constexpr bool has_reference_member =
    !std::is_copy_assignable_v<T> && members_copy_assignable<T>(std::make_index_sequence<member_count<T>>{});

// A constant that names member I of T; diagnostics that carry it name the member too. A
// function, not a variable: GCC emits the variables of a type with internal linkage (one in an
// anonymous namespace) into the object file, and one holding this address would not link.
template <class T, std::size_t I>
constexpr auto probe_of() noexcept {
  return member_probe{&boost::pfr::get<I>(reflected_object<T>.value)};
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

// A reference to the signature, an array of known size (see signature_chars); not a
// std::string_view, or GCC would append "std::string_view = ..." to it, and the member's name
// must stay its last identifier.
template <auto Probe>
struct signature_of {
  static constexpr auto& text() noexcept { return __PRETTY_FUNCTION__; }
};

// The signature ends with the probe, e.g. "...value.Form::street)}]" (GCC) or
// "...value.street}]" (Clang): the member's name is the last identifier in it.
template <std::size_t S>
constexpr std::string_view last_identifier(const char (&text)[S]) noexcept {
  const auto& chars = signature_chars(text);
  std::size_t end = S - 1;
  while (end > 0 && !is_identifier_char(chars[end - 1])) --end;
  std::size_t begin = end;
  while (begin > 0 && is_identifier_char(chars[begin - 1])) --begin;
  return {text + begin, end - begin};
}

template <class T, std::size_t I>
constexpr std::string_view member_name() noexcept {
#if defined(BOOST_PFR_CORE_NAME_ENABLED) && BOOST_PFR_CORE_NAME_ENABLED
  return boost::pfr::get_name<I, T>();
#else
  return last_identifier(signature_of<probe_of<T, I>()>::text());
#endif
}

}  // namespace elicit::detail
