#!/bin/sh
# train.sh - `ponder train' from the command line: a small run writes a network file of the
# size its header implies (magic, checksum) and a loss log with one line per epoch, leaves no
# temporary file, gives the same bytes on one thread and on two, and a run stopped after one
# epoch and resumed from its checkpoint writes the same file as an uninterrupted one; a
# checkpoint from another run, damaged training files and bad options are refused with a clear
# message and status 2.
. "$(dirname "$0")/lib.sh"

GAMES=6
[ "${PONDER_VARIANT:-release}" = asan ] && GAMES=3
"$PONDER" selfplay --games $GAMES --seed 3 --nodes 200 --threads 1 --out "$TMP/d.trn" -q ||
    fail "selfplay makes the training data"
# Four copies of the games (files concatenate) and half of them held out: some game is held out
# whatever the games are (all four copies of a game count as games of their own).
cat "$TMP/d.trn" "$TMP/d.trn" "$TMP/d.trn" "$TMP/d.trn" >"$TMP/d4.trn"
TR="--data $TMP/d4.trn --hidden 32 --buckets 2 --batch 64 --seed 9 --valid 0.5"

# ---- a run -----------------------------------------------------------------------------------
"$PONDER" train $TR --epochs 3 --threads 2 --out "$TMP/a.pnet" --log "$TMP/log" \
    >"$TMP/sum" 2>"$TMP/err"
status=$?
# 64 header + W1 and b1 (129 x 32 int16) + per bucket (32x32 + 32x32 int8, 2 x 32 int32,
# 32 int16, one int32) + checksum.
want=$((64 + 129 * 32 * 2 + 2 * (2048 + 256 + 64 + 4) + 4))
size=$(wc -c <"$TMP/a.pnet" 2>/dev/null || echo 0)
if [ $status -eq 0 ] && [ "$size" -eq $want ] && [ "$(head -c 7 "$TMP/a.pnet")" = PONDNET ]; then
    pass "train writes a network file of the size its header implies"
else
    fail "train writes a network file of the size its header implies" "status $status," \
        "$size bytes, expected $want" "$(cat "$TMP/err")"
fi
lines=$(grep -Ec '^epoch [1-3] lr [0-9.e-]+ train [0-9.]+ valid_mse [0-9.]+ valid_ce [0-9.]+ seconds [0-9.]+ pos_per_s [0-9]+ cpu_seconds [0-9.]+$' "$TMP/log")
progress=$(grep -Ec '^epoch [1-3]/3 lr .*: train [0-9.]+ valid mse [0-9.]+ ce [0-9.]+, [0-9.]+ s, [0-9]+ positions/s \([0-9.]+ s of CPU\)$' "$TMP/err")
if [ "$lines" -eq 3 ] && [ "$progress" -eq 3 ] && grep -q '^epoch 0 ' "$TMP/log"; then
    pass "train logs one line per epoch (log file and progress on stderr)"
else
    fail "train logs one line per epoch (log file and progress on stderr)" "$(cat "$TMP/log")" \
        "$(cat "$TMP/err")"
fi
if grep -Eq '^# held out, quantised model: mse [0-9.]+ ce [0-9.]+; \|score - float score\| mean [0-9.]+ max [0-9]+' "$TMP/sum" &&
    grep -q "records from 1 file" "$TMP/err" && grep -q "nothing left out" "$TMP/err"; then
    pass "train reports the records read and the quantised model's loss"
else
    fail "train reports the records read and the quantised model's loss" "$(cat "$TMP/sum")" \
        "$(cat "$TMP/err")"
fi
if [ "$(ls "$TMP" | grep -c 'pnet\.tmp')" -eq 0 ]; then pass "train leaves no temporary file"
else fail "train leaves no temporary file" "$(ls "$TMP")"; fi

"$PONDER" train $TR --epochs 3 --threads 1 --out "$TMP/b.pnet" -q >/dev/null 2>&1
expect_same "train: same seed, one thread instead of two: identical file" "$TMP/a.pnet" "$TMP/b.pnet"
"$PONDER" train $TR --epochs 3 --seed 10 --out "$TMP/c.pnet" -q >/dev/null 2>&1
if cmp -s "$TMP/a.pnet" "$TMP/c.pnet"; then fail "train: another seed, another network"
else pass "train: another seed, another network"; fi

