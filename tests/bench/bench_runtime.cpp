// Run-time benchmarks: getting a form's requestedSchema, and decoding an answer, with elicit
// and with the hand-written baselines of hand_written.hpp (nlohmann::json) and
// hand_simdjson.hpp (simdjson On-Demand). Names read
//   schema/<form>/<elicit_view | elicit_string | elicit_json | hand_json | hand_text>
//   decode/<form>/<valid | invalid | all_invalid>/<text | json>/<elicit | hand>
//   decode/<form>/<valid | invalid | all_invalid>/text/simdjson
//   parse/<form>/<valid | invalid | all_invalid>  (nlohmann::json::parse of the same text, alone)
// Every decode and parse benchmark reports the counter `allocs`: calls of operator new per
// answer (this file replaces the global operator new to count them).
// report_runtime.py turns the JSON output into the tables of docs/performance.md.
//
//   bench_runtime --export FILE   writes the decode benchmarks' forms, schemas (the text of
//                                 elicit::schema_json<Form>) and answers as JSON, for the
//                                 Node + Ajv baseline (bench_ajv.mjs), and runs nothing
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

// An answer and how many rules it breaks (0: a valid answer). Every form has a valid and an
// invalid answer; Order also has one that breaks the rule of every field, where the cost of
// the messages shows most.
struct answer {
  const char* kind;  // "valid", "invalid", "all_invalid": the benchmark's name says which
  std::string_view text;
  std::size_t rules;
};
using answers = std::span<const answer>;

constexpr answer contact_answers[] = {
    {"valid",
     R"({"action":"accept","content":{"name":"Ada Lovelace","email":"ada@example.com","not_before":"2025-03-14"}})", 0},
    {"invalid", R"({"action":"accept","content":{"name":"","email":"ada.example.com","not_before":"2025-02-30"}})", 3}};

constexpr answer shipment_answers[] = {
    {"valid",
     R"({"action":"accept","content":{"country_code":"FR","insured_value_gbp":250,"signature_required":true}})", 0},
    {"invalid",
     R"({"action":"accept","content":{"country_code":"US","insured_value_gbp":9000,"signature_required":"yes"}})", 3}};

constexpr answer order_answers[] = {
    {"valid",
     R"({"action":"accept","content":{"newsletter":false,"quantity":3,"account_id":1234567890123,)"
     R"("weight_kg":2.5,"name":"Zoë Müller","email":"zoe@example.com","website":"https://example.com/shop",)"
     R"("ship_on":"2025-03-14","deliver_after":"2025-03-15T09:30:00+01:00","speed":"express",)"
     R"("ribbon":"#00FF00","extras":["gift_wrap","fragile"]}})",
     0},
    {"invalid",
     R"({"action":"accept","content":{"newsletter":false,"quantity":0,"account_id":1234567890123,)"
     R"("weight_kg":"heavy","name":"Zoë Müller","email":"zoe at example.com","website":"https://example.com/shop",)"
     R"("ship_on":"2025-02-30","deliver_after":"2025-03-15T09:30:00+01:00","speed":"express",)"
     R"("ribbon":"#123456","extras":["gift_wrap","fragile"]}})",
     5},
    {"all_invalid",
     R"({"action":"accept","content":{"newsletter":"no","quantity":0,"account_id":0,)"
     R"("weight_kg":"heavy","name":"","email":"zoe at example.com","website":"example",)"
     R"("ship_on":"2025-02-30","deliver_after":"tomorrow","speed":"warp",)"
     R"("ribbon":"#123456","extras":"all"}})",
     12}};

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
