# egdb.sh - `ponder egdb`: build a small set, info, probe, verify; bad arguments and damaged
# directories get clear errors and the right exit status.
. "$(dirname "$0")/lib.sh"

D="$TMP/egdb"
"$PONDER" egdb build --pieces 3 --dir "$D" --threads 2 >"$TMP/build" 2>&1
st=$?
if [ $st -eq 0 ]; then pass "egdb build 3 pieces"; else fail "egdb build 3 pieces" "exit status $st" "$(tail -3 "$TMP/build")"; fi
expect_grep "egdb build prints progress with an estimate" 'built +[0-9]-[0-9]-[0-9]-[0-9].*about [0-9]+ s left' "$TMP/build"
expect_grep "egdb build ends with done" '^done in ' "$TMP/build"
# Slice names come with a legend, and `+twin' does not push the columns out of line.
expect_grep "egdb build explains the slice names" '^slice B-b-W-w: Black men, Black kings, White men, White kings' "$TMP/build"
expect_grep "egdb build explains +twin" '^\+twin: ' "$TMP/build"
cols=$(awk '/^built/ { print index($0, "positions") }' "$TMP/build" | sort -u | wc -l)
if [ "$cols" -eq 1 ]; then pass "egdb build: the columns line up with and without +twin"; else
    fail "egdb build: the columns line up with and without +twin" "$(grep '^built' "$TMP/build" | head -4)"
fi

# 7 and 8 pieces are not accepted without a word: time, memory and disk first (the build is
# stopped as soon as they are out).
for n in 7 8; do
    rm -f "$TMP/big.out" "$TMP/big.err"
    "$PONDER" egdb build --pieces $n --dir "$TMP/big$n" --threads 1 >"$TMP/big.out" 2>"$TMP/big.err" &
    pid=$!
    t=0
    until grep -q '^slice B-b-W-w' "$TMP/big.out" 2>/dev/null || [ $t -gt 500 ]; do
        sleep 0.02
        t=$((t + 1))
    done
    kill $pid 2>/dev/null
    wait $pid 2>/dev/null
    expect_grep "egdb build --pieces $n: the estimate" '^estimate: [0-9.]+ billion positions to solve, about [0-9.]+ hours with 1 thread, [0-9.]+ GB of memory at the peak, [0-9.]+ GB on disk$' "$TMP/big.out"
    expect_grep "egdb build --pieces $n: a warning" "warning: $n pieces is a very large job" "$TMP/big.err"
done
# 4 pieces take seconds: no estimate.
if grep -q '^estimate' "$TMP/build"; then fail "egdb build 3 pieces: no estimate"; else pass "egdb build 3 pieces: no estimate"; fi

# A second build finds everything there and rebuilds nothing.
"$PONDER" egdb build --pieces 3 --dir "$D" >"$TMP/again" 2>&1
if grep -q '^built' "$TMP/again"; then fail "egdb build resumes without rebuilding" "$(head -5 "$TMP/again")"; else pass "egdb build resumes without rebuilding"; fi

"$PONDER" egdb info --dir "$D" >"$TMP/info" 2>&1
expect_grep "egdb info lists slices" '^0-2-0-1 ' "$TMP/info"
expect_grep "egdb info explains the slice names" '^slice B-b-W-w: ' "$TMP/info"
expect_grep "egdb info says complete up to 3" 'complete up to 3 pieces' "$TMP/info"

probe() { # name fen expected-first-word
    out=$("$PONDER" egdb probe --dir "$D" "$2" 2>&1)
    case "$out" in "$3"*) pass "$1" ;; *) fail "$1" "got: $out" ;; esac
}
probe "probe: two kings to move win" "B:WK14:BK1,K2" win
probe "probe: the lone king to move loses" "W:WK14:BK1,K2" loss
probe "probe: king against king draws" "B:WK14:BK1" draw
probe "probe: a man that wins by capture" "B:W14:B10" win
probe "probe: quoted FEN with spaces" ' "W:WK14:BK1,K2" ' loss
out=$("$PONDER" egdb probe --dir "$D" "B:W10,11:B1,2,3" 2>&1); st=$?
if [ $st -eq 1 ] && echo "$out" | grep -q '^unknown'; then pass "probe: 5 pieces unknown in a 3-piece set"; else fail "probe: 5 pieces unknown in a 3-piece set" "status $st: $out"; fi

# The options as getopt_long reads them: before or after the action, --dir=DIR, `--'.
out=$("$PONDER" egdb --dir="$D" probe -- "B:WK14:BK1,K2" 2>&1)
case "$out" in win*) pass "probe: --dir=DIR before the action, -- before the FEN" ;;
*) fail "probe: --dir=DIR before the action, -- before the FEN" "got: $out" ;; esac
expect_option_limit egdb threads 1 256
expect_usage_error "egdb: a second FEN" "unexpected argument \`B:W1:B2'" \
    "$PONDER" egdb probe --dir "$D" "B:WK14:BK1,K2" "B:W1:B2"
