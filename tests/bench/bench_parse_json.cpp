// elicit::parse_json's cost by the shape of the text (issue #44): values per second for a flat
// list of numbers, a list of empty objects and an object of many keys, and the CPU time of one
// 4 MiB request body of each shape within the HTTP sample's limits (4 MiB, 64 levels, the
// default 65,536 values): what one hostile POST costs the server, parse and free included.
// docs/internals/performance.md ("Parsing a request") gives the figures and the command.
#include "../unit/support/json_shapes.hpp"

#include <elicit/form/limits.hpp>

#include <benchmark/benchmark.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace {

using json_shapes::keys_of;
using json_shapes::list_of;

// The largest text of this shape within `bytes`.
template <class Make>
std::string filling(std::size_t bytes, Make make) {
  std::size_t low = 1, high = bytes;
  while (low < high) {
    const std::size_t mid = (low + high + 1) / 2;
    if (make(mid).size() <= bytes) low = mid;
    else high = mid - 1;
  }
  return make(low);
}

constexpr elicit::json_limits unlimited{
    .max_bytes = std::size_t{1} << 30, .max_depth = 64, .max_values = std::size_t{1} << 30};
constexpr elicit::json_limits http{.max_bytes = std::size_t{4} << 20, .max_depth = 64};

// Parses (and frees) `text` once per iteration; counts its values.
void parse(benchmark::State& state, const std::string& text, std::size_t values, const elicit::json_limits& limits) {
  for (auto _ : state) {
    auto parsed = elicit::parse_json(text, limits);
    benchmark::DoNotOptimize(parsed);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * values));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

void numbers(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  parse(state, list_of("1", n), n + 1, unlimited);
}
void empty_objects(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  parse(state, list_of("{}", n), n + 1, unlimited);
}
void many_keys(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  parse(state, keys_of(n), n + 1, unlimited);
}
BENCHMARK(numbers)->Arg(10'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(empty_objects)->Arg(10'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(many_keys)->Arg(10'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

// One 4 MiB body of each shape, within the HTTP sample's limits: refused at the values limit
// (or the depth), or parsed whole (a string).
void body_4mib(benchmark::State& state, const std::string& text) { parse(state, text, 1, http); }
const std::size_t four_mib = std::size_t{4} << 20;
BENCHMARK_CAPTURE(body_4mib, numbers, filling(four_mib, [](std::size_t n) { return list_of("1", n); }))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(body_4mib, empty_objects, filling(four_mib, [](std::size_t n) { return list_of("{}", n); }))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(body_4mib, many_keys, filling(four_mib, keys_of))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(body_4mib, nested_lists, std::string(four_mib / 2, '[') + std::string(four_mib / 2, ']'))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(body_4mib, one_string, "\"" + std::string(four_mib - 2, 'a') + "\"")->Unit(benchmark::kMillisecond);
// Every byte pair an escape: the string read the slow way.
BENCHMARK_CAPTURE(body_4mib, escaped_string,
                  filling(four_mib,
                          [](std::size_t n) {
                            std::string text = "\"";
                            for (std::size_t i = 0; i < n; ++i) text += "\\n";
                            return text + "\"";
                          }))
    ->Unit(benchmark::kMillisecond);
// The largest list of objects the values limit lets through whole: the dearest body accepted.
BENCHMARK_CAPTURE(body_4mib, objects_at_the_values_limit, list_of(R"({})", (std::size_t{1} << 16) - 1))
    ->Unit(benchmark::kMillisecond);
// The largest object the values limit lets through whole: its members are sorted when it closes.
BENCHMARK_CAPTURE(body_4mib, keys_at_the_values_limit, keys_of((std::size_t{1} << 16) - 1))
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
