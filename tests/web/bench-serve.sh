#!/bin/sh
# bench-serve.sh [CLIENTS] [SECONDS] - `make bench-serve': the load test of `ponder serve' at full
# size (default 100 clients for 20 s) against ./ponder started on a free loopback port. Prints
# requests/s, latencies and the server's memory; the server is stopped at the end whatever
# happens.
set -u
cd "$(dirname "$0")/../.." || exit 1
CLIENTS=${1:-100}
SECONDS_=${2:-20}
. tests/lib/proc.sh
TMP=$(mktemp -d)
PID=""
trap '[ -n "$PID" ] && kill -9 "$PID" 2>/dev/null; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM

${PONDER:-./ponder} serve --port 0 >"$TMP/out" 2>"$TMP/err" &
PID=$!
URL=$(serve_url "$TMP/out" "$PID" 100)
if [ -z "$URL" ]; then
    echo "bench-serve: the server did not start:" >&2
    cat "$TMP/err" >&2
    exit 1
fi
echo "bench-serve: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), server $URL"
node tests/web/load.mjs "$URL" --clients "$CLIENTS" --seconds "$SECONDS_" --pid "$PID" --max-rss 400
status=$?
kill -INT "$PID"
wait "$PID"
PID=""
exit $status
