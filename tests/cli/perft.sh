#!/bin/sh
# perft.sh - `ponder perft' from the command line: the output format, counts against
# tests/data/perft.txt, --divide (its lines sum to the total), --paths, --rules, --fen, --hash,
# and bad arguments (exit 2 with the message and `see ponder perft --help' on stderr). Expected counts of the small positions were
# worked out by hand (see tests/unit/test_movegen.c for the board geometry).
. "$(dirname "$0")/lib.sh"

# perft_line FILE D : the node count of the `perft D ...' line of FILE.
perft_line() { awk -v d="$2" '$1 == "perft" && $2 == d { print $3 }' "$1"; }

# check_nodes NAME FILE D EXPECTED
check_nodes() {
    got=$(perft_line "$2" "$3")
    if [ "$got" = "$4" ]; then pass "$1"; else fail "$1" "perft $3 gave '$got', expected $4"; fi
}

# ---- format and counts from the start ------------------------------------------------------
DEPTH=9
[ "${PONDER_VARIANT:-release}" = asan ] && DEPTH=7
"$PONDER" perft $DEPTH >"$TMP/start" 2>"$TMP/err"
status=$?
if [ $status -eq 0 ] && [ ! -s "$TMP/err" ]; then pass "perft $DEPTH runs"; else
    fail "perft $DEPTH runs" "status $status" "$(head -c 400 "$TMP/err")"
fi
# Exactly one line per depth, each `perft D NODES SECONDS NPS'.
bad=$(grep -Evc '^perft [0-9]+ [0-9]+ [0-9]+\.[0-9]{3} [0-9]+$' "$TMP/start")
lines=$(wc -l <"$TMP/start")
if [ "$bad" -eq 0 ] && [ "$lines" -eq $DEPTH ]; then pass "perft output format"; else
    fail "perft output format" "$lines lines, $bad malformed:" "$(head -n 12 "$TMP/start")"
fi
# The depths come in order 1..DEPTH and match the data file (both conventions agree so far).
awk '!/^#/ && NF == 3 { print $1, $2 }' "$PONDER_DATA/perft.txt" | head -n $DEPTH >"$TMP/want"
awk '{ print $2, $3 }' "$TMP/start" >"$TMP/got"
expect_same "perft 1-$DEPTH counts match perft.txt" "$TMP/want" "$TMP/got"
awk '!/^#/ && NF == 3 { print $1, $3 }' "$PONDER_DATA/perft.txt" | head -n $DEPTH >"$TMP/want"
"$PONDER" perft $DEPTH --paths | awk '{ print $2, $3 }' >"$TMP/got"
expect_same "perft --paths 1-$DEPTH counts match perft.txt" "$TMP/want" "$TMP/got"
"$PONDER" perft $DEPTH --hash 8 | awk '{ print $2, $3 }' >"$TMP/got"
awk '!/^#/ && NF == 3 { print $1, $2 }' "$PONDER_DATA/perft.txt" | head -n $DEPTH >"$TMP/want"
expect_same "perft --hash gives the same counts" "$TMP/want" "$TMP/got"
# Nodes per second is nodes / seconds, roughly (both printed rounded).
awk '$4 > 0.05 { r = $3 / $4 / $5; if (r < 0.9 || r > 1.1) bad = 1 } END { exit bad }' \
    "$TMP/start" && pass "perft NPS column" || fail "perft NPS column" "$(cat "$TMP/start")"

# ---- --divide -------------------------------------------------------------------------------
"$PONDER" perft 5 --divide >"$TMP/div" 2>&1
# Lines: perft 1..4, then one `MOVE COUNT' per root move (7), then perft 5.
moves=$(grep -Ec '^[0-9]+[-x][0-9x-]+ [0-9]+$' "$TMP/div")
sum=$(awk '/^[0-9]+[-x]/ { s += $2 } END { print s }' "$TMP/div")
total=$(perft_line "$TMP/div" 5)
if [ "$moves" -eq 7 ] && [ "$sum" = "$total" ] && [ "$total" = 7361 ] &&
    [ "$(tail -n 1 "$TMP/div" | cut -d' ' -f1-2)" = "perft 5" ]; then
    pass "perft --divide sums to the total"
