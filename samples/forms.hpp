// The sample forms: the questions a shipping server asks its user (seed chapter 003).
#pragma once

#include <elicit/elicit.hpp>

#include <optional>
#include <string>

namespace shipping {

// Where a shipment goes. One flat object: the country is asked as a code, and the name of the
// country is derived from it on the server, never asked for as well.
struct DeliveryAddress {
  elicit::field<std::string, elicit::title<"Street address">, elicit::max_length<120>> street;
  elicit::field<std::string, elicit::title<"City">, elicit::max_length<60>> city;
  elicit::field<std::string, elicit::title<"Postcode">,
                elicit::description<"UK format, e.g. SW1A 1AA">, elicit::length<5, 8>>
      postcode;
  elicit::field<std::string, elicit::title<"Country">, elicit::description<"ISO 3166 code, e.g. GB">,
                elicit::length<2, 2>, elicit::name<"country_code">>
      country;
};

// How it travels. The insured value is optional: left blank, the default cover applies.
struct ShipmentOptions {
  elicit::field<std::optional<int>, elicit::title<"Insured value (GBP)">, elicit::range<0, 5000>,
                elicit::description<"Leave blank for the default cover of £50.">>
      insured_value_gbp;
  elicit::field<bool, elicit::title<"Signature required">, elicit::default_value<false>> signature_required;
};

// Who to tell when it arrives.
struct Contact {
  elicit::field<std::string, elicit::title<"Name">, elicit::length<1, 80>> name;
  elicit::field<elicit::email, elicit::title<"E-mail">, elicit::description<"Where the tracking link goes">>
      email;
  elicit::field<std::optional<std::chrono::year_month_day>, elicit::title<"Not before">,
                elicit::description<"Earliest delivery date, if it matters">>
      not_before;
};

}  // namespace shipping
