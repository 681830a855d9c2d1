#!/bin/sh
# bench.sh - `ponder bench`: runs, prints its two summary lines, and is deterministic.
. "$(dirname "$0")/lib.sh"

depth=8
[ "${PONDER_VARIANT:-release}" = asan ] && depth=5

"$PONDER" bench "$depth" >"$TMP/a" 2>"$TMP/a.err"
status=$?
if [ "$status" -eq 0 ]; then pass "bench runs"; else fail "bench runs" "exit status $status" "$(cat "$TMP/a.err")"; fi
expect_grep "bench prints nodes searched" '^Nodes searched: [0-9]+$' "$TMP/a"
expect_grep "bench prints nodes per second" '^Nodes/second: [0-9]+$' "$TMP/a"

"$PONDER" bench "$depth" >"$TMP/b" 2>&1
grep '^Nodes searched' "$TMP/a" >"$TMP/a.nodes"
grep '^Nodes searched' "$TMP/b" >"$TMP/b.nodes"
expect_same "bench node count is deterministic" "$TMP/a.nodes" "$TMP/b.nodes"
grep -v -e '^Total time' -e '^Nodes/second' "$TMP/a" >"$TMP/a.pos"
grep -v -e '^Total time' -e '^Nodes/second' "$TMP/b" >"$TMP/b.pos"
expect_same "bench moves and scores are deterministic" "$TMP/a.pos" "$TMP/b.pos"

expect_status "bench --help exits 0" 0 "$PONDER" bench --help
expect_grep "bench --help prints usage" '^usage: ponder bench' "$TMP/out"
expect_status "bench rejects depth 0" 2 "$PONDER" bench 0
expect_grep "bench names the bad depth" 'DEPTH' "$TMP/err"
expect_status "bench rejects an unknown option" 2 "$PONDER" bench --fast
expect_status "bench rejects a missing weights file" 1 "$PONDER" bench 2 --weights "$TMP/none"
expect_grep "bench names the missing weights file" 'weights file' "$TMP/err"

# Weights files: a bad line is named; a good file changes the evaluation, hence the signature.
printf 'man_mg 100\nking_eg 1x0\n' >"$TMP/bad.weights"
expect_status "bench rejects a malformed weights file" 1 "$PONDER" bench 2 --weights "$TMP/bad.weights"
expect_grep "the weights error names file and line" "bad.weights, line 2: value of .king_eg. is not an integer" "$TMP/err"
printf '# stronger kings\nking_mg 180\nking_eg 200\n' >"$TMP/good.weights"
"$PONDER" bench 6 --weights "$TMP/good.weights" >"$TMP/w" 2>&1
"$PONDER" bench 6 >"$TMP/d" 2>&1
if grep -q '^Nodes searched' "$TMP/w" && ! cmp -s "$TMP/w" "$TMP/d"; then pass "a weights file changes the search"; else
    fail "a weights file changes the search" "$(grep '^Nodes searched' "$TMP/w" "$TMP/d")"
fi

# Networks: --eval and --net are checked; a damaged network file is refused and named. Without
# a built-in network the default evaluation is the formula, so --eval classic changes nothing.
expect_status "bench rejects an unknown evaluation" 2 "$PONDER" bench 2 --eval neural
expect_grep "bench names the bad evaluation" "--eval must be .classic. or .net., not .neural." "$TMP/err"
expect_status "bench rejects --eval without a value" 2 "$PONDER" bench 2 --eval
expect_status "bench rejects a missing network file" 1 "$PONDER" bench 2 --net "$TMP/none.pnet"
expect_grep "bench names the missing network file" "none.pnet: cannot open" "$TMP/err"
printf 'PONDNET\000garbage\000' >"$TMP/short.pnet"
expect_status "bench rejects a short network file" 1 "$PONDER" bench 2 --net "$TMP/short.pnet"
expect_grep "the short network is named" "short.pnet: 16 bytes, too short for the 64-byte header" "$TMP/err"
head -c 100 /dev/zero >"$TMP/zero.pnet"
expect_status "bench rejects a file that is no network" 1 "$PONDER" bench 2 --net "$TMP/zero.pnet"
expect_grep "the file that is no network is named" "zero.pnet: not a Ponder network" "$TMP/err"
{ printf 'PONDNET\000\001\000\000\000\200\000\000\000\041\000\000\000 \000\000\000 \000\000\000'
  printf '\004\000\000\000P\000\000\000\000\000\000\000gen1'; head -c 20 /dev/zero; } >"$TMP/n1.pnet"
expect_status "bench rejects n1 = 33" 1 "$PONDER" bench 2 --net "$TMP/n1.pnet"
expect_grep "the bad layer size is named" "n1.pnet: n1 = 33 is not a multiple of 32" "$TMP/err"
"$PONDER" bench 6 --eval classic >"$TMP/c" 2>&1
grep -v -e '^Total time' -e '^Nodes/second' "$TMP/c" >"$TMP/c.pos"
grep -v -e '^Total time' -e '^Nodes/second' "$TMP/d" >"$TMP/d.pos"
if "$PONDER" bench 1 --eval net >/dev/null 2>&1; then
    if ! cmp -s "$TMP/c.pos" "$TMP/d.pos"; then pass "the built-in network is the default"; else
        fail "the built-in network is the default" "bench 6 is the same with --eval classic"
    fi
else
    expect_same "without a built-in network the default is classic" "$TMP/d.pos" "$TMP/c.pos"
    expect_status "bench --eval net without a built-in network fails" 1 "$PONDER" bench 2 --eval net
    expect_grep "bench says no network is built in" "no network is built in" "$TMP/err"
