#!/usr/bin/env bash
# elicit's two commands, each complete on a fresh Debian 12 machine (as root, or with sudo):
#   ./build.sh sample   installs what is missing, builds, and prints the sample forms' schema files
#   ./build.sh test     installs what is missing, then builds and runs the whole test suite
#                       with warnings as errors: g++-12 (-O3 with assertions, each header
#                       compiled alone; then clang-format and clang-tidy on the sources),
#                       clang++-14 under AddressSanitizer + UndefinedBehaviorSanitizer (Debug),
#                       key rotation and the Redis guard under ThreadSanitizer; then the five
#                       fuzzers (decode, limits, input_responses, requestState, parse_json) for
#                       20 s each, then 10 s each from seeds at their length limit
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

# Debian 12 packages. python3-jsonschema validates the emitted schemas and messages in the tests.
# clang-format-14 and clang-tidy-14 run in the lint phase of the tests; nginx fronts the three
# instances of the scale test; chromium (with the fonts it only recommends) runs the MCP
# Inspector in the browser test; redis-server (started by the test itself on a free loopback port)
# backs the replay guard's tests (label redis) and the scale test's shared replay store (label
# scale), hiredis is its client; tmux runs the terminal client as a person would (label host).
PACKAGES=(cmake ninja-build g++-12 clang-14 libclang-rt-14-dev libboost1.81-dev
          nlohmann-json3-dev libfmt-dev libssl-dev pkg-config catch2 python3 python3-jsonschema
          clang-format-14 clang-tidy-14 nginx chromium fonts-liberation fonts-symbola
          redis-server libhiredis-dev tmux)
JOBS=$(nproc)

phase() { printf '\n==> [%s] %s\n' "$(date +%H:%M:%S)" "$*"; }

