// Run-time benchmarks: getting a form's requestedSchema, and decoding an answer, with elicit
// and with the hand-written baselines of hand_written.hpp (nlohmann::json) and
// hand_simdjson.hpp (simdjson On-Demand). Names read
//   schema/<form>/<elicit_view | elicit_string | elicit_json | hand_json | hand_text>
//   decode/<form>/<valid | invalid | all_invalid>/<text | json>/<elicit | hand>
//   decode/<form>/<valid | invalid | all_invalid>/text/simdjson
//   parse/<form>/<valid | invalid | all_invalid>  (nlohmann::json::parse of the same text, alone)
//   choices/<options>/<offer | retitle | decode_valid | decode_wrong | all>  (run-time choices, issue 26)
//   choices/enum250/decode_wrong  (a compile-time enum of 250 options)
// Every decode and parse benchmark reports the counter `allocs`: calls of operator new per
// answer (this file replaces the global operator new to count them).
// report_runtime.py turns the JSON output into the tables of docs/internals/performance.md.
//
//   bench_runtime --export FILE   writes the decode benchmarks' forms, schemas (the text of
//                                 elicit::schema_json<Form>) and answers as JSON, for the
//                                 Node + Ajv baseline (bench_ajv.mjs), and runs nothing
#include "bench_answers.hpp"
#include "bench_forms.hpp"
#include "forms.hpp"  // samples/forms.hpp: shipping::DeliveryAddress, ShipmentOptions, Contact
#include "hand_simdjson.hpp"
#include "hand_written.hpp"

#include <benchmark/benchmark.h>
#include <elicit/elicit.hpp>
#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// ---- Counting allocations ------------------------------------------------------------------
// Every global operator new of the program, counted. The benchmarks run on one thread, so the
// counter is a plain integer: an atomic would add a locked instruction to every allocation of
// every measured decoder.

