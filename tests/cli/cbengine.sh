#!/bin/sh
# cbengine.sh - Ponder as a CheckerBoard engine (src/cbengine.c, make cbengine): the library
# built afresh, its exports, enginecommand's answers to every command (tests/data/cbengine,
# bad values included), getmove on chosen and on broken boards, *playnow, then whole games
# through the test host (tests/cb/host.c, which checks every board the library hands back
# against the legal moves) refereed by `ponder match' against `ponder player': with and without
# "set gamehist", with exact and incremental time. The Windows DLL under wine is `make
# cbengine-wine' (too slow to start for this suite).
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LIB=$ROOT/build/cb/libponder-cb.so
HOST=$ROOT/build/cb/cbhost

if ! make -s -C "$ROOT" build/cb/libponder-cb.so build/cb/cbhost >"$TMP/make" 2>&1; then
    fail "make cbengine builds the library and the host" "$(tail -n 20 "$TMP/make")"
    exit 0
fi
pass "make cbengine builds the library and the host"

nm -D --defined-only "$LIB" | awk '$2 == "T" { print $3 }' | sort >"$TMP/exports"
printf 'enginecommand\nenginename\ngetmove\nislegal\n' >"$TMP/want"
expect_same "the library exports the CheckerBoard API and nothing else" "$TMP/want" "$TMP/exports"

# Loading the library touches no file: with a database directory waiting where the programs
# look by default, a load (and no call) must not look there.
if command -v strace >/dev/null 2>&1; then
    mkdir -p "$TMP/home/.local/share/ponder/egdb"
    : >"$TMP/home/.local/share/ponder/egdb/db-2.egdb"
    env -u PONDER_EGDB -u XDG_DATA_HOME HOME="$TMP/home" strace -f -e trace=%file,getdents64 \
        "$HOST" "$LIB" --commands </dev/null >/dev/null 2>"$TMP/trace"
    if grep -q "$TMP/home" "$TMP/trace" || ! grep -q 'libponder-cb.so' "$TMP/trace"; then
        fail "loading the library reads no file" "$(grep -A 5 'libponder-cb.so' "$TMP/trace")"
    else pass "loading the library reads no file"; fi
fi

"$HOST" "$LIB" --commands <"$PONDER_DATA/cbengine/commands.in" >"$TMP/out" 2>&1
expect_same "enginecommand transcript" "$PONDER_DATA/cbengine/commands.out" "$TMP/out"

# "about" names the network's path. The library is built for any x86-64 (no -march=native), so
# on a CPU with AVX2 it must have chosen the AVX2 path at run time, or the AVX-512 one on a CPU
# with AVX-512 F, BW, VL and VNNI: the portable one is about 15 times slower (once the only one,
# it made the library play 200 Elo below `ponder player').
echo about | "$HOST" "$LIB" --commands >"$TMP/out" 2>&1
expect_grep "about: the network evaluation and its path" 'neural-network evaluation$' "$TMP/out"
expect_grep "about: the version" "^about -> 1 Ponder $(sed -n 's/.*PONDER_VERSION "\(.*\)".*/\1/p' "$ROOT/src/types.h" | sed 's/\./\\./g'), a checkers" "$TMP/out"
# ... and the built-in network by the name in its header (bytes 40-63 of the file).
net=$(dd if="$ROOT/data/nets/default.pnet" bs=1 skip=40 count=24 2>/dev/null | tr -d '\000')
expect_grep "about: the network's name and shape" "^Network: $net \\([0-9]+ inputs, [0-9]+-[0-9]+-[0-9]+, [0-9]+ output buckets?\\)$" "$TMP/out"
if grep -qw avx2 /proc/cpuinfo 2>/dev/null && [ "$(uname -m)" = x86_64 ]; then
    if grep -w avx512f /proc/cpuinfo | grep -w avx512bw | grep -w avx512vl | grep -qw avx512_vnni; then
        expect_grep "about: AVX-512 chosen at run time on this CPU" '^\(avx512 with vnni, chosen at run time\) and an opening book,$' "$TMP/out"
    else
        expect_grep "about: AVX2 chosen at run time on this CPU" '^\(avx2, chosen at run time\) and an opening book,$' "$TMP/out"
    fi
else
    expect_grep "about: the portable path without AVX2" '^\(portable' "$TMP/out"
fi

# position ARGS... -> EXPECTED: one getmove on a FEN (and board[x][y] overwrites).
position() {
    want=$1
    shift
    "$HOST" "$LIB" --position "$@" >"$TMP/out" 2>&1
    printf '%b\n' "$want" >"$TMP/want"
    expect_same "getmove on $*" "$TMP/want" "$TMP/out"
}
position 'returned 3, board changed' B:W21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,11
position 'returned 1, board changed' B:W15:B10
position 'returned 2, board unchanged\nPonder: no legal move' W:W:B1
position 'returned 2, board unchanged\nPonder: no legal move' B:W32:B28
# A man on its own crowning row: refused with the message every program gives.
position 'returned 3, board unchanged\nPonder: a White man on square 1, its crowning row (write it as a king: K1)' \
    B:W1:B28
position 'returned 3, board unchanged\nPonder: a Black man on square 32, its crowning row (write it as a king: K32)' \
    W:W5:B32
position 'returned 3, board unchanged\nPonder: a piece (6) on the light square board[0][1]' \
    B:W21:B1 0 1 6
