#!/bin/sh
# rescore.sh - `ponder rescore' from the command line: it keeps every record's position, result
# and ply and changes scores; its scores depend on the position and the limit alone (the same
# bytes on one thread and on two, rescoring its own output changes nothing, a position twice in
# the input gets one score); shards concatenate to the whole run; `ponder train' reads what it
# writes; Ctrl-C leaves no file; damaged input and bad arguments are refused with a clear message
# and status 2.
. "$(dirname "$0")/lib.sh"

GAMES=6
NODES=2000
[ "${PONDER_VARIANT:-release}" = asan ] && GAMES=3 NODES=500
"$PONDER" selfplay --games $GAMES --seed 5 --nodes 200 --threads 2 --out "$TMP/in.trn" -q ||
    fail "selfplay makes the input"
records=$(($(wc -c <"$TMP/in.trn") / 16 - 1))

# rec FILE : the records of FILE, one a line as 16 hex bytes (the header left out).
rec() { tail -c +17 "$1" | od -An -v -tx1 -w16 | sed 's/^ *//'; }
# same_but_score A B : A's and B's records have the same bytes but 12 and 13 (the score).
same_but_score() {
    rec "$1" | cut -d' ' -f1-12,15-16 >"$TMP/k1"
    rec "$2" | cut -d' ' -f1-12,15-16 >"$TMP/k2"
    cmp -s "$TMP/k1" "$TMP/k2"
}

# ---- a run -----------------------------------------------------------------------------------
"$PONDER" rescore --nodes $NODES --threads 2 --out "$TMP/a.trn" "$TMP/in.trn" >"$TMP/sum" \
    2>"$TMP/err"
status=$?
if [ $status -eq 0 ] && [ "$(wc -c <"$TMP/a.trn")" = "$(wc -c <"$TMP/in.trn")" ] &&
    [ "$(head -c 7 "$TMP/a.trn")" = PONDTRN ]; then
    pass "rescore writes as many records as it read, after a header"
else
    fail "rescore writes as many records as it read, after a header" "status $status" \
        "$(cat "$TMP/err")" "$(ls -l "$TMP")"
fi
if grep -q "^rescore: shard 1/1, records 1-$records of $records, [0-9]* distinct positions: [0-9]* searched to $NODES nodes, 0 scores taken from --reuse files (0 of them checked by a search); mean change [0-9.]* hundredths of a man; $records positions written to $TMP/a.trn in " "$TMP/sum"; then
    pass "rescore's summary counts the records"
else
    fail "rescore's summary counts the records" "$(cat "$TMP/sum")" "$records records"
fi
if same_but_score "$TMP/in.trn" "$TMP/a.trn"; then
    pass "rescore keeps every position, result and ply"
else
    fail "rescore keeps every position, result and ply" "$(diff "$TMP/k1" "$TMP/k2" | head -n 6)"
fi
rec "$TMP/in.trn" | cut -d' ' -f13-14 >"$TMP/s1"
rec "$TMP/a.trn" | cut -d' ' -f13-14 >"$TMP/s2"
changed=$(paste -d' ' "$TMP/s1" "$TMP/s2" | awk '$1 != $3 || $2 != $4' | wc -l)
if [ "$changed" -gt 0 ]; then
    pass "rescore changes scores ($changed of $records)"
else
    fail "rescore changes scores" "none of $records changed from the 200-node game searches"
fi
if [ "$(ls "$TMP" | grep -c 'a\.trn\.tmp')" -eq 0 ]; then pass "rescore leaves no temporary file"
else fail "rescore leaves no temporary file" "$(ls "$TMP")"; fi

# ---- the score depends on the position and the limit alone ---------------------------------
"$PONDER" rescore --nodes $NODES --threads 1 --out "$TMP/b.trn" -q "$TMP/in.trn"
expect_same "rescore: one thread instead of two, identical bytes" "$TMP/a.trn" "$TMP/b.trn"
"$PONDER" rescore --nodes $NODES --threads 2 --out "$TMP/c.trn" -q "$TMP/a.trn"
expect_same "rescore: its own output rescored, identical bytes" "$TMP/a.trn" "$TMP/c.trn"
# The input twice (a file, then the same records again): each half scored alike.
"$PONDER" rescore --nodes $NODES --out "$TMP/d.trn" -q "$TMP/in.trn" "$TMP/in.trn"
{ rec "$TMP/a.trn"; rec "$TMP/a.trn"; } >"$TMP/twice"
rec "$TMP/d.trn" >"$TMP/d.rec"
expect_same "rescore: two input files are read in order; a position twice gets one score" \
    "$TMP/twice" "$TMP/d.rec"
