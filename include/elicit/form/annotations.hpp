// Annotations: what a field says about itself beyond its C++ type.
//
//   elicit::field<int, elicit::title<"Age">, elicit::range<18, 130>> age;
//
// Each annotation fills part of the field's description (detail/model/field_spec.hpp) through its
// `apply`; `slots` says which keywords it sets, so that setting one twice is caught, and
// `fits` says which field types it belongs on. The rules that reject a wrong use live in
// detail/engine/rules.hpp, beside one message each.
#pragma once

#include <elicit/detail/enum_reflection.hpp>
#include <elicit/detail/fixed_string.hpp>
#include <elicit/detail/model/field_spec.hpp>
#include <elicit/detail/number.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace elicit {

namespace detail {
struct annotation_base {};

// One value of `default_value<...>`: a bool, an integer, a floating value, a string literal
// or an enumerator.
template <std::size_t N>
struct value_arg {
  default_spec::kind_t kind = default_spec::kind_t::none;
  bool boolean = false;
  number num{};
  std::uint64_t enum_type = 0;
  char chars[N == 0 ? 1 : N]{};

  constexpr value_arg(bool b) noexcept : kind(default_spec::kind_t::boolean), boolean(b) {}  // NOLINT
  template <plain_integer T>
  constexpr value_arg(T v) noexcept : kind(default_spec::kind_t::number), num(v) {}  // NOLINT
  template <std::floating_point T>
  constexpr value_arg(T v) noexcept : kind(default_spec::kind_t::number), num(v) {}  // NOLINT
  template <std::size_t M>
    requires(M == N && N > 0)
  constexpr value_arg(const char (&text)[M]) noexcept : kind(default_spec::kind_t::text) {  // NOLINT
    for (std::size_t i = 0; i < M; ++i) chars[i] = text[i];
  }
  template <class E>
    requires(std::is_enum_v<E>)
  constexpr value_arg(E e) noexcept  // NOLINT
      : kind(default_spec::kind_t::enumerators), num(underlying(e)), enum_type(type_id<E>) {}

  [[nodiscard]] constexpr default_spec spec() const noexcept {
    default_spec d;
    d.kind = kind;
    d.boolean = boolean;
    d.num = num;
    if (kind == default_spec::kind_t::text) d.text = std::string_view{chars, N - 1};
    return d;
  }
};
// clang-format 14 misreads deduction guides ("value_arg(bool)->value_arg<0>").
// clang-format off
value_arg(bool) -> value_arg<0>;
template <plain_integer T>
value_arg(T) -> value_arg<0>;
template <std::floating_point T>
value_arg(T) -> value_arg<0>;
template <std::size_t M>
value_arg(const char (&)[M]) -> value_arg<M>;
template <class E>
  requires(std::is_enum_v<E>)
value_arg(E) -> value_arg<0>;
// clang-format on
}  // namespace detail

// The label a client shows for the field.
template <detail::fixed_string Text>
struct title : detail::annotation_base {
  static constexpr unsigned slots = detail::slot_title;
  static constexpr unsigned fits = detail::fits_any;
  static constexpr void apply(detail::field_spec& s) noexcept { s.title = Text.view(); }
};

// Helper text a client may show under the field or as a tooltip.
template <detail::fixed_string Text>
struct description : detail::annotation_base {
  static constexpr unsigned slots = detail::slot_description;
  static constexpr unsigned fits = detail::fits_any;
  static constexpr void apply(detail::field_spec& s) noexcept { s.description = Text.view(); }
};

// The property key on the wire, when it should differ from the member's name.
template <detail::fixed_string Wire>
struct name : detail::annotation_base {
  static constexpr unsigned slots = detail::slot_name;
  static constexpr unsigned fits = detail::fits_any;
  static constexpr void apply(detail::field_spec& s) noexcept { s.wire = Wire.view(); }
};

namespace detail {
// An annotation that sets one bound of a field: `Member` is the part of the description it
// fills, `Slot` the keyword it sets (two that set the same one clash), `Fits` the field types
// it belongs on. minimum, maximum, min_length, max_length, min_items and max_items are one each.
template <auto Member, unsigned Slot, unsigned Fits, auto Value>
struct bound_annotation : annotation_base {
  static constexpr unsigned slots = Slot;
  static constexpr unsigned fits = Fits;
  static constexpr void apply(field_spec& s) noexcept { s.*Member = Value; }
};

// Both bounds at once (range, length, items): the two annotations, applied together.
template <class Low, class High>
struct bound_pair : annotation_base {
  static constexpr unsigned slots = Low::slots | High::slots;
  static constexpr unsigned fits = Low::fits;
  static constexpr void apply(field_spec& s) noexcept {
    Low::apply(s);
    High::apply(s);
  }
};
}  // namespace detail

