// The forms the run-time benchmarks measure, besides the samples' shipping forms: a 12-field
// form with one field of every kind elicit supports.
#pragma once

#include <elicit/elicit.hpp>

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bench {

// Untitled: the enumerators are the wire values, found by reflection.
enum class Speed { standard, express, overnight };

// Titled, with wire values of its own.
enum class Ribbon { red, green, blue };
constexpr auto elicit_options(Ribbon) {
  return std::array{elicit::option{Ribbon::red, "#FF0000", "Red"}, elicit::option{Ribbon::green, "#00FF00", "Green"},
                    elicit::option{Ribbon::blue, "#0000FF", "Blue"}};
}

// The choices of a multi-select.
enum class Extra { gift_wrap, fragile, eco_box, insurance };

// Twelve fields: bool, int, int64, double, string with lengths, email, optional uri, date,
// date-time, untitled enum with a default, titled enum, multi-select.
struct Order {
  elicit::field<bool, elicit::title<"Newsletter">, elicit::default_value<true>> newsletter;
  elicit::field<int, elicit::title<"Quantity">, elicit::range<1, 99>> quantity;
  elicit::field<std::int64_t, elicit::title<"Account number">, elicit::minimum<1>> account_id;
  elicit::field<double, elicit::title<"Weight (kg)">, elicit::minimum<0.1>, elicit::maximum<1000>> weight_kg;
  elicit::field<std::string, elicit::title<"Name">, elicit::description<"As it should appear on the label">,
                elicit::length<1, 80>>
      name;
  elicit::field<elicit::email, elicit::title<"E-mail">> email;
  elicit::field<std::optional<elicit::uri>, elicit::title<"Website">> website;
  elicit::field<std::chrono::year_month_day, elicit::title<"Ship on">> ship_on;
  elicit::field<std::chrono::sys_seconds, elicit::title<"Deliver after">> deliver_after;
  elicit::field<Speed, elicit::title<"Speed">, elicit::default_value<Speed::standard>> speed;
  elicit::field<Ribbon, elicit::title<"Ribbon">> ribbon;
  elicit::field<std::vector<Extra>, elicit::title<"Extras">, elicit::max_items<3>> extras;
};

}  // namespace bench
