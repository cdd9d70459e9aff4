#!/usr/bin/env bash
# Installs the pinned TypeScript SDK (package-lock.json) into WORK_DIR when missing or changed,
# then runs roundtrip.mjs against the stdio sample. roundtrip.mjs reads the server as well as the
# SDK: each session's server must exit by itself with status 0 and no sanitizer report on its
# stderr, and each requestedSchema it writes must be the committed file, keys in the same order.
#   run.sh SHIPMENT_SERVER SCHEMAS_DIR WORK_DIR
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
server=$1 schemas=$2 work=$3
mkdir -p "$work"
if ! cmp -s "$here/package-lock.json" "$work/package-lock.json" || [[ ! -d "$work/node_modules/@modelcontextprotocol/sdk" ]]; then
  cp "$here/package.json" "$here/package-lock.json" "$work/"
  (cd "$work" && npm ci --no-audit --no-fund --silent)
fi
cp "$here/roundtrip.mjs" "$here/shipment_runs.mjs" "$work/"
node "$work/roundtrip.mjs" "$server" "$schemas"
