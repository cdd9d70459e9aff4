// libFuzzer target: decode<T>(text) for the test forms, under AddressSanitizer and
// UndefinedBehaviorSanitizer. Any input must give a response, never a crash, a hang or a
// sanitizer report; decode(text) must judge it as decode(json) judges the parsed document;
// and an accepted answer must survive the round trip to_content -> decode unchanged (checked
// here, so that the fuzzer also hunts for values the decoder accepts but cannot write back).
#include "../../samples/forms.hpp"
#include "../forms.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

// decode(text) reads the text straight into the form; decode(json) reads the parsed document.
// Whatever the parser accepts within the depth limit, both must judge alike.
template <class Form>
void same_as_parsed(std::string_view text, const elicit::response<Form>& from_text) {
  if (!from_text.violations().empty() && from_text.violations()[0].pointer.empty() &&
      (from_text.violations()[0].keyword == "json" || from_text.violations()[0].keyword == "maxDepth"))
    return;
  const nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
  if (parsed.is_discarded()) std::abort();  // the text reader accepted what the parser refuses
  const elicit::response<Form> from_json = elicit::decode<Form>(parsed);
  if (from_text.action() != from_json.action() || from_text.violations().items() != from_json.violations().items() ||
      from_text.accepted() != from_json.accepted())
    std::abort();
  if (from_text.accepted() && elicit::to_content(*from_text) != elicit::to_content(*from_json)) std::abort();
}

template <class Form>
void exercise(std::string_view text) {
  const elicit::response<Form> r = elicit::decode<Form>(text);
  same_as_parsed(text, r);
  // Accepted exactly when the user accepted and nothing was violated.
  if (r.accepted() != (r.action() == elicit::action::accept && r.violations().empty())) std::abort();
  if (!r.accepted()) return;
  const nlohmann::json content = nlohmann::json::parse(elicit::to_content(*r).dump());
  const elicit::decoded<Form> again = elicit::decode_content<Form>(content);
  if (!again || elicit::to_content(*again) != elicit::to_content(*r)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  exercise<forms::Plain>(text);
  exercise<forms::Narrow>(text);
  exercise<forms::Optionals>(text);
  exercise<forms::Annotated>(text);
  exercise<forms::Choices>(text);
  exercise<shipping::DeliveryAddress>(text);
  exercise<shipping::ShipmentOptions>(text);
  exercise<shipping::Contact>(text);
  return 0;
}
