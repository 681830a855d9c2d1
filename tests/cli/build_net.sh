#!/bin/sh
# build_net.sh - scripts/build-net.sh, the recipe of the shipped network, run with a stand-in
# for ponder that records each command and writes the file it names: the steps and their order
# (the endgame databases, 92 self-play shards with each generation's seed and options, seven
# trainings with their data files in the order the networks were trained, g7t rewritten with
# the score scale 90 as the shipped network), a second run that
# finds everything made, a lost shard made again alone, and a run stopped by a failing command
# that goes on from there when run again. The real run takes hours (docs/generations.md).
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

# A tree of its own: the script works from its parent directory and writes data/nets there.
mkdir -p "$TMP/tree/scripts" "$TMP/tree/data/nets"
cp "$ROOT/scripts/build-net.sh" "$TMP/tree/scripts/"
cat >"$TMP/fake" <<'FAKE'
#!/bin/sh
# Records its arguments; fails as call number $FAIL_AT; writes --out (or egdb's --dir).
n=$(($(wc -l <"$LOG") + 1))
echo "$*" >>"$LOG"
[ "$n" = "${FAIL_AT:-0}" ] && { echo "fake: failing call $n" >&2; exit 3; }
out=
while [ $# -gt 0 ]; do
    case $1 in --out) out=$2; shift ;; esac
    shift
done
[ -n "$out" ] && echo "$n" >"$out"
exit 0
FAKE
chmod +x "$TMP/fake"
export LOG="$TMP/calls"

# run NAME [ENV...] : runs the recipe in $TMP/tree (work directory w), calls in $LOG.
run() {
    : >"$LOG"
    (cd "$TMP/tree" && env PONDER="$TMP/fake" "$@" sh scripts/build-net.sh w) \
        >"$TMP/out" 2>"$TMP/err"
}

run
st=$?
calls=$(wc -l <"$LOG")
name="build-net: the recipe from nothing is 101 commands"
if [ $st -eq 0 ] && [ "$calls" -eq 101 ]; then pass "$name"; else
    fail "$name" "status $st, $calls commands" \
        "$(tail -n 5 "$TMP/err")"
fi
cp "$LOG" "$TMP/first"
expect_grep "build-net: the 5-piece databases first" "^egdb build --pieces 5 --dir w/egdb$" \
    "$TMP/first"
# count NAME WANT PATTERN : the first run made WANT commands matching PATTERN.
count() {
    got=$(grep -Ec -- "$3" "$TMP/first")
    if [ "$got" -eq "$2" ]; then pass "$1"; else fail "$1" "$got commands, expected $2"; fi
}
sp="^selfplay --games 80000 --seed"
count "build-net: gen0, 4 shards of the classic evaluation" 4 \
    "$sp 2026 --nodes 8000 --random-plies 8 --shard [1-4]/40 --out w/gen0/.* -q --eval classic$"
count "build-net: gen1, 5 shards of g1a" 5 "$sp 2027 .*--random-plies 8 .* --net w/g1a.pnet$"
count "build-net: gen2, 10 shards of g2a" 10 "$sp 2028 .*--random-plies 8 .* --net w/g2a.pnet$"
count "build-net: gen3, 20 shards of g3a" 20 "$sp 2029 .*--random-plies 8 .* --net w/g3a.pnet$"
count "build-net: gen4, 13 shards of g4e with 0-12 random moves" 13 \
    "$sp 2030 .*--random-plies 12 .* --net w/g4e.pnet$"
count "build-net: gen5, 20 shards of g5b from gen3's and gen4's positions" 20 \
    "$sp 2031 .*--random-plies 2 .* --net w/g5b.pnet --openings w/gen5/prior.trn$"
count "build-net: gen6, 20 shards of g6a from gen4's and gen5's positions" 20 \
    "$sp 2032 .*--random-plies 2 .* --net w/g6a.pnet --openings w/gen6/prior.trn$"
count "build-net: seven trainings" 7 "^train --data "
count "build-net: g7t rewritten with the score scale 90" 1 \
    "^train --init w/g7t.pnet --scale 90 --name g7t-s90 --out w/g7t-s90.pnet.tmp$"
