#!/bin/sh
# serve.sh [CLIENTS] [SECONDS] - stress test of `ponder serve' (part of `make stress'): the server
# on a free loopback port, CLIENTS concurrent clients (default 200) for SECONDS (default 30),
# players and misbehaving ones (tests/stress/serve-clients.mjs), twice on the same server, its
# memory sampled: under 300 MB, and bounded: the second round may add at most half what the
# first added (or 8 MB), where a leak would add as much again. Then SIGINT: it must stop within
# 15 s with status 0. STRESS_MAX_RSS changes the 300 MB (an ASan build needs more);
# STRESS_NO_MEMORY=1 skips the levelling check (under ThreadSanitizer).
set -u
cd "$(dirname "$0")/../.." || exit 1
CLIENTS=${1:-200}
SECS=${2:-30}
PONDER=${PONDER:-$PWD/ponder}
. tests/lib/proc.sh
TMP=$(mktemp -d)
PID=""
trap '[ -n "$PID" ] && kill -9 "$PID" 2>/dev/null; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; shift; [ $# -gt 0 ] && printf '    %s\n' "$@"; }

command -v node >/dev/null || { fail "serve stress: node is not installed"; exit 1; }
"$PONDER" serve --port 0 --workers 2 >"$TMP/out" 2>"$TMP/err" &
PID=$!
URL=$(serve_url "$TMP/out" "$PID" 100)
if [ -z "$URL" ]; then
    fail "serve stress: the server did not start" "$(head -c 600 "$TMP/err")"
    exit 1
fi
echo "stress: ponder serve at $URL (pid $PID), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
for round in 1 2; do
    node tests/stress/serve-clients.mjs "$URL" "$PID" --clients "$CLIENTS" --seconds "$SECS" \
        --max-rss "${STRESS_MAX_RSS:-300}" >"$TMP/round$round" 2>&1 || status=1
    sed "s/^\(PASS\|FAIL\) serve stress:/\1 serve stress (round $round):/" "$TMP/round$round" | grep -v '^stress: rss '
done
# The RSS growth of each round (MB): start and end of each.
g1=$(awk '/^stress: rss /{printf "%d", $4 - $3}' "$TMP/round1")
g2=$(awk '/^stress: rss /{printf "%d", $4 - $3}' "$TMP/round2")
if [ "${STRESS_NO_MEMORY:-0}" = 1 ]; then
    : # a sanitizer's shadow memory says nothing about the server's
elif [ -n "$g1" ] && [ -n "$g2" ] && { [ "$g2" -le $((g1 / 2)) ] || [ "$g2" -le 8 ]; }; then
    pass "serve stress: memory levels off (round 1 added $g1 MB, round 2 $g2 MB)"
else
    fail "serve stress: memory levels off" "round 1 added ${g1:-?} MB, round 2 ${g2:-?} MB"
    status=1
fi

threads=$(ls "/proc/$PID/task" 2>/dev/null | wc -l)
kill -INT "$PID"
if ! wait_exit "$PID" 150; then
    fail "serve stress: SIGINT stops the server within 15 s" "still running ($threads threads)"
    status=1
else
    wait "$PID"
    st=$?
    PID=""
    if [ "$st" -eq 0 ]; then
        pass "serve stress: SIGINT stops the server in $((WAITED / 10)).$((WAITED % 10)) s, status 0 ($threads threads before)"
    else
        fail "serve stress: SIGINT stops the server with status 0" "status $st" "$(tail -c 600 "$TMP/err")"
        status=1
    fi
fi
exit $((status != 0))
