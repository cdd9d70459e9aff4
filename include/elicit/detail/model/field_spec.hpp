// The description of one form field, computed at compile time from its C++ type and its
// annotations. The schema writer and the validator both read this one description, so the
// schema a client sees and the checks an answer meets cannot disagree.
#pragma once

#include <elicit/detail/enum_reflection.hpp>
#include <elicit/detail/json_escape.hpp>
#include <elicit/detail/number.hpp>
#include <elicit/form/value_type.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace elicit::detail {

class option_index;  // detail/model/option_index.hpp

// How many of a select field's options a message about it names (reporter.hpp, offered_options
// and choice_params).
inline constexpr std::size_t shown_options = 10;

// Whether the options a message names (the first shown_options) have wire values and titles
// that cost their size as JSON (json_escape_extra 0): nearly every option's.
constexpr bool plain_shown(const enum_entry* options, std::size_t count) noexcept {
  for (std::size_t i = 0; i < count && i < shown_options; ++i)
    if (json_extra_of(options[i].wire) != 0 || json_extra_of(options[i].title) != 0) return false;
  return true;
}

// Which keywords an annotation sets: two annotations that set the same one clash.
enum slot : unsigned {
  slot_title = 1u << 0,
  slot_description = 1u << 1,
  slot_name = 1u << 2,
  slot_minimum = 1u << 3,
  slot_maximum = 1u << 4,
  slot_min_length = 1u << 5,
  slot_max_length = 1u << 6,
  slot_default = 1u << 7,
  slot_min_items = 1u << 8,
  slot_max_items = 1u << 9,
  slot_enum_names = 1u << 10,
  slot_allow_secret = 1u << 11,
};

// Which field types an annotation fits.
enum fits : unsigned {
  fits_numbers = 1u << 0,
  fits_strings = 1u << 1,
  fits_arrays = 1u << 2,
  fits_single_select = 1u << 3,
  fits_booleans = 1u << 4,
  fits_dates = 1u << 5,
  fits_any = 0xFFu,
};

constexpr unsigned fit_of(value_type t, format f = format::none) noexcept {
  if (f == format::date || f == format::date_time) return fits_dates;  // their format fixes their length
  switch (t) {
    case value_type::integer:
    case value_type::number: return fits_numbers;
    case value_type::string: return fits_strings;
    case value_type::multi_select: return fits_arrays;
    case value_type::single_select: return fits_single_select;
    default: return fits_booleans;
  }
}

// A default as written in `default_value<...>`.
struct default_spec {
  enum class kind_t : unsigned char { none, boolean, number, text, enumerators, mixed };
  kind_t kind = kind_t::none;
  bool boolean = false;
  number num{};
  std::string_view text{};
  // enumerators: their underlying values, and the identity of their enum type
  const std::int64_t* enumerators = nullptr;
  std::size_t enumerator_count = 0;
  std::uint64_t enum_type = 0;
};

// A bound or a count that a field may have: what std::optional<T> would be, with only what the
// description needs. std::optional's assignments are templates whose overloads and
// constraints every annotation's apply() resolved again, at a cost in compile time and memory
// for each form; this one's are plain functions.
template <class T>
class bound {
 public:
  constexpr bound() noexcept = default;
  constexpr bound(T v) noexcept : value_(v), set_(true) {}  // NOLINT: set like std::optional
  constexpr bound& operator=(T v) noexcept {
    value_ = v;
    set_ = true;
    return *this;
  }
  constexpr explicit operator bool() const noexcept { return set_; }
  constexpr const T& operator*() const noexcept { return value_; }
  constexpr const T* operator->() const noexcept { return &value_; }
  constexpr operator std::optional<T>() const noexcept {  // NOLINT: field_info reports std::optional
    return set_ ? std::optional<T>(value_) : std::nullopt;
  }

 private:
  T value_{};
  bool set_ = false;
};

struct field_spec {
  std::string_view member{};  // the C++ member's name
  std::string_view wire{};    // the property key
  bool plain_wire = false;    // the key reads in JSON as it is, unescaped (set by describe_member)
  // The key holds no "~" or "/" and nothing JSON escapes: its JSON Pointer token is the key
  // itself, and costs its size in a violation list's JSON (set by describe_member), so that a
  // violation's pointer is written without looking at it again.
  bool plain_pointer = false;
  value_type type = value_type::string;
  format fmt = format::none;
  std::string_view title{};
  std::string_view description{};
  bool optional = false;
  bound<number> minimum{};
  bound<number> maximum{};
  bound<std::size_t> min_length{};
  bound<std::size_t> max_length{};
  bound<std::size_t> min_items{};
  bound<std::size_t> max_items{};
  // select fields: the choices, whether they are titled, and the deprecated enumNames shape
  const enum_entry* options = nullptr;
  std::size_t option_count = 0;
  std::uint64_t enum_type = 0;
  bool titled = false;
  bool plain_options = false;  // plain_shown(options, option_count): set with the options
  bool legacy_names = false;
  bool not_secret = false;              // the author vouches that a credential-like name is no credential
  bool runtime_options = false;         // an elicit::choice field: its options are given per request (form<F>)
  bool listed_required = false;         // a received schema lists it in `required` though it has a default
  const option_index* index = nullptr;  // run-time options: found by wire value through this
  default_spec def{};
  // What a violation is written with, worked out with the rest (at the end: what an answer's
  // reading looks at keeps its place).
  // What the label a message names the field by (keywords.hpp, label_of) costs as JSON over its
  // size (json_escape_extra), known before any violation is written with it: set by
  // describe_member, and by link() (refinements.hpp) when a form retitles the field.
  std::size_t label_extra = 0;
  // A choice's violation params up to "got" (reporter.hpp, write_choice_head), and their
  // json_escape_extra: the same for every answer, so written once where the options are set
  // (an enum's at compile time, run-time options when offered). Empty: written at each violation.
  std::string_view choice_head{};
  std::size_t choice_head_extra = 0;
  // The options as a message in English names them (reporter.hpp, write_english_options), and
  // their json_escape_extra: written once where the options are set, as choice_head.
  std::string_view english_options{};
  std::size_t english_options_extra = 0;

  [[nodiscard]] constexpr bool is_select() const noexcept {
    return type == value_type::single_select || type == value_type::multi_select;
  }
  // The choice whose enumerator has this underlying value, or nullptr. At once when the value
  // is its option's position (run-time options; an enum numbered 0, 1, 2...).
  [[nodiscard]] constexpr const enum_entry* option_for(std::int64_t value) const noexcept {
    if (value >= 0 && static_cast<std::uint64_t>(value) < option_count && options[value].value == value)
      return &options[value];
    for (std::size_t i = 0; i < option_count; ++i)
      if (options[i].value == value) return &options[i];
    return nullptr;
  }

  [[nodiscard]] constexpr bool has_default() const noexcept { return def.kind != default_spec::kind_t::none; }
  [[nodiscard]] constexpr bool required() const noexcept { return listed_required || (!optional && !has_default()); }
};

}  // namespace elicit::detail