else
    fail "perft --divide sums to the total" "$moves moves, sum $sum, total $total" "$(cat "$TMP/div")"
fi
# By hand: Black man 1, White man 32. 1-5 leaves 5 one step (9) after either of White's two
# replies (27, 28): 2 leaves; 1-6 leaves 6 two steps (9, 10): 4 leaves.
"$PONDER" perft 3 --divide --fen 'B:W32:B1' >"$TMP/div" 2>&1
printf 'perft 1 2\nperft 2 4\n1-5 2\n1-6 4\nperft 3 6\n' >"$TMP/want"
sed 's/^\(perft [0-9]* [0-9]*\) .*/\1/' "$TMP/div" >"$TMP/got"
expect_same "perft --divide by hand" "$TMP/want" "$TMP/got"

# ---- --paths, --rules, --fen ----------------------------------------------------------------
# A king's loop round 18 (White men 14,15,22,23): one move taking four men, by two routes.
"$PONDER" perft 1 --fen 'B:W14,15,22,23:BK10' >"$TMP/out" 2>&1
check_nodes "merged routes count once" "$TMP/out" 1 1
"$PONDER" perft 1 --paths --fen 'B:W14,15,22,23:BK10' >"$TMP/out" 2>&1
check_nodes "--paths counts both routes" "$TMP/out" 1 2
"$PONDER" perft 1 --paths --divide --fen 'B:W14,15,22,23:BK10' >"$TMP/out" 2>&1
expect_grep "--paths --divide lists route 1" '^10x17x26x19x10 1$' "$TMP/out"
expect_grep "--paths --divide lists route 2" '^10x19x26x17x10 1$' "$TMP/out"
# The loop with a way out (6 and 7 too): 1x10x3 or the loop first: 2 moves, 3 routes.
"$PONDER" perft 1 --fen 'B:W6,7,14,15,22,23:BK1' >"$TMP/out" 2>&1
check_nodes "loop or not, merged" "$TMP/out" 1 2
"$PONDER" perft 1 --paths --fen 'B:W6,7,14,15,22,23:BK1' >"$TMP/out" 2>&1
check_nodes "loop or not, paths" "$TMP/out" 1 3

# The seed-001 capture sample: English stops on crowning, HackerRank goes on, Tower takes one
# jump or makes one of four simple moves.
SAMPLE='W:W17,21,24,25,29,32:B5,6,7,8,10,14,22,28'
"$PONDER" perft 1 --divide --fen "$SAMPLE" >"$TMP/out" 2>&1
expect_grep "english: crowning ends the capture" '^25x18x9x2 1$' "$TMP/out"
"$PONDER" perft 1 --divide --rules hackerrank --fen "$SAMPLE" >"$TMP/out" 2>&1
expect_grep "hackerrank: the new king goes on" '^25x18x9x2x11x4 1$' "$TMP/out"
"$PONDER" perft 1 --rules tower --fen "$SAMPLE" >"$TMP/out" 2>&1
check_nodes "tower: one jump or a simple move" "$TMP/out" 1 5
# Tower from the start: captures are optional, so no capture is forced at ply 3 where English
# forces one. Both agree at depths 1-2 (no contact yet).
"$PONDER" perft 3 --rules tower >"$TMP/tower" 2>&1
"$PONDER" perft 3 >"$TMP/english" 2>&1
t2=$(perft_line "$TMP/tower" 2) e2=$(perft_line "$TMP/english" 2)
t3=$(perft_line "$TMP/tower" 3) e3=$(perft_line "$TMP/english" 3)
if [ "$t2" = 49 ] && [ "$e2" = 49 ] && [ "$t3" -gt "$e3" ]; then pass "tower differs from english at 3"
else fail "tower differs from english at 3" "tower $t2 $t3, english $e2 $e3"; fi
# No pieces: nothing to count.
"$PONDER" perft 2 --fen 'B:W21:B' >"$TMP/out" 2>&1
check_nodes "side without pieces has no moves" "$TMP/out" 1 0

