#!/usr/bin/env bash
# What elicit costs at build time: compile time, peak memory and stripped binary size of
# translation units holding 1, 10 and 50 distinct forms, with g++ and clang++, printed as
# markdown tables (docs/performance.md holds a run).
#
#   tests/bench/compile_cost.sh [--include DIR] [--runs N] [--sizes "1 10 50"]
#                               [--compilers "g++-12 clang++-14"] [--work DIR]
#
#   --include    elicit's include directory (default: include/ of this repository)
#   --runs       compilations per measurement; the median is reported (default 3)
#   --sizes      numbers of forms per translation unit; the first and last give the per-form
#                cost (default "1 10 50")
#   --compilers  C++ compilers to measure (default "g++-12 clang++-14")
#   --work       where the generated sources, objects and executables go (default: a new
#                directory under ${TMPDIR:-/tmp})
#
# Variants of each translation unit, all including <elicit/elicit.hpp>:
#   baseline  the forms declared, nothing of elicit instantiated for them
#   schema    schema_json<Form> of every form used (written to stdout)
#   decode    the schema and decode<Form>(text) of every form
# Every form is a distinct struct of 6 fields (string with a title and lengths, int with a
# range, double with a minimum, bool with a default, optional date, and an enum of its own,
# reflected). Each compilation is `CXX -std=c++20 -O2 -c`, timed by /usr/bin/time -v.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
include_dir=$(cd "$here/../../include" && pwd)
runs=3
sizes=(1 10 50)
compilers=(g++-12 clang++-14)
work=""

while (($#)); do
  case "$1" in
    --include) include_dir=$(cd "$2" && pwd); shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --sizes) read -r -a sizes <<<"$2"; shift 2 ;;
    --compilers) read -r -a compilers <<<"$2"; shift 2 ;;
    --work) work=$2; shift 2 ;;
    -h | --help) sed -n '2,24p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "compile_cost.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

if [[ ! -x /usr/bin/time ]]; then
  echo "compile_cost.sh: /usr/bin/time is missing; on Debian it is in the package 'time' (apt-get install time)" >&2
  exit 1
fi
for cxx in "${compilers[@]}"; do
  command -v "$cxx" >/dev/null || { echo "compile_cost.sh: compiler $cxx not found" >&2; exit 1; }