namespace {
std::uint64_t allocation_count = 0;

void* counted_new(std::size_t size) {
  ++allocation_count;
  if (size == 0) size = 1;
  if (void* p = std::malloc(size)) return p;
  throw std::bad_alloc();
}

void* counted_new_aligned(std::size_t size, std::align_val_t align) {
  ++allocation_count;
  const std::size_t a = static_cast<std::size_t>(align);
  size = (size + a - 1) / a * a;  // aligned_alloc wants a multiple of the alignment
  if (size == 0) size = a;
  if (void* p = std::aligned_alloc(a, size)) return p;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t size) { return counted_new(size); }
void* operator new[](std::size_t size) { return counted_new(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return counted_new(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return counted_new(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new(std::size_t size, std::align_val_t align) { return counted_new_aligned(size, align); }
void* operator new[](std::size_t size, std::align_val_t align) { return counted_new_aligned(size, align); }
void* operator new(std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  try {
    return counted_new_aligned(size, align);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  try {
    return counted_new_aligned(size, align);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

namespace {

// ---- Answers -------------------------------------------------------------------------------

using bench::answer;
using bench::contact_answers;
using bench::order_answers;
using bench::shipment_answers;
using answers = std::span<const answer>;

// ---- Agreement: the baseline must do the same job, or the comparison means nothing ---------

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "bench_runtime: %s\n", what.c_str());
  std::exit(1);
}

template <class Form, class Value>
void check_agreement(const char* form, answers list, hand::result<Value> (*hand_decode)(const nlohmann::json&)) {
  for (const answer& a : list) {
    const auto e = elicit::decode<Form>(a.text);
    const auto h = hand::decode_text<Value>(a.text, hand_decode);
    const std::string which = std::string(form) + "'s " + a.kind + " answer";
    if (a.rules == 0 && (!e.accepted() || !h.value)) fail(which + " is not accepted by both");
    if (a.rules != 0 && (e.accepted() || h.value)) fail(which + " is accepted");
    if (e.violations().size() != a.rules || h.errors.size() != a.rules)
      fail(which + " breaks " + std::to_string(e.violations().size()) + " rules for elicit and " +
           std::to_string(h.errors.size()) + " for the baseline, not " + std::to_string(a.rules));
  }
}

// The simdjson baseline against the nlohmann one: the same verdicts, the same number of broken
// rules and the same values, on the bench answers and on variations of the envelope (the
// content before the action, no content, other actions, no JSON...).
template <class Value>
void check_simdjson(const char* form, answers list, hand::result<Value> (*hand_decode)(const nlohmann::json&),
                    hand::result<Value> (*simd_decode)(hand_simd::od::parser&, simdjson::padded_string_view)) {
  constexpr std::string_view head = R"({"action":"accept","content":)";
  std::vector<std::string> cases;
  for (const answer& a : list) {
    const std::string_view answer = a.text;
    cases.emplace_back(answer);
    if (!answer.starts_with(head)) fail(std::string(form) + ": an answer does not start with " + std::string(head));
    const std::string_view content = answer.substr(head.size(), answer.size() - head.size() - 1);
    cases.push_back(R"({"content":)" + std::string(content) + R"(,"action":"accept"})");
    cases.push_back(R"({"content":)" + std::string(content) + R"(,"action":"decline"})");
    cases.push_back(R"({"action":"cancel","content":)" + std::string(content) + "}");
    cases.push_back(std::string(answer) + " x");
    cases.push_back(std::string(answer.substr(0, answer.size() - 1)));
  }
  for (const char* other : {R"({"action":"accept"})", R"({"action":"accept","content":{}})",
                            R"({"action":"accept","content":[]})", R"({"action":"decline"})", R"({"action":5})",
                            R"({"action":"maybe","content":{}})", R"({"content":{}})", "[]", "42", "not json", ""})
    cases.emplace_back(other);
  hand_simd::od::parser parser;
  for (const std::string& text : cases) {
    const simdjson::padded_string padded(text);
    const auto h = hand::decode_text<Value>(text, hand_decode);
    const auto s = simd_decode(parser, padded);
    if (h.what != s.what || h.value != s.value || h.errors.size() != s.errors.size())
      fail(std::string(form) + ": the simdjson and nlohmann baselines differ on " + text + " (" +
           std::to_string(h.errors.size()) + " and " + std::to_string(s.errors.size()) + " broken rules)");
  }
  for (const answer& a : list) {
    const auto s = simd_decode(parser, simdjson::padded_string(a.text));
    if (a.rules == 0 && !s.value) fail(std::string(form) + ": the simdjson baseline refuses the valid answer");
    if (s.errors.size() != a.rules)
      fail(std::string(form) + ": the simdjson baseline does not find " + std::to_string(a.rules) +
           " broken rules in the " + a.kind + " answer");
  }
}

template <class Form>
void check_schema(const char* form, const nlohmann::json& hand_built) {
  if (nlohmann::json::parse(elicit::schema_json<Form>) != hand_built)
    fail(std::string(form) + ": the hand-built schema differs from elicit's");
}

// ---- Export for the Node + Ajv baseline -----------------------------------------------------

template <class Form>
nlohmann::ordered_json exported(const char* form, answers list) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const answer& a : list) out.push_back({{"kind", a.kind}, {"text", std::string(a.text)}, {"rules", a.rules}});
  return {{"name", form}, {"schema", std::string(elicit::schema_json<Form>)}, {"answers", out}};
}

// ---- Benchmarks ----------------------------------------------------------------------------

// Runs `decode` in the benchmark loop and reports the allocations per call as `allocs`. One
// call before counting: what is allocated once and reused (simdjson's parser buffers) is not a
// cost per answer.
template <class Decode>
void measure(benchmark::State& state, Decode decode) {
  benchmark::DoNotOptimize(decode());
  const std::uint64_t before = allocation_count;
  for (auto _ : state) {
    auto r = decode();
    benchmark::DoNotOptimize(r);
  }
  state.counters["allocs"] =
      benchmark::Counter(static_cast<double>(allocation_count - before), benchmark::Counter::kAvgIterations);
}

template <class Form>
void register_schema(const std::string& form, nlohmann::json (*hand_built)()) {
  benchmark::RegisterBenchmark(("schema/" + form + "/elicit_view").c_str(), [](benchmark::State& state) {
    for (auto _ : state) {
      std::string_view text = elicit::schema_json<Form>;
      benchmark::DoNotOptimize(text);
    }
  });
  benchmark::RegisterBenchmark(("schema/" + form + "/elicit_string").c_str(), [](benchmark::State& state) {
    for (auto _ : state) {
      std::string text(elicit::schema_json<Form>);
      benchmark::DoNotOptimize(text);
    }
  });
  benchmark::RegisterBenchmark(("schema/" + form + "/elicit_json").c_str(), [](benchmark::State& state) {
    for (auto _ : state) {
      nlohmann::ordered_json schema = elicit::schema<Form>();
      benchmark::DoNotOptimize(schema);
    }
  });
  benchmark::RegisterBenchmark(("schema/" + form + "/hand_json").c_str(), [hand_built](benchmark::State& state) {
    for (auto _ : state) {
      nlohmann::json schema = hand_built();
      benchmark::DoNotOptimize(schema);
    }
  });
  benchmark::RegisterBenchmark(("schema/" + form + "/hand_text").c_str(), [hand_built](benchmark::State& state) {
    for (auto _ : state) {
      std::string text = hand_built().dump();
      benchmark::DoNotOptimize(text);
    }
  });
}

template <class Form, class Value>
void register_decode(const std::string& form, answers list, hand::result<Value> (*hand_decode)(const nlohmann::json&),
                     hand::result<Value> (*simd_decode)(hand_simd::od::parser&, simdjson::padded_string_view)) {
  for (const auto& [kind, answer, rules] : list) {
    const std::string prefix = "decode/" + form + "/" + kind + "/";
    benchmark::RegisterBenchmark((prefix + "text/elicit").c_str(), [answer](benchmark::State& state) {
      measure(state, [answer] { return elicit::decode<Form>(answer); });
    });
    benchmark::RegisterBenchmark((prefix + "text/hand").c_str(), [answer, hand_decode](benchmark::State& state) {
      measure(state, [answer, hand_decode] { return hand::decode_text<Value>(answer, hand_decode); });
    });
    // The parser and the padded copy of the text are made once and reused, as a server would
    // keep a parser per thread and read requests into a padded buffer.
    benchmark::RegisterBenchmark((prefix + "text/simdjson").c_str(), [answer, simd_decode](benchmark::State& state) {
      hand_simd::od::parser parser;
      const simdjson::padded_string padded(answer);
      measure(state, [&parser, &padded, simd_decode] { return simd_decode(parser, padded); });
    });
    const nlohmann::json parsed = nlohmann::json::parse(answer);
    benchmark::RegisterBenchmark((prefix + "json/elicit").c_str(), [parsed](benchmark::State& state) {
      measure(state, [&parsed] { return elicit::decode<Form>(parsed); });
    });
    benchmark::RegisterBenchmark((prefix + "json/hand").c_str(), [parsed, hand_decode](benchmark::State& state) {
      measure(state, [&parsed, hand_decode] { return hand_decode(parsed); });
    });
    benchmark::RegisterBenchmark(("parse/" + form + "/" + kind).c_str(), [answer](benchmark::State& state) {
      measure(state, [answer] { return nlohmann::json::parse(answer); });
    });
  }
}

// ---- Many run-time choices (issue 26) ---------------------------------------------------------
// A form whose options come from a table: offered, retitled and checked against a 1 MiB answer.
// The answer's picks are each looked up among the options, so that its cost shows whether a
// look-up grows with the option count.

struct ManyChoices {
  elicit::field<std::vector<elicit::choice>, elicit::title<"Labels">> labels;
  elicit::field<elicit::choice, elicit::title<"Owner">> owner;
};

std::vector<elicit::choice_option> many_offers(std::size_t n) {
  std::vector<elicit::choice_option> offers;
  offers.reserve(n);
  for (std::size_t i = 0; i < n; ++i) offers.emplace_back("label-" + std::to_string(i), "Label " + std::to_string(i));
  return offers;
}

// An answer of just under 1 MiB (decode_options' default max_bytes): picks spread over all the
// options, every one offered, or (`wrong`) none.
std::string many_picks(std::size_t options, bool wrong) {
  std::string text = R"({"action":"accept","content":{"owner":"label-1","labels":[)";
  for (std::size_t i = 0; text.size() < 1'040'000; i += 7919) {
    text += wrong ? "\"nolabel-" : "\"label-";
    text += std::to_string(i % options) + "\",";
  }
  text.back() = ']';
  return text + "}}";
}

elicit::form<ManyChoices> many_form(const std::vector<elicit::choice_option>& offers) {
  elicit::form<ManyChoices> f;
  f.choices(&ManyChoices::labels, offers).choices(&ManyChoices::owner, {"label-0", "label-1"});
  return f;
}

// 250 options, reflected (-127 to 122): a country list's size.
// clang-format off
enum class Enum250 : int {
  e000 = -127, e001, e002, e003, e004, e005, e006, e007, e008, e009, e010, e011, e012, e013, e014, e015,
  e016, e017, e018, e019, e020, e021, e022, e023, e024, e025, e026, e027, e028, e029, e030, e031, e032,
  e033, e034, e035, e036, e037, e038, e039, e040, e041, e042, e043, e044, e045, e046, e047, e048, e049,
  e050, e051, e052, e053, e054, e055, e056, e057, e058, e059, e060, e061, e062, e063, e064, e065, e066,
  e067, e068, e069, e070, e071, e072, e073, e074, e075, e076, e077, e078, e079, e080, e081, e082, e083,
  e084, e085, e086, e087, e088, e089, e090, e091, e092, e093, e094, e095, e096, e097, e098, e099, e100,
  e101, e102, e103, e104, e105, e106, e107, e108, e109, e110, e111, e112, e113, e114, e115, e116, e117,
  e118, e119, e120, e121, e122, e123, e124, e125, e126, e127, e128, e129, e130, e131, e132, e133, e134,
  e135, e136, e137, e138, e139, e140, e141, e142, e143, e144, e145, e146, e147, e148, e149, e150, e151,
  e152, e153, e154, e155, e156, e157, e158, e159, e160, e161, e162, e163, e164, e165, e166, e167, e168,
  e169, e170, e171, e172, e173, e174, e175, e176, e177, e178, e179, e180, e181, e182, e183, e184, e185,
  e186, e187, e188, e189, e190, e191, e192, e193, e194, e195, e196, e197, e198, e199, e200, e201, e202,
  e203, e204, e205, e206, e207, e208, e209, e210, e211, e212, e213, e214, e215, e216, e217, e218, e219,
  e220, e221, e222, e223, e224, e225, e226, e227, e228, e229, e230, e231, e232, e233, e234, e235, e236,
  e237, e238, e239, e240, e241, e242, e243, e244, e245, e246, e247, e248, e249
};
// clang-format on
struct Enum250Picks {
  std::vector<Enum250> picks;
};

void check_choices(const std::string& valid, const std::string& wrong, const elicit::form<ManyChoices>& f) {
  if (!f.decode(valid).accepted()) fail("choices: the valid answer of many picks is refused");
  const auto r = f.decode(wrong);
  // Refused, each wrong pick counted, the list full (by count or by its text bound) and summed up.
  if (r.accepted() || r.violations().total() < 100 || r.violations().size() > 101 || !r.violations().full())
    fail("choices: the answer of wrong picks is not refused");
  if (elicit::invalid_params_error(1, r.violations()).dump().size() >= 64 * 1024)
    fail("choices: the -32602 error of wrong picks is 64 KiB or more");
}

void register_choices(std::size_t n) {
  const std::string prefix = "choices/" + std::to_string(n) + "/";
  auto offers = std::make_shared<const std::vector<elicit::choice_option>>(many_offers(n));
  auto valid = std::make_shared<const std::string>(many_picks(n, false));
  auto wrong = std::make_shared<const std::string>(many_picks(n, true));
  auto f = std::make_shared<const elicit::form<ManyChoices>>(many_form(*offers));
  check_choices(*valid, *wrong, *f);
  // choices() of the options, given by value: their copy is made outside the timing.
  benchmark::RegisterBenchmark((prefix + "offer").c_str(), [offers](benchmark::State& state) {
    for (auto _ : state) {
      state.PauseTiming();
      std::vector<elicit::choice_option> copy = *offers;
      elicit::form<ManyChoices> g;
      state.ResumeTiming();
      g.choices(&ManyChoices::labels, std::move(copy));
      benchmark::DoNotOptimize(g);
    }
  })->Unit(benchmark::kMillisecond);
  // Every other refinement of the field that holds the options: a title, items, and a default.
  benchmark::RegisterBenchmark((prefix + "retitle").c_str(), [f](benchmark::State& state) {
    elicit::form<ManyChoices> g = *f;
    for (auto _ : state) {
      g.title(&ManyChoices::labels, "Labels (pick any)")
          .items(&ManyChoices::labels, 0, 100'000)
          .default_value(&ManyChoices::labels, std::vector<elicit::choice>{{"label-99"}});
      benchmark::DoNotOptimize(g);
    }
  })->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark((prefix + "decode_valid").c_str(), [f, valid](benchmark::State& state) {
    measure(state, [&] { return f->decode(*valid); });
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark((prefix + "decode_wrong").c_str(), [f, wrong](benchmark::State& state) {
    measure(state, [&] { return f->decode(*wrong); });
  })->Unit(benchmark::kMillisecond);
  // The goal of issue 26: offered, retitled and checked against a 1 MiB answer, "well under a
  // second" for 100,000 options.
  benchmark::RegisterBenchmark((prefix + "all").c_str(), [offers, valid](benchmark::State& state) {
    for (auto _ : state) {
      state.PauseTiming();
      std::vector<elicit::choice_option> copy = *offers;
      state.ResumeTiming();
      elicit::form<ManyChoices> g;
      g.choices(&ManyChoices::labels, std::move(copy)).choices(&ManyChoices::owner, {"label-0", "label-1"});
      g.title(&ManyChoices::labels, "Labels (pick any)");
      auto r = g.decode(*valid);
      benchmark::DoNotOptimize(r);
    }
  })->Unit(benchmark::kMillisecond);
}

void register_enum250() {
  std::string text = R"({"action":"accept","content":{"picks":[)";
  while (text.size() < 1'040'000) text += R"("zz",)";
  text.back() = ']';
  text += "}}";
  auto answer = std::make_shared<const std::string>(std::move(text));
  benchmark::RegisterBenchmark("choices/enum250/decode_wrong", [answer](benchmark::State& state) {
    measure(state, [&] { return elicit::decode<Enum250Picks>(*answer); });
  })->Unit(benchmark::kMillisecond);
}

#define ELICIT_BENCH_STR2(x) #x
#define ELICIT_BENCH_STR(x) ELICIT_BENCH_STR2(x)

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string_view(argv[1]) == "--export") {
    const nlohmann::ordered_json out{{"forms",
                                      {exported<shipping::Contact>("Contact", contact_answers),
                                       exported<shipping::ShipmentOptions>("ShipmentOptions", shipment_answers),
                                       exported<bench::Order>("Order", order_answers)}}};
    std::ofstream file(argv[2]);
    file << out.dump(2) << '\n';
    if (!file) fail(std::string("cannot write ") + argv[2]);
    return 0;
  }

  check_schema<shipping::DeliveryAddress>("DeliveryAddress", hand::delivery_address_schema());
  check_schema<shipping::ShipmentOptions>("ShipmentOptions", hand::shipment_options_schema());
  check_schema<bench::Order>("Order", hand::order_schema());
  check_agreement<shipping::Contact>("Contact", contact_answers, hand::decode_contact);
  check_agreement<shipping::ShipmentOptions>("ShipmentOptions", shipment_answers, hand::decode_shipment_options);
  check_agreement<bench::Order>("Order", order_answers, hand::decode_order);
  check_simdjson("Contact", contact_answers, hand::decode_contact, hand_simd::decode_contact);
  check_simdjson("ShipmentOptions", shipment_answers, hand::decode_shipment_options,
                 hand_simd::decode_shipment_options);
  check_simdjson("Order", order_answers, hand::decode_order, hand_simd::decode_order);

  register_schema<shipping::DeliveryAddress>("DeliveryAddress", hand::delivery_address_schema);
  register_schema<shipping::ShipmentOptions>("ShipmentOptions", hand::shipment_options_schema);
  register_schema<bench::Order>("Order", hand::order_schema);
  register_decode<shipping::Contact>("Contact", contact_answers, hand::decode_contact, hand_simd::decode_contact);
  register_decode<shipping::ShipmentOptions>("ShipmentOptions", shipment_answers, hand::decode_shipment_options,
                                             hand_simd::decode_shipment_options);
  register_decode<bench::Order>("Order", order_answers, hand::decode_order, hand_simd::decode_order);
  for (const std::size_t n : {std::size_t{1'000}, std::size_t{10'000}, std::size_t{100'000}}) register_choices(n);
  register_enum250();

  // How the simdjson baseline runs: stage 1 (finding the structure) through the kernel the
  // library picks at run time, the On-Demand reading through the one this file was compiled for.
  benchmark::AddCustomContext("simdjson_version", ELICIT_BENCH_STR(SIMDJSON_VERSION));
  benchmark::AddCustomContext("simdjson_stage1_kernel", std::string(simdjson::get_active_implementation()->name()));
  benchmark::AddCustomContext("simdjson_ondemand_kernel", ELICIT_BENCH_STR(SIMDJSON_BUILTIN_IMPLEMENTATION));
#ifdef ELICIT_BENCH_ARCH
  benchmark::AddCustomContext("march", ELICIT_BENCH_ARCH);
#else
  benchmark::AddCustomContext("march", "(compiler default)");
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
