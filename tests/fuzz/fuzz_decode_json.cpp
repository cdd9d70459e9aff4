// libFuzzer target: decode<T>(json) and decode_content<T>(json) on whatever the JSON parser
// makes of the input, under AddressSanitizer and UndefinedBehaviorSanitizer. The parse is
// nlohmann's own (it does not recurse), so values nest as deep as the input allows; elicit must
// refuse those beyond its limits before it copies or walks them.
//
// For every form and both option sets: never a crash, a hang or a sanitizer report; a value
// deeper than max_depth is refused (maxDepth or maxBytes), and nothing within the limits is
// refused for them; at most max_violations violations and one "maxViolations" summary; the
// error carrying them prints as JSON; accepted exactly when accept without violations; an
// accepted answer survives to_content; and decode(result) judges its content as
// decode_content(content) does.
#include "fuzz_support.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

using fuzz::check;
using fuzz::fail;

template <class Form>
void exercise(const fuzz::input& in, const elicit::decode_options& options) {
  const nlohmann::json& value = in.value;
  const elicit::response<Form> r = elicit::decode<Form>(value, options);
  const bool r_refused = fuzz::refused(r.violations());
  fuzz::check_refusal(in, value, r_refused,
                      r_refused ? std::optional<elicit::violation_view>(r.violations()[0]) : std::nullopt,
                      options.limits());
  if (r_refused) check(r.outcome() == elicit::outcome::invalid && !r.accepted(), "a refused result is not invalid");
  fuzz::check_violations(r.violations(), options);
  check(r.accepted() == (r.action() == elicit::action::accept && r.violations().empty()),
        "accepted is not accept without violations", in.text);
  if (r.accepted()) fuzz::check_round_trip(*r);

  // The whole value read as content.
  const elicit::decoded<Form> whole = elicit::decode_content<Form>(value, options);
  const bool whole_refused = fuzz::refused(whole.violations());
  fuzz::check_refusal(in, value, whole_refused,
                      whole_refused ? std::optional<elicit::violation_view>(whole.violations()[0]) : std::nullopt,
                      options.limits());
  fuzz::check_violations(whole.violations(), options);
  check(whole.has_value() == whole.violations().empty(), "decode_content has both a value and violations, or neither");
  if (whole) fuzz::check_round_trip(*whole);

  // The result's content read alone: judged as decode judged it, when decode read it.
  const nlohmann::json* c = in.content;
  if (c == nullptr) return;
  const elicit::decoded<Form> content = elicit::decode_content<Form>(*c, options);
  const bool content_refused = fuzz::refused(content.violations());
  fuzz::check_refusal(in, *c, content_refused,
                      content_refused ? std::optional<elicit::violation_view>(content.violations()[0]) : std::nullopt,
                      options.limits());
  fuzz::check_violations(content.violations(), options);
  if (content) fuzz::check_round_trip(*content);
  if (r_refused) return;
  check(!content_refused, "the content is refused where its result was not", in.text);
  const auto a = value.find("action");
  if (a == value.end() || !a->is_string() || a->get_ref<const std::string&>() != "accept") return;
  check(r.violations().items() == content.violations().items(),
        "decode(result) and decode_content(content) list different violations", in.text);
  check(r.accepted() == content.has_value(), "decode(result) and decode_content(content) disagree", in.text);
  if (r.accepted()) check(elicit::to_content(*r) == elicit::to_content(*content), "two readings of one content differ");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const nlohmann::json value = nlohmann::json::parse(text, nullptr, false);  // discarded when not JSON
  const fuzz::input in{text, value};
  for (const elicit::decode_options& options : fuzz::option_sets)
    fuzz::for_each_form([&]<class Form>() { exercise<Form>(in, options); });
  return 0;
}
