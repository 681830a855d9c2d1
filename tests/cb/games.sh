#!/bin/sh
# games.sh [N] [TIME] [dll] - the closing measurement of the CheckerBoard library (not in `make
# test'): N games (default 100) of the test host (tests/cb/host.c) against `ponder player',
# TIME seconds a move for both (default 0.05), from the three-move ballots, refereed by
# `ponder match' with a 0.1 s margin (MARGIN=S in the environment changes it). With `dll'
# the host and library are the Windows builds run under wine (build/cb/cbhost.exe,
# build/cb/ponder64.dll). Prints the referee's summary and the host's faults; exits 1 if A (the
# library) lost a game by a fault (illegal move, time overrun, exit: the referee's `(A n, B n)'
# counts) or the host found one.
set -u
cd "$(dirname "$0")/../.." || exit 1
N=${1:-100}
T=${2:-0.05}
MARGIN=${MARGIN:-0.1} # the referee's grace per move (and the host's)
KIND=${3:-so}
make -s ponder cbengine || exit 1
export PONDER_EGDB=none
OUT=build/cb/games-$KIND-m$MARGIN
mkdir -p "$OUT"
if [ "$KIND" = dll ]; then
    export WINEDEBUG=-all WINEPREFIX="${WINEPREFIX:-$PWD/build/cb/wine}"
    WINE=$(command -v wine64 || echo /usr/lib/wine/wine64)
    HOST="$WINE build/cb/cbhost.exe build/cb/ponder64.dll"
    STARTUP=15
else
    HOST="build/cb/cbhost build/cb/libponder-cb.so"
    STARTUP=2
fi
rm -f "$OUT/stderr"
./ponder match -j 1 --games "$N" --time "$T" --margin "$MARGIN" --startup $STARTUP --stderr "$OUT/stderr" \
    --pdn "$OUT/games.pdn" --json "$OUT/result.json" \
    "$HOST --hash 16 --time $T --margin $MARGIN --fen {fen}" \
    "./ponder player --hash 16 --time $T --fen {fen}" >"$OUT/log" 2>&1
status=$?
tail -n 9 "$OUT/log"
faults=$(grep -c 'cbhost' "$OUT/stderr" 2>/dev/null)
echo "host faults: ${faults:-0}"
grep cbhost "$OUT/stderr" 2>/dev/null | head -n 5
[ $status -eq 0 ] && [ "${faults:-0}" -eq 0 ] &&
    ! grep '^Endings' "$OUT/log" | grep -Eq '\(A [1-9]'
