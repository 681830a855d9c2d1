#!/bin/sh
# tower.sh - `ponder tower' (seed 004) against transcripts in tests/data/tower: NAME.txt is the
# input, NAME-out.txt the exact expected stdout. test0 is the assignment's own example. The
# others were written for these tests; their expected outputs were produced by a separate
# implementation of the rules written from the assignment text (not from this program), and the
# parts that decide them were checked by hand:
#   start-a         `A' first: at depth 3 no line can win material (White always has a move
#                   that gives nothing), so every root action is worth 0: the first, A6-B5.
#   test1, test2    the example followed by `A' and by `P' (ten actions, the game goes on);
#                   test2-depth5-out is `P' with --depth 5 (a different line from move #12).
#   optional        captures declined by the input (moves #3, #4 and #7 while one exists).
#   game-end        a man crowned (#19 D3-B1), a tower jumping backwards (#23 B1-D3), then `P':
#                   Black declines a capture (#27 E6-D5: it ties E8-C6 at 8 and comes first),
#                   and after #33 D3-F1 White's four men (H1 G2 F3 G4) are all blocked: the
#                   ninth turn prints BLACK WIN! and the game stops.
#   game-over       the same game replayed to its end, then `A': BLACK WIN! at once; the lines
#                   after the command (an illegal action, a control byte) are not carried out
#                   (stderr warns of them).
#   err-*           one per error message, each line also failing a later check, so that the
#                   first in the assignment's order is the one printed: source and target both
#                   off the board; target off with the source empty; source empty with the
#                   target taken; the seed's own `G2-A8' (line 43 of the output); White moving
#                   a black man; a man moving backwards; `x' instead of `-'.
. "$(dirname "$0")/lib.sh"

D="$PONDER_DATA/tower"

# run NAME INPUT EXPECTED STATUS [OPTIONS...] : stdout must equal EXPECTED, exit status STATUS.
run() {
    name=$1 input=$2 expected=$3 want=$4
    shift 4
    "$PONDER" tower "$@" <"$input" >"$TMP/out" 2>"$TMP/err"
    got=$?
    if [ "$got" -ne "$want" ]; then
        fail "$name" "exit status $got, expected $want" "$(head -c 400 "$TMP/err")"
    elif ! cmp -s "$expected" "$TMP/out"; then
        fail "$name" "$(diff "$expected" "$TMP/out" | head -n 20)"
    else
        pass "$name"
    fi
}

# ---- transcripts ----------------------------------------------------------------------------
for t in test0 test1 test2 start-a optional game-end game-over; do
    run "tower $t" "$D/$t.txt" "$D/$t-out.txt" 0
done
for t in err-source-outside err-target-outside err-source-empty err-target-not-empty \
    err-opponent err-illegal err-illegal-text; do
    run "tower $t" "$D/$t.txt" "$D/$t-out.txt" 1
done
# The seed: "if line 2 of test1.txt is updated to state G2-A8, line 43 of the output should
# report: ERROR: Target cell is not empty."
"$PONDER" tower <"$D/err-target-not-empty.txt" 2>/dev/null | sed -n 43p >"$TMP/l43"
echo "ERROR: Target cell is not empty." >"$TMP/want"
expect_same "tower error on output line 43 as the seed says" "$TMP/want" "$TMP/l43"
# Where the error was: the input line, on stderr only.
"$PONDER" tower <"$D/err-illegal.txt" >/dev/null 2>"$TMP/err"
expect_grep "tower error names the input line on stderr" "line 3.*F5-G6" "$TMP/err"

# Lines after `A' or `P' are not carried out, and stderr says so (they used to vanish silently).
"$PONDER" tower <"$D/game-over.txt" >/dev/null 2>"$TMP/err"
expect_grep "tower warns of the lines after A" "warning: 2 lines after .A. .* ignored" "$TMP/err"
printf 'G6-F5\nP\n\n   \n' >"$TMP/in-p"
"$PONDER" tower <"$TMP/in-p" >/dev/null 2>"$TMP/err"
if [ -s "$TMP/err" ]; then fail "tower: blank lines after P are no warning" "$(cat "$TMP/err")"; else
    pass "tower: blank lines after P are no warning"
fi
printf 'G6-F5\nP\nH3-G4\n' >"$TMP/in-p"
"$PONDER" tower <"$TMP/in-p" >/dev/null 2>"$TMP/err"
expect_grep "tower warns of a line after P" "warning: 1 line after .P. \(input line 2\) ignored, from line 3" "$TMP/err"

# ---- depth --------------------------------------------------------------------------------------
run "tower --depth 3 is the default (A)" "$D/test1.txt" "$D/test1-out.txt" 0 --depth 3
run "tower --depth 3 is the default (P)" "$D/test2.txt" "$D/test2-out.txt" 0 --depth 3
run "tower --depth 3 game ending inside P" "$D/game-end.txt" "$D/game-end-out.txt" 0 --depth 3
run "tower --depth 5 P" "$D/test2.txt" "$D/test2-depth5-out.txt" 0 --depth 5

# ---- input forms ----------------------------------------------------------------------------
# CRLF line ends, trailing blanks, blank lines (CRLF ones too), no final newline.
awk 'NR == 3 { printf "\r\n\r\n" } { printf "%s  \t\r\n", $0 } NR == 5 { printf "\n   \n" }' \
    "$D/test2.txt" | head -c -2 >"$TMP/crlf"
