#!/usr/bin/env bash
# elicit's two commands, each complete on a fresh Debian 12 machine (as root, or with sudo):
#   ./build.sh sample   installs what is missing, builds, and prints the sample forms' schema files
#   ./build.sh test     installs what is missing, then builds and runs the whole test suite
#                       three times: g++-12 and clang++-14 with warnings as errors, and
#                       AddressSanitizer + UndefinedBehaviorSanitizer; then fuzzes decode for 60 s
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

# Debian 12 packages. python3-jsonschema validates the emitted schemas and messages in the tests.
PACKAGES=(cmake ninja-build g++-12 clang-14 libclang-rt-14-dev libboost1.81-dev
          nlohmann-json3-dev libfmt-dev libssl-dev libcpp-httplib-dev pkg-config catch2 python3 python3-jsonschema)
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

run_tests() {
  local name=$1
  phase "$name: test"
  ctest --test-dir "build/$name" --output-on-failure -j "$JOBS"
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

test_all() {
  install_missing
  configure_and_build gcc -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=g++-12 -DELICIT_WERROR=ON
  run_tests gcc
  # The real peers (conformance suite, TypeScript SDK) run against the g++ and sanitizer builds.
  configure_and_build clang -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++-14 -DELICIT_WERROR=ON \
    -DELICIT_PEER_TESTS=OFF
  run_tests clang
  # The rules that must not compile and the consumer projects were checked by both compilers
  # above; the sanitizer build runs everything that executes.
  configure_and_build sanitize -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++-14 -DELICIT_WERROR=ON \
    "-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
    -DELICIT_COMPILE_FAIL_TESTS=OFF -DELICIT_CONSUMER_TESTS=OFF
  ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1 UBSAN_OPTIONS=print_stacktrace=1 run_tests sanitize
  # libFuzzer over decode<T>(text), under ASan + UBSan, for 60 seconds on the committed corpus.
  phase "fuzz: configure"
  cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++-14 -DELICIT_FUZZ=ON \
    -DELICIT_COMPILE_FAIL_TESTS=OFF -DELICIT_CONSUMER_TESTS=OFF -DELICIT_FUZZ_SECONDS=60
  phase "fuzz: build"
  cmake --build build/fuzz -j "$JOBS" --target fuzz_decode
  phase "fuzz: run"
  ctest --test-dir build/fuzz -L fuzz --output-on-failure
  phase "all test runs passed"
}

# Not part of the two commands: the benchmarks of docs/performance.md (about 30 minutes on 2 cores).
bench() {
  PACKAGES+=(libbenchmark-dev time)
  install_missing
  configure_and_build bench -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++-12 -DELICIT_BENCHMARKS=ON \
    -DELICIT_COMPILE_FAIL_TESTS=OFF -DELICIT_CONSUMER_TESTS=OFF -DELICIT_DIFFERENTIAL_TESTS=OFF -DELICIT_PEER_TESTS=OFF
  phase "bench: run time, then compile time, memory and binary size"
  cmake --build build/bench --target bench
}

case "${1:-}" in
  sample) sample ;;
  test) test_all ;;
  bench) bench ;;
  *)
    echo "usage: $0 sample|test|bench" >&2
    exit 2
    ;;
esac
