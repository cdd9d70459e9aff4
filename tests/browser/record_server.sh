#!/usr/bin/env bash
# The command the Inspector starts: the stdio sample, its stdin and stdout the Inspector's pipes,
# its stderr appended to a file, and its exit status written to another when it ends, so that
# the test reads what the server said and how it ended (the Inspector shows stderr only in its
# page, and its exit status nowhere).
#   record_server.sh SHIPMENT_SERVER STDERR_FILE STATUS_FILE
# A SIGTERM or SIGINT to this script is passed on to the server, whose status is then written.
set -u
server=$1 stderr_file=$2 status_file=$3
# An asynchronous command reads /dev/null unless told otherwise: <&0 keeps the Inspector's pipe.
"$server" <&0 2>>"$stderr_file" &
pid=$!
signalled=no
trap 'signalled=yes; kill -TERM "$pid" 2>/dev/null' TERM INT
wait "$pid"
rc=$?
if [[ $signalled == yes ]]; then  # the first wait was cut short by the trap: the server's own status
  wait "$pid"
  rc=$?
fi
echo "$rc" >"$status_file"
exit "$rc"
