// One-question forms, without declaring a struct for them.
//
//   elicit::confirmation                       // {"type":"object","properties":{}}: only the action matters
//   elicit::single<"party_size", int, elicit::title<"Party size">, elicit::range<1, 20>>
//                                              // one field, its annotations; the answer reads as an int
//
//   auto r = elicit::decode<elicit::single<"party_size", int, elicit::range<1, 20>>>(reply);
//   if (r.accepted()) book(*r);                // const int& through the conversion
//   auto when = elicit::decode<elicit::single<"slot", std::string>>(reply);
//   if (when.accepted()) log(when->size());    // `->` reaches the one value
#pragma once

#include <elicit/detail/fixed_string.hpp>
#include <elicit/form/annotations.hpp>
#include <elicit/form/field.hpp>

namespace elicit {

// A form with no field: a yes/no question, answered by the action alone (accept, decline,
// cancel). Its schema is {"type":"object","properties":{}}.
struct confirmation {};

// A form of one field, keyed `Key` on the wire, holding a T with the annotations A...; the
// decoded answer reads as the T it holds.
template <detail::fixed_string Key, class T, class... A>
struct single {
  field<T, name<Key>, A...> value;
  using elicit_one_value = T;  // a response's `->` reaches the T (decode.hpp)

  operator const T&() const noexcept { return value.value; }  // NOLINT: the answer is its one value
  [[nodiscard]] const T& get() const noexcept { return value.value; }
};

}  // namespace elicit