"$PONDER" train $TR --epochs 1 --valid 0 --out "$TMP/v0.pnet" >"$TMP/sum" 2>&1
expect_grep "train --valid 0: nothing held out, said so" "^# no positions held out" "$TMP/sum"

# --td: the targets look ahead along each game (tests/unit/test_train.c checks the values): said
# in the summary, another network than the same run without it.
"$PONDER" train $TR --epochs 1 --td 0.5 --out "$TMP/td.pnet" >"$TMP/sum" 2>&1
"$PONDER" train $TR --epochs 1 --out "$TMP/td0.pnet" -q >/dev/null 2>&1
if grep -q "lambda 0.25, td 0.50, scale 80" "$TMP/sum" && [ -s "$TMP/td.pnet" ] &&
    ! cmp -s "$TMP/td.pnet" "$TMP/td0.pnet"; then
    pass "train --td: said in the summary, another network"
else fail "train --td: said in the summary, another network" "$(cat "$TMP/sum")"; fi

# --balance: the buckets' weights said in the summary (tests/unit/test_train_balance.c checks
# their values), another network than without; --balance 0 is the default, byte for byte; and
# the held-out loss of each bucket is reported with its positions.
"$PONDER" train $TR --epochs 1 --balance 1 --out "$TMP/bal.pnet" >"$TMP/sum" 2>&1
"$PONDER" train $TR --epochs 1 --balance 0 --out "$TMP/bal0.pnet" -q >/dev/null 2>&1
if grep -Eq "lambda 0.25, balance 1.00 \(bucket weights [0-9.]+ [0-9.]+\), scale 80" \
    "$TMP/sum" && [ -s "$TMP/bal.pnet" ] && ! cmp -s "$TMP/bal.pnet" "$TMP/td0.pnet"; then
    pass "train --balance: the weights said in the summary, another network"
else fail "train --balance: the weights said in the summary, another network" "$(cat "$TMP/sum")"; fi
expect_same "train --balance 0: the default network, byte for byte" "$TMP/bal0.pnet" "$TMP/td0.pnet"
expect_grep "train reports each bucket's held-out loss" \
    "^# held out by bucket, quantised ce \(positions\): 0: [0-9.]+ \([0-9]+\) 1: [0-9.]+ \([0-9]+\)$" \
    "$TMP/sum"

# bench_differs WHAT NET: the engine plays with NET, whose search's node count differs from the
# shared piece network's ($n_shared).
bench_differs() {
    n=$("$PONDER" bench 6 --net "$2" 2>&1 | sed -n 's/^Nodes searched: //p')
    if [ -n "$n" ] && [ -n "$n_shared" ] && [ "$n" != "$n_shared" ]; then
        pass "bench searches with the $1 network ($n nodes; $3: $n_shared)"
    else
        fail "bench searches with the $1 network" "$1: '$n', $3: '$n_shared'"
    fi
}

# resumes WHAT CHECKPOINT OPTIONS...: a 3-epoch run from the 2-epoch CHECKPOINT ends where an
# uninterrupted 3-epoch run does.
resumes() {
    what=$1 ck=$2
    shift 2
    "$PONDER" train $TR "$@" --epochs 3 --checkpoint "$ck" --out "$TMP/r3.pnet" >/dev/null \
        2>"$TMP/err"
    "$PONDER" train $TR "$@" --epochs 3 --out "$TMP/r3b.pnet" -q >/dev/null 2>&1
    if grep -q "resuming from .*${ck##*/} after epoch 2" "$TMP/err" &&
        cmp -s "$TMP/r3.pnet" "$TMP/r3b.pnet"
    then pass "train $what resumes from its checkpoint like an uninterrupted run"
    else fail "train $what resumes from its checkpoint like an uninterrupted run" \
        "$(cat "$TMP/err")"; fi
}

n_shared=$("$PONDER" bench 6 --net "$TMP/a.pnet" 2>&1 | sed -n 's/^Nodes searched: //p')

# ---- a split network (a first layer per bucket) ------------------------------------------------
"$PONDER" train $TR --split --epochs 2 --checkpoint "$TMP/sck" --out "$TMP/s.pnet" \
    >"$TMP/sum" 2>"$TMP/err"