fi

# Threads and table size: Lazy SMP reaches the same depth; bad counts are refused by name.
"$PONDER" bench "$depth" --threads 2 --hash 8 >"$TMP/t" 2>"$TMP/t.err"
status=$?
if [ "$status" -eq 0 ] && grep -q '^Nodes searched: [1-9]' "$TMP/t" && [ "$(grep -c '^Position' "$TMP/t")" -eq 12 ]; then
    pass "bench --threads 2 searches every position"
else
    fail "bench --threads 2 searches every position" "exit status $status" "$(cat "$TMP/t" "$TMP/t.err")"
fi
expect_status "bench rejects 0 threads" 2 "$PONDER" bench 2 --threads 0
expect_grep "bench names the bad thread count" '--threads' "$TMP/err"
expect_status "bench rejects 257 threads" 2 "$PONDER" bench 2 --threads 257
expect_status "bench rejects a bad table size" 2 "$PONDER" bench 2 --hash 1x
expect_grep "bench names the bad table size" '--hash' "$TMP/err"
expect_status "bench rejects --threads without a value" 2 "$PONDER" bench 2 --threads

# The options as getopt_long reads them: --opt=value, `--' before DEPTH, options after it; the
# same search as the plain spelling (one thread, the default 16 MB).
"$PONDER" bench --hash=16 --threads=1 -- "$depth" >"$TMP/c" 2>&1
grep '^Nodes searched' "$TMP/c" >"$TMP/c.nodes"
expect_same "bench --hash=16 --threads=1 -- DEPTH: the same node count" "$TMP/a.nodes" "$TMP/c.nodes"
"$PONDER" bench "$depth" --hash 16 >"$TMP/c" 2>&1
grep '^Nodes searched' "$TMP/c" >"$TMP/c.nodes"
expect_same "bench DEPTH --hash 16: options after DEPTH" "$TMP/a.nodes" "$TMP/c.nodes"
expect_option_limit bench hash 1 65536
expect_option_limit bench threads 1 256
expect_usage_error "bench names an unknown short option" "unknown option \`-x'" "$PONDER" bench -x 2
expect_usage_error "bench: a second DEPTH" "unexpected argument \`3'" "$PONDER" bench 2 3
expect_usage_error "bench: -- makes -1 the DEPTH" "DEPTH: \`-1' is not a whole number" \
    "$PONDER" bench -- -1
expect_status "bench rejects --egdb without a value" 2 "$PONDER" bench 2 --egdb

# The signature, as Stockfish's CI checks it: the default bench's node count, pinned. The count
# moves with any change to search or evaluation, and a refactor must keep it.
BENCH_SIGNATURE=5752584
"$PONDER" bench >"$TMP/sig" 2>"$TMP/sig.err"
got=$(sed -n 's/^Nodes searched: //p' "$TMP/sig")
if [ "$got" = "$BENCH_SIGNATURE" ]; then pass "bench signature is $BENCH_SIGNATURE nodes"; else
    fail "bench signature is $BENCH_SIGNATURE nodes" \
        "\`ponder bench' searched ${got:-no} nodes, tests/cli/bench.sh pins $BENCH_SIGNATURE." \
        "If your change is not meant to alter the search, it has a bug: find it." \
        "If it is (search, evaluation, weights), set BENCH_SIGNATURE in tests/cli/bench.sh to the" \
        "new count in the same commit, and give the new count in the commit message." \
        "$(head -c 400 "$TMP/sig.err")"
fi

# The user's databases never reach the signature: with a set in the default directory (through
# $PONDER_EGDB and through $HOME) the count is the one without; --egdb DIR uses them, and at this
# depth they change it (so the checks above would see them if bench read the default directory).
D="$TMP/egdb"
if "$PONDER" egdb build --pieces 3 --dir "$D" >"$TMP/build" 2>&1; then
    PONDER_EGDB=none "$PONDER" bench 12 >"$TMP/plain" 2>&1
    PONDER_EGDB="$D" "$PONDER" bench 12 >"$TMP/env" 2>&1
    mkdir -p "$TMP/home/.local/share/ponder" && cp -r "$D" "$TMP/home/.local/share/ponder/egdb"
    env -u PONDER_EGDB -u XDG_DATA_HOME HOME="$TMP/home" "$PONDER" bench 12 >"$TMP/home.out" 2>&1
    "$PONDER" bench 12 --egdb "$D" >"$TMP/asked" 2>&1
    for f in plain env home.out asked; do grep '^Nodes searched' "$TMP/$f" >"$TMP/$f.n" || echo missing >"$TMP/$f.n"; done
    expect_same "bench ignores the databases of \$PONDER_EGDB" "$TMP/plain.n" "$TMP/env.n"
    expect_same "bench ignores the databases under \$HOME" "$TMP/plain.n" "$TMP/home.out.n"
    if ! cmp -s "$TMP/plain.n" "$TMP/asked.n" && ! grep -q missing "$TMP/asked.n"; then
        pass "bench --egdb DIR uses the databases"
    else
        fail "bench --egdb DIR uses the databases" "$(cat "$TMP/plain.n" "$TMP/asked.n")"
    fi
else
    fail "bench: building a 3-piece database set" "$(tail -3 "$TMP/build")"
fi
expect_status "bench --egdb on a missing directory exits 1" 1 "$PONDER" bench 2 --egdb "$TMP/nothing-here"
expect_grep "bench names the missing database directory" 'nothing-here' "$TMP/err"
