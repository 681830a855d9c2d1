#!/bin/sh
# serve.sh - `ponder serve`, the web board: arguments, then servers started on free loopback
# ports for the API tests (tests/web/api.mjs, api-review.mjs for play and review), the browser test in headless Chromium
# (tests/web/browser.mjs, screenshots in build/), a short load test (tests/web/load.mjs; the
# 20-second one is `make bench-serve'), eviction, and a clean stop on SIGINT and SIGTERM with a
# search running. Every server is killed at the end, even when a check fails.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../lib/proc.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SERVERS=""
cleanup() {
    for p in $SERVERS; do kill -9 "$p" 2>/dev/null; done
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# start_server NAME ARGS... : starts `ponder serve --port 0 ARGS' in the background; sets PID
# and URL (from its first line) or fails NAME. Output goes to $TMP/NAME.out and .err.
start_server() {
    name=$1
    shift
    "$PONDER" serve --port 0 "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
    PID=$!
    SERVERS="$SERVERS $PID"
    URL=$(serve_url "$TMP/$name.out" "$PID" 100)
    if [ -z "$URL" ]; then
        fail "serve: $name server starts" "$(cat "$TMP/$name.err")"
        return 1
    fi
    return 0
}

# stop_server NAME SIGNAL : sends SIGNAL, checks that the server ends within 10 s with status 0
# and says so.
stop_server() {
    kill "-$2" "$PID" 2>/dev/null
    if ! wait_exit "$PID" 100; then
        kill -9 "$PID"
        fail "serve: $1 stops on SIG$2" "still running after 10 s"
        return
    fi
    wait "$PID"
    st=$?
    if [ $st -eq 0 ] && grep -q '^ponder serve: stopped' "$TMP/$1.out"; then
        pass "serve: $1 stops on SIG$2 (status 0)"
    else
        fail "serve: $1 stops on SIG$2 (status 0)" "status $st" "$(tail -n 20 "$TMP/$1.err")"
    fi
}

# run_node NAME SCRIPT ARGS... : runs a node test; its PASS/FAIL lines go to our output. A run
# that dies without a FAIL line is one.
run_node() {
    name=$1
    shift
    node "$@" >"$TMP/node.out" 2>&1
    st=$?
    cat "$TMP/node.out"
    if [ $st -ne 0 ] && ! grep -q '^FAIL ' "$TMP/node.out"; then
        fail "serve: $name ran (status $st)"
    fi
}

# ---- arguments ----
expect_status "serve: --help exits 0" 0 "$PONDER" serve --help
expect_grep "serve: --help prints the usage" "^usage: ponder serve" "$TMP/out"
expect_status "serve: unknown option exits 2" 2 "$PONDER" serve --bogus
expect_grep "serve: unknown option is named" "unknown option .--bogus" "$TMP/err"
expect_status "serve: stray argument exits 2" 2 "$PONDER" serve extra
expect_status "serve: --port 70000 exits 2" 2 "$PONDER" serve --port 70000
expect_status "serve: --port x exits 2" 2 "$PONDER" serve --port x
expect_grep "serve: --port x names the program, the option and why" \
    "^ponder serve: --port: .x' is not a whole number from 0 to 65535$" "$TMP/err"
expect_status "serve: --port without a value exits 2" 2 "$PONDER" serve --port
expect_status "serve: --host name.example exits 2" 2 "$PONDER" serve --host name.example
expect_grep "serve: a bad --host is explained" "not an IPv4 address" "$TMP/err"
expect_status "serve: --workers 0 exits 2" 2 "$PONDER" serve --workers 0
expect_status "serve: --max-games 0 exits 2" 2 "$PONDER" serve --max-games 0
expect_status "serve: --max-time 0 exits 2" 2 "$PONDER" serve --max-time 0
expect_status "serve: --hash 0 exits 2" 2 "$PONDER" serve --hash 0
expect_option_limit serve hash 1 65536
expect_option_limit serve contempt -1000 1000
expect_usage_error "serve: --threads is not its option (--workers is)" "unknown option \`--threads'" \
    "$PONDER" serve --threads 2
expect_usage_error "serve: -- ends the options" "unexpected argument \`--verbose'" \
    "$PONDER" serve -- --verbose

command -v node >/dev/null 2>&1 || fail "serve: node is installed (scripts/deps/serve.list)"

if [ "${PONDER_VARIANT:-release}" = asan ]; then
    LOAD_CLIENTS=20 LOAD_SECONDS=3
else
    LOAD_CLIENTS=100 LOAD_SECONDS=5
fi

# ---- the API, the browser, the load ----
# A 3-piece endgame database (0.3 s to build) so that the databases' verdict can be seen.
"$PONDER" egdb build --pieces 3 --dir "$TMP/egdb" >"$TMP/egdb.out" 2>&1 ||
    fail "serve: a 3-piece database for the tests is built" "$(tail -n 5 "$TMP/egdb.out")"
if start_server main --workers 2 --hash 8 --egdb "$TMP/egdb"; then
    MAIN=$PID
    run_node api "$ROOT/tests/web/api.mjs" "$URL"
    run_node api-review "$ROOT/tests/web/api-review.mjs" "$URL"
    mkdir -p "$ROOT/build"
    run_node browser "$ROOT/tests/web/browser.mjs" "$URL" "$ROOT/build"
    if [ "${PONDER_VARIANT:-release}" = asan ]; then
        run_node load "$ROOT/tests/web/load.mjs" "$URL" --clients $LOAD_CLIENTS --seconds $LOAD_SECONDS
    else
        run_node load "$ROOT/tests/web/load.mjs" "$URL" --clients $LOAD_CLIENTS --seconds $LOAD_SECONDS \
            --pid "$MAIN" --max-rss 400
    fi
    PID=$MAIN
    stop_server main INT
fi

# ---- a port in use ----
if start_server first --workers=1 --hash=1; then # getopt_long: --opt=value too
    port=$(echo "$URL" | sed 's/.*:\([0-9]*\)\/$/\1/')
    expect_status "serve: a port in use exits 1" 1 "$PONDER" serve --port "$port" --workers 1 --hash 1
    expect_grep "serve: a port in use is explained" "cannot listen on 127.0.0.1:$port" "$TMP/err"
    # Said once, with the reason and the way out (it was three lines, the last without the reason).
    expect_grep "serve: a port in use names the reason and --port 0" \
        "^ponder serve: cannot listen on 127.0.0.1:$port: Address already in use .*--port 0" "$TMP/err"
    lines=$(wc -l <"$TMP/err")
    if [ "$lines" -eq 1 ]; then pass "serve: a port in use is one line"; else
        fail "serve: a port in use is one line" "$(cat "$TMP/err")"
    fi
    stop_server first TERM
fi

# ---- eviction: with room for 2 games, a third evicts the least recently used ----
if start_server evict --work 1 --hash 1 --max-games=2 --; then # abbreviation, --
    new_game() { curl -s -X POST -H 'Content-Type: application/json' -d '{}' "${URL}api/games" | sed -n 's/^{"id":"\([0-9a-f]*\)".*/\1/p'; }
    a=$(new_game)
    b=$(new_game)
    curl -s -o /dev/null "${URL}api/games/$a" # a is now more recent than b
    c=$(new_game)
    sa=$(curl -s -o /dev/null -w '%{http_code}' "${URL}api/games/$a")
    sb=$(curl -s -o /dev/null -w '%{http_code}' "${URL}api/games/$b")
    sc=$(curl -s -o /dev/null -w '%{http_code}' "${URL}api/games/$c")
    if [ -n "$a" ] && [ -n "$c" ] && [ "$sa $sb $sc" = "200 404 200" ]; then
        pass "serve: a full store evicts the least recently used game"
    else
        fail "serve: a full store evicts the least recently used game" "a=$a:$sa b=$b:$sb c=$c:$sc"
    fi
    curl -s "${URL}api/status" >"$TMP/status.json"
    expect_grep "serve: the status counts the eviction" '"games":2,.*"evicted":1' "$TMP/status.json"

    # ---- Ctrl-C with a search running, a request waiting for it and a WebSocket open ----
    curl -sS -X POST -H 'Content-Type: application/json' -d '{"time":30,"wait":true}' \
        "${URL}api/games/$c/engine" >"$TMP/wait.json" 2>&1 &
    CURL=$!
    cat >"$TMP/ws.mjs" <<EOF
import { websocket } from '$ROOT/tests/web/lib.mjs';
const ws = await websocket('$URL', '/api/live?game=$c');
console.log('status', ws.status);
while ((await ws.next(20000)) !== null);
console.log('closed');
EOF
    node "$TMP/ws.mjs" >"$TMP/ws.out" 2>&1 &
    WS=$!
    # Wait (bounded) until the search runs and the socket is open.
    i=0
    while [ $i -lt 100 ]; do
        curl -s "${URL}api/status" >"$TMP/status.json"
        grep -q '"thinking":1' "$TMP/status.json" && grep -q status "$TMP/ws.out" 2>/dev/null && break
        sleep 0.1
        i=$((i + 1))
    done
    t0=$(date +%s)
    stop_server evict INT
    wait "$CURL"
    wait "$WS"
    if [ $(($(date +%s) - t0)) -le 3 ]; then
        pass "serve: SIGINT ends a 30 s search, its waiting request and a WebSocket at once"
    else
        fail "serve: SIGINT ends a 30 s search, its waiting request and a WebSocket at once" "took $(($(date +%s) - t0)) s"
    fi
    expect_grep "serve: the WebSocket was open until the server closed it" "status 101" "$TMP/ws.out"
    expect_grep "serve: the waiting request was answered" 'shutting down|"ply":1' "$TMP/wait.json"
fi