"$PONDER" egdb verify --dir "$D" >"$TMP/verify" 2>&1
expect_grep "egdb verify finds nothing wrong" '^ok: .* 0 wrong' "$TMP/verify"

expect_status "probe: bad FEN exits 2" 2 "$PONDER" egdb probe --dir "$D" "B:W33:B1"
expect_grep "probe: bad FEN says where" 'out of range at column' "$TMP/err"
# A man on its own crowning row cannot occur: the same message as every program (it used to be
# "unknown ... cover up to 3").
expect_status "probe: a man on its crowning row exits 2" 2 "$PONDER" egdb probe --dir "$D" "W:W1:BK32"
expect_grep "probe: a man on its crowning row says so" \
    'bad FEN: a White man on square 1, its crowning row \(write it as a king: K1\)' "$TMP/err"
expect_status "probe: no FEN exits 2" 2 "$PONDER" egdb probe --dir "$D"
expect_status "build without --pieces exits 2" 2 "$PONDER" egdb build --dir "$D"
expect_status "build --pieces 1 exits 2" 2 "$PONDER" egdb build --pieces 1 --dir "$D"
expect_status "build --pieces x exits 2" 2 "$PONDER" egdb build --pieces x --dir "$D"
expect_status "unknown action exits 2" 2 "$PONDER" egdb frobnicate
expect_status "unknown option exits 2" 2 "$PONDER" egdb info --colour blue
expect_status "no action exits 2" 2 "$PONDER" egdb
expect_status "egdb --help exits 0" 0 "$PONDER" egdb --help
expect_status "info on a missing directory exits 1" 1 "$PONDER" egdb info --dir "$TMP/nothing-here"
expect_grep "info on a missing directory says why" 'cannot read directory' "$TMP/err"

# A damaged file: info reports it, probe warns once on stderr and answers what it still can.
cp -r "$D" "$TMP/bad"
printf 'garbage' | dd of="$TMP/bad/db-0-1-0-1.egdb" bs=1 seek=100 conv=notrunc 2>/dev/null
expect_status "info on a damaged file exits 1" 1 "$PONDER" egdb info --dir "$TMP/bad"
expect_grep "info names the damaged file" 'db-0-1-0-1.egdb +damaged' "$TMP/out"
expect_status "verify on a damaged set fails" 1 "$PONDER" egdb verify --dir "$TMP/bad"
truncate -s 10 "$TMP/bad/db-0-1-0-2.egdb"
"$PONDER" egdb probe --dir "$TMP/bad" "B:WK14:BK1,K2" >"$TMP/out" 2>"$TMP/err"
expect_grep "probe warns about a truncated file" 'db-0-1-0-2.egdb' "$TMP/err"
expect_grep "probe still answers from the sound files" '^win' "$TMP/out"

# The engine programs open the default directory (the front end names it; the library reads no
# environment): the warning about the damaged file shows they did. `none' turns it off.
echo quit | PONDER_EGDB="$TMP/bad" "$PONDER" console >/dev/null 2>"$TMP/err"
expect_grep "console opens \$PONDER_EGDB" 'db-0-1-0-2.egdb' "$TMP/err"
mkdir -p "$TMP/xdg/ponder" && cp -r "$TMP/bad" "$TMP/xdg/ponder/egdb"
echo quit | env -u PONDER_EGDB XDG_DATA_HOME="$TMP/xdg" "$PONDER" console >/dev/null 2>"$TMP/err"
expect_grep "console opens \$XDG_DATA_HOME/ponder/egdb" 'db-0-1-0-2.egdb' "$TMP/err"
PONDER_EGDB="$TMP/bad" "$PONDER" player </dev/null >/dev/null 2>"$TMP/err"
expect_grep "player opens \$PONDER_EGDB" 'db-0-1-0-2.egdb' "$TMP/err"
echo quit | PONDER_EGDB=none "$PONDER" console >/dev/null 2>"$TMP/err"
if grep -q 'endgame' "$TMP/err"; then fail "PONDER_EGDB=none turns the databases off" "$(cat "$TMP/err")"; else
    pass "PONDER_EGDB=none turns the databases off"
fi
mkdir -p "$TMP/empty"
echo quit | PONDER_EGDB="$TMP/empty" "$PONDER" console >/dev/null 2>"$TMP/err"
st=$?
if [ $st -eq 0 ] && ! grep -q 'endgame' "$TMP/err"; then pass "a default directory without databases is no error"; else
    fail "a default directory without databases is no error" "status $st" "$(cat "$TMP/err")"
fi