install_missing() {
  local missing=() p
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  # node and npm run Ajv in the differential test; any Node 18 or later will do, Debian's included.
  command -v node >/dev/null && command -v npm >/dev/null || missing+=(nodejs npm)
  if ((${#missing[@]} == 0)); then
    phase "dependencies: all installed"
    return
  fi
  phase "dependencies: installing ${missing[*]}"
  local sudo=""
  [[ $(id -u) -eq 0 ]] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# configure_and_build NAME [cmake arguments...]
configure_and_build() {
  local name=$1
  shift
  phase "$name: configure"
  cmake -S . -B "build/$name" -G Ninja "$@"
  phase "$name: build"
  cmake --build "build/$name" -j "$JOBS"
}

# run_tests NAME [ctest arguments...]
run_tests() {
  local name=$1
  shift
  phase "$name: test"
  # --no-tests=error: a configuration that registered no test fails instead of passing empty.
  # The long tests start first (their COST), so that none of them ends the phase alone.
  ctest --test-dir "build/$name" --output-on-failure --no-tests=error -j "$JOBS" "$@"
}

sample() {
  install_missing
  configure_and_build sample -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++-12 -DELICIT_BUILD_TESTS=OFF
  # The build ran elicit's generator on samples/forms.hpp; show what it wrote.
  local dir=build/sample/samples/sample_schemas file
  for file in "$dir"/*.schema.json; do
    phase "sample: $(basename "$file")"
    cat "$file"
  done
  phase "sample: catalogue.md"
  cat "$dir/catalogue.md"
  phase "sample: the files are in $dir"
}

# The tracked C++ sources that clang-format keeps: all but the MCP specification's files.
formatted_sources() {
  git ls-files -- '*.cpp' '*.hpp' ':!:tests/spec/**'
}

# clang-tidy runs on the translation units that include each header at least once: the umbrella
# headers compiled alone (elicit.hpp, state.hpp, the generator's) and the stdio sample, which
# instantiates decoding and the protocol. About a minute on two cores (every header alone
# would take four). Needs the compile_commands.json of build/NAME.
lint() {
  local name=$1
  phase "lint: clang-format"
  formatted_sources | xargs clang-format-14 --dry-run --Werror
  phase "lint: clang-tidy"
  local units=("build/$name"/tests/header_alone/elicit_{elicit,state_state,state_tool_round,generator}_hpp.cpp
               samples/stdio_server/shipment_server.cpp samples/mcp_server/main.cpp)
  printf '%s\n' "${units[@]}" |
    xargs -P "$JOBS" -n 1 clang-tidy-14 -p "build/$name" --quiet --warnings-as-errors='*'
}

test_all() {
  install_missing
  # g++ optimizes as users build (-O3, where it warns as Debug does not: -Wrestrict,
  # -Wmaybe-uninitialized...) but keeps assert() (no -DNDEBUG): the samples and the servers the
  # peers drive; the unit tests at -O1 (the same warnings, 0.6 of the compile time). This build
  # runs every test: the unit tests, the rules that must not compile, the consumer projects, the
  # docs' snippets and the real peers (conformance suite, TypeScript SDK, the Inspector in Chromium).
  configure_and_build gcc -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O3" \
    -DCMAKE_CXX_COMPILER=g++-12 -DELICIT_WERROR=ON -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DELICIT_TEST_OPTIMIZATION=-O1
  run_tests gcc
  # What the many-instances test counted (flows started, completed, refused, replays refused),
  # printed from ctest's log: ctest shows a passing test's output only there.
  phase "gcc: what scale.shared_replay counted"
  sed -n '/Testing: scale.shared_replay/,/<end of output>/p' build/gcc/Testing/Temporary/LastTest.log |
    grep -E '^(ok|FAIL|  ) ' || true
  lint gcc
  # clang++ in Debug under AddressSanitizer and UndefinedBehaviorSanitizer: everything that runs
  # (the peers too), and the rules that must not compile (clang's diagnostics are checked as g++'s
  # are). clang's warnings come from its front end, at any -O, so this -Werror build is also the
  # clang warning check, on every header (the tests include them all). Whether each header
  # compiles alone is a matter of its own #includes, against the one standard library both
  # compilers use: the g++ build checks it (a third of a build, not done twice). The consumer
  # projects and the docs' snippets are compiler-neutral CMake and text: the g++ build ran them.
  configure_and_build sanitize -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++-14 -DELICIT_WERROR=ON \
    "-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
    -DELICIT_CONSUMER_TESTS=OFF -DELICIT_DOC_TESTS=OFF -DELICIT_HEADER_TESTS=OFF
  # The peers that drive the servers as the unit and attack tests do, with nothing of their own for
  # a sanitizer to find, run in the gcc build only: the browser (Chromium and the Inspector), the
  # SDK clients, the conformance suite's 41 runs (its hostile cases are the attack tests', which
  # run here) and its client scenarios (the client's code runs here under the host test), the
  # 1,000 fetch connections and the memory budget (checked in an optimized build).
  ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1 UBSAN_OPTIONS=print_stacktrace=1 run_tests sanitize \
    -LE "browser|sdk" -E "^(conformance[.](server|client)|scale[.]keepalive_fetch|scale[.]waiting_200)$"
  # Key rotation and key-file reloads while other threads seal and open (state_concurrency), and
  # the Redis replay guard's pool under eight threads (redis_tests), under ThreadSanitizer, which
  # fails them on the first data race: their two small executables, built alone.
  phase "tsan: configure"
  cmake -S . -B build/tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 -DELICIT_WERROR=ON \
    "-DCMAKE_CXX_FLAGS=-fsanitize=thread -fno-omit-frame-pointer" -DELICIT_BUILD_SAMPLES=OFF \
    -DELICIT_COMPILE_FAIL_TESTS=OFF -DELICIT_CONSUMER_TESTS=OFF -DELICIT_HEADER_TESTS=OFF -DELICIT_DOC_TESTS=OFF \
    -DELICIT_DIFFERENTIAL_TESTS=OFF -DELICIT_PEER_TESTS=OFF
  phase "tsan: build"
  cmake --build build/tsan -j "$JOBS" --target state_concurrency redis_tests
  TSAN_OPTIONS=halt_on_error=1 run_tests tsan -L "tsan|redis"
  # The libFuzzer targets of tests/fuzz (decode<T>(text), decode<T>(json) and decode_content,
  # input_responses, open<State>, parse_json, read_form), under ASan + UBSan, 20 seconds each on the committed corpora:
  # two minutes in all with the at_limit runs. --no-tests=error: a fuzz build that registered no test fails.
  phase "fuzz: configure"
  cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++-14 -DELICIT_FUZZ=ON \
    -DELICIT_COMPILE_FAIL_TESTS=OFF -DELICIT_CONSUMER_TESTS=OFF -DELICIT_FUZZ_SECONDS=20
  phase "fuzz: build"
  cmake --build build/fuzz -j "$JOBS" --target fuzz_all
  phase "fuzz: run"
  rm -f build/fuzz/fuzz-summary.txt
  ctest --test-dir build/fuzz -L fuzz --no-tests=error --output-on-failure -j "$JOBS"
  phase "fuzz: coverage (cov: edges, ft: features) and the largest input each reached"
  cat build/fuzz/fuzz-summary.txt
  phase "all test runs passed"
}

# Not part of the two commands: the benchmarks of docs/internals/performance.md (about 30 minutes on 2 cores).
bench() {
  PACKAGES+=(libbenchmark-dev time libsimdjson-dev)
  install_missing
  configure_and_build bench -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++-12 -DELICIT_BENCHMARKS=ON \
    -DELICIT_COMPILE_FAIL_TESTS=OFF -DELICIT_CONSUMER_TESTS=OFF -DELICIT_DIFFERENTIAL_TESTS=OFF -DELICIT_PEER_TESTS=OFF
  phase "bench: run time, then compile time, memory and binary size"
  cmake --build build/bench --target bench
}

case "${1:-}" in
  sample) sample ;;
  test) test_all ;;
  lint) lint gcc ;;  # not one of the two commands: the lint phase alone, on an existing build/gcc
  bench) bench ;;
  *)
    echo "usage: $0 sample|test|bench|lint" >&2
    exit 2
    ;;
esac
