#!/bin/sh
# book.sh - `ponder book' from the command line: a small build from the start position and the
# ballots, resumed by a second run; probe, info and export describe it (the export is PDN the
# PDN reader takes back); shards merged give one book; Ctrl-C saves a book that a new run goes
# on from; damaged files and bad arguments get a clear message and a non-zero status.
. "$(dirname "$0")/lib.sh"

START="B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
N=400
[ "${PONDER_VARIANT:-release}" = asan ] && N=200

# ---- build, resume ---------------------------------------------------------------------------
expect_status "book build writes a book" 0 \
    "$PONDER" book build --out "$TMP/a.pbk" --positions 12 --nodes $N --threads 2 --no-ballots
expect_grep "book build reports what it built" "a.pbk: 12 positions" "$TMP/err"
expect_status "book build resumes an existing book" 0 \
    "$PONDER" book build --out "$TMP/a.pbk" --positions=20 --nodes $N -t 2 --no-ballots
expect_grep "the resumed build grows it" "a.pbk: 20 positions" "$TMP/err"
if [ "$(ls "$TMP" | grep -c tmp)" -eq 0 ]; then pass "book build leaves no temporary file"
else fail "book build leaves no temporary file" "$(ls "$TMP")"; fi

# ---- probe, info, export ----------------------------------------------------------------------
expect_status "book probe the start" 0 "$PONDER" book probe "$TMP/a.pbk" "$START"
if [ "$(grep -c 'depth' "$TMP/out")" -eq 7 ]; then pass "book probe lists the 7 moves of the start"
else fail "book probe lists the 7 moves of the start" "$(cat "$TMP/out")"; fi
expect_status "book probe elsewhere" 0 "$PONDER" book probe "$TMP/a.pbk" "B:W18:B5"
expect_grep "book probe says not in the book" "^not in the book" "$TMP/out"
expect_status "book info" 0 "$PONDER" book info "$TMP/a.pbk"
expect_grep "book info counts" "20 positions, [0-9]+ moves" "$TMP/out"
expect_grep "book info main line" "main line: 1\. [0-9]+-[0-9]+" "$TMP/out"
expect_grep "book info probe speed" "probe speed: [0-9.]+ us a probe \([0-9]+ probes, [0-9]+% found\)" "$TMP/out"
expect_status "book export" 0 "$PONDER" book export --plies 8 "$TMP/a.pbk"
cp "$TMP/out" "$TMP/book.pdn"
expect_grep "book export is PDN with variations" "\( 1\.\.\. |\( 1\. " "$TMP/book.pdn"
expect_grep "book export tags the game type" '\[GameType "21"\]' "$TMP/book.pdn"
# The PDN reader takes it back: its main line is a legal game (selfplay starts from it).
expect_status "book export reads back as PDN" 0 "$PONDER" selfplay --openings "$TMP/book.pdn" \
    --games 1 --nodes 100 --seed 1 --out "$TMP/sp.ptd" -q

# ---- shards and merge -------------------------------------------------------------------------
"$PONDER" book build --out "$TMP/s0.pbk" --positions 6 --nodes $N -t 1 --shard 0/2 -q &&
    "$PONDER" book build --out "$TMP/s1.pbk" --positions 6 --nodes $N -t 1 --shard 1/2 -q
expect_status "book merge" 0 "$PONDER" book merge --out "$TMP/m.pbk" "$TMP/s0.pbk" "$TMP/s1.pbk"
expect_grep "book merge counts" "m.pbk: 12 positions" "$TMP/err"

# ---- Ctrl-C saves ----------------------------------------------------------------------------
"$PONDER" book build --out "$TMP/c.pbk" --positions 100000 --nodes 20000 -t 1 --save-every 1000 \
    -q 2>"$TMP/cerr" &
pid=$!
sleep 2
kill -INT $pid
wait $pid
st=$?
if [ $st -eq 130 ] && "$PONDER" book info "$TMP/c.pbk" >"$TMP/cinfo" 2>&1; then
    pass "book build saves on Ctrl-C (status 130)"
else
    fail "book build saves on Ctrl-C (status 130)" "status $st" "$(cat "$TMP/cerr" "$TMP/cinfo")"
fi

# ---- bad input -------------------------------------------------------------------------------
printf 'PONDBOOKxxxx' >"$TMP/bad.pbk"
expect_status "book info of a damaged file" 1 "$PONDER" book info "$TMP/bad.pbk"
expect_grep "the damage is named with its offset" "bad.pbk: offset [0-9]+: " "$TMP/err"
expect_status "book build refuses to overwrite a damaged file" 1 \
    "$PONDER" book build --out "$TMP/bad.pbk" --positions 3 --nodes 100
