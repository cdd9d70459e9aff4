// The one shape of every "a value, or why not" type of elicit: decoded and response (an answer),
// ask_result (an ask), opened (a sealed state), parsed_json (JSON text within limits).
//
//   elicit::response<Address> r = elicit::decode<Address>(text);
//   if (r) ship_to(r->postcode);                  // has_value(): there is a value to use
//   else log("no address: {}", *r.error());       // why not, in the type's own terms
//   const Address& a = r.value();                 // or throws bad_answer_access, saying why
//
// Each of them has:
// - `has_value()` and `explicit operator bool`: true exactly when there is a value;
// - `value()`, `*` and `->`: the value, or a throw of bad_answer_access whose what() says why;
// - `error()`: a std::optional of why there is no value, engaged exactly when there is none.
//   What "why" is depends on the type: an `outcome` for an answer (invalid, declined, cancelled,
//   missing; for an ask also error, stopped, timed_out), a `state_error` for a state, the
//   `violation` for JSON text.
// What else each one tells (the violations, the action, the client's JSON-RPC error, the attempts)
// stays on it under its own name.
#pragma once

#include <elicit/detail/maybe_value.hpp>

#include <concepts>
#include <stdexcept>
#include <type_traits>

namespace elicit {

// Thrown by value() (and `*`, `->`) of every result type when there is no value to give. A
// std::logic_error: reading a value that is not there is a fault of the calling code.
class bad_answer_access : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// The shape above, checked: has_value(), a bool, value(), and error() as a std::optional.
template <class R>
concept value_or_error = requires(const R& r) {
  { r.has_value() } -> std::same_as<bool>;
  static_cast<bool>(r);
  r.value();
  *r;
  requires detail::is_optional<std::remove_cvref_t<decltype(r.error())>>::value;
};

}  // namespace elicit
