// Forms used across the tests: every field type and every annotation at least once, and the
// spec's own examples written as C++. emit_schemas.cpp validates all of them against the spec.
#pragma once

#include <elicit/elicit.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace forms {

using namespace elicit;

// ---- One of each plain type ---------------------------------------------------------------
struct Plain {
  bool flag;
  int count;
  std::int64_t big;
  double ratio;
  float weight;
  std::string text;
  std::chrono::year_month_day day;
  std::chrono::sys_seconds moment;
  email mail;
  uri link;
};

struct Narrow {
  std::int8_t i8;
  std::uint8_t u8;
  std::int16_t i16;
  std::uint16_t u16;
  std::int32_t i32;
  std::uint32_t u32;
  std::uint64_t u64;
};

struct Optionals {
  std::optional<bool> maybe_flag;
  std::optional<int> maybe_count;
  std::optional<std::string> maybe_text;
  std::optional<std::chrono::year_month_day> maybe_day;
  std::string always;
};

// Property keys that JSON spells only with escapes: a quote, a backslash, a tab.
struct OddKeys {
  field<std::string, elicit::name<"say \"hi\"">> quoted;
  field<int, elicit::name<"back\\slash">> slashed;
  field<bool, elicit::name<"tab\there">> tabbed;
  int plain;
};

// ---- Annotations ----------------------------------------------------------------------------
struct Annotated {
  field<std::string, title<"Full name">, description<"As on your passport">, length<1, 80>> name;
  field<int, range<18, 130>, default_value<30>> age;
  field<double, minimum<0.5>, maximum<99.5>, default_value<95.5>> score;
  field<std::string, elicit::name<"post-code">, min_length<5>, max_length<8>> postcode;
  field<bool, default_value<true>> subscribe;
  field<std::uint8_t, maximum<10>> rating;
  field<std::optional<double>, minimum<-1e300>, maximum<1e-7>> tiny;
  field<email, default_value<"user@example.com">> contact;
  field<std::string, title<"Café \"Zoë\"">, description<"Line one\nline\ttwo \\ end">, max_length<8>,
        default_value<"ÀÉÎÕÜàéî">>
      unicode;
};

// ---- The spec's own examples (../shared/mcp-spec/2026-07-28/examples) ----------------------
struct SpecString {
  field<email, title<"Display Name">, description<"Description text">, length<3, 50>, default_value<"user@example.com">>
      value;
};
struct SpecNumber {
  field<double, title<"Display Name">, description<"Description text">, range<0, 100>, default_value<50>> value;
};
struct SpecBoolean {
  field<bool, title<"Display Name">, description<"Description text">, default_value<false>> value;
};
struct SpecMultipleFields {  // ElicitRequestFormParams/elicit-multiple-fields.json
  field<std::string, description<"Your full name">> name;
  field<elicit::email, description<"Your email address">> email;
  field<std::optional<double>, minimum<18>, description<"Your age">> age;
};
struct SpecSingleField {  // ElicitRequestFormParams/elicit-single-field.json
  std::string name;
};

// ---- Enums ------------------------------------------------------------------------------------
enum class ColorName { Red, Green, Blue };  // untitled: the enumerators are the values

enum class Color { red, green, blue };  // titled, with wire values of its own
constexpr auto elicit_options(Color) {
  return std::array{option{Color::red, "#FF0000", "Red"}, option{Color::green, "#00FF00", "Green"},
                    option{Color::blue, "#0000FF", "Blue"}};
}

enum Size : unsigned char { small = 1, medium = 5, large = 9 };  // unscoped, fixed type

enum class Priority { low = -1, normal = 0, high = 1, urgent = 2 };
constexpr auto elicit_options(Priority) {  // a subset, in an order of its own; one untitled
  return std::array{option{Priority::urgent, "Urgent!"}, option{Priority::high, "High"}, option{Priority::normal}};
}

enum class Code : long { alpha = 100000, beta = -100000 };  // outside the reflected range
constexpr auto elicit_options(Code) {
  return std::array{option{Code::alpha, "A", "Alpha"}, option{Code::beta, "B", "Beta"}};
}

struct Choices {
  ColorName plain;
  Color titled;
  Size size;
  field<Priority, default_value<Priority::high>> priority;
  Code code;
  std::optional<ColorName> maybe;
  std::vector<ColorName> many;
  field<std::set<Color>, min_items<1>, default_value<Color::blue>> some;
  field<std::vector<Priority>, max_items<2>> few;
};

// The spec's enum examples.
struct SpecUntitledSingle {
  field<ColorName, title<"Color Selection">, description<"Choose your favorite color">, default_value<ColorName::Red>>
      value;
};
struct SpecTitledSingle {
  field<Color, title<"Color Selection">, description<"Choose your favorite color">, default_value<Color::red>> value;
};
struct SpecUntitledMulti {
  field<std::vector<ColorName>, title<"Color Selection">, description<"Choose your favorite colors">, items<1, 2>,
        default_value<ColorName::Red, ColorName::Green>>
      value;
};
struct SpecTitledMulti {
  field<std::vector<Color>, title<"Color Selection">, description<"Choose your favorite colors">, items<1, 2>,
        default_value<Color::red, Color::green>>
      value;
};

// The deprecated enumNames shape: using it warns, which this test form silences on purpose.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
struct Legacy {
  field<Color, title<"Color">, legacy_enum_names, default_value<Color::green>> value;
};
#pragma GCC diagnostic pop

}  // namespace forms
