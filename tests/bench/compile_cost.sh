#!/usr/bin/env bash
# What elicit costs at build time: compile time, peak memory and stripped binary size of
# translation units holding 1, 10 and 50 distinct forms, with g++ and clang++, against the
# same forms written by hand with nlohmann::json, printed as markdown tables
# (docs/internals/performance.md holds a run).
#
#   tests/bench/compile_cost.sh [--include DIR] [--runs N] [--sizes "1 10 50"]
#                               [--compilers "g++-12 clang++-14"] [--work DIR]
#
#   --include    elicit's include directory (default: include/ of this repository)
#   --runs       rounds: each translation unit is compiled once per round, all of them in
#                turn; the median of the rounds is reported (default 3)
#   --sizes      numbers of forms per translation unit; the first and last give the per-form
#                cost (default "1 10 50")
#   --compilers  C++ compilers to measure (default "g++-12 clang++-14")
#   --work       where the generated sources, objects and executables go (default: a new
#                directory under ${TMPDIR:-/tmp})
#
# Variants of each translation unit, the first three including <elicit/elicit.hpp>:
#   baseline  the forms declared, nothing of elicit instantiated for them
#   schema    schema_json<Form> of every form used (written to stdout)
#   decode    the schema and decode<Form>(text) of every form
#   hand      no elicit: <nlohmann/json.hpp> and the std headers only. Per form a plain struct
#             of the same members, its schema built as an ordered_json from initializer lists
#             (the same text as schema_json<Form>) and dumped, and a decoder written by hand
#             (parse, accept and a content object, then every rule of the schema, one message
#             per broken rule); the helpers (code points, dates, the envelope) once per TU
# Every form is a distinct struct of 6 fields (string with a title and lengths, int with a
# range, double with a minimum, bool with a default, optional date, and an enum of its own,
# reflected). Each compilation is `CXX -std=c++20 -O2 -c`, timed by /usr/bin/time -v. The
# decode and hand executables must print the same schemas and accept the same answers, or the
# script stops. The include-cost TUs hold one #include each, <elicit/form/schema.hpp> among them
# (a file that only builds schemas).
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
    -h | --help) sed -n '2,33p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
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

