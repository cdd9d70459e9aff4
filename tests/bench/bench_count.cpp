// What bench_runtime measures, in one function that callgrind counts alone: instruction counts
// do not change with the machine's load, where times do (docs/internals/performance.md).
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
#include "bench_answers.hpp"
#include "bench_forms.hpp"
#include "forms.hpp"  // samples/forms.hpp: shipping::ShipmentOptions, Contact

#include <elicit/elicit.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

struct ManyChoices {  // as bench_runtime's
  elicit::field<std::vector<elicit::choice>, elicit::title<"Labels">> labels;
  elicit::field<elicit::choice, elicit::title<"Owner">> owner;
};

// One of bench_runtime's answers (bench_answers.hpp), by name: the form's, then the kind
// ("contact_invalid", "order_all_invalid").
struct named_answer {
  std::string_view text;
  int form;  // 0: Contact, 1: ShipmentOptions, 2: Order
};
std::optional<named_answer> find_answer(std::string_view name) {
  const std::pair<std::string_view, std::span<const bench::answer>> forms[] = {
      {"contact_", bench::contact_answers}, {"shipment_", bench::shipment_answers}, {"order_", bench::order_answers}};
  for (int form = 0; form < 3; ++form) {
    const auto& [prefix, list] = forms[form];
    if (!name.starts_with(prefix)) continue;
    for (const bench::answer& a : list)
      if (name.substr(prefix.size()) == a.kind) return named_answer{a.text, form};
  }
  return std::nullopt;
}

// `work` called with a null pointer of form number `form`'s type.
template <class Work>
auto with_form(int form, Work&& work) {
  if (form == 0) return work(static_cast<shipping::Contact*>(nullptr));
  if (form == 1) return work(static_cast<shipping::ShipmentOptions*>(nullptr));
  return work(static_cast<bench::Order*>(nullptr));
}

volatile unsigned calls = 0;  // keeps `measured` a function of its own (not folded into `warm_up`)

// A fresh form given the options, then destroyed with them: as choices/N/offer times it.
void offer(std::vector<elicit::choice_option>& options) {
  elicit::form<ManyChoices> g;
  g.choices(&ManyChoices::labels, std::move(options));
  asm volatile("" : : "r"(&g) : "memory");
}

template <class In>
std::size_t decode(int form, const In& in) {
  return with_form(form, [&]<class Form>(Form*) {
    auto r = elicit::decode<Form>(in);
    asm volatile("" : : "r"(&r) : "memory");
    return r.violations().size();
  });
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
  with_form(form, [&]<class Form>(Form*) {
    auto r = elicit::decode<Form>(in);
    const elicit::violation_list& list = r.violations();
    std::printf("%zu listed, %zu reported, cost %zu\n", list.size(), list.total(), list.cost());
    for (const elicit::violation_view v : list)
      std::printf("[%.*s] [%.*s] [%.*s] [%.*s]\n", static_cast<int>(v.pointer.size()), v.pointer.data(),
                  static_cast<int>(v.keyword.size()), v.keyword.data(), static_cast<int>(v.message.size()),
                  v.message.data(), static_cast<int>(v.params.size()), v.params.data());
  });
}

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: bench_count choices N REPS | bench_count decode ANSWER text|json REPS"
               " | bench_count print ANSWER text|json\n");
  std::exit(2);
}

// The answer named `name`, read from `from` ("text" or "json"), or the usage.
named_answer answer_or_usage(std::string_view name, std::string_view from) {
  const std::optional<named_answer> a = find_answer(name);
  if (!a || (from != "text" && from != "json")) usage();
  return *a;
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
    const named_answer a = answer_or_usage(argv[2], argv[3]);
    if (std::string_view(argv[3]) == "json") print(a.form, nlohmann::json::parse(a.text));
    else print(a.form, a.text);
    return 0;
  }
  if (argc == 5 && std::string_view(argv[1]) == "decode") {
    const named_answer a = answer_or_usage(argv[2], argv[3]);
    const int reps = std::atoi(argv[4]);
    std::size_t violations = 0;
    if (std::string_view(argv[3]) == "json") {
      const nlohmann::json parsed = nlohmann::json::parse(a.text);
      run([&] { violations = decode(a.form, parsed); }, reps);
    } else {
      run([&] { violations = decode(a.form, a.text); }, reps);
    }
    std::printf("decode of %s from %s: %zu violations, %d counted calls\n", argv[2], argv[3], violations, reps);
    return 0;
  }
  usage();
}