status=$?
want=$((64 + 2 * 129 * 32 * 2 + 2 * (2048 + 256 + 64 + 4) + 4))
size=$(wc -c <"$TMP/s.pnet" 2>/dev/null || echo 0)
version=$(od -An -tu4 -j8 -N4 "$TMP/s.pnet" 2>/dev/null | tr -d ' ')
layers=$(od -An -tu4 -j36 -N4 "$TMP/s.pnet" 2>/dev/null | tr -d ' ')
if [ $status -eq 0 ] && [ "$size" -eq $want ] && [ "$version" = 2 ] && [ "$layers" = 2 ] &&
    grep -q "2 buckets (split)" "$TMP/sum"; then
    pass "train --split writes a version 2 network with a first layer per bucket"
else
    fail "train --split writes a version 2 network with a first layer per bucket" \
        "status $status, $size bytes (expected $want), version $version, layers $layers" \
        "$(cat "$TMP/sum" "$TMP/err")"
fi
bench_differs split "$TMP/s.pnet" shared
expect_status "train: a split run's checkpoint is refused by a shared run" 2 \
    "$PONDER" train $TR --epochs 3 --checkpoint "$TMP/sck" --out "$TMP/x.pnet"
expect_grep "... naming both shapes" "buckets 2 split.*this run: n1 32, buckets 2, seed" "$TMP/err"
resumes --split "$TMP/sck" --split

# ---- a pairwise network (the second layer reads products of the first layer's lanes) ---------
"$PONDER" train $TR --hidden 64 --pairwise --epochs 2 --checkpoint "$TMP/pck" --out "$TMP/p.pnet" \
    >"$TMP/sum" 2>"$TMP/err"
status=$?
# W1 and b1 (129 x 64 int16), then per bucket W2 of 32 x 32 (n1/2 = 32 inputs) as before.
want=$((64 + 129 * 64 * 2 + 2 * (2048 + 256 + 64 + 4) + 4))
size=$(wc -c <"$TMP/p.pnet" 2>/dev/null || echo 0)
version=$(od -An -tu4 -j8 -N4 "$TMP/p.pnet" 2>/dev/null | tr -d ' ')
field=$(od -An -tu4 -j36 -N4 "$TMP/p.pnet" 2>/dev/null | tr -d ' ')
if [ $status -eq 0 ] && [ "$size" -eq $want ] && [ "$version" = 3 ] && [ "$field" = 65537 ] &&
    grep -q "n1 64, n2 32, n3 32, 2 buckets, pairwise, scale" "$TMP/sum"; then
    pass "train --pairwise writes a version 3 network whose second layer reads n1/2 inputs"
else
    fail "train --pairwise writes a version 3 network whose second layer reads n1/2 inputs" \
        "status $status, $size bytes (expected $want), version $version, field $field" \
        "$(cat "$TMP/sum" "$TMP/err")"
fi
bench_differs pairwise "$TMP/p.pnet" shared
resumes --pairwise "$TMP/pck" --hidden 64 --pairwise
"$PONDER" train --init "$TMP/p.pnet" --scale 90 --out "$TMP/p90.pnet" >/dev/null 2>&1
version=$(od -An -tu4 -j8 -N4 "$TMP/p90.pnet" 2>/dev/null | tr -d ' ')
scale=$(od -An -tu4 -j32 -N4 "$TMP/p90.pnet" 2>/dev/null | tr -d ' ')
if [ "$version" = 3 ] && [ "$scale" = 90 ]; then
    pass "train --init of a pairwise network keeps it pairwise (rescaled to 90)"
else fail "train --init of a pairwise network keeps it pairwise" "version $version, scale $scale"; fi
expect_status "train: a pairwise run's checkpoint is refused by a clamped run" 2 \
    "$PONDER" train $TR --hidden 64 --epochs 3 --checkpoint "$TMP/pck" --out "$TMP/x.pnet"
expect_grep "... naming both shapes" "n1 64, buckets 2, pairwise, seed.*this run: n1 64, buckets 2, seed" \
    "$TMP/err"