# The hand variant's helpers, written once per translation unit as a careful author would.
hand_prelude() {
  cat <<'CPP'
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

template <class T>
struct result {
  std::optional<T> value;           // set when the answer was accepted and met every rule
  std::vector<std::string> errors;  // one message per broken rule
};

// Code points of UTF-8 text (the parser has already rejected invalid UTF-8).
inline std::size_t utf8_length(std::string_view s) {
  std::size_t n = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return n;
}

inline bool read_digits(std::string_view s, std::size_t at, std::size_t n, int& out) {
  out = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

// YYYY-MM-DD, a real calendar date.
inline std::optional<std::chrono::year_month_day> parse_date(std::string_view s) {
  int y = 0, m = 0, d = 0;
  if (s.size() != 10 || s[4] != '-' || s[7] != '-' || !read_digits(s, 0, 4, y) || !read_digits(s, 5, 2, m) ||
      !read_digits(s, 8, 2, d))
    return std::nullopt;
  const std::chrono::year_month_day date{std::chrono::year{y}, std::chrono::month{static_cast<unsigned>(m)},
                                         std::chrono::day{static_cast<unsigned>(d)}};
  if (!date.ok()) return std::nullopt;
  return date;
}

// The content of an accepted answer (absent content reads as {}); nullptr when there is none
// to read: not JSON, not an object, declined or cancelled.
inline const nlohmann::json* accepted_content(const nlohmann::json& answer, std::vector<std::string>& errors) {
  static const nlohmann::json empty = nlohmann::json::object();
  if (answer.is_discarded()) {
    errors.push_back("The answer is not valid JSON.");
    return nullptr;
  }
  if (!answer.is_object()) {
    errors.push_back("The answer must be a JSON object.");
    return nullptr;
  }
  const auto action = answer.find("action");
  if (action == answer.end() || !action->is_string()) {
    errors.push_back("The answer has no action.");
    return nullptr;
  }
  if (action->get_ref<const std::string&>() != "accept") return nullptr;
  const auto content = answer.find("content");
  if (content == answer.end()) return &empty;
  if (!content->is_object()) {
    errors.push_back("The content must be a JSON object.");
    return nullptr;
  }
  return &*content;
}
CPP
}

hand_form() {  # hand_form INDEX: form INDEX without elicit: struct, schema and decoder by hand
  local i=$1 max=$((100 + $1))
  cat <<CPP

namespace f$i {
enum class Kind { alpha_$i, beta_$i, gamma_$i };
struct Form {
  std::string name_$i;
  int count_$i = 0;
  double ratio_$i = 0;
  bool enabled_$i = true;
  std::optional<std::chrono::year_month_day> due_$i;
  Kind kind_$i{};
};

inline nlohmann::ordered_json schema() {
  return {{"type", "object"},
          {"properties",
           {{"name_$i", {{"type", "string"}, {"title", "Name $i"}, {"minLength", 1}, {"maxLength", 80}}},
            {"count_$i", {{"type", "integer"}, {"title", "Count $i"}, {"minimum", 0}, {"maximum", $max}}},
            {"ratio_$i", {{"type", "number"}, {"minimum", 0.5}}},
            {"enabled_$i", {{"type", "boolean"}, {"default", true}}},
            {"due_$i", {{"type", "string"}, {"format", "date"}}},
            {"kind_$i", {{"type", "string"}, {"title", "Kind $i"}, {"enum", {"alpha_$i", "beta_$i", "gamma_$i"}}}}}},
          {"required", {"name_$i", "count_$i", "ratio_$i", "kind_$i"}}};
}

inline result<Form> decode(std::string_view text) {
  static constexpr std::pair<std::string_view, Kind> kinds[] = {
      {"alpha_$i", Kind::alpha_$i}, {"beta_$i", Kind::beta_$i}, {"gamma_$i", Kind::gamma_$i}};
  result<Form> r;
  const nlohmann::json answer = nlohmann::json::parse(text, nullptr, false);
  const nlohmann::json* content = accepted_content(answer, r.errors);
  if (content == nullptr) return r;
  Form f;
  const auto end = content->end();

  if (const auto it = content->find("name_$i"); it == end) {
    r.errors.push_back("Name $i is required.");
  } else if (!it->is_string()) {
    r.errors.push_back("Name $i must be text; got " + it->dump() + ".");
  } else if (const std::size_t n = utf8_length(it->get_ref<const std::string&>()); n < 1 || n > 80) {
    r.errors.push_back("Name $i must be 1 to 80 characters long; got " + std::to_string(n) + ".");
  } else {
    f.name_$i = it->get_ref<const std::string&>();
  }

  if (const auto it = content->find("count_$i"); it == end) {
    r.errors.push_back("Count $i is required.");
  } else if (!it->is_number() || std::trunc(it->get<double>()) != it->get<double>()) {
    r.errors.push_back("Count $i must be a whole number; got " + it->dump() + ".");
  } else if (const double v = it->get<double>(); v < 0 || v > $max) {
    r.errors.push_back("Count $i must be between 0 and $max; got " + it->dump() + ".");
  } else {
    f.count_$i = static_cast<int>(v);
  }

  if (const auto it = content->find("ratio_$i"); it == end) {
    r.errors.push_back("ratio_$i is required.");
  } else if (!it->is_number()) {
    r.errors.push_back("ratio_$i must be a number; got " + it->dump() + ".");
  } else if (const double v = it->get<double>(); v < 0.5) {
    r.errors.push_back("ratio_$i must be at least 0.5; got " + it->dump() + ".");
  } else {
    f.ratio_$i = v;
  }

  if (const auto it = content->find("enabled_$i"); it != end) {
    if (!it->is_boolean()) r.errors.push_back("enabled_$i must be true or false; got " + it->dump() + ".");
    else f.enabled_$i = it->get<bool>();
  }

  if (const auto it = content->find("due_$i"); it != end) {
    if (!it->is_string()) {
      r.errors.push_back("due_$i must be a date (YYYY-MM-DD); got " + it->dump() + ".");
    } else if (const auto date = parse_date(it->get_ref<const std::string&>()); !date) {
      r.errors.push_back("due_$i must be a calendar date as YYYY-MM-DD; got " + it->dump() + ".");
    } else {
      f.due_$i = *date;
    }
  }

  if (const auto it = content->find("kind_$i"); it == end) {
    r.errors.push_back("Kind $i is required.");
  } else {
    bool found = false;
    if (it->is_string()) {
      for (const auto& [wire, value] : kinds) {
        if (wire == it->get_ref<const std::string&>()) {
          f.kind_$i = value;
          found = true;
        }
      }
    }
    if (!found)
      r.errors.push_back("Kind $i must be one of \"alpha_$i\", \"beta_$i\", \"gamma_$i\"; got " + it->dump() + ".");
  }

  if (r.errors.empty()) r.value = std::move(f);
  return r;
}
}  // namespace f$i
CPP
}

generate_hand() {  # generate_hand COUNT > file: what decode does, without elicit
  local n=$1 i
  hand_prelude
  for ((i = 0; i < n; ++i)); do hand_form "$i"; done
  printf '\nint main(int argc, char** argv) {\n  const std::string schemas[] = {\n'
  for ((i = 0; i < n; ++i)); do printf '      f%d::schema().dump(),\n' "$i"; done
  printf '  };\n  for (const std::string& s : schemas) std::fwrite(s.data(), 1, s.size(), stdout);\n'
  printf '  const std::string_view answer = argc > 1 ? argv[1] : "{}";\n  int accepted = 0;\n'
  for ((i = 0; i < n; ++i)); do printf '  accepted += f%d::decode(answer).value.has_value();\n' "$i"; done
  printf '  return accepted;\n}\n'
}

generate() {  # generate VARIANT COUNT > file
  local variant=$1 n=$2 i
  if [[ $variant == hand ]]; then generate_hand "$n"; return; fi
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
variants=(baseline schema decode hand)
for v in "${variants[@]}"; do
  for n in "${sizes[@]}"; do generate "$v" "$n" >"$work/src/${v}_$n.cpp"; done
done
printf 'int main() { return 0; }\n' >"$work/src/include_none.cpp"
printf '#include <nlohmann/json.hpp>\nint main() { return 0; }\n' >"$work/src/include_json.cpp"
printf '#include <nlohmann/json.hpp>\n#include <fmt/format.h>\n#include <boost/pfr.hpp>\n#include <openssl/evp.h>\nint main() { return 0; }\n' \
  >"$work/src/include_deps.cpp"
printf '#include <elicit/elicit.hpp>\nint main() { return 0; }\n' >"$work/src/include_elicit.cpp"
printf '#include <elicit/form/schema.hpp>\nint main() { return 0; }\n' >"$work/src/include_schema.cpp"

# ---- measuring -----------------------------------------------------------------------------

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# compile_once CXX NAME: compiles src/NAME.cpp once, leaves the object in obj/CXX/NAME.o and
# adds its wall time and peak memory to TIMES[CXX,NAME] and RSS[CXX,NAME].
declare -A TIMES RSS
compile_once() {
  local cxx=$1 name=$2 log
  mkdir -p "$work/obj/$cxx"
  log="$work/obj/$cxx/$name.time"
  if ! /usr/bin/time -v -o "$log" "$cxx" -std=c++20 -O2 -I"$include_dir" -c "$work/src/$name.cpp" \
    -o "$work/obj/$cxx/$name.o" 2>"$work/obj/$cxx/$name.err"; then
    echo "compile_cost.sh: $cxx failed on $work/src/$name.cpp:" >&2
    head -30 "$work/obj/$cxx/$name.err" >&2
    exit 1
  fi
  TIMES[$cxx,$name]+=" $(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + p[i]; print s }' "$log")"
  RSS[$cxx,$name]+=" $(awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$log")"
}

# stripped_size CXX NAME: links obj/CXX/NAME.o, strips it, prints its size in bytes.
stripped_size() {
  local cxx=$1 name=$2 exe="$work/obj/$1/$2.exe"
  "$cxx" "$work/obj/$cxx/$name.o" -o "$exe" -lfmt -lcrypto
  strip "$exe"
  stat -c %s "$exe"
}

# answer N KIND: an ElicitResult for the forms 0 to N-1, every form's part valid ("valid"), or
# the odd forms' valid and each even form's breaking one rule, a different one in turn ("mixed").
answer() {
  local n=$1 kind=$2 i f fields=()
  for ((i = 0; i < n; ++i)); do
    f=("\"name_$i\":\"Zoë $i\"" "\"count_$i\":$((100 + i))" "\"ratio_$i\":0.5" "\"enabled_$i\":false"
      "\"due_$i\":\"2024-02-29\"" "\"kind_$i\":\"gamma_$i\"")
    if [[ $kind == mixed ]] && ((i % 2 == 0)); then
      case $((i / 2 % 6)) in
        0) f[0]="\"name_$i\":\"\"" ;;
        1) f[1]="\"count_$i\":$((101 + i))" ;;
        2) f[2]="\"ratio_$i\":0.49" ;;
        3) f[3]="\"enabled_$i\":\"yes\"" ;;
        4) f[4]="\"due_$i\":\"2023-02-29\"" ;;
        5) f[5]="\"kind_$i\":\"delta_$i\"" ;;
      esac
    fi
    fields+=("${f[@]}")
  done
  local IFS=,
  printf '{"action":"accept","content":{%s}}' "${fields[*]}"
}