# train_files NAME NET N LAMBDA : NET's training had N data files and the result's share LAMBDA.
train_files() {
    line=$(grep -E -- "^train .*--name $2 " "$TMP/first")
    got=$(echo "$line" | grep -o -- "--data " | wc -l)
    if [ "$got" -eq "$3" ] && echo "$line" | grep -q -- "--lambda $4 "; then pass "$1"; else
        fail "$1" "$got files, expected $3 (lambda $4)" "$line"
    fi
}
train_files "build-net: g1a on gen0 1-3" g1a 3 0.5
train_files "build-net: g2a on gen0 1-4 and gen1 1-3" g2a 7 0.5
train_files "build-net: g3a on gen0, gen1 and gen2" g3a 19 0.5
train_files "build-net: g4e on gen0, gen1 and gen3 (not gen2)" g4e 29 0.5
train_files "build-net: g5b adds gen4, a quarter result" g5b 42 0.25
train_files "build-net: g6a adds gen5" g6a 62 0.25
train_files "build-net: g7t adds gen6" g7t 82 0.25
name="build-net: the mobility inputs and --td 0.5 for g7t alone"
mob=$(grep -E -- "^train .*--features mobility --td 0.5 --name g7t " "$TMP/first" | wc -l)
pcs=$(grep -E -- "^train .*--features pieces --name " "$TMP/first" | wc -l)
tds=$(grep -c -- "--td " "$TMP/first")
if [ "$mob" -eq 1 ] && [ "$pcs" -eq 6 ] && [ "$tds" -eq 1 ]; then pass "$name"; else
    fail "$name" "$mob trainings with the set for g7t, $pcs with the pieces alone, $tds with --td"
fi
# gen3's files in the shell's order (1, 10-19, 2, 20, 3-9), as g4e was trained.
g3="--data w/gen3/shard"
name="build-net: a generation's files in the shell's order"
order="${g3}1.trn ${g3}10.trn .*${g3}19.trn ${g3}2.trn ${g3}20.trn ${g3}3.trn"
if grep -E -- "^train .*--name g4e " "$TMP/first" | grep -qE -- "$order"; then
    pass "$name"
else
    fail "$name" "$(grep -- "--name g4e" "$TMP/first")"
fi
s90_call=$(grep -nE -- "^train --init w/g7t.pnet " "$TMP/first" | cut -d: -f1)
name="build-net: g7t-s90, the last command, becomes data/nets/default.pnet"
if [ "$(cat "$TMP/tree/data/nets/default.pnet")" = "$s90_call" ] && [ "$s90_call" -eq 101 ]; then
    pass "$name"
else
    fail "$name" "$(cat "$TMP/tree/data/nets/default.pnet")"
fi
expect_grep "build-net: a shard's progress line" "^build-net: [0-9]{2}:[0-9]{2} w/gen6 shard 20 \
of the run's 40 \(self-play shard 92 of 92, about [0-9]+ min to go\)$" "$TMP/err"
if ls "$TMP/tree/w"/*.tmp "$TMP/tree/w"/*/*.tmp >/dev/null 2>&1; then
    fail "build-net: no temporary file left" "$(ls "$TMP/tree/w"/*.tmp "$TMP/tree/w"/*/*.tmp 2>&1)"
else pass "build-net: no temporary file left"; fi

# Everything made: nothing to do but the copy.
rm "$TMP/tree/data/nets/default.pnet"
run
if [ $? -eq 0 ] && [ ! -s "$LOG" ] && [ -s "$TMP/tree/data/nets/default.pnet" ]; then
    pass "build-net: run again, it finds everything made"
else fail "build-net: run again, it finds everything made" "$(cat "$LOG")"; fi

# A lost shard is made again, alone (the networks after it stay as they are).
rm "$TMP/tree/w/gen3/shard7.trn"
run
st=$?
name="build-net: a lost shard is made again alone"
if [ $st -eq 0 ] && [ "$(wc -l <"$LOG")" -eq 1 ] &&
    grep -q -- "--shard 7/40 --out w/gen3/shard7.trn.tmp" "$LOG"; then
    pass "$name"
else fail "$name" "$(cat "$LOG")"; fi

# Stopped by a failing command (the 30th, a gen3 shard): status not 0, no shard from it, no
# network after it; run again, it goes on with the 72 commands left.
rm -rf "$TMP/tree/w" "$TMP/tree/data/nets/default.pnet"
run FAIL_AT=30
st=$?
failed=$(sed -n 30p "$LOG")
if [ $st -ne 0 ] && [ "$(wc -l <"$LOG")" -eq 30 ] && [ ! -e "$TMP/tree/w/g4e.pnet" ] &&
    [ ! -e "$TMP/tree/data/nets/default.pnet" ]; then
    pass "build-net: a failing command stops the run"
else fail "build-net: a failing command stops the run" "status $st, $(wc -l <"$LOG") commands"; fi
out=$(echo "$failed" | sed -n 's/.*--out \([^ ]*\)\.tmp.*/\1/p')
name="build-net: the failed step left no result"
if [ -n "$out" ] && [ ! -e "$TMP/tree/$out" ]; then pass "$name"; else
    fail "$name" "$failed"
