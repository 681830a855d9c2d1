#!/bin/sh
# match.sh [GAMES] - stress test of `ponder match' (part of `make stress'): GAMES games (default
# 200) at -j 4 between an honest random mover and tests/stress/chaos.sh, which misbehaves in a
# different way from game to game. Checks that the match ends with status 0 and that nothing is
# lost (the JSON counts GAMES games, its results and causes add up, the PDN holds GAMES complete
# games), that no process is left running (every program started carries a marker in its
# environment), and that the referee's memory stays bounded (its RSS, sampled from /proc). Then
# the same match is interrupted by SIGINT after a few seconds: it must stop at once, keep every
# finished game, and leave nothing running.
set -u
cd "$(dirname "$0")/../.." || exit 1
GAMES=${1:-200}
PONDER=${PONDER:-$PWD/ponder}
. tests/lib/proc.sh
TMP=$(mktemp -d)
MARK="ponder-stress-match-$$"
PID=""
trap '[ -n "$PID" ] && kill -9 "$PID" 2>/dev/null; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
failed=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; shift; [ $# -gt 0 ] && printf '    %s\n' "$@"; failed=1; }

# The processes still carrying this run's marker in their environment, waiting up to 2 s.
leftovers() {
    i=0
    while [ $i -lt 20 ]; do
        found=$(grep -las "PONDER_STRESS_MARK=$MARK" /proc/[0-9]*/environ 2>/dev/null)
        [ -z "$found" ] && return 0
        sleep 0.1
        i=$((i + 1))
    done
    for f in $found; do
        p=${f#/proc/}
        tr '\0' ' ' <"/proc/${p%/environ}/cmdline" 2>/dev/null
        echo
    done
}

rss_kb() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$1/status" 2>/dev/null; }

RAND="$PONDER player --random --seed {seed} --fen {fen}"
CHAOS="sh $PWD/tests/stress/chaos.sh $PONDER {seed} --fen {fen}"
OPTS="-j 4 --time 0.05 --margin 0.5 --startup 2 --seed 11"

# --- the whole match -------------------------------------------------------------------------
start=$(date +%s)
PONDER_STRESS_MARK=$MARK "$PONDER" match $OPTS --games "$GAMES" --json "$TMP/m.json" \
    --pdn "$TMP/m.pdn" --names chaos,random "$CHAOS" "$RAND" >"$TMP/m.out" 2>"$TMP/m.err" &
PID=$!
peak=0 first=0 samples=0 procs=0
while kill -0 "$PID" 2>/dev/null; do
    r=$(rss_kb "$PID")
    [ -n "$r" ] && [ "$r" -gt "$peak" ] && peak=$r
    [ $samples -eq 10 ] && first=$peak
    n=$(grep -las "PONDER_STRESS_MARK=$MARK" /proc/[0-9]*/environ 2>/dev/null | wc -l)
    [ "$n" -gt "$procs" ] && procs=$n
    samples=$((samples + 1))
    sleep 0.5
done
wait "$PID"
st=$?
PID=""
secs=$(($(date +%s) - start))
echo "stress: match of $GAMES games at -j 4 in $secs s; referee RSS peak $((peak / 1024)) MB" \
    "(after 5 s: $((first / 1024)) MB); at most $procs processes at once"
grep -E '^(Score|Elo)' "$TMP/m.out" | sed 's/^/stress:   /'
echo "stress:   ends: $(sed -n 's/.*"causes": {\([^}]*\)}.*/\1/p' "$TMP/m.json" | head -n 1)"
echo "stress:   faults of chaos: $(sed -n 's/.*"faults": {"first": {\([^}]*\)}.*/\1/p' "$TMP/m.json" | head -n 1)"
if [ $st -eq 0 ]; then pass "match stress: the match completes"; else
    fail "match stress: the match completes" "exit status $st" "$(tail -c 800 "$TMP/m.err")"
fi
games=$(sed -n 's/.*"games": \([0-9]*\),.*/\1/p' "$TMP/m.json" | head -n 1)
w=$(sed -n 's/.*"wins": \([0-9]*\),.*/\1/p' "$TMP/m.json" | head -n 1)
d=$(sed -n 's/.*"draws": \([0-9]*\),.*/\1/p' "$TMP/m.json" | head -n 1)
l=$(sed -n 's/.*"losses": \([0-9]*\),.*/\1/p' "$TMP/m.json" | head -n 1)
causes=$(sed -n 's/.*"causes": {\([^}]*\)}.*/\1/p' "$TMP/m.json" | tr ',' '\n' |
    sed -n 's/.*: *\([0-9]*\)/\1/p' | awk '{s += $1} END {print s + 0}')
if [ "${games:-0}" -eq "$GAMES" ] && [ $((w + d + l)) -eq "$GAMES" ] && [ "$causes" -eq "$GAMES" ]; then
    pass "match stress: the JSON counts $GAMES games (W $w, D $d, L $l; causes add up)"
else
    fail "match stress: the JSON counts $GAMES games" "games ${games:-?}, W+D+L $((w + d + l)), causes $causes" \
        "$(head -c 600 "$TMP/m.json")"
fi
results=$(grep -c '^\[Result "' "$TMP/m.pdn")
ends=$(grep -cE '(1-0|0-1|1/2-1/2)$' "$TMP/m.pdn")
if [ "$results" -eq "$GAMES" ] && [ "$ends" -eq "$GAMES" ]; then
    pass "match stress: the PDN holds $GAMES complete games"
else
    fail "match stress: the PDN holds $GAMES complete games" "$results Result tags, $ends movetexts ending in a result"
fi
left=$(leftovers)
if [ -z "$left" ]; then pass "match stress: no process left running"; else
    fail "match stress: no process left running" "$left"
fi
if [ "$peak" -lt 100000 ]; then pass "match stress: the referee stays under 100 MB ($((peak / 1024)) MB)"; else
    fail "match stress: the referee stays under 100 MB" "peak RSS $((peak / 1024)) MB"
fi

# --- interrupted -----------------------------------------------------------------------------
# A background job of a script starts with SIGINT ignored, and the referee keeps it so (as
# nohup would): give it the default back, as a terminal's Ctrl-C would find it.
DFL=""
env --default-signal=INT true 2>/dev/null && DFL="env --default-signal=INT"
PONDER_STRESS_MARK=$MARK $DFL "$PONDER" match $OPTS --games "$GAMES" --json "$TMP/i.json" \
    --pdn "$TMP/i.pdn" "$CHAOS" "$RAND" >"$TMP/i.out" 2>"$TMP/i.err" &
PID=$!
sleep 3
kill -INT "$PID"
if ! wait_exit "$PID" 100; then
    fail "match stress: SIGINT stops the match within 10 s"
    kill -9 "$PID"
    wait "$PID"
else
    wait "$PID"
    st=$?
    played=$(grep -c '^\[Result "' "$TMP/i.pdn" 2>/dev/null)
    if [ $st -eq 130 ] && [ "${played:-0}" -lt "$GAMES" ]; then
        pass "match stress: SIGINT stops the match in $((WAITED / 10)).$((WAITED % 10)) s (status 130)"
    else
        fail "match stress: SIGINT stops the match, status 130" "status $st, ${played:-0} games played"
    fi
fi
PID=""
results=$(grep -c '^\[Result "' "$TMP/i.pdn" 2>/dev/null)
ends=$(grep -cE '(1-0|0-1|1/2-1/2)$' "$TMP/i.pdn" 2>/dev/null)
if [ "${results:-0}" -eq "${ends:-0}" ]; then
    pass "match stress: the interrupted match kept its ${results:-0} finished games, whole"
else
    fail "match stress: the interrupted match kept its finished games, whole" "$results Result tags, $ends endings"
fi
left=$(leftovers)
if [ -z "$left" ]; then pass "match stress: no process left running after SIGINT"; else
    fail "match stress: no process left running after SIGINT" "$left"
fi
exit $failed
