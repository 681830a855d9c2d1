#!/bin/sh
# tsan.sh - `make tsan': the multi-threaded programs under ThreadSanitizer (build/tsan/ponder):
# `ponder serve' under 50 clients for 20 s (its civetweb threads, engine workers and pusher),
# `ponder match -j 4' for 40 games against the misbehaving fake (its game threads), and the
# console thinking while it reads commands (its search thread), and the unit tests of the
# engine's jobs and threaded searches. Passes when every program
# ends as it should and ThreadSanitizer reported nothing (tests/stress/tsan.supp lists the one
# known race inside Debian's civetweb).
set -u
cd "$(dirname "$0")/../.." || exit 1
export PONDER="$PWD/build/tsan/ponder"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export TSAN_OPTIONS="halt_on_error=0 report_signal_unsafe=0 log_path=$TMP/tsan suppressions=$PWD/tests/stress/tsan.supp"
failed=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; shift; [ $# -gt 0 ] && printf '    %s\n' "$@"; failed=1; }

# reports NAME: no ThreadSanitizer report since the last call.
reports() {
    if ls "$TMP"/tsan.* >/dev/null 2>&1; then
        fail "tsan: $1" "$(grep -h -A12 'WARNING: ThreadSanitizer' "$TMP"/tsan.* | head -n 40)"
        mkdir -p "$TMP/old" && mv "$TMP"/tsan.* "$TMP/old/"
    else
        pass "tsan: $1"
    fi
}

# The engine's jobs (start, stop before the search begins, stale stops, ponder-hit, options
# during a search, free while running) and Lazy SMP searches stopped from another thread.
for t in test_engine test_search; do
    if build/tsan/tests/$t >"$TMP/$t.out" 2>&1 && ! grep -q '^FAIL' "$TMP/$t.out"; then
        pass "tsan: $t passes"
    else
        fail "tsan: $t passes" "$(grep -A3 '^FAIL' "$TMP/$t.out" | head -n 20)"
    fi
done
reports "the engine's jobs and threaded searches (unit tests): no data race"

if STRESS_MAX_RSS=4000 STRESS_NO_MEMORY=1 sh tests/stress/serve.sh 50 20 >"$TMP/serve.out" 2>&1; then
    pass "tsan: the serve stress passes ($(grep -c '^PASS' "$TMP/serve.out") checks)"
else
    fail "tsan: the serve stress passes" "$(grep -A3 '^FAIL' "$TMP/serve.out" | head -n 20)"
fi
reports "ponder serve, 50 clients for 20 s, twice: no data race"

if sh tests/stress/match.sh 40 >"$TMP/match.out" 2>&1; then
    pass "tsan: the match stress passes ($(grep -c '^PASS' "$TMP/match.out") checks)"
else
    fail "tsan: the match stress passes" "$(grep -A3 '^FAIL' "$TMP/match.out" | head -n 20)"
fi
reports "ponder match -j 4, 40 games with misbehaving programs: no data race"

# The console searching while commands arrive: a ping answered during the search, then a move
# that stops it, analyze, and quit.
{
    echo "sd 20"
    echo "go"
    sleep 1
    echo "ping 1"
    sleep 0.5
    echo "force"
    echo "analyze"
    sleep 1
    echo "quit"
} | "$PONDER" console --hash 4 >"$TMP/console.out" 2>&1
st=$?
if [ $st -eq 0 ] && grep -q '^pong 1' "$TMP/console.out"; then
    pass "tsan: the console thinks and reads commands"
else
    fail "tsan: the console thinks and reads commands" "status $st" "$(tail -n 5 "$TMP/console.out")"
fi
reports "ponder console, search thread and commands: no data race"
exit $failed
