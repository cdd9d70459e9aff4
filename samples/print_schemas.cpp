// Prints the requestedSchema of every sample form: the JSON a client renders as a form.
// Each schema is a compile-time constant; this program only writes it out.
#include "forms.hpp"

#include <iostream>
#include <string_view>

namespace {
template <class Form>
void print(std::string_view title) {
  std::cout << "// " << title << "\n" << elicit::schema<Form>().dump(2) << "\n\n";
}
}  // namespace

int main() {
  print<shipping::DeliveryAddress>("DeliveryAddress: where should the shipment be delivered?");
  print<shipping::ShipmentOptions>("ShipmentOptions: how should it travel?");
  print<shipping::Contact>("Contact: who should be told when it arrives?");
}
