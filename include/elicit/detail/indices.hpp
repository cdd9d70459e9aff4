// Loops over 0..N-1 at compile time, each index a constant: for_each_index calls
// `f.template operator()<I>()` for every I in order; with_indices calls `f(std::index_sequence<0..N-1>)`
// once and returns what it returns. One named helper, instead of an immediately-invoked lambda
// template at every loop over a form's members.
#pragma once

#include <cstddef>
#include <utility>

namespace elicit::detail {

template <std::size_t N, class F>
constexpr decltype(auto) with_indices(F&& f) {
  return std::forward<F>(f)(std::make_index_sequence<N>{});
}

template <std::size_t N, class F>
constexpr void for_each_index(F&& f) {
  with_indices<N>([&]<std::size_t... I>(std::index_sequence<I...>) { (f.template operator()<I>(), ...); });
}

}  // namespace elicit::detail
