// Run-time benchmarks: getting a form's requestedSchema, and decoding an answer, with elicit
// and with the hand-written baseline of hand_written.hpp. Names read
//   schema/<form>/<elicit_view | elicit_string | elicit_json | hand_json | hand_text>
//   decode/<form>/<valid | invalid>/<text | json>/<elicit | hand>
//   parse/<form>/<valid | invalid>          (nlohmann::json::parse of the same text, alone)
// report_runtime.py turns the JSON output into the tables of docs/performance.md.
#include "bench_forms.hpp"
#include "forms.hpp"  // samples/forms.hpp: shipping::DeliveryAddress, ShipmentOptions, Contact
#include "hand_written.hpp"

#include <benchmark/benchmark.h>
#include <elicit/elicit.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

// ---- Answers -------------------------------------------------------------------------------

struct answers {
  std::string_view valid;
  std::string_view invalid;
  std::size_t invalid_rules;  // how many rules the invalid answer breaks
};

constexpr answers contact_answers{
    R"({"action":"accept","content":{"name":"Ada Lovelace","email":"ada@example.com","not_before":"2025-03-14"}})",
    R"({"action":"accept","content":{"name":"","email":"ada.example.com","not_before":"2025-02-30"}})", 3};

constexpr answers shipment_answers{
    R"({"action":"accept","content":{"country_code":"FR","insured_value_gbp":250,"signature_required":true}})",
    R"({"action":"accept","content":{"country_code":"US","insured_value_gbp":9000,"signature_required":"yes"}})", 3};

constexpr answers order_answers{
    R"({"action":"accept","content":{"newsletter":false,"quantity":3,"account_id":1234567890123,)"
    R"("weight_kg":2.5,"name":"Zoë Müller","email":"zoe@example.com","website":"https://example.com/shop",)"
    R"("ship_on":"2025-03-14","deliver_after":"2025-03-15T09:30:00+01:00","speed":"express",)"
    R"("ribbon":"#00FF00","extras":["gift_wrap","fragile"]}})",
    R"({"action":"accept","content":{"newsletter":false,"quantity":0,"account_id":1234567890123,)"
    R"("weight_kg":"heavy","name":"Zoë Müller","email":"zoe at example.com","website":"https://example.com/shop",)"
    R"("ship_on":"2025-02-30","deliver_after":"2025-03-15T09:30:00+01:00","speed":"express",)"
    R"("ribbon":"#123456","extras":["gift_wrap","fragile"]}})",
    5};

// ---- Agreement: the baseline must do the same job, or the comparison means nothing ---------

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "bench_runtime: %s\n", what.c_str());
  std::exit(1);
}

template <class Form, class Value>
void check_agreement(const char* form, const answers& a, hand::result<Value> (*hand_decode)(const nlohmann::json&)) {
  const auto ev = elicit::decode<Form>(a.valid);
  const auto hv = hand::decode_text<Value>(a.valid, hand_decode);
  if (!ev.accepted() || !hv.value) fail(std::string(form) + ": the valid answer is not accepted by both");
  const auto ei = elicit::decode<Form>(a.invalid);
  const auto hi = hand::decode_text<Value>(a.invalid, hand_decode);
  if (ei.accepted() || hi.value) fail(std::string(form) + ": the invalid answer is accepted");
  if (ei.violations().size() != a.invalid_rules || hi.errors.size() != a.invalid_rules)
    fail(std::string(form) + ": the invalid answer breaks " + std::to_string(ei.violations().size()) +
         " rules for elicit and " + std::to_string(hi.errors.size()) + " for the baseline, not " +
         std::to_string(a.invalid_rules));
}

template <class Form>
void check_schema(const char* form, const nlohmann::json& hand_built) {
  if (nlohmann::json::parse(elicit::schema_json<Form>) != hand_built)
    fail(std::string(form) + ": the hand-built schema differs from elicit's");
}

// ---- Benchmarks ----------------------------------------------------------------------------

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
void register_decode(const std::string& form, const answers& a,
                     hand::result<Value> (*hand_decode)(const nlohmann::json&)) {
  for (const auto& [kind, text] : {std::pair{"valid", a.valid}, std::pair{"invalid", a.invalid}}) {
    const std::string prefix = "decode/" + form + "/" + kind + "/";
    const std::string_view answer = text;
    benchmark::RegisterBenchmark((prefix + "text/elicit").c_str(), [answer](benchmark::State& state) {
      for (auto _ : state) {
        auto r = elicit::decode<Form>(answer);
        benchmark::DoNotOptimize(r);
      }
    });
    benchmark::RegisterBenchmark((prefix + "text/hand").c_str(), [answer, hand_decode](benchmark::State& state) {
      for (auto _ : state) {
        auto r = hand::decode_text<Value>(answer, hand_decode);
        benchmark::DoNotOptimize(r);
      }
    });
    const nlohmann::json parsed = nlohmann::json::parse(answer);
    benchmark::RegisterBenchmark((prefix + "json/elicit").c_str(), [parsed](benchmark::State& state) {
      for (auto _ : state) {
        auto r = elicit::decode<Form>(parsed);
        benchmark::DoNotOptimize(r);
      }
    });
    benchmark::RegisterBenchmark((prefix + "json/hand").c_str(), [parsed, hand_decode](benchmark::State& state) {
      for (auto _ : state) {
        auto r = hand_decode(parsed);
        benchmark::DoNotOptimize(r);
      }
    });
    benchmark::RegisterBenchmark(("parse/" + form + "/" + kind).c_str(), [answer](benchmark::State& state) {
      for (auto _ : state) {
        nlohmann::json j = nlohmann::json::parse(answer);
        benchmark::DoNotOptimize(j);
      }
    });
  }
}

}  // namespace

int main(int argc, char** argv) {
  check_schema<shipping::DeliveryAddress>("DeliveryAddress", hand::delivery_address_schema());
  check_schema<shipping::ShipmentOptions>("ShipmentOptions", hand::shipment_options_schema());
  check_schema<bench::Order>("Order", hand::order_schema());
  check_agreement<shipping::Contact>("Contact", contact_answers, hand::decode_contact);
  check_agreement<shipping::ShipmentOptions>("ShipmentOptions", shipment_answers, hand::decode_shipment_options);
  check_agreement<bench::Order>("Order", order_answers, hand::decode_order);

  register_schema<shipping::DeliveryAddress>("DeliveryAddress", hand::delivery_address_schema);
  register_schema<shipping::ShipmentOptions>("ShipmentOptions", hand::shipment_options_schema);
  register_schema<bench::Order>("Order", hand::order_schema);
  register_decode<shipping::Contact>("Contact", contact_answers, hand::decode_contact);
  register_decode<shipping::ShipmentOptions>("ShipmentOptions", shipment_answers, hand::decode_shipment_options);
  register_decode<bench::Order>("Order", order_answers, hand::decode_order);

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
