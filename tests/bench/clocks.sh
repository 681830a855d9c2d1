#!/bin/sh
# clocks.sh - the issue's clock target (issue 16, part 3): two `ponder player --tc {tc}' play
# GAMES games (default 200) at `--tc 10+0.1' and GAMES at `--tc 40/20', and the script reports
# the losses on time of each run, which should be none. Not part of `make test': at the
# defaults it takes hours of machine time (a game at 10+0.1 lasts up to about 40 s, one at 40/20
# up to several minutes), and losses on time only mean something on a machine that is not
# overloaded (keep -j at most the number of idle cores).
#
#   sh tests/bench/clocks.sh [GAMES] [JOBS]       (from the repository root, after make)
#   TCS="2+0.05 10/2" sh tests/bench/clocks.sh 4  (other controls, for a quick look)
#
# A run that was stopped goes on where it stopped when the script is run again (`match --resume'
# reads the finished games back from the PDN; delete the PDN to start afresh). The losses on time
# and the least clock left count every game; the late answers only the games played in the last
# sitting (a PDN does not keep answer times).
# Writes its PDN and JSON under ${OUT:-build/bench/clocks}/ and prints one line per control:
#   10+0.1: 200 games, time losses 0 (first 0, second 0), least clock left 1.234 s / 1.456 s
# Exit status 0 when no game was lost on time, 1 otherwise, 2 when a match could not run.
set -u
GAMES=${1:-200}
JOBS=${2:-1}
PONDER=${PONDER:-./ponder}
OUT=${OUT:-build/bench/clocks}
mkdir -p "$OUT" || exit 2
losses=0
for tc in ${TCS:-10+0.1 40/20}; do
    name=$(printf '%s' "$tc" | tr '/+' '_p')
    "$PONDER" match -q -j "$JOBS" --games "$GAMES" --tc "$tc" --margin 0.1 --startup 2 \
        --pdn "$OUT/$name.pdn" --json "$OUT/$name.json" --names first,second --resume \
        "$PONDER player --tc {tc} --fen {fen}" "$PONDER player --tc {tc} --fen {fen}" \
        >"$OUT/$name.out" 2>"$OUT/$name.err"
    st=$?
    if [ $st -ne 0 ]; then
        echo "$tc: the match failed (status $st): $(head -c 300 "$OUT/$name.err")"
        exit 2
    fi
    # "faults": {"first": {... "timeout": N ...}, "second": {... "timeout": M ...}}
    t1=$(sed -n 's/.*"faults": {"first": {[^}]*"timeout": \([0-9]*\).*/\1/p' "$OUT/$name.json")
    t2=$(sed -n 's/.*"second": {[^}]*"timeout": \([0-9]*\).*/\1/p' "$OUT/$name.json" | tail -n 1)
    played=$(sed -n 's/.*"games": \([0-9]*\),.*/\1/p' "$OUT/$name.json" | head -n 1)
    least=$(sed -n 's/.*"min_clock_seconds": {"first": \([-0-9.]*\), "second": \([-0-9.]*\)}.*/\1 s \/ \2 s/p' \
        "$OUT/$name.json")
    late=$(sed -n 's/.*"late_replies": {"first": \([0-9]*\), "second": \([0-9]*\)}.*/\1 + \2/p' \
        "$OUT/$name.json")
    echo "$tc: $played games, time losses $((t1 + t2)) (first $t1, second $t2), least clock left $least, answers past the clock saved by the margin $late"
    losses=$((losses + t1 + t2))
done
[ $losses -eq 0 ]