# ---- the mobility feature set (288 inputs) -----------------------------------------------------
# writes_set SET INPUTS WORDS CHECKPOINT OUT: `train --features SET' writes OUT, a network of
# INPUTS inputs (n1 32, 2 buckets) that its summary calls "WORDS features".
writes_set() {
    "$PONDER" train $TR --features "$1" --epochs 2 --checkpoint "$4" --out "$5" \
        >"$TMP/sum" 2>"$TMP/err"
    status=$?
    want=$((64 + ($2 + 1) * 32 * 2 + 2 * (2048 + 256 + 64 + 4) + 4))
    size=$(wc -c <"$5" 2>/dev/null || echo 0)
    features=$(od -An -tu4 -j12 -N4 "$5" 2>/dev/null | tr -d ' ')
    if [ $status -eq 0 ] && [ "$size" -eq $want ] && [ "$features" = "$2" ] &&
        grep -q "2 buckets, $3 features, scale" "$TMP/sum"; then
        pass "train --features $1 writes a network of $2 inputs"
    else
        fail "train --features $1 writes a network of $2 inputs" \
            "status $status, $size bytes (expected $want), features $features" \
            "$(cat "$TMP/sum" "$TMP/err")"
    fi
}
writes_set mobility 288 mobility "$TMP/mck" "$TMP/m.pnet"
bench_differs mobility "$TMP/m.pnet" pieces
expect_status "train: a mobility run's checkpoint is refused by a pieces run" 2 \
    "$PONDER" train $TR --epochs 3 --checkpoint "$TMP/mck" --out "$TMP/x.pnet"
expect_grep "... naming both feature sets" \
    "buckets 2, mobility features, seed.*this run: n1 32, buckets 2, seed" "$TMP/err"
resumes "--features mobility" "$TMP/mck" --features mobility
# A checkpoint of the 224-input mobility set (session 29: versions 3 and 4) is named and refused.
cp "$TMP/mck" "$TMP/old-mck"
printf '\003' | dd of="$TMP/old-mck" bs=1 seek=8 conv=notrunc 2>/dev/null
expect_status "train: a checkpoint of the 224-input mobility set is refused" 2 \
    "$PONDER" train $TR --features mobility --checkpoint "$TMP/old-mck" --out "$TMP/x.pnet"
expect_grep "... saying why" "old-mck: a checkpoint of the 224-input mobility set" "$TMP/err"
"$PONDER" train --data "$TMP/d4.trn" --batch 64 --seed 9 --valid 0.5 --init "$TMP/m.pnet" \
    --epochs 1 --out "$TMP/mi.pnet" >"$TMP/sum" 2>&1
expect_grep "train --init of a mobility network keeps its feature set" \
    "mobility features, scale" "$TMP/sum"
expect_status "train --init: a mobility network with --features pieces is refused" 2 \
    "$PONDER" train $TR --init "$TMP/m.pnet" --features pieces --epochs 1 --out "$TMP/x.pnet"
expect_grep "... saying why" "has the mobility features; a network cannot drop inputs" "$TMP/err"

# ---- the shot feature set (320 inputs) ---------------------------------------------------------
writes_set shots 320 shot "$TMP/hck" "$TMP/h.pnet"
bench_differs shots "$TMP/h.pnet" pieces
expect_status "train: a shot run's checkpoint is refused by a mobility run" 2 \
    "$PONDER" train $TR --features mobility --epochs 3 --checkpoint "$TMP/hck" --out "$TMP/x.pnet"
expect_grep "... naming both feature sets" \
    "buckets 2, shot features, seed.*this run: n1 32, buckets 2, mobility features, seed" "$TMP/err"
resumes "--features shots" "$TMP/hck" --features shots
"$PONDER" train --data "$TMP/d4.trn" --batch 64 --seed 9 --valid 0.5 --init "$TMP/m.pnet" \
    --features shots --epochs 1 --out "$TMP/hi.pnet" >"$TMP/sum" 2>&1
expect_grep "train --init of a mobility network grows it into the shot set" \
    "shot features, scale" "$TMP/sum"
expect_status "train --init: a shot network with --features mobility is refused" 2 \
    "$PONDER" train $TR --init "$TMP/h.pnet" --features mobility --epochs 1 --out "$TMP/x.pnet"
expect_grep "... saying why" \
    "has the shot features; a network cannot drop inputs: leave out --features mobility" "$TMP/err"

# ---- checkpoints -----------------------------------------------------------------------------
"$PONDER" train $TR --epochs 1 --checkpoint "$TMP/ck" --out "$TMP/one.pnet" -q >/dev/null 2>&1
"$PONDER" train $TR --epochs 3 --checkpoint "$TMP/ck" --out "$TMP/r.pnet" >/dev/null 2>"$TMP/err"
if grep -q "resuming from .*ck after epoch 1" "$TMP/err" && cmp -s "$TMP/a.pnet" "$TMP/r.pnet"; then
    pass "train resumes from its checkpoint and ends where an uninterrupted run does"
