#!/usr/bin/env bash
# The official MCP conformance suite's client scenarios against tests/conformance/client.
#   run_client.sh CLIENT_BINARY WORK_DIR SCENARIO[:SPEC-VERSION]...
# Installs Node.js 22 and the pinned suite into WORK_DIR when they are missing (as run.sh does),
# then runs each scenario with the client as its command. It passes only when every scenario is
# one the suite has, each run wrote one checks.json with at least one SUCCESS, and every check is
# SUCCESS but the suite's INFO lines (its log of the traffic).
set -euo pipefail
client_bin=$1
work=$2
shift 2
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/suite.sh"
cd "$work"
listed=$("$node22" "$suite" list --client)
failed=0
for run in "$@"; do
  scenario=${run%%:*}
  version=""
  [[ $run == *:* ]] && version=${run#*:}
  if ! grep -qE "^\s*-\s*$scenario(\s|$)" <<<"$listed"; then
    echo "conformance: the suite $suite_version has no client scenario \"$scenario\"" >&2
    exit 1
  fi
  out="$work/results-client-$scenario${version:+-$version}"
  rm -rf "$out"
  args=(client --command "$client_bin" --scenario "$scenario" --output-dir "$out" --timeout 20000)
  [[ -n $version ]] && args+=(--spec-version "$version")
  echo "=== client scenario $scenario ${version:+at $version}"
  "$node22" "$suite" "${args[@]}" || true
  mapfile -t files < <(find "$out" -name checks.json)
  if ((${#files[@]} != 1)); then
    echo "conformance: $scenario wrote ${#files[@]} checks.json files, not one" >&2
    failed=1
    continue
  fi
  if ! python3 - "${files[0]}" "$scenario" <<'PY'; then
import json, sys
checks = json.load(open(sys.argv[1]))
# INFO checks are the suite's log of the traffic; every other check must be SUCCESS.
bad = [c for c in checks if c.get("status") not in ("SUCCESS", "INFO")]
for c in checks:
    print(f"  {c.get('status'):8} {c.get('id')}" + (f": {c.get('errorMessage')}" if c.get("errorMessage") else ""))
if not any(c.get("status") == "SUCCESS" for c in checks) or bad:
    print(f"conformance: {sys.argv[2]}: {len(bad)} of {len(checks)} checks not SUCCESS", file=sys.stderr)
    sys.exit(1)
PY
    failed=1
  fi
done
exit $failed
