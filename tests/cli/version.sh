#!/bin/sh
# version.sh - `ponder version` and `ponder --version`: the version and commit, the compiler, the
# build's flags, the built-in network and the CPU features it uses; the same text either way; a
# stray argument exits 2.
. "$(dirname "$0")/lib.sh"

expect_status "ponder --version exits 0" 0 "$PONDER" --version
cp "$TMP/out" "$TMP/long"
expect_grep "the version and the commit" '^ponder [0-9]+\.[0-9]+ \((unknown commit|[0-9a-z.-]+)\)$' "$TMP/long"
expect_grep "the compiler" '^compiler: (gcc|clang) [0-9]+\.[0-9]+' "$TMP/long"
expect_grep "the flags" '^flags: .*-O' "$TMP/long"
expect_grep "the CPU features" '^CPU features used: ' "$TMP/long"
expect_grep "the network's path" '^network evaluation: (avx512|avx2|portable)' "$TMP/long"
# The built-in network by the name in its file (bytes 40-63, docs/nnue.md) and its shape.
net=$(dd if=data/nets/default.pnet bs=1 skip=40 count=24 2>/dev/null | tr -d '\000')
expect_grep "the built-in network, named as in data/nets/default.pnet" \
    "^built-in network: $net \((128|288) inputs, [0-9]+-[0-9]+-[0-9]+, [0-9]+ output buckets\)$" \
    "$TMP/long"
# On a CPU with AVX2 every x86-64 build evaluates with it: compiled for it (-march=native; with
# AVX-512 there, the wider path) or, in a build for any x86-64 (the sanitizer variant, the
# CheckerBoard library), chosen at run time (AVX-512 when the CPU has it with VNNI).
if grep -qw avx2 /proc/cpuinfo 2>/dev/null && [ "$(uname -m)" = x86_64 ]; then
    expect_grep "the network uses AVX2 on this CPU" '^network evaluation: avx(2|512)' "$TMP/long"
fi
expect_status "ponder version exits 0" 0 "$PONDER" version
expect_same "ponder version is ponder --version" "$TMP/long" "$TMP/out"
expect_status "ponder -V exits 0" 0 "$PONDER" -V
expect_same "ponder -V is ponder --version" "$TMP/long" "$TMP/out"
expect_status "ponder version with an argument exits 2" 2 "$PONDER" version now
expect_grep "...and names it" "unexpected argument .now'" "$TMP/err"
"$PONDER" help >"$TMP/out"
expect_grep "ponder help lists version" '^  version ' "$TMP/out"
# A build whose flags name -march uses what the compiler was allowed to: the list is not empty.
if grep -q -- '^flags: .*-march=native' "$TMP/long" && [ "$(uname -m)" = x86_64 ]; then
    if grep -q '^CPU features used: none' "$TMP/long"; then
        fail "a -march=native build names its features" "$(cat "$TMP/long")"
    else pass "a -march=native build names its features"; fi
fi