// `minimum` and `maximum` of an integer or number field (inclusive).
template <detail::number Min>
struct minimum
    : detail::bound_annotation<&detail::field_spec::minimum, detail::slot_minimum, detail::fits_numbers, Min> {};
template <detail::number Max>
struct maximum
    : detail::bound_annotation<&detail::field_spec::maximum, detail::slot_maximum, detail::fits_numbers, Max> {};
template <detail::number Min, detail::number Max>
struct range : detail::bound_pair<minimum<Min>, maximum<Max>> {};

// `minLength` and `maxLength` of a string field, in Unicode code points.
template <std::size_t Min>
struct min_length
    : detail::bound_annotation<&detail::field_spec::min_length, detail::slot_min_length, detail::fits_strings, Min> {};
template <std::size_t Max>
struct max_length
    : detail::bound_annotation<&detail::field_spec::max_length, detail::slot_max_length, detail::fits_strings, Max> {};
template <std::size_t Min, std::size_t Max>
struct length : detail::bound_pair<min_length<Min>, max_length<Max>> {};

// The pre-filled answer. A field with a default is not required: when the answer leaves it
// out, the default is what the server gets. One value, or for a multi-select the enumerators
// selected at first: `default_value<Color::red, Color::blue>`.
template <detail::value_arg... Values>
struct default_value : detail::annotation_base {
  static_assert(sizeof...(Values) > 0, "elicit: default_value needs a value");
  static constexpr unsigned slots = detail::slot_default;
  static constexpr unsigned fits = detail::fits_any;
  static constexpr std::size_t count = sizeof...(Values);
  static constexpr std::array<std::int64_t, count> enumerators{Values.num.i...};
  static constexpr std::array<std::uint64_t, count> enum_types{Values.enum_type...};
  static constexpr bool all_enumerators = ((Values.kind == detail::default_spec::kind_t::enumerators) && ...);
  static constexpr void apply(detail::field_spec& s) noexcept {
    if constexpr (count == 1 && !all_enumerators) {
      s.def = (Values.spec(), ...);
    } else if constexpr (all_enumerators) {
      s.def.kind = detail::default_spec::kind_t::enumerators;
      s.def.enumerators = enumerators.data();
      s.def.enumerator_count = count;
      s.def.enum_type = enum_types[0];
      for (std::uint64_t t : enum_types) s.def.enum_type = t == enum_types[0] ? s.def.enum_type : 0;
    } else {
      s.def.kind = detail::default_spec::kind_t::mixed;  // rejected by the rules
    }
  }
};

// `minItems` and `maxItems` of a multi-select: how many choices the user must pick.
template <std::size_t Min>
struct min_items
    : detail::bound_annotation<&detail::field_spec::min_items, detail::slot_min_items, detail::fits_arrays, Min> {};
template <std::size_t Max>
struct max_items
    : detail::bound_annotation<&detail::field_spec::max_items, detail::slot_max_items, detail::fits_arrays, Max> {};
template <std::size_t Min, std::size_t Max>
struct items : detail::bound_pair<min_items<Min>, max_items<Max>> {};

// The deprecated `enum` + `enumNames` shape of a titled single-select, for clients that know
// no other. The spec deprecates it and will remove it.
// clang-format 14 reads `field_spec& s` after this attribute as a product.
// clang-format off
struct [[deprecated(
    "elicit::legacy_enum_names gives the deprecated enum + enumNames shape: give the options titles "
    "(elicit_options) and drop this annotation to get the titled oneOf shape instead")]] legacy_enum_names
    : detail::annotation_base {
  static constexpr unsigned slots = detail::slot_enum_names;
  static constexpr unsigned fits = detail::fits_single_select;
  static constexpr void apply(detail::field_spec& s) noexcept { s.legacy_names = true; }
};
// clang-format on

// Says that a field whose name looks like a credential (`bowling_pin`, `game_token`...) is
// none, so that a form may ask for it. Forms must never ask for passwords, API keys, tokens,
// card numbers or one-time codes: those go through URL mode (see docs/security.md).
struct not_secret : detail::annotation_base {
  static constexpr unsigned slots = detail::slot_allow_secret;
  static constexpr unsigned fits = detail::fits_any;
  static constexpr void apply(detail::field_spec& s) noexcept { s.not_secret = true; }
};

template <class A>
inline constexpr bool is_annotation = std::is_base_of_v<detail::annotation_base, A>;

namespace detail {
// Applies what the annotations say; anything else in the list is left to detail/engine/rules.hpp,
// which rejects it with a message instead of a cascade of errors from here.
template <class A>
constexpr void apply_annotation(field_spec& s) noexcept {
  if constexpr (is_annotation<A>) A::apply(s);
}
template <class... A>
constexpr void apply_annotations(field_spec& s) noexcept {
  (apply_annotation<A>(s), ...);
}
}  // namespace detail

}  // namespace elicit
