// A type named through a template parameter, for the headers of every tier (decode, form, state).
#pragma once

namespace elicit::detail {

// `X`, named through a type that depends on `T`: code in a template that names it is compiled
// only when the template is used, not in every translation unit that includes the header.
template <class T, class X>
struct dependent_type {
  using type = X;
};
template <class T, class X>
using dependent_t = typename dependent_type<T, X>::type;

}  // namespace elicit::detail