fi
run
if [ $? -eq 0 ] && [ "$(wc -l <"$LOG")" -eq 72 ] && [ "$(head -n 1 "$LOG")" = "$failed" ] &&
    [ -s "$TMP/tree/data/nets/default.pnet" ]; then
    pass "build-net: run again, it goes on from the failed command"
else
    fail "build-net: run again, it goes on from the failed command" \
        "$(wc -l <"$LOG") commands" "$(head -n 1 "$LOG")"
fi

# --from-git: g2a-g6a from the clone's history (a stand-in git that records its calls and
# prints a network), gen2 left out: 82 shards, g1a and g7t the only trainings.
mkdir -p "$TMP/bin"
cat >"$TMP/bin/git" <<'FAKE'
#!/bin/sh
echo "git $*" >>"$LOG"
[ "${GIT_FAIL:-}" = "$2" ] && { echo "fatal: invalid object name '${2%%:*}'." >&2; exit 128; }
echo "network of $2"
FAKE
chmod +x "$TMP/bin/git"
run_git() {
    : >"$LOG"
    (cd "$TMP/tree" && env PONDER="$TMP/fake" PATH="$TMP/bin:$PATH" "$@" sh scripts/build-net.sh \
        --from-git w) >"$TMP/out" 2>"$TMP/err"
}
rm -rf "$TMP/tree/w" "$TMP/tree/data/nets/default.pnet"
run_git
st=$?
cp "$LOG" "$TMP/git"
name="build-net --from-git: 82 shards, two trainings, five networks from git"
shards=$(grep -c "^selfplay " "$TMP/git")
trains=$(grep -c "^train --data " "$TMP/git")
shows=$(grep -c "^git show [0-9a-f]*:data/nets/default.pnet$" "$TMP/git")
if [ $st -eq 0 ] && [ "$shards" -eq 82 ] && [ "$trains" -eq 2 ] && [ "$shows" -eq 5 ]; then
    pass "$name"
else fail "$name" "status $st, $shards shards, $trains trainings, $shows networks from git" \
    "$(tail -n 3 "$TMP/err")"; fi
name="build-net --from-git: no gen2, the others as the recipe plays them"
if ! grep -q -- "--seed 2028 " "$TMP/git" && [ ! -d "$TMP/tree/w/gen2" ] &&
    [ "$(grep -c -- "--seed 2029 .*--net w/g3a.pnet$" "$TMP/git")" -eq 20 ] &&
    [ "$(grep -c -- "--seed 2032 .*--net w/g6a.pnet --openings w/gen6/prior.trn$" "$TMP/git")" \
        -eq 20 ]; then
    pass "$name"
else fail "$name" "$(grep -c -- "--seed 2028 " "$TMP/git") gen2 shards"; fi
name="build-net --from-git: g4e is the network committed at 179cd25"
if [ "$(cat "$TMP/tree/w/g4e.pnet")" = "network of 179cd25:data/nets/default.pnet" ] &&
    grep -q "^train .*--name g7t " "$TMP/git" && grep -q "^train .*--name g1a " "$TMP/git"; then
    pass "$name"
else fail "$name" "$(cat "$TMP/tree/w/g4e.pnet")"; fi
expect_grep "build-net --from-git: progress counts 82 shards" "^build-net: [0-9]{2}:[0-9]{2} \
w/gen6 shard 20 of the run's 40 \(self-play shard 82 of 82, about [0-9]+ min to go\)$" "$TMP/err"

# A clone without the history (an archive): a clear message, no network half written.
rm -rf "$TMP/tree/w" "$TMP/tree/data/nets/default.pnet"
run_git GIT_FAIL=784d18c:data/nets/default.pnet
st=$?
name="build-net --from-git: a commit not in the clone stops the run with a message"
if [ $st -ne 0 ] && grep -q "no network at commit 784d18c (g5b)" "$TMP/err" &&
    [ ! -e "$TMP/tree/w/g5b.pnet" ] && [ ! -e "$TMP/tree/w/g5b.pnet.tmp" ]; then
    pass "$name"
else fail "$name" "status $st" "$(tail -n 2 "$TMP/err")"; fi

(cd "$TMP/tree" && sh scripts/build-net.sh --fast w) >"$TMP/out" 2>"$TMP/err"
st=$?
name="build-net: an unknown option is refused"
if [ $st -eq 2 ] && grep -q "unknown option --fast" "$TMP/err" && [ ! -e "$TMP/tree/--fast" ]; then
    pass "$name"
else fail "$name" "status $st" "$(cat "$TMP/err")"; fi