expect_status "book probe of a missing file" 1 "$PONDER" book probe "$TMP/none.pbk" "$START"
expect_grep "missing file named" "cannot read .*none.pbk" "$TMP/err"
expect_status "book probe with a bad FEN" 2 "$PONDER" book probe "$TMP/a.pbk" "B:W99:B1"
expect_grep "bad FEN explained" "bad FEN" "$TMP/err"
expect_status "book build without --out" 2 "$PONDER" book build --positions 3
expect_grep "--out required" "--out FILE is required" "$TMP/err"
expect_status "book build --positions 0" 2 "$PONDER" book build --out "$TMP/x.pbk" --positions 0
expect_status "book build --shard 2/2" 2 "$PONDER" book build --out "$TMP/x.pbk" --shard 2/2
expect_status "book build unknown option" 2 "$PONDER" book build --out "$TMP/x.pbk" --frobnicate
expect_grep "unknown option named" "frobnicate" "$TMP/err"
expect_status "book with an unknown action" 2 "$PONDER" book frob
expect_status "book merge without books" 2 "$PONDER" book merge --out "$TMP/x.pbk"
# export and merge read their options as every program does (opts.h): a bad one is named in
# the same words, then "see `ponder book --help'".
printf "ponder book export: unknown option \`--frobnicate'\nsee \`ponder book --help'\n" >"$TMP/want"
expect_status "book export unknown option" 2 "$PONDER" book export --frobnicate "$TMP/a.pbk"
expect_same "book export names the unknown option" "$TMP/want" "$TMP/err"
printf "ponder book export: option \`--plies' needs a value\nsee \`ponder book --help'\n" >"$TMP/want"
expect_status "book export option without its value" 2 "$PONDER" book export "$TMP/a.pbk" --plies
expect_same "book export names the option without a value" "$TMP/want" "$TMP/err"
printf "ponder book merge: unknown option \`--outt'\nsee \`ponder book --help'\n" >"$TMP/want"
expect_status "book merge unknown option" 2 "$PONDER" book merge --outt "$TMP/x.pbk" "$TMP/a.pbk"
expect_same "book merge names the unknown option" "$TMP/want" "$TMP/err"
printf "ponder book merge: --out FILE is required\nsee \`ponder book --help'\n" >"$TMP/want"
expect_status "book merge without --out" 2 "$PONDER" book merge "$TMP/s0.pbk" "$TMP/s1.pbk"
expect_same "book merge says --out is required" "$TMP/want" "$TMP/err"
expect_status "book merge --out= after the books" 0 \
    "$PONDER" book merge "$TMP/s0.pbk" "$TMP/s1.pbk" --out="$TMP/m2.pbk"
if cmp -s "$TMP/m.pbk" "$TMP/m2.pbk"; then pass "book merge --out= after the books: the same book"
else fail "book merge --out= after the books: the same book"; fi
expect_status "book --help" 0 "$PONDER" book --help

# ---- engine programs play from a book ----------------------------------------------------------
# The book's best move from the start, answered at once even with a long time per move.
best=$("$PONDER" book probe "$TMP/a.pbk" "$START" | head -n 1 | awk '{ print $1 }' | tr -- '-' ' ')
start=$(date +%s)
echo "0 0" | "$PONDER" player --book "$TMP/a.pbk" --time 30 >"$TMP/pl" 2>"$TMP/plerr"
took=$(($(date +%s) - start))
if [ "$(cat "$TMP/pl")" = "$best" ] && [ "$took" -lt 10 ]; then
    pass "player plays the book's best move at once"
else
    fail "player plays the book's best move at once" "played [$(cat "$TMP/pl")], book [$best], $took s" \
        "$(cat "$TMP/plerr")"
fi
(printf 'new\ngo\n'; sleep 2; printf 'quit\n') | "$PONDER" console --book "$TMP/a.pbk" >"$TMP/con" 2>&1
expect_grep "the console says a move came from the book" "^\(a move of the opening book\)" "$TMP/con"
expect_status "player with a missing book" 1 sh -c "echo '0 0' | '$PONDER' player --book '$TMP/none.pbk'"
expect_grep "the missing book is named" "cannot read .*none.pbk" "$TMP/err"
expect_status "player with a damaged book" 1 sh -c "echo '0 0' | '$PONDER' player --book '$TMP/bad.pbk'"
expect_grep "the damaged book is named with its offset" "bad.pbk: offset [0-9]+: " "$TMP/err"
expect_status "player --book-variety x" 2 "$PONDER" player --book-variety x
expect_grep "bad variety named" "--book-variety" "$TMP/err"
# --book-variety: more than one book move is played from the start over a few games.
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
    echo "0 0" | "$PONDER" player --book "$TMP/a.pbk" --book-variety 5000 --time 1
done | sort -u >"$TMP/var"
if [ "$(wc -l <"$TMP/var")" -ge 2 ]; then pass "--book-variety plays different book moves"; else
    fail "--book-variety plays different book moves" "$(cat "$TMP/var")"
fi