# agree CXX N: the executables decode_N and hand_N, linked by stripped_size, must print the same
# schemas and accept the same forms of both answers; a comparison of the two means nothing
# otherwise. (The exit code is the number of forms accepted, modulo 256.)
agree() {
  local cxx=$1 n=$2 kind want got v
  for kind in valid mixed; do
    if [[ $kind == valid ]]; then want=$((n % 256)); else want=$((n / 2 % 256)); fi
    for v in decode hand; do
      got=0
      "$work/obj/$cxx/${v}_$n.exe" "$(answer "$n" "$kind")" >"$work/obj/$cxx/${v}_$n.out" || got=$?
      if ((got != want)); then
        echo "compile_cost.sh: ${v}_$n ($cxx) accepted $got forms of the $kind answer, not $want" >&2
        exit 1
      fi
    done
    if ! cmp -s "$work/obj/$cxx/decode_$n.out" "$work/obj/$cxx/hand_$n.out"; then
      echo "compile_cost.sh: decode_$n and hand_$n ($cxx) print different schemas: $work/obj/$cxx/{decode,hand}_$n.out" >&2
      exit 1
    fi
  done
}

# Every translation unit is compiled once per round, all of them in turn, `runs` rounds: a
# spell when the machine is slower falls on every variant alike, not on one, and the ratios
# (decode / hand) stay honest. The median of the rounds is reported.
units=(include_none include_json include_deps include_schema include_elicit)
for v in "${variants[@]}"; do
  for n in "${sizes[@]}"; do units+=("${v}_$n"); done