else
    fail "train resumes from its checkpoint and ends where an uninterrupted run does" \
        "$(cat "$TMP/err")"
fi
expect_status "train: a checkpoint of another shape is refused" 2 \
    "$PONDER" train $TR --hidden 64 --epochs 3 --checkpoint "$TMP/ck" --out "$TMP/x.pnet"
expect_grep "... with a message" "made by another run" "$TMP/err"
expect_status "train: a checkpoint made with other targets is refused" 2 \
    "$PONDER" train $TR --lambda 0.7 --epochs 3 --checkpoint "$TMP/ck" --out "$TMP/x.pnet"
expect_grep "... with a message" "other targets or positions" "$TMP/err"
printf 'junk' >"$TMP/badck"
expect_status "train: a damaged checkpoint is refused" 2 \
    "$PONDER" train $TR --checkpoint "$TMP/badck" --out "$TMP/x.pnet"
expect_grep "... named" "badck: not a checkpoint" "$TMP/err"

# ---- going on from a network (--init) ----------------------------------------------------------
# The imported weights are the file's exactly: a run at a learning rate too small to move any
# weight across a quantisation step writes the same bytes back.
"$PONDER" train $TR --epochs 1 --lr 1e-7 --init "$TMP/a.pnet" --name gen --out "$TMP/i.pnet" \
    --log "$TMP/ilog" -q >/dev/null 2>"$TMP/err"
expect_same "train --init at a negligible rate gives the network back" "$TMP/a.pnet" "$TMP/i.pnet"
# A run from a trained network starts from its loss, not from a random network's.
"$PONDER" train $TR --epochs 1 --out "$TMP/r0.pnet" --log "$TMP/rlog" -q >/dev/null 2>&1
v_init=$(awk '$1 == "epoch" && $2 == 0 { print $10 }' "$TMP/ilog")
v_rand=$(awk '$1 == "epoch" && $2 == 0 { print $10 }' "$TMP/rlog")
if [ -n "$v_init" ] && [ -n "$v_rand" ] && awk "BEGIN { exit !($v_init < $v_rand) }"; then
    pass "train --init starts from the network's held-out loss ($v_init against $v_rand)"
else
    fail "train --init starts from the network's held-out loss" "init $v_init, random $v_rand" \
        "$(cat "$TMP/ilog")"
fi
# Grown into the mobility set, the network starts from exactly its own loss (the new inputs'
# weights are zero) and the file has the mobility set.
"$PONDER" train $TR --epochs 1 --lr 1e-7 --init "$TMP/a.pnet" --features mobility \
    --out "$TMP/g.pnet" --log "$TMP/glog" >"$TMP/sum" 2>"$TMP/err"
v_grown=$(awk '$1 == "epoch" && $2 == 0 { print $10 }' "$TMP/glog")
if [ -n "$v_grown" ] && [ "$v_grown" = "$v_init" ] && grep -q "mobility features, scale" "$TMP/sum"
then
    pass "train --init NET --features mobility grows a piece network ($v_grown, as before)"
else
    fail "train --init NET --features mobility grows a piece network" \
        "grown $v_grown, init $v_init" "$(cat "$TMP/sum" "$TMP/err" "$TMP/glog")"
fi
n_grown=$("$PONDER" bench 6 --net "$TMP/g.pnet" 2>&1 | sed -n 's/^Nodes searched: //p')
if [ -n "$n_grown" ] && [ "$n_grown" = "$n_shared" ]; then
    pass "... and searches exactly as the network it grew from ($n_grown nodes)"
else
    fail "... and searches exactly as the network it grew from" "'$n_grown' against '$n_shared'"
fi
"$PONDER" train --data "$TMP/d4.trn" --batch 64 --seed 9 --valid 0.5 --epochs 1 --init builtin \
    --out "$TMP/b0.pnet" >"$TMP/sum" 2>"$TMP/err"
if [ $? -eq 0 ] && grep -q "n1 256, n2 32, n3 32, 4 buckets" "$TMP/sum"; then
    pass "train --init builtin trains the built-in network's shape"
else
    fail "train --init builtin trains the built-in network's shape" "$(cat "$TMP/sum" "$TMP/err")"
