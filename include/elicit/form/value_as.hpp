// elicit::value_as: a type of your own as a form field, asked and read as a value type elicit
// knows (the `held` type: std::string, elicit::email, an integer, an enum...). The field's
// schema, its annotations and their rules, decoding, to_content and a form's defaults and
// prefill are the held type's; the value is converted on the way in and out.
//
// A strong type that wraps one member: declare (no definition needed) a function
// `elicit_value_as` beside it, in its namespace, found by argument-dependent lookup:
//
//   namespace shop {
//   struct Email { std::string v; };
//   elicit::held_as<elicit::email, &Email::v> elicit_value_as(const Email&);
//   }
//   struct Signup { shop::Email contact; };   // "contact": {"type":"string","format":"email"}
//
// A type you cannot declare beside (another library's): specialize elicit::value_as instead,
//
//   template <> struct elicit::value_as<lib::Id> : elicit::held_as<std::string, &lib::Id::text> {};
//
// Any other conversion: the returned type (or the specialization) is a struct with
// `using held = H;`, `static H to(const T&)` and `static T from(H&&)`. A mapping missing one of
// them, or whose held type is not one elicit knows, is a compile error naming the member.
#pragma once

#include <utility>

namespace elicit {

// Specialize for a type you do not own; derive from held_as, or give held, to and from.
template <class T>
struct value_as {
  using elicit_unmapped = void;  // the primary template: no mapping
};

namespace detail {
template <class P>
struct member_pointer_parts;
template <class C, class M>
struct member_pointer_parts<M C::*> {
  using owner = C;
  using member = M;
};
}  // namespace detail

// The mapping of a type that wraps one member (`Member`, a pointer to it) onto `Held`: the
// answer, read as Held, is converted to the member's type; a value is written from its member.
// Throws what the conversions throw (std::bad_alloc for text).
template <class Held, auto Member>
struct held_as {
  using held = Held;
  using owner = typename detail::member_pointer_parts<decltype(Member)>::owner;
  using member = typename detail::member_pointer_parts<decltype(Member)>::member;

  static constexpr Held to(const owner& value) { return Held(value.*Member); }
  static constexpr owner from(Held&& value) {
    owner out{};
    out.*Member = member(std::move(value));
    return out;
  }
};

}  // namespace elicit