"$PONDER" rescore --depth 3 --out "$TMP/e.trn" -q "$TMP/in.trn"
if same_but_score "$TMP/in.trn" "$TMP/e.trn" && ! cmp -s "$TMP/a.trn" "$TMP/e.trn"; then
    pass "rescore --depth: the same records, other scores than --nodes $NODES"
else
    fail "rescore --depth: the same records, other scores than --nodes $NODES"
fi

# ---- shards ----------------------------------------------------------------------------------
for i in 1 2 3; do
    "$PONDER" rescore --nodes $NODES --shard $i/3 --out "$TMP/s$i.trn" -q "$TMP/in.trn"
done
for i in 1 2 3; do tail -c +17 "$TMP/s$i.trn"; done >"$TMP/shards"
tail -c +17 "$TMP/a.trn" >"$TMP/whole"
expect_same "rescore: shards 1-3/3 hold the records of the whole run" "$TMP/whole" "$TMP/shards"

# --reuse: the earlier shards' scores are taken, and the shards still hold the whole run. The
# input twice, in two shards: the second shard's positions are all in the first's output.
"$PONDER" rescore --nodes $NODES --shard 1/2 --out "$TMP/r1.trn" -q "$TMP/in.trn" "$TMP/in.trn"
"$PONDER" rescore --nodes $NODES --shard 2/2 --reuse "$TMP/r1.trn" --out "$TMP/r2.trn" \
    "$TMP/in.trn" "$TMP/in.trn" >"$TMP/sum" 2>"$TMP/err"
{ tail -c +17 "$TMP/r1.trn"; tail -c +17 "$TMP/r2.trn"; } >"$TMP/reused"
tail -c +17 "$TMP/d.trn" >"$TMP/twice"
expect_same "rescore --reuse: the shards hold the same bytes as one search of every record" \
    "$TMP/twice" "$TMP/reused"
distinct=$(sed -n 's/.*, \([0-9]*\) distinct positions: .*/\1/p' "$TMP/sum")
checked=$(( (distinct + 63) / 64 ))
expect_grep "rescore --reuse: every position lent, every 64th searched to check" \
    ", $distinct distinct positions: $checked searched to $NODES nodes, $distinct scores taken from --reuse files \($checked of them checked by a search\)" "$TMP/sum"
# A lender made with another limit: the check finds it, the run stops and names the file.
"$PONDER" rescore --nodes $((NODES + 500)) --shard 1/2 --out "$TMP/other.trn" -q "$TMP/in.trn" \
    "$TMP/in.trn"

# ---- train reads it --------------------------------------------------------------------------
cat "$TMP/a.trn" "$TMP/a.trn" >"$TMP/a2.trn"
expect_status "train reads rescore's output" 0 "$PONDER" train --data "$TMP/a2.trn" --hidden 32 \
    --buckets 2 --batch 64 --seed 9 --valid 0.5 --epochs 1 --out "$TMP/a.pnet" -q

# ---- Ctrl-C ----------------------------------------------------------------------------------
for i in 1 2 3 4 5 6 7 8; do cat "$TMP/in.trn"; done >"$TMP/big.trn"
expect_interrupt "rescore: Ctrl-C stops it and leaves no file" int.trn \
    "$PONDER" rescore --nodes 1000000 --threads 2 --out "$TMP/int.trn" -q "$TMP/big.trn"
expect_grep "rescore: Ctrl-C says how far it got" \
    "interrupted after [0-9]+ of [0-9]+ searches; nothing written" "$TMP/err"