done
for ((r = 1; r <= runs; ++r)); do
  for cxx in "${compilers[@]}"; do
    for name in "${units[@]}"; do
      echo "compile_cost.sh: round $r of $runs: $cxx $name" >&2
      compile_once "$cxx" "$name"
    done
  done
done
declare -A T M B
for cxx in "${compilers[@]}"; do
  for name in "${units[@]}"; do
    # shellcheck disable=SC2086 # the lists are words
    T[$cxx,$name]=$(median ${TIMES[$cxx,$name]}) M[$cxx,$name]=$(median ${RSS[$cxx,$name]})
  done
  for v in "${variants[@]}"; do
    for n in "${sizes[@]}"; do B[$cxx,${v}_$n]=$(stripped_size "$cxx" "${v}_$n"); done
  done
  for n in "${sizes[@]}"; do agree "$cxx" "$n"; done
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
    if [[ $v == baseline || $v == hand ]]; then
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
  for name in include_none include_json include_deps include_schema include_elicit; do
    case $name in
      include_none) what="nothing" ;;
      include_json) what="<nlohmann/json.hpp>" ;;
      include_deps) what="elicit's dependencies (json, fmt, pfr, openssl/evp)" ;;
      include_schema) what="<elicit/form/schema.hpp> (a file that only builds schemas)" ;;
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
    if [[ $v == baseline || $v == hand ]]; then line+=" $per | |"; else line+=" $per | $(calc '%.0f' "$per - $bb") |"; fi
    echo "$line"
  done
done
echo
echo "hand does not include elicit: its rows have no \"above baseline\" (the baseline TUs include <elicit/elicit.hpp>)."

# ratio A B: A / B to two places, or "n/a" when B is not above zero (a per-form slope lost in noise).
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "n/a" }'; }

echo
echo "### decode against hand-written, per form: (${last} forms - ${first} form) / $span"
echo
echo "| compiler | decode s/form | hand s/form | ratio | decode MB/form | hand MB/form | ratio | decode bytes/form | hand bytes/form |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for cxx in "${compilers[@]}"; do
  line="| $cxx |"
  for what in T M B; do
    case $what in
      T) format='%.4f'; dt=${T[$cxx,decode_$last]} d1=${T[$cxx,decode_$first]} ht=${T[$cxx,hand_$last]} h1=${T[$cxx,hand_$first]} ;;
      M) format='%.3f'; dt=${M[$cxx,decode_$last]} d1=${M[$cxx,decode_$first]} ht=${M[$cxx,hand_$last]} h1=${M[$cxx,hand_$first]} ;;
      B) format='%.0f'; dt=${B[$cxx,decode_$last]} d1=${B[$cxx,decode_$first]} ht=${B[$cxx,hand_$last]} h1=${B[$cxx,hand_$first]} ;;
    esac
    d=$(calc "$format" "($dt - $d1) / $span")
    h=$(calc "$format" "($ht - $h1) / $span")
    line+=" $d | $h |"
    if [[ $what != B ]]; then line+=" $(ratio "$d" "$h") |"; fi
  done
  echo "$line"
done

echo
echo "### decode against hand-written, the ${first}-form translation unit (fixed cost included)"
echo
echo "| compiler | decode s | hand s | ratio | decode MB | hand MB | ratio | decode bytes | hand bytes |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for cxx in "${compilers[@]}"; do
  d=decode_$first h=hand_$first
  echo "| $cxx | ${T[$cxx,$d]} | ${T[$cxx,$h]} | $(ratio "${T[$cxx,$d]}" "${T[$cxx,$h]}") |" \
    "${M[$cxx,$d]} | ${M[$cxx,$h]} | $(ratio "${M[$cxx,$d]}" "${M[$cxx,$h]}") | ${B[$cxx,$d]} | ${B[$cxx,$h]} |"
done
echo
echo "Sources and objects: $work"
