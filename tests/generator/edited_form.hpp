// A form edited after its snapshot (snapshot_before_edit/) was taken: postcode's maxLength went
// from 8 to 10. The snapshot check must fail, and name the field.
#pragma once

#include <elicit/elicit.hpp>

namespace edited {
struct Booking {
  elicit::field<std::string, elicit::title<"Name">, elicit::length<1, 80>> name;
  elicit::field<std::string, elicit::title<"Postcode">, elicit::length<5, 10>> postcode;
};
}  // namespace edited