done
[[ -f "$include_dir/elicit/elicit.hpp" ]] || { echo "compile_cost.sh: no elicit/elicit.hpp under $include_dir" >&2; exit 1; }
if [[ -z "$work" ]]; then work=$(mktemp -d "${TMPDIR:-/tmp}/elicit-compile-cost.XXXXXX"); fi
mkdir -p "$work"
first=${sizes[0]}
last=${sizes[${#sizes[@]} - 1]}

# ---- sources -------------------------------------------------------------------------------

form() {  # form INDEX: one distinct form, in a namespace of its own
  local i=$1
  cat <<CPP
namespace f$i {
enum class Kind { alpha_$i, beta_$i, gamma_$i };
struct Form {
  elicit::field<std::string, elicit::title<"Name $i">, elicit::length<1, 80>> name_$i;
  elicit::field<int, elicit::title<"Count $i">, elicit::range<0, $((100 + i))>> count_$i;
  elicit::field<double, elicit::minimum<0.5>> ratio_$i;
  elicit::field<bool, elicit::default_value<true>> enabled_$i;
  std::optional<std::chrono::year_month_day> due_$i;
  elicit::field<Kind, elicit::title<"Kind $i">> kind_$i;
};
}  // namespace f$i
CPP
}

generate() {  # generate VARIANT COUNT > file
  local variant=$1 n=$2 i
  printf '#include <elicit/elicit.hpp>\n\n#include <chrono>\n#include <cstdio>\n#include <optional>\n#include <string>\n#include <string_view>\n\n'
  for ((i = 0; i < n; ++i)); do form "$i"; done
  printf '\nint main(int argc, char** argv) {\n'
  case "$variant" in
    baseline)
      printf '  (void)argv;\n  std::size_t total = 0;\n'
      for ((i = 0; i < n; ++i)); do printf '  total += sizeof(f%d::Form);\n' "$i"; done
      printf '  return static_cast<int>(total) + argc;\n'
      ;;
    schema | decode)
      printf '  const std::string_view schemas[] = {\n'
      for ((i = 0; i < n; ++i)); do printf '      elicit::schema_json<f%d::Form>,\n' "$i"; done
      printf '  };\n  for (std::string_view s : schemas) std::fwrite(s.data(), 1, s.size(), stdout);\n'
      if [[ $variant == decode ]]; then
        printf '  const std::string_view answer = argc > 1 ? argv[1] : "{}";\n  int accepted = 0;\n'
        for ((i = 0; i < n; ++i)); do printf '  accepted += elicit::decode<f%d::Form>(answer).accepted();\n' "$i"; done
        printf '  return accepted;\n'
      else
        printf '  (void)argv;\n  return argc - 1;\n'
      fi
      ;;
  esac
  printf '}\n'
}

mkdir -p "$work/src"
variants=(baseline schema decode)
for v in "${variants[@]}"; do
  for n in "${sizes[@]}"; do generate "$v" "$n" >"$work/src/${v}_$n.cpp"; done
done
printf 'int main() { return 0; }\n' >"$work/src/include_none.cpp"
printf '#include <nlohmann/json.hpp>\nint main() { return 0; }\n' >"$work/src/include_json.cpp"
printf '#include <nlohmann/json.hpp>\n#include <fmt/format.h>\n#include <boost/pfr.hpp>\n#include <openssl/evp.h>\nint main() { return 0; }\n' \
  >"$work/src/include_deps.cpp"
printf '#include <elicit/elicit.hpp>\nint main() { return 0; }\n' >"$work/src/include_elicit.cpp"

# ---- measuring -----------------------------------------------------------------------------

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# measure CXX NAME: compiles src/NAME.cpp `runs` times; sets seconds and megabytes (medians)
# and leaves the object in obj/CXX/NAME.o.
measure() {
  local cxx=$1 name=$2 r times=() rss=() log
  mkdir -p "$work/obj/$cxx"
  log="$work/obj/$cxx/$name.time"
  for ((r = 0; r < runs; ++r)); do
    if ! /usr/bin/time -v -o "$log" "$cxx" -std=c++20 -O2 -I"$include_dir" -c "$work/src/$name.cpp" \
      -o "$work/obj/$cxx/$name.o" 2>"$work/obj/$cxx/$name.err"; then
      echo "compile_cost.sh: $cxx failed on $work/src/$name.cpp:" >&2
      head -30 "$work/obj/$cxx/$name.err" >&2
      exit 1
    fi
    times+=("$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + p[i]; print s }' "$log")")
    rss+=("$(awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$log")")
  done
  seconds=$(median "${times[@]}")
  megabytes=$(median "${rss[@]}")
}

# stripped_size CXX NAME: links obj/CXX/NAME.o, strips it, prints its size in bytes.
stripped_size() {
  local cxx=$1 name=$2 exe="$work/obj/$1/$2.exe"
  "$cxx" "$work/obj/$cxx/$name.o" -o "$exe" -lfmt -lcrypto
  strip "$exe"
  stat -c %s "$exe"
}

declare -A T M B
for cxx in "${compilers[@]}"; do
  for name in include_none include_json include_deps include_elicit; do
    echo "compile_cost.sh: $cxx $name" >&2
    measure "$cxx" "$name"
    T[$cxx,$name]=$seconds M[$cxx,$name]=$megabytes
  done
  for v in "${variants[@]}"; do
    for n in "${sizes[@]}"; do
      echo "compile_cost.sh: $cxx ${v}_$n" >&2
      measure "$cxx" "${v}_$n"
      T[$cxx,${v}_$n]=$seconds M[$cxx,${v}_$n]=$megabytes
      B[$cxx,${v}_$n]=$(stripped_size "$cxx" "${v}_$n")
    done
  done
done

# ---- tables --------------------------------------------------------------------------------

calc() { awk "BEGIN { printf \"$1\", $2 }"; }
span=$((last - first))

echo
echo "### Compile time and peak memory per translation unit (median of $runs, -O2 -c)"
echo
header="| compiler | variant |"
rule="|---|---|"
for n in "${sizes[@]}"; do header+=" $n forms: s | $n forms: MB |"; rule+="---:|---:|"; done
echo "$header"
echo "$rule"
for cxx in "${compilers[@]}"; do
  for v in "${variants[@]}"; do
    line="| $cxx | $v |"
    for n in "${sizes[@]}"; do line+=" ${T[$cxx,${v}_$n]} | ${M[$cxx,${v}_$n]} |"; done
    echo "$line"
  done
done

echo
echo "### Cost per form: (${last} forms - ${first} form) / $span"
echo
echo "| compiler | variant | s per form | MB per form | above baseline: s per form | above baseline: MB per form |"
echo "|---|---|---:|---:|---:|---:|"
for cxx in "${compilers[@]}"; do
  tb=$(calc '%.4f' "(${T[$cxx,baseline_$last]} - ${T[$cxx,baseline_$first]}) / $span")
  mb=$(calc '%.3f' "(${M[$cxx,baseline_$last]} - ${M[$cxx,baseline_$first]}) / $span")
  for v in "${variants[@]}"; do
    t=$(calc '%.4f' "(${T[$cxx,${v}_$last]} - ${T[$cxx,${v}_$first]}) / $span")
    m=$(calc '%.3f' "(${M[$cxx,${v}_$last]} - ${M[$cxx,${v}_$first]}) / $span")
    if [[ $v == baseline ]]; then
      echo "| $cxx | $v | $t | $m | | |"
    else
      echo "| $cxx | $v | $t | $m | $(calc '%.4f' "$t - $tb") | $(calc '%.3f' "$m - $mb") |"
    fi
  done
done

echo
echo "### Include cost (median of $runs, -O2 -c, a TU with only the include and an empty main)"
echo
echo "| compiler | TU includes | s | MB | s above nlohmann/json.hpp |"
echo "|---|---|---:|---:|---:|"
for cxx in "${compilers[@]}"; do
  for name in include_none include_json include_deps include_elicit; do
    case $name in
      include_none) what="nothing" ;;
      include_json) what="<nlohmann/json.hpp>" ;;
      include_deps) what="elicit's dependencies (json, fmt, pfr, openssl/evp)" ;;
      include_elicit) what="<elicit/elicit.hpp>" ;;
    esac
    echo "| $cxx | $what | ${T[$cxx,$name]} | ${M[$cxx,$name]} | $(calc '%.2f' "${T[$cxx,$name]} - ${T[$cxx,include_json]}") |"
  done
done

echo
echo "### Stripped executable size (bytes; linked with -lfmt -lcrypto)"
echo
header="| compiler | variant |"
rule="|---|---|"
for n in "${sizes[@]}"; do header+=" $n forms |"; rule+="---:|"; done
header+=" bytes per form | above baseline per form |"
rule+="---:|---:|"
echo "$header"
echo "$rule"
for cxx in "${compilers[@]}"; do
  bb=$(calc '%.0f' "(${B[$cxx,baseline_$last]} - ${B[$cxx,baseline_$first]}) / $span")
  for v in "${variants[@]}"; do
    line="| $cxx | $v |"
    for n in "${sizes[@]}"; do line+=" ${B[$cxx,${v}_$n]} |"; done
    per=$(calc '%.0f' "(${B[$cxx,${v}_$last]} - ${B[$cxx,${v}_$first]}) / $span")
    if [[ $v == baseline ]]; then line+=" $per | |"; else line+=" $per | $(calc '%.0f' "$per - $bb") |"; fi
    echo "$line"
  done
done
echo
echo "Sources and objects: $work"
