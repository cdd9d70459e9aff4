// Enums: choices whose answer is an enumerator.
//
// A field of enum type is a single-select; std::vector<E> or std::set<E> is a multi-select.
// With no more said, the enumerators' names are the wire values, found by reflection for
// enumerators in [-128, 127]:
//
//   enum class Status { active, inactive, pending };   // {"type":"string","enum":["active",...]}
//
// Titles, other wire values, or a subset in another order: a constexpr function
// `elicit_options`, in the enum's own namespace (found by argument-dependent lookup):
//
//   enum class Color { red, green, blue };
//   constexpr auto elicit_options(Color) {
//     return std::array{elicit::option{Color::red, "#FF0000", "Red"},   // value, const, title
//                       elicit::option{Color::green, "#00FF00", "Green"},
//                       elicit::option{Color::blue, "Blue"}};            // const = "blue"
//   }
//
// With titles the field is titled: `oneOf` of {const, title} (`items.anyOf` for a
// multi-select). Only the listed options are offered, and accepted, in their order.
#pragma once

#include <elicit/detail/enum_reflection.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>

namespace elicit {

template <class E>
  requires(std::is_enum_v<E>)
struct option {
  E value;
  std::string_view wire;   // the value on the wire (`enum` entry or `const`)
  std::string_view title;  // the label a client shows; "" for none

  // The enumerator's own name on the wire, no title.
  constexpr option(E v) noexcept : value(v), wire(detail::enumerator_name(v)) {}  // NOLINT
  // The enumerator's own name on the wire, with a title.
  constexpr option(E v, std::string_view label) noexcept : value(v), wire(detail::enumerator_name(v)), title(label) {}
  // A wire value of your own, with a title.
  constexpr option(E v, std::string_view wire_value, std::string_view label) noexcept
      : value(v), wire(wire_value), title(label) {}
};

namespace detail {

template <class E>
concept has_options = std::is_enum_v<E> && requires(E e) {
  elicit_options(e);
};

template <class E>
constexpr auto make_enum_table() {
  if constexpr (has_options<E>) {
    constexpr auto options = elicit_options(E{});
    std::array<enum_entry, std::size(options)> table{};
    for (std::size_t i = 0; i < table.size(); ++i)
      table[i] = {underlying(options[i].value), options[i].wire, options[i].title};
    return table;
  } else {
    return reflected_entries<E>;
  }
}

// The choices of enum E, in the order they are offered.
template <class E>
inline constexpr auto enum_table = make_enum_table<E>();

}  // namespace detail
}  // namespace elicit
