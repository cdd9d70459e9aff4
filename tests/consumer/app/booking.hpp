// The consumer's one form.
#pragma once

#include <elicit/elicit.hpp>

struct Booking {
  elicit::field<int, elicit::title<"Guests">, elicit::range<1, 12>> guests;
  elicit::field<std::optional<std::string>, elicit::title<"Notes">, elicit::max_length<200>> notes;
};