run "tower CRLF, blanks, blank lines, no final newline" "$TMP/crlf" "$D/test2-out.txt" 0
printf 'G6-F5\nH3-G4\nF5-H3\nF3-G4\nE6-F5\nG4-E6\nD7-F5\nG2-F3\nF7-G6\nF1-G2' >"$TMP/nonl"
run "tower last line without newline" "$TMP/nonl" "$D/test0-out.txt" 0
# Leading blanks and lower case letters.
sed 's/^/  /' "$D/test1.txt" | tr 'A-H' 'a-h' >"$TMP/lower"
run "tower lower case and leading blanks" "$TMP/lower" "$D/test1-out.txt" 0
# A line of 100000 trailing blanks after an action is still that action.
{ printf 'G6-F5'; head -c 100000 /dev/zero | tr '\0' ' '; printf '\nH3-G4\nF5-H3\nF3-G4\nE6-F5\nG4-E6\nD7-F5\nG2-F3\nF7-G6\nF1-G2\n'; } >"$TMP/spaces"
run "tower action followed by 100000 blanks" "$TMP/spaces" "$D/test0-out.txt" 0

# Empty input, or nothing but blank lines: a list of no actions, so the setup alone.
head -n 21 "$D/test0-out.txt" >"$TMP/setup"
: >"$TMP/empty"
run "tower empty input prints the setup" "$TMP/empty" "$TMP/setup" 0
printf '\n\r\n  \n\t\n' >"$TMP/blank"
run "tower blank lines only print the setup" "$TMP/blank" "$TMP/setup" 0

# Bad lines after one good action: the setup, action #1, then `ERROR: Illegal action.'.
head -n 42 "$D/test0-out.txt" >"$TMP/bad"
echo "ERROR: Illegal action." >>"$TMP/bad"
bad_line() { # NAME FILE
    run "tower $1" "$2" "$TMP/bad" 1
}
printf 'G6-F5\n\377\376garbage\001\n' >"$TMP/in1"
bad_line "garbage bytes" "$TMP/in1"
printf 'G6-F5\nH3\000-G4\n' >"$TMP/in2"
bad_line "NUL byte inside an action" "$TMP/in2"
{ printf 'G6-F5\n'; head -c 200000 /dev/zero | tr '\0' 'G'; printf '\nA\n'; } >"$TMP/in3"
bad_line "200000-byte line" "$TMP/in3"
{ printf 'G6-F5\nH3-G4'; head -c 1000 /dev/zero | tr '\0' '9'; printf '\n'; } >"$TMP/in4"
bad_line "action with 1000 more digits" "$TMP/in4"
for l in 'H3 G4' 'H3-G4-F5' 'Q' 'AP' 'H3- G4' '-' 'H-G4' '33-44' 'A A'; do
    printf 'G6-F5\n%s\nA\n' "$l" >"$TMP/in5"
    bad_line "not an action: '$l'" "$TMP/in5"
done
# Out-of-board rows written with many digits: row 99999999999 is off the board, not a crash.
printf 'G6-F5\nH3-G99999999999\n' >"$TMP/in6"
head -n 42 "$D/test0-out.txt" >"$TMP/want"
echo "ERROR: Target cell is outside of the board." >>"$TMP/want"
run "tower huge row number" "$TMP/in6" "$TMP/want" 1

# Random bytes never crash it: exit status 0 or 1, and the setup always comes first.
i=0
n=40
[ "${PONDER_VARIANT:-release}" = asan ] && n=15
ok=0
while [ $i -lt $n ]; do
    head -c $((i * 37 + 1)) /dev/urandom >"$TMP/rand"
    "$PONDER" tower <"$TMP/rand" >"$TMP/out" 2>/dev/null
    st=$?
    if { [ $st -eq 0 ] || [ $st -eq 1 ]; } && head -n 21 "$TMP/out" | cmp -s - "$TMP/setup"; then
        ok=$((ok + 1))
    fi
    i=$((i + 1))
done
if [ $ok -eq $n ]; then pass "tower $n random inputs"; else fail "tower random inputs" "$ok of $n ok"; fi

# A full output device is an error, not a silent success.
if [ -w /dev/full ]; then
    expect_status "tower write error exits 1" 1 sh -c "\"$PONDER\" tower <\"$D/test2.txt\" >/dev/full"
fi

# ---- arguments --------------------------------------------------------------------------------
expect_status "tower --help exits 0" 0 "$PONDER" tower --help
expect_grep "tower --help describes --depth" "--depth N" "$TMP/out"
expect_status "tower --depth 0 is refused" 2 "$PONDER" tower --depth 0
expect_grep "tower bad argument points to the usage" "^see .ponder tower --help'$" "$TMP/err"
expect_status "tower --depth 41 is refused" 2 "$PONDER" tower --depth 41
expect_status "tower --depth x is refused" 2 "$PONDER" tower --depth x
expect_status "tower --depth without a value" 2 "$PONDER" tower --depth
expect_status "tower unknown option" 2 "$PONDER" tower --fast
expect_status "tower unexpected argument" 2 "$PONDER" tower test0.txt
expect_usage_error "tower --depth=41 is refused" "--depth: \`41' is not a whole number from 1 to 40" \
    "$PONDER" tower --depth=41
expect_usage_error "tower: -- ends the options" "unexpected argument \`--depth'" \
    "$PONDER" tower -- --depth 3
expect_usage_error "tower names an unknown short option" "unknown option \`-x'" "$PONDER" tower -x
"$PONDER" tower --depth 3 <"$D/test2.txt" >"$TMP/plain" 2>&1
"$PONDER" tower --dep=3 <"$D/test2.txt" >"$TMP/eq" 2>&1
expect_same "tower --dep=3: the same as --depth 3" "$TMP/plain" "$TMP/eq"
"$PONDER" help >"$TMP/help" 2>&1
expect_grep "ponder help lists tower" "^  tower " "$TMP/help"
