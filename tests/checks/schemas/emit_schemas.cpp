// Writes every schema the tests and samples emit, as {"name": schema, ...}, for
// validate_schemas.py to judge with a real JSON Schema validator against the spec: each
// form's schema_json<F>, and the forms refined at run time that unit/form/test_form.cpp checks
// (elicit::form<F>: every choice shape, defaults, narrowed bounds, one-question forms).
#include "../../../samples/forms.hpp"
#include "../../unit/support/forms.hpp"
#include "../../unit/support/runtime_forms.hpp"

#include <iostream>
#include <string_view>

namespace {
template <class... Form>
void emit(nlohmann::ordered_json& all, std::string_view names) {
  std::size_t start = 0;
  auto next_name = [&] {
    const std::size_t comma = names.find(',', start);
    std::string_view n = names.substr(start, comma - start);
    start = comma == std::string_view::npos ? names.size() : comma + 1;
    while (n.starts_with(' ')) n.remove_prefix(1);
    return std::string(n);
  };
  ((all[next_name()] = nlohmann::ordered_json::parse(elicit::schema_json<Form>)), ...);
}

template <class Form>
void emit_form(nlohmann::ordered_json& all, const std::string& name, const elicit::form<Form>& f) {
  all["form " + name] = nlohmann::ordered_json::parse(f.schema_json());
}
}  // namespace

int main() {
  nlohmann::ordered_json all;
  emit<forms::Plain, forms::Narrow, forms::Optionals, forms::Annotated, forms::SpecString, forms::SpecNumber,
       forms::SpecBoolean, forms::SpecMultipleFields, forms::SpecSingleField, forms::Choices, forms::SpecUntitledSingle,
       forms::SpecTitledSingle, forms::SpecUntitledMulti, forms::SpecTitledMulti, forms::Legacy, forms::OddKeys,
       shipping::DeliveryAddress, shipping::ShipmentOptions, shipping::Contact>(
      all,
      "Plain, Narrow, Optionals, Annotated, SpecString, SpecNumber, SpecBoolean, SpecMultipleFields, "
      "SpecSingleField, Choices, SpecUntitledSingle, SpecTitledSingle, SpecUntitledMulti, SpecTitledMulti, "
      "Legacy, DeliveryAddress, ShipmentOptions, Contact");
  emit<elicit::confirmation, rt::PartySize, rt::Account, rt::Wide>(all, "Confirmation, PartySize, Account, Wide");
  emit_form(all, "PicksTitled", rt::picks_titled());
  emit_form(all, "PicksUntitled", rt::picks_untitled());
  emit_form(all, "PicksDefaults", rt::picks_defaults());
  emit_form(all, "Booking", rt::booking());
  emit_form(all, "KindsDefaults", rt::kinds_defaults());
  emit_form(all, "AccountPrefilled", rt::account_prefilled());
  emit_form(all, "AnnotatedNarrowed", rt::annotated_narrowed());
  emit_form(all, "ChoicesNarrowed", rt::choices_narrowed());
  emit_form(all, "Confirmation", elicit::form<elicit::confirmation>());
  emit_form(all, "PartySizeNarrowed", rt::party_size_narrowed());
  emit_form(all, "SlotPick", rt::slot_pick());
  std::cout << all.dump(2) << "\n";
}
