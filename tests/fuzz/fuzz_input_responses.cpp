// libFuzzer target: input_responses{params}.get<T>(key), the retry of a multi round-trip
// request, on whatever the JSON parser makes of the input (nlohmann's parse does not recurse,
// so the params nest as deep as the input allows), under AddressSanitizer and
// UndefinedBehaviorSanitizer.
//
// Never a crash, a hang or a sanitizer report. Params beyond the limits (max_depth + 2 levels,
// max_bytes) are refused whole: refused() says why, and every get() is invalid with that one
// violation, keyword maxDepth or maxBytes; params within them are never refused. Otherwise a
// key with no answer is missing and one with an answer is not; violations are bounded and print
// as JSON; an accepted answer survives to_content; requestState is read as given.
#include "fuzz_support.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

using fuzz::check;
using fuzz::fail;

template <class Form>
void get(const fuzz::input& in, const elicit::input_responses& answers, std::string_view key,
         const elicit::decode_options& options) {
  const elicit::response<Form> r = answers.get<Form>(key);
  if (const auto& why = answers.refused()) {
    check(r.outcome() == elicit::outcome::invalid && !r.accepted(), "a refused answer is not invalid", in.text);
    check(r.violations().size() == 1 && fuzz::is_limit(r.violations()[0]) && r.violations()[0].keyword == why->keyword,
          "a refused answer does not say maxDepth or maxBytes", in.text);
    return;
  }
  check((r.outcome() == elicit::outcome::missing) == !answers.has(key), "missing is not the same as no answer", key);
  fuzz::check_violations(r.violations(), options, key);
  check(r.accepted() == (r.action() == elicit::action::accept && r.violations().empty()),
        "accepted is not accept without violations", in.text);
  if (r.accepted()) fuzz::check_round_trip(*r);
}

// The keys the forms are asked under, as a server would ask them.
template <class F>
void for_each_question(F&& f) {
  f.template operator()<shipping::DeliveryAddress>("address");
  f.template operator()<shipping::ShipmentOptions>("options");
  f.template operator()<shipping::Contact>("contact");
  f.template operator()<forms::Plain>("plain");
  f.template operator()<forms::Choices>("choices");
  f.template operator()<forms::Narrow>("narrow");
  f.template operator()<forms::Optionals>("optionals");
  f.template operator()<forms::Annotated>("annotated");
  f.template operator()<forms::Plain>("a/b~c");  // needs escaping in a pointer
}

void exercise(const fuzz::input& in, const elicit::decode_options& options) {
  const nlohmann::json& params = in.value;
  const elicit::input_responses answers(params, options);
  const elicit::json_limits limits{options.max_bytes, options.max_depth + 2};

  if (!params.is_object()) {
    check(!answers.refused() && !answers.is_retry(), "params that are no object are read", in.text);
  } else {
    const auto& why = answers.refused();
    fuzz::check_refusal(in, params, why.has_value(), why ? std::optional<elicit::violation_view>(*why) : std::nullopt,
                        limits);
    if (why) check(!answers.is_retry() && !answers.request_state(), "refused params are read", in.text);
  }
  if (!answers.refused() && params.is_object()) {
    const auto s = params.find("requestState");
    if (s != params.end() && s->is_string())
      check(answers.request_state() == s->get_ref<const std::string&>(), "requestState is not read as given", in.text);
    else check(!answers.request_state(), "a requestState that is no string is read", in.text);
  }

  for_each_question([&]<class Form>(std::string_view key) { get<Form>(in, answers, key, options); });

  // The first few keys the client answered, each read as every form.
  std::vector<std::string_view> keys;
  if (params.is_object()) {
    if (const auto r = params.find("inputResponses"); r != params.end() && r->is_object())
      for (auto it = r->begin(); it != r->end() && keys.size() < 3; ++it) keys.push_back(it.key());
  }
  for (std::string_view key : keys) {
    if (!answers.refused()) check(answers.has(key), "an answer given is not there", key);
    fuzz::for_each_form([&]<class Form>() { get<Form>(in, answers, key, options); });
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const nlohmann::json params = nlohmann::json::parse(text, nullptr, false);  // discarded when not JSON
  const fuzz::input in{text, params};
  for (const elicit::decode_options& options : fuzz::option_sets) exercise(in, options);
  return 0;
}
