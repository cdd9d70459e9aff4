// The sample forms: the questions a shipping server asks its user.
#pragma once

#include <elicit/elicit.hpp>

#include <array>
#include <chrono>
#include <optional>
#include <string>

namespace shipping {

// The countries the carrier serves. The code is what the user picks and what comes back; the
// country's name is derived from it, so it is a label (a title), never a second question.
enum class Country { GB, IE, FR, DE, NL };
constexpr auto elicit_options(Country) {
  return std::array{elicit::option{Country::GB, "United Kingdom"}, elicit::option{Country::IE, "Ireland"},
                    elicit::option{Country::FR, "France"}, elicit::option{Country::DE, "Germany"},
                    elicit::option{Country::NL, "Netherlands"}};
}

// Where a shipment goes: one flat object, no nested country.
struct DeliveryAddress {
  elicit::field<std::string, elicit::title<"Street address">, elicit::max_length<120>> street;
  elicit::field<std::string, elicit::title<"City">, elicit::max_length<60>> city;
  elicit::field<std::string, elicit::title<"Postcode">, elicit::description<"UK format, e.g. SW1A 1AA">,
                elicit::length<5, 8>>
      postcode;
  elicit::field<Country, elicit::title<"Country">> country_code;
};

// How it travels. The insured value is optional: left blank, the default cover applies.
struct ShipmentOptions {
  elicit::field<Country, elicit::title<"Destination country">> country_code;
  elicit::field<std::optional<int>, elicit::title<"Insured value (GBP)">, elicit::range<0, 5000>,
                elicit::description<"Leave blank for the default cover of £50.">>
      insured_value_gbp;
  elicit::field<bool, elicit::title<"Signature required">, elicit::default_value<false>> signature_required;
};

// When it comes: one of the slots the carrier still has free, known only when the question is
// asked (an elicit::choice: its options are given per request, by elicit::form).
struct DeliverySlot {
  elicit::field<elicit::choice, elicit::title<"Delivery slot">, elicit::description<"The slots still free">> slot;
  elicit::field<std::optional<std::string>, elicit::title<"Note for the driver">, elicit::max_length<200>> note;
};

// Who to tell when it arrives, and from when.
struct Contact {
  elicit::field<std::string, elicit::title<"Name">, elicit::length<1, 80>> name;
  elicit::field<elicit::email, elicit::title<"E-mail">, elicit::description<"Where the tracking link goes">> email;
  elicit::field<std::optional<std::chrono::year_month_day>, elicit::title<"Not before">,
                elicit::description<"Earliest delivery date, if it matters">>
      not_before;
};

}  // namespace shipping
