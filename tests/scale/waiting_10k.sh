#!/usr/bin/env bash
# 10,000 waiting elicitations on one conformance server (tests/conformance/server: its
# test_elicitation tool; the samples have none) with its defaults but the per-client shares
# (every client here is one address, 127.0.0.1, which may hold them all), by hand (not in
# ./build.sh test: about half a minute and 20,000 sockets; the path absolute: it runs elsewhere):
#   tests/scale/waiting_10k.sh $PWD/build/gcc/tests/conformance/server/conformance_server [COUNT]
# Raises the open-file limit (each waiting elicitation is a socket on each side), then runs
# waiting.py: every elicitation waits at once, a ping's p99 meanwhile, the RSS per waiting
# elicitation (session and connection included, < 8 KiB), every tool its own client's answer.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
count=${2:-10000}
ulimit -n "$(ulimit -Hn)"
if (($(ulimit -n) < count + 1000)); then
  echo "waiting_10k: the open-file limit $(ulimit -n) is below $((count + 1000)); raise the hard limit" >&2
  exit 1
fi
export ELICIT_MAX_SESSIONS_PER_CLIENT=$((count + 10)) ELICIT_MAX_WAITING_PER_CLIENT=$((count + 10))
export ELICIT_MAX_CONNECTIONS_PER_CLIENT=$((count + 100)) ELICIT_WAITING_MEMORY_PER_CLIENT_MB=256
cd "$(mktemp -d)"
exec python3 "$here/waiting.py" "$1" "$count" --max-bytes 8192 --json
