// Annotations: what a field says about itself beyond its C++ type.
//
//   elicit::field<int, elicit::title<"Age">, elicit::range<18, 130>> age;
//
// Each annotation fills part of the field's description (detail/field_spec.hpp) through its
// `apply`; `slots` says which keywords it sets, so that setting one twice is caught, and
// `fits` says which field types it belongs on. The rules that reject a wrong use live in
// detail/rules.hpp, beside one message each.
#pragma once

#include <elicit/detail/field_spec.hpp>
#include <elicit/detail/fixed_string.hpp>
#include <elicit/detail/number.hpp>

#include <cstddef>
#include <type_traits>

namespace elicit {

namespace detail {
struct annotation_base {};

// One value of `default_value<...>`: a bool, an integer, a floating value or a string literal.
template <std::size_t N>
struct value_arg {
  default_spec::kind_t kind = default_spec::kind_t::none;
  bool boolean = false;
  number num{};
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

  [[nodiscard]] constexpr default_spec spec() const noexcept {
    return {kind, boolean, num, kind == default_spec::kind_t::text ? std::string_view{chars, N - 1} : std::string_view{}};
  }
};
value_arg(bool) -> value_arg<0>;
template <plain_integer T>
value_arg(T) -> value_arg<0>;
template <std::floating_point T>
value_arg(T) -> value_arg<0>;
template <std::size_t M>
value_arg(const char (&)[M]) -> value_arg<M>;
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

// `minimum` and `maximum` of an integer or number field (inclusive).
template <detail::number Min, detail::number Max>
struct range : detail::annotation_base {
  static constexpr unsigned slots = detail::slot_minimum | detail::slot_maximum;
  static constexpr unsigned fits = detail::fits_numbers;
  static constexpr void apply(detail::field_spec& s) noexcept {
    s.minimum = Min;
    s.maximum = Max;
  }
};

template <detail::number Min>
struct minimum : detail::annotation_base {
  static constexpr unsigned slots = detail::slot_minimum;
  static constexpr unsigned fits = detail::fits_numbers;
  static constexpr void apply(detail::field_spec& s) noexcept { s.minimum = Min; }
};

template <detail::number Max>
struct maximum : detail::annotation_base {
  static constexpr unsigned slots = detail::slot_maximum;
  static constexpr unsigned fits = detail::fits_numbers;
  static constexpr void apply(detail::field_spec& s) noexcept { s.maximum = Max; }
};

// `minLength` and `maxLength` of a string field, in Unicode code points.
template <std::size_t Min, std::size_t Max>
struct length : detail::annotation_base {
  static constexpr unsigned slots = detail::slot_min_length | detail::slot_max_length;
  static constexpr unsigned fits = detail::fits_strings;
  static constexpr void apply(detail::field_spec& s) noexcept {
    s.min_length = Min;
    s.max_length = Max;
  }
};

template <std::size_t Min>
struct min_length : detail::annotation_base {
  static constexpr unsigned slots = detail::slot_min_length;
  static constexpr unsigned fits = detail::fits_strings;
  static constexpr void apply(detail::field_spec& s) noexcept { s.min_length = Min; }
};

template <std::size_t Max>
struct max_length : detail::annotation_base {
  static constexpr unsigned slots = detail::slot_max_length;
  static constexpr unsigned fits = detail::fits_strings;
  static constexpr void apply(detail::field_spec& s) noexcept { s.max_length = Max; }
};

// The pre-filled answer. A field with a default is not required: when the answer leaves it
// out, the default is what the server gets.
template <detail::value_arg... Values>
struct default_value : detail::annotation_base {
  static constexpr unsigned slots = detail::slot_default;
  static constexpr unsigned fits = detail::fits_any;
  static constexpr std::size_t count = sizeof...(Values);
  static constexpr void apply(detail::field_spec& s) noexcept {
    if constexpr (count == 1) s.def = (Values.spec(), ...);
  }
};

template <class A>
inline constexpr bool is_annotation = std::is_base_of_v<detail::annotation_base, A>;

namespace detail {
// Applies what the annotations say; anything else in the list is left to detail/rules.hpp,
// which rejects it with a message instead of a cascade of errors from here.
template <class... A>
constexpr void apply_annotations(field_spec& s) noexcept {
  ([&] {
    if constexpr (is_annotation<A>) A::apply(s);
  }(), ...);
}
}  // namespace detail

}  // namespace elicit