# ---- help and bad arguments -------------------------------------------------------------------
"$PONDER" perft --help >"$TMP/out" 2>"$TMP/err"
if [ $? -eq 0 ] && grep -q '^usage: ponder perft' "$TMP/out" && [ ! -s "$TMP/err" ]; then
    pass "perft --help"
else fail "perft --help" "$(head -n 3 "$TMP/out")"; fi

# bad NAME MESSAGE ARGS... : exit 2, MESSAGE and `see ponder perft --help' on stderr, nothing on
# stdout.
bad() {
    name=$1 msg=$2
    shift 2
    "$PONDER" perft "$@" >"$TMP/out" 2>"$TMP/err"
    status=$?
    if [ $status -eq 2 ] && grep -q -- "$msg" "$TMP/err" && short_usage_error "$TMP/err" &&
        grep -q "^see .ponder perft --help'$" "$TMP/err" &&
        [ ! -s "$TMP/out" ]; then
        pass "$name"
    else
        fail "$name" "status $status" "$(head -c 400 "$TMP/err")" "$(head -c 200 "$TMP/out")"
    fi
}
bad "no depth" "DEPTH missing"
bad "negative depth (after --)" "not a whole number from 0 to 64" -- -1
bad "-1 alone is an option, and unknown" "unknown option .-1'" -1
bad "depth not a number" "not a whole number" abc
bad "depth too large" "not a whole number" 65
bad "depth with junk" "not a whole number" 3x
bad "two depths" "unexpected argument" 3 4
bad "unknown option" "unknown option" 3 --fast
bad "unknown rules" "unknown rule set" 3 --rules chess
bad "--rules without value" "needs a value" 3 --rules
bad "--fen without value" "needs a value" 3 --fen
bad "--hash negative" "not a whole number" 3 --hash -1
# A bad FEN: exit 2 with the parser's message and where.
"$PONDER" perft 3 --fen 'B:W33:B1' >"$TMP/out" 2>"$TMP/err"
status=$?
if [ $status -eq 2 ] && grep -q "bad FEN: square number .33' out of range at column 4" "$TMP/err" &&
    [ ! -s "$TMP/out" ]; then
    pass "bad FEN"
else fail "bad FEN" "status $status" "$(cat "$TMP/err")"; fi
# A man on its own crowning row: the words every program uses (board_reachable), and where.
bad "--fen with a man on its crowning row" \
    "bad FEN: a White man on square 1, its crowning row (write it as a king: K1) at column 4$" \
    1 --fen 'B:W1,21:B5,9'
"$PONDER" perft 1 --fen 'B:WK1,21:B5,9' >"$TMP/out" 2>&1
check_nodes "--fen with a king there instead" "$TMP/out" 1 2

# The options as getopt_long reads them: --opt=value, options before DEPTH, `--' before it.
"$PONDER" perft --hash=8 --rules=english -- $DEPTH | awk '{ print $2 }' >"$TMP/got"
"$PONDER" perft $DEPTH | awk '{ print $2 }' >"$TMP/want"
expect_same "perft --hash=8 --rules=english -- DEPTH: the same counts" "$TMP/want" "$TMP/got"
bad "--hash past the engine's limit" "--hash: .65537' is not a whole number from 0 to 65536" 3 --hash=65537
bad "--paths takes no value" "option .--paths' takes no value" 3 --paths=yes
bad "--hash without a value" "option .--hash' needs a value" 3 --hash

# ---- depth 0: the root alone is one leaf (it used to print nothing) ---------------------------
"$PONDER" perft 0 >"$TMP/out" 2>"$TMP/err"
status=$?
if [ $status -eq 0 ] && [ "$(cut -d' ' -f1-3 "$TMP/out")" = "perft 0 1" ] && [ ! -s "$TMP/err" ]; then
    pass "perft 0 prints one leaf"
else fail "perft 0 prints one leaf" "status $status" "$(cat "$TMP/out" "$TMP/err")"; fi
"$PONDER" perft 0 --divide >"$TMP/out" 2>&1
if [ "$(cut -d' ' -f1-3 "$TMP/out")" = "perft 0 1" ]; then pass "perft 0 --divide"; else
    fail "perft 0 --divide" "$(cat "$TMP/out")"
fi