fi

# ---- a network rewritten (--init without --data) ----------------------------------------------
# Another score scale and name, the weights as they were: back to the first scale and name, the
# bytes are the original's.
"$PONDER" train --init "$TMP/a.pnet" --scale 90 --name s90 --out "$TMP/s90.pnet" >"$TMP/sum" \
    2>"$TMP/err"
st=$?
name="train --init NET --scale 90 without --data rewrites the scale and the name"
if [ $st -eq 0 ] && grep -q "scale 90 (was 80: scores x 1.125), name \"s90\"" "$TMP/sum" &&
    ! cmp -s "$TMP/a.pnet" "$TMP/s90.pnet" &&
    [ "$(wc -c <"$TMP/s90.pnet")" -eq "$(wc -c <"$TMP/a.pnet")" ]; then
    pass "$name"
else fail "$name" "status $st" "$(cat "$TMP/sum" "$TMP/err")"; fi
"$PONDER" train --init "$TMP/s90.pnet" --scale 80 --name gen --out "$TMP/s80.pnet" >"$TMP/sum" \
    2>"$TMP/err"
expect_same "... and back to 80, the original bytes" "$TMP/a.pnet" "$TMP/s80.pnet"
expect_grep "... the file read says it was 90" "scale 80 \(was 90: scores x 0.8889\)" "$TMP/sum"
"$PONDER" train --init "$TMP/a.pnet" --out "$TMP/same.pnet" >/dev/null 2>&1
expect_same "train --init NET alone copies the network" "$TMP/a.pnet" "$TMP/same.pnet"
n_s90=$("$PONDER" bench 6 --net "$TMP/s90.pnet" 2>&1 | sed -n 's/^Nodes searched: //p')
if [ -n "$n_s90" ] && [ "$n_s90" != "$n_shared" ]; then
    pass "... and the rescaled one searches otherwise ($n_s90 nodes against $n_shared)"
else
    fail "... and the rescaled one searches otherwise" "'$n_s90' against '$n_shared'"
fi

# ---- bad input -------------------------------------------------------------------------------
# train_bad NAME PATTERN ARGS... : train refuses with status 2, a message matching PATTERN, and
# writes nothing.
train_bad() {
    name=$1 pat=$2
    shift 2
    "$PONDER" train "$@" >"$TMP/out" 2>"$TMP/err"
    got=$?
    if [ $got -eq 2 ] && grep -Eq -- "$pat" "$TMP/err" && [ ! -e "$TMP/never.pnet" ]; then
        pass "$name"
    else
        fail "$name" "status $got" "$(cat "$TMP/err")"
    fi
}
# ---- --egdb-score: the databases set the search score part of the target too ----------------
"$PONDER" egdb build --pieces 3 --dir "$TMP/db3" >/dev/null 2>&1
"$PONDER" train $TR --epochs 1 --egdb "$TMP/db3" --egdb-score 200 --out "$TMP/es.pnet" \
    >"$TMP/sum" 2>"$TMP/err"
st=$?
name="train --egdb-score counts the search scores the databases set"
if [ $st -eq 0 ] && [ -s "$TMP/es.pnet" ] &&
    grep -Eq "results relabelled by the databases \([0-9]+ differed from the game's; [0-9]+ \
search scores set by them\)" "$TMP/err"; then
    pass "$name"
else fail "$name" "status $st" "$(head -n 2 "$TMP/err")"; fi

O="--out $TMP/never.pnet"
train_bad "train: --data is required" "--data is required" $O
train_bad "train: --out is required" "--out is required" --data "$TMP/d.trn"
train_bad "train: --hidden must be a multiple of 32" "not a multiple of 32" $TR --hidden 48 $O
train_bad "train: --buckets out of range" "buckets" $TR --buckets 9 $O
train_bad "train: --split with one bucket" "--split needs at least 2 buckets" $TR --split --buckets 1 $O
train_bad "train: --features names a set" "none of pieces, mobility and shots" $TR --features kings $O
train_bad "train: --pairwise needs n1 a multiple of 64" "n1 = 32: a pairwise first layer needs a \
multiple of 64" $TR --pairwise $O
train_bad "train: --loss must be mse or ce" "neither mse nor ce" $TR --loss l1 $O
train_bad "train: --valid out of range" "valid" $TR --valid 1.5 $O
train_bad "train: --lambda not a number" "lambda" $TR --lambda x $O
train_bad "train: --td of 1 (no look-ahead weight may reach 1)" "--td" $TR --td 1 $O
train_bad "train: --td not a number" "--td" $TR --td half $O
train_bad "train: --balance between the quarters" "--balance: 0.3 is not 0, 0.25, 0.5, 0.75 or 1" \
    $TR --balance 0.3 $O