# ---- bad input -------------------------------------------------------------------------------
O="$TMP/bad.trn"
# bad NAME MESSAGE CMD... : CMD exits 2 with MESSAGE on stderr and writes no output.
bad() {
    name=$1 msg=$2
    shift 2
    rm -f "$O"
    "$@" </dev/null >"$TMP/out" 2>"$TMP/err"
    got=$?
    if [ $got -eq 2 ] && grep -qF -- "$msg" "$TMP/err" && [ ! -e "$O" ]; then
        pass "$name"
    else
        fail "$name" "status $got, wanted 2 and: $msg" "$(head -c 600 "$TMP/err")"
    fi
}
bad "rescore without --out" "--out is required" "$PONDER" rescore --nodes 9 "$TMP/in.trn"
bad "rescore without a limit" "give exactly one of --nodes and --depth" \
    "$PONDER" rescore --out "$O" "$TMP/in.trn"
bad "rescore with two limits" "give exactly one of --nodes and --depth" \
    "$PONDER" rescore --nodes 9 --depth 2 --out "$O" "$TMP/in.trn"
bad "rescore without input" "no input file" "$PONDER" rescore --nodes 9 --out "$O"
bad "rescore --nodes 0" "--nodes" "$PONDER" rescore --nodes 0 --out "$O" "$TMP/in.trn"
bad "rescore --shard 4/3" "I must be between 1 and N" \
    "$PONDER" rescore --nodes 9 --shard 4/3 --out "$O" "$TMP/in.trn"
bad "rescore --shard 2" "--shard wants I/N" \
    "$PONDER" rescore --nodes 9 --shard 2 --out "$O" "$TMP/in.trn"
bad "rescore: the input as the output" "is both an input and the output" \
    "$PONDER" rescore --nodes 9 --out "$TMP/in.trn" "$TMP/in.trn"
bad "rescore: a missing input" "$TMP/none.trn" \
    "$PONDER" rescore --nodes 9 --out "$O" "$TMP/none.trn"
printf 'not a training file at all' >"$TMP/text.trn"
bad "rescore: not a training file" "$TMP/text.trn" \
    "$PONDER" rescore --nodes 9 --out "$O" "$TMP/text.trn"
# A record with a square of both colours, in the second file: named with its block.
cp "$TMP/in.trn" "$TMP/dmg.trn"
printf '\377\377\377\377\377\377\377\377' | dd of="$TMP/dmg.trn" bs=1 seek=32 conv=notrunc 2>/dev/null
bad "rescore: a damaged record is named by file and block" "dmg.trn" \
    "$PONDER" rescore --nodes 9 --out "$O" "$TMP/in.trn" "$TMP/dmg.trn"
head -c $((16 * 3 + 5)) "$TMP/in.trn" >"$TMP/cut.trn"
bad "rescore: a truncated file" "cut.trn" "$PONDER" rescore --nodes 9 --out "$O" "$TMP/cut.trn"
printf 'PONDNET' >"$TMP/bad.pnet"
bad "rescore: a bad network" "bad.pnet" \
    "$PONDER" rescore --nodes 9 --net "$TMP/bad.pnet" --out "$O" "$TMP/in.trn"
bad "rescore --reuse of another run's shard" "other.trn: the score of " \
    "$PONDER" rescore --nodes $NODES --shard 2/2 --reuse "$TMP/other.trn" --out "$O" \
    "$TMP/in.trn" "$TMP/in.trn"
expect_grep "rescore --reuse: the mismatch is explained" \
    "takes only earlier shards of the same run" "$TMP/err"
bad "rescore: a missing --reuse file" "--reuse: $TMP/none.trn" \
    "$PONDER" rescore --nodes 9 --reuse "$TMP/none.trn" --out "$O" "$TMP/in.trn"
bad "rescore: a damaged --reuse file is named by file and block" "--reuse: $TMP/dmg.trn" \
    "$PONDER" rescore --nodes 9 --reuse "$TMP/dmg.trn" --out "$O" "$TMP/in.trn"
bad "rescore: --reuse as the output" "is both --reuse and the output" \
    "$PONDER" rescore --nodes 9 --reuse "$O" --out "$O" "$TMP/in.trn"
expect_status "rescore into a directory that does not exist" 1 \
    "$PONDER" rescore --nodes 9 --out "$TMP/no/such/dir.trn" "$TMP/in.trn"
expect_grep "rescore names the output it cannot create" "no/such/dir.trn" "$TMP/err"
expect_status "rescore --help" 0 "$PONDER" rescore --help
expect_grep "rescore --help prints the usage" "^usage: ponder rescore" "$TMP/out"
