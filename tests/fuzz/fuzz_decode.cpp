// libFuzzer target: decode<T>(text) for the test forms, under AddressSanitizer and
// UndefinedBehaviorSanitizer. Any input must give a response, never a crash, a hang or a
// sanitizer report; decode(text) must judge it as decode(json) judges the parsed document;
// and an accepted answer must survive the round trip to_content -> decode unchanged (checked
// here, so that the fuzzer also hunts for values the decoder accepts but cannot write back).
#include "../../samples/forms.hpp"
#include "../unit/support/forms.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

// decode(text) reads the text straight into the form; decode(json) reads the parsed document.
// Whatever the parser accepts within the depth limit, both must judge alike.
// How deeply [ and { nest in the text, outside strings.
std::size_t nesting(std::string_view text) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

template <class Form>
void same_as_parsed(std::string_view text, const elicit::response<Form>& from_text) {
  const nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
  const bool unreadable =
      !from_text.violations().empty() && from_text.violations()[0].pointer.empty() &&
      (from_text.violations()[0].keyword == "json" || from_text.violations()[0].keyword == "maxDepth");
  if (unreadable) {
    // Refused as text: the parser must refuse it too, or it must really nest too deep. The
    // parser alone stops at a NUL byte and reads what came before it; decode(text) refuses it.
    if (from_text.violations()[0].keyword == "json" && !parsed.is_discarded() &&
        text.find('\0') == std::string_view::npos)
      std::abort();
    if (from_text.violations()[0].keyword == "maxDepth" && nesting(text) <= elicit::decode_options{}.max_depth)
      std::abort();
    return;
  }
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
