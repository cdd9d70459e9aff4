// What bench_runtime measures, in one function that callgrind counts alone: instruction counts
// do not change with the machine's load, where times do (docs/performance.md).
//
//   bench_count choices N REPS            form<ManyChoices>.choices() of N options, as
//                                         choices/N/offer: the options copied outside the count
//   bench_count decode ANSWER text|json REPS
//                                         decode<Form> of one of bench_runtime's answers (e.g.
//                                         shipment_invalid), from its text or parsed
//   bench_count print ANSWER text|json    the violations that decode gives, one a line, to
//                                         check that a change to their writing keeps every byte
//
//   valgrind --tool=callgrind '--toggle-collect=measured*' bench_count choices 100000 3
//
// One call is made before the counted ones (what is built at a form's first answer is not a cost
// per answer); the counted function is `measured`, so Collected / REPS is the cost of one call.
#include "bench_forms.hpp"
#include "forms.hpp"  // samples/forms.hpp: shipping::ShipmentOptions, Contact

#include <elicit/elicit.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct ManyChoices {  // as bench_runtime's
  elicit::field<std::vector<elicit::choice>, elicit::title<"Labels">> labels;
  elicit::field<elicit::choice, elicit::title<"Owner">> owner;
};

// bench_runtime's answers, by name.
struct answer {
  std::string_view name;
  std::string_view text;
  int form;  // 0: Contact, 1: ShipmentOptions, 2: Order
};
constexpr answer answers[] = {
    {"contact_valid",
     R"({"action":"accept","content":{"name":"Ada Lovelace","email":"ada@example.com","not_before":"2025-03-14"}})", 0},
    {"contact_invalid",
     R"({"action":"accept","content":{"name":"","email":"ada.example.com","not_before":"2025-02-30"}})", 0},
    {"shipment_valid",
     R"({"action":"accept","content":{"country_code":"FR","insured_value_gbp":250,"signature_required":true}})", 1},
    {"shipment_invalid",
     R"({"action":"accept","content":{"country_code":"US","insured_value_gbp":9000,"signature_required":"yes"}})", 1},
    {"order_valid",
     R"({"action":"accept","content":{"newsletter":false,"quantity":3,"account_id":1234567890123,)"
     R"("weight_kg":2.5,"name":"Zoë Müller","email":"zoe@example.com","website":"https://example.com/shop",)"
     R"("ship_on":"2025-03-14","deliver_after":"2025-03-15T09:30:00+01:00","speed":"express",)"
     R"("ribbon":"#00FF00","extras":["gift_wrap","fragile"]}})",
     2},
    {"order_invalid",
     R"({"action":"accept","content":{"newsletter":false,"quantity":0,"account_id":1234567890123,)"
     R"("weight_kg":"heavy","name":"Zoë Müller","email":"zoe at example.com","website":"https://example.com/shop",)"
     R"("ship_on":"2025-02-30","deliver_after":"2025-03-15T09:30:00+01:00","speed":"express",)"
     R"("ribbon":"#123456","extras":["gift_wrap","fragile"]}})",
     2},
    {"order_all_invalid",
     R"({"action":"accept","content":{"newsletter":"no","quantity":0,"account_id":0,)"
     R"("weight_kg":"heavy","name":"","email":"zoe at example.com","website":"example",)"
     R"("ship_on":"2025-02-30","deliver_after":"tomorrow","speed":"warp",)"
     R"("ribbon":"#123456","extras":"all"}})",
     2}};

volatile unsigned calls = 0;  // keeps `measured` a function of its own (not folded into `warm_up`)

// A fresh form given the options, then destroyed with them: as choices/N/offer times it.
void offer(std::vector<elicit::choice_option>& options) {
  elicit::form<ManyChoices> g;
  g.choices(&ManyChoices::labels, std::move(options));
  asm volatile("" : : "r"(&g) : "memory");
}

template <class In>
std::size_t decode(int form, const In& in) {
  const auto one = [&]<class Form>(Form*) {
    auto r = elicit::decode<Form>(in);
    asm volatile("" : : "r"(&r) : "memory");
    return r.violations().size();
  };
  if (form == 0) return one(static_cast<shipping::Contact*>(nullptr));
  if (form == 1) return one(static_cast<shipping::ShipmentOptions*>(nullptr));
  return one(static_cast<bench::Order*>(nullptr));
}

template <class Work>
[[gnu::noinline]] void warm_up(Work& work) {
  work();
}
template <class Work>
[[gnu::noinline]] void measured(Work& work) {
  calls = calls + 1;
  work();
}

template <class Work>
void run(Work work, int reps) {
  warm_up(work);
  for (int i = 0; i < reps; ++i) measured(work);
}

template <class In>
void print(int form, const In& in) {
  const auto one = [&]<class Form>(Form*) {
    auto r = elicit::decode<Form>(in);
    const elicit::violation_list& list = r.violations();
    std::printf("%zu listed, %zu reported, cost %zu\n", list.size(), list.total(), list.cost());
    for (const elicit::violation_view v : list)
      std::printf("[%.*s] [%.*s] [%.*s] [%.*s]\n", static_cast<int>(v.pointer.size()), v.pointer.data(),
                  static_cast<int>(v.keyword.size()), v.keyword.data(), static_cast<int>(v.message.size()),
                  v.message.data(), static_cast<int>(v.params.size()), v.params.data());
  };
  if (form == 0) return one(static_cast<shipping::Contact*>(nullptr));
  if (form == 1) return one(static_cast<shipping::ShipmentOptions*>(nullptr));
  return one(static_cast<bench::Order*>(nullptr));
}

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: bench_count choices N REPS | bench_count decode ANSWER text|json REPS"
               " | bench_count print ANSWER text|json\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string_view(argv[1]) == "choices") {
    const std::size_t n = std::strtoul(argv[2], nullptr, 10);
    std::vector<elicit::choice_option> options;
    options.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
      options.emplace_back("label-" + std::to_string(i), "Label " + std::to_string(i));
    std::vector<elicit::choice_option> copy;
    // The copy is made in `run`'s loop, outside `measured`: only offer() is counted.
    const int reps = std::atoi(argv[3]);
    const auto once = [&] { offer(copy); };
    copy = options;
    warm_up(once);
    for (int i = 0; i < reps; ++i) {
      copy = options;
      measured(once);
    }
    std::printf("choices() of %zu options, %d counted calls\n", n, reps);
    return 0;
  }
  if (argc == 4 && std::string_view(argv[1]) == "print") {
    const answer* a = nullptr;
    for (const answer& x : answers)
      if (x.name == argv[2]) a = &x;
    const std::string_view from = argv[3];
    if (a == nullptr || (from != "text" && from != "json")) usage();
    if (from == "json") print(a->form, nlohmann::json::parse(a->text));
    else print(a->form, a->text);
    return 0;
  }
  if (argc == 5 && std::string_view(argv[1]) == "decode") {
    const answer* a = nullptr;
    for (const answer& x : answers)
      if (x.name == argv[2]) a = &x;
    const std::string_view from = argv[3];
    if (a == nullptr || (from != "text" && from != "json")) usage();
    const int reps = std::atoi(argv[4]);
    std::size_t violations = 0;
    if (from == "json") {
      const nlohmann::json parsed = nlohmann::json::parse(a->text);
      run([&] { violations = decode(a->form, parsed); }, reps);
    } else {
      run([&] { violations = decode(a->form, a->text); }, reps);
    }
    std::printf("decode of %s from %s: %zu violations, %d counted calls\n", argv[2], argv[3], violations, reps);
    return 0;
  }
  usage();
}