train_bad "train: --balance above 1" "--balance" $TR --balance 2 $O
train_bad "train: --balance without --data" "--balance trains" --init "$TMP/a.pnet" --balance 1 $O
train_bad "train: --name too long" "name" $TR --name abcdefghijklmnopqrstuvwxyz $O
train_bad "train: unknown option" "unknown option" $TR --frobnicate 1 $O
train_bad "train: missing file" "none.trn: No such file" --data "$TMP/none.trn" $O
: >"$TMP/empty.trn"
train_bad "train: empty file" "empty.trn: empty file" --data "$TMP/empty.trn" $O
head -c 16 "$TMP/d.trn" >"$TMP/head.trn"
train_bad "train: a file with no positions" "no positions" --data "$TMP/head.trn" $O
cp "$TMP/d.trn" "$TMP/king.trn"
printf '\377' | dd of="$TMP/king.trn" bs=1 seek=$((2 * 16 + 10)) conv=notrunc 2>/dev/null
printf '\377' | dd of="$TMP/king.trn" bs=1 seek=$((2 * 16 + 8)) conv=notrunc 2>/dev/null
train_bad "train: a damaged record is named with its offset" "king.trn: block 3 \(byte 32\)" \
    --data "$TMP/d.trn" --data "$TMP/king.trn" $O
size=$(wc -c <"$TMP/d.trn")
head -c $((size - 5)) "$TMP/d.trn" >"$TMP/trunc.trn"
train_bad "train: a truncated file" "trunc.trn: truncated" --data "$TMP/trunc.trn" $O
train_bad "train: --egdb that is not a database directory" "--egdb" $TR --egdb "$TMP/nodb" $O
train_bad "train: --egdb-score needs --egdb" "--egdb-score needs the databases: give --egdb DIR" \
    $TR --egdb-score 200 $O
train_bad "train: --egdb-score out of range" "--egdb-score" $TR --egdb-score 0 $O
train_bad "train: --init of a missing file" "--init: .*nonet.pnet" $TR --init "$TMP/nonet.pnet" $O
head -c 100 "$TMP/a.pnet" >"$TMP/cut.pnet"
train_bad "train: --init of a damaged network" "--init: .*cut.pnet" $TR --init "$TMP/cut.pnet" $O
train_bad "train: --init with another shape" "is n1 32, 2 buckets; the options ask for n1 64" \
    $TR --hidden 64 --init "$TMP/a.pnet" $O
train_bad "train: --init with another scale" "has scale 80, not --scale 100" \
    $TR --scale 100 --init "$TMP/a.pnet" $O
train_bad "train: a training option without --data" "--epochs trains: give --data" \
    --init "$TMP/a.pnet" --epochs 2 --scale 90 $O
train_bad "train: --lambda without --data" "--lambda trains" --init "$TMP/a.pnet" --lambda 0.5 $O
train_bad "train: --td without --data" "--td trains" --init "$TMP/a.pnet" --td 0.5 $O
train_bad "train: neither --data nor --init" "--data is required" --scale 90 $O
train_bad "train: --scale out of range" "--scale" --init "$TMP/a.pnet" --scale 0 $O
# The plot, where gnuplot is installed (scripts/deps/plot.list).
if command -v gnuplot >/dev/null 2>&1; then
    ROOT=$(cd "$(dirname "$0")/../.." && pwd)
    sh "$ROOT/scripts/plot-training.sh" "$TMP/log" "$TMP/plot.png" >/dev/null 2>"$TMP/err"
    if [ "$(head -c 4 "$TMP/plot.png" 2>/dev/null | tail -c 3)" = PNG ]; then
        pass "plot-training.sh draws the log"
    else
        fail "plot-training.sh draws the log" "$(cat "$TMP/err")"
    fi
fi
expect_status "train --help" 0 "$PONDER" train --help
expect_grep "... lists the options" "--checkpoint FILE" "$TMP/out"
