#!/bin/sh
# games.sh [N] [TIME] - the closing measurement of `ponder hub' (not in `make test'): N games
# (default 100) of `ponder hub', driven through the Hub client tests/hub/client.c as pydraughts
# drives an engine, against `ponder player', TIME seconds a move for both (default 0.05), from
# the three-move ballots, refereed by `ponder match' (margin 0.1 s a move, or
# MARGIN=S from the environment). Prints the referee's summary and the
# client's faults (an `error' line, an illegal move, an engine that ended); exits 1 on any, or when A
# (the Hub engine) lost a game by a fault (the referee's `(A n, B n)' counts).
set -u
cd "$(dirname "$0")/../.." || exit 1
N=${1:-100}
T=${2:-0.05}
MARGIN=${MARGIN:-0.1} # the referee's grace per move (and the host's)
make -s ponder build/hub/hubclient || exit 1
export PONDER_EGDB=none
OUT=build/hub/games-m$MARGIN
mkdir -p "$OUT"
rm -f "$OUT/stderr"
./ponder match -j 1 --games "$N" --time "$T" --margin "$MARGIN" --startup 2 --stderr "$OUT/stderr" \
    --pdn "$OUT/games.pdn" --json "$OUT/result.json" \
    "build/hub/hubclient --time $T --fen {fen} -- ./ponder hub" \
    "./ponder player --hash 16 --time $T --fen {fen}" >"$OUT/log" 2>&1
status=$?
tail -n 9 "$OUT/log"
faults=$(grep -c 'hubclient' "$OUT/stderr" 2>/dev/null)
echo "client faults: ${faults:-0}"
grep hubclient "$OUT/stderr" 2>/dev/null | head -n 5
[ $status -eq 0 ] && [ "${faults:-0}" -eq 0 ] &&
    ! grep '^Endings' "$OUT/log" | grep -Eq '\(A [1-9]'
