// Printing elicit's own enums (outcome, action, stop_reason, state_error, request_kind,
// tool_failure) by their enumerator's name, for logs:
//
//   log("answer: {}", asked.outcome());        // fmt: "answer: declined"
//   std::clog << state.error().value() << "\n";  // iostreams: "wrong_principal"
//   std::string_view word = elicit::to_string(elicit::action::accept);  // "accept"
//
// Each header that declares such an enum opts it in (detail::printable_enum); a user's own
// enums are left to the user's formatters.
#pragma once

#include <elicit/detail/enum_reflection.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <iosfwd>
#include <string_view>
#include <type_traits>

namespace elicit {
namespace detail {

// True for the public enums of elicit that print by name; each one's header specializes it.
template <class E>
inline constexpr bool printable_enum = false;

}  // namespace detail

// The enumerator's name ("accepted", "wrong_principal"), or "unknown" for a value that names
// none (a cast). Never throws.
template <class E>
  requires(detail::printable_enum<E>)
[[nodiscard]] constexpr std::string_view to_string(E e) noexcept {
  const std::string_view name = detail::enumerator_name(e);
  return name.empty() ? std::string_view("unknown") : name;
}

// Writes to_string(e). A template on the stream, so that <iosfwd> is enough here: the stream is
// complete wherever a program writes to one.
template <class Traits, class E>
  requires(detail::printable_enum<E>)
std::basic_ostream<char, Traits>
&operator<<(std::basic_ostream<char, Traits>& out, E e) { return out << to_string(e); }

}  // namespace elicit

// fmt prints them as to_string does. No format spec: a name is written as it is (and fmt 9's
// fill parsing trips a false -Wstringop-overflow in g++-12 at -O3). Throws fmt::format_error for
// a spec.
template <class E>
struct fmt::formatter<E, char, std::enable_if_t<elicit::detail::printable_enum<E>>> {
  constexpr auto parse(fmt::format_parse_context& context) {
    const auto it = context.begin();
    if (it != context.end() && *it != '}') throw fmt::format_error("elicit: an enum's name takes no format spec");
    return it;
  }
  template <class Context>
  auto format(E e, Context& context) const {
    const std::string_view name = elicit::to_string(e);
    return std::copy(name.begin(), name.end(), context.out());
  }
};