position 'returned 3, board unchanged\nPonder: board[6][0] (square 1) holds 7, not a piece' \
    B:W21:B1 6 0 7
position 'returned 3, board unchanged\nPonder: board[6][0] (square 1) holds 16, not a piece' \
    B:W21:B1 6 0 16

# The opening book: from the start the built-in book answers (the status line says so); "set
# book 0" searches instead. "set bookfile" reads the file when it is set: a bare name is found
# beside the library (CheckerBoard's engines folder), a file that is not a book is refused with
# the reason, and the book stays what it was.
START=B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12
"$HOST" "$LIB" --position "$START" >"$TMP/out" 2>&1
expect_grep "getmove from the start plays from the built-in book" '^book move [0-9]+-[0-9]+$' "$TMP/out"
"$HOST" "$LIB" --command "set book 0" --position "$START" >"$TMP/out" 2>&1
if grep -q '^set book 0 -> 1 book 0$' "$TMP/out" && grep -q '^returned 3, board changed$' "$TMP/out" &&
    ! grep -q '^book move' "$TMP/out"; then pass "set book 0: a search, no book move"
else fail "set book 0: a search, no book move" "$(cat "$TMP/out")"; fi
mkdir -p "$TMP/engines" "$TMP/elsewhere"
cp "$LIB" "$TMP/engines/libponder-cb.so"
cp "$ROOT/data/book/default.pbk" "$TMP/engines/mine.pbk"
printf 'not a book\n' >"$TMP/engines/bad.pbk"
(cd "$TMP/elsewhere" && "$HOST" "$TMP/engines/libponder-cb.so" --command "set bookfile mine.pbk" \
    --command "set bookfile bad.pbk" --command "get bookfile" --position "$START") >"$TMP/out" 2>&1
expect_grep "set bookfile NAME: the file beside the library" "^set bookfile mine.pbk -> 1 $TMP/engines/mine.pbk\$" "$TMP/out"
expect_grep "set bookfile of a file that is not a book: refused with the reason" \
    '^set bookfile bad.pbk -> 0 .*bad.pbk: offset 0: too short for a book' "$TMP/out"
expect_grep "...and the book stays the one set before" "^get bookfile -> 1 $TMP/engines/mine.pbk\$" "$TMP/out"
expect_grep "...which getmove plays from" '^book move [0-9]+-[0-9]+$' "$TMP/out"

# "set contempt" reaches the search: Black to move can repeat the position after 1-5 (a draw).
# At contempt -1000 the draw is worth ten men to the engine, so it repeats and says so; at 0 the
# draw is worth nothing and the score is the network's, not ten men.
KK=B:WK32:BK1
HIST="set gamehist $KK 1-5 32-27 5-1 27-32"
"$HOST" "$LIB" --status --command "set contempt -1000" --command "$HIST" --position "$KK" >"$TMP/out" 2>&1
if grep -q '^set contempt -1000 -> 1 contempt -1000$' "$TMP/out" &&
    grep -q 'score +10.00 .* pv 1-5' "$TMP/out"; then pass "set contempt -1000: the engine seeks the repetition"
else fail "set contempt -1000: the engine seeks the repetition" "$(cat "$TMP/out")"; fi
"$HOST" "$LIB" --status --command "set contempt 0" --command "$HIST" --position "$KK" >"$TMP/out" 2>&1
if grep -q '^depth .* score ' "$TMP/out" && ! grep -q 'score +10.00' "$TMP/out"; then
    pass "set contempt 0: the repetition is worth nothing"
else fail "set contempt 0: the repetition is worth nothing" "$(cat "$TMP/out")"; fi

# games NAME REFEREE-OPTIONS HOST-OPTIONS: a short match of the host against ponder player; no
# illegal move, no host fault, no answer later than a second past its time (the suite runs on
# loaded machines; tests/cb/games.sh measures the timing).
games() {
    name=$1 ropts=$2 hopts=$3
    rm -f "$TMP/stderr"
    # shellcheck disable=SC2086
    "$PONDER" match -q -j 1 --max-plies 60 --startup 5 --margin 1 $ropts --stderr "$TMP/stderr" \
        --pdn "$TMP/games.pdn" "$HOST $LIB --hash 4 --margin 1 $hopts --fen {fen}" \
        "$PONDER player --hash 4 --time 0.02 --fen {fen}" >"$TMP/out" 2>&1
    status=$?
    if [ $status -ne 0 ] || grep -Eq 'illegal|time overrun|exited|crash' "$TMP/out" ||
        grep -q 'cbhost' "$TMP/stderr" 2>/dev/null; then
        fail "$name" "status $status" "$(tail -n 8 "$TMP/out")" \
            "$(grep cbhost "$TMP/stderr" 2>/dev/null | head -n 5)"
    else pass "$name"; fi
}
games "two games through the library with set gamehist" "--time 0.02 --games 2" "--time 0.02"
games "two games through the library without set gamehist" "--time 0.02 --games 2" \
    "--time 0.02 --no-gamehist"
games "a game with CB_EXACT_TIME" "--time 0.02 --games 1" "--time 0.02 --exact"
games "a game on an incremental clock (0.5 s + 0.01 s)" "--time 0.2 --games 1" "--incr 500 10"
games "*playnow answers at once (30 s asked, play now after 0.05 s, answer by 1.45 s)" "--time 1 --games 1" \
    "--time 30 --playnow 0.05"
