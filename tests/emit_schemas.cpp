// Writes every schema the tests and samples emit, as {"name": schema, ...}, for
// validate_schemas.py to judge with a real JSON Schema validator against the spec.
#include "../samples/forms.hpp"
#include "forms.hpp"

#include <iostream>
#include <string_view>

namespace {
template <class... Form>
void emit(std::string_view names) {
  nlohmann::ordered_json all;
  std::size_t start = 0;
  auto next_name = [&] {
    const std::size_t comma = names.find(',', start);
    std::string_view n = names.substr(start, comma - start);
    start = comma == std::string_view::npos ? names.size() : comma + 1;
    while (n.starts_with(' ')) n.remove_prefix(1);
    return std::string(n);
  };
  ((all[next_name()] = nlohmann::ordered_json::parse(elicit::schema_json<Form>)), ...);
  std::cout << all.dump(2) << "\n";
}
}  // namespace

int main() {
  emit<forms::Plain, forms::Narrow, forms::Optionals, forms::Annotated, forms::SpecString, forms::SpecNumber,
       forms::SpecBoolean, forms::SpecMultipleFields, forms::SpecSingleField, forms::Choices,
       forms::SpecUntitledSingle, forms::SpecTitledSingle, forms::SpecUntitledMulti, forms::SpecTitledMulti,
       forms::Legacy, shipping::DeliveryAddress, shipping::ShipmentOptions, shipping::Contact>(
      "Plain, Narrow, Optionals, Annotated, SpecString, SpecNumber, SpecBoolean, SpecMultipleFields, "
      "SpecSingleField, Choices, SpecUntitledSingle, SpecTitledSingle, SpecUntitledMulti, SpecTitledMulti, "
      "Legacy, DeliveryAddress, ShipmentOptions, Contact");
}
