#!/bin/sh
# build-net.sh - rebuilds the shipped network, data/nets/default.pnet, from nothing: self-play
# data, endgame databases to label it, seven generations of training (docs/generations.md).
#
#   scripts/build-net.sh [--from-git] [WORKDIR]      (default: build/net)
#
# --from-git takes g2a-g6a as committed (each the default network of its day, from this clone's
# history) instead of training them, and leaves out gen2, which only g3a's training reads: the
# same data by 82 self-play shards and two trainings (g1a, never committed, and g7t), about
# three hours (2.0-2.3 minutes a shard in session 58). That is how the data of g7m (sessions
# 38-40) and of g7t (sessions 57-58) was made.
# PONDER=FILE runs that binary instead of making and running this tree's ./ponder.
#
# Every step writes its result under WORKDIR through a temporary name and is skipped when the
# result is already there, so the script can be stopped at any time and run again to go on.
# Each step is announced with the time; a self-play shard also with its place among the
# recipe's 92 and the time still to go at this run's pace so far.
# About five hours on an idle 2-core machine (self-play is nearly all of it: a 2,000-game
# shard of the network engine took about 3 minutes in session 35):
#   1. the 5-piece endgame databases (ponder egdb build), to relabel results where they know;
#   2. gen0: 8,000 self-play games of the classic evaluation (4 of 40 shards of an 80,000-game
#      run, 8,000 nodes a move, ballots plus 0-8 random moves), about 960,000 positions;
#   3. g1a: the first network, trained on shards 1-3 of gen0;
#   4. gen1: 10,000 self-play games of g1a (5 shards);
#   5. g2a: the second network, trained on gen0 shards 1-4 and gen1 shards 1-3;
#   6. gen2: 20,000 self-play games of g2a (10 shards);
#   7. g3a: the third network, trained on gen0 1-4, gen1 1-5 and gen2 1-10 (4.5 M records);
#   8. gen3: 40,000 self-play games of g3a (20 shards);
#   9. g4e: trained on gen0 1-4, gen1 1-5 and gen3 1-20 (7.1 M records; gen2 is left out
#      because g4e was made that way: gen2 had not been played again yet);
#  10. gen4: 26,000 self-play games of g4e (13 shards, 0-12 random moves);
#  11. g5b: trained on gen0 1-4, gen1 1-5, gen3 1-20 and gen4 1-13 (10.1 M records), the
#      target a quarter game result and three quarters search score;
#  12. gen5: 40,000 self-play games of g5b (20 shards) that start from positions of gen3's and
#      gen4's games (plies 8-30, within 0.8 of a man of even), then 0-2 random moves;
#  13. g6a: trained as g5b with gen5 1-20 beside (14.4 M records);
#  14. gen6: 40,000 self-play games of g6a (20 shards) from positions of gen4's and gen5's games;
#  15. g7t: the shipped network, trained as g6a with gen6 1-20 beside (18.7 M records), with
#      the mobility inputs (--features mobility; every earlier network has the pieces alone)
#      and search scores that look ahead along the game (--td 0.5, docs/training.md). g7m,
#      the default before it, is this step without --td; g7a, before that, without either;
#  16. g7t-s90: g7t's weights with the score scale 90 instead of 80 (ponder train --init
#      without --data): every score 9/8 as large, so the search's fixed margins weigh less
#      against the evaluation (session 54, docs/engine.md).
# Self-play with a node limit and the trainer are reproducible (any thread count), so the result
# is the committed file byte for byte as long as the search (under a node limit) and the trainer
# are those it was made with. The early networks were made by older searches (g4e: gen0 and gen1
# by the search of d7e9b5c, gen3 by that of f83627f, reverse futility to depth 3 and no singular
# extensions; gen4 by that of a6ccef0, reverse futility to depth 5 and singular extensions), so
# without --from-git, which trains g2a-g6a again, the script makes networks of their recipe, not
# their bytes. g7m, the default since session 41, was trained by step 15 on the recipe's data
# played again by the search of 213cc56 (bench 3,732,176) from the historical networks in git,
# g2a-g6a, with g1a trained again (docs/generations.md, sessions 38-40). g7t, the default since
# session 58, was made by these steps: its data by this script with --from-git and the binary of
# f1a6aa3 (the search of g7t's commit, bench 4,092,156 with g7m-s90; sessions 57-58), then steps
# 15 and 16 with the binary of 91ccb3d (the trainer as it is now). Run again in sessions 64-65 with
# --from-git and the binary of 649f013 (bench 5,752,584: the search since f1a6aa3 differs only
# under a time limit, and self-play uses a node limit), it wrote a g7t-s90 byte for byte the
# committed data/nets/default.pnet; so it did in sessions 69-72 with the binary of 7c79f1a.
# The final step copies g7t-s90 to data/nets/default.pnet; `make' then builds it in.
set -eu
cd "$(dirname "$0")/.."
from_git=0
if [ "${1:-}" = --from-git ]; then
    from_git=1
    shift
fi
case ${1:-} in -*)
    echo "build-net: unknown option $1 (usage: scripts/build-net.sh [--from-git] [WORKDIR])" >&2
    exit 2
    ;;
esac
W=${1:-build/net}
mkdir -p "$W/egdb" "$W/gen0" "$W/gen1" "$W/gen3" "$W/gen4" "$W/gen5" "$W/gen6"
if [ "$from_git" = 0 ]; then mkdir -p "$W/gen2"; fi
if [ -n "${PONDER:-}" ]; then # the binary to run, instead of this tree's (tests/cli/build_net.sh)
    P=$PONDER
else
    make ponder >&2
    P=$PWD/ponder
fi

step() { echo "build-net: $(date +%H:%M) $*" >&2; }
start=$(date +%s)
shards_total=92 # the recipe's self-play shards: gen0 4, gen1 5, gen2 10, gen3 20, gen4 13,
#                 gen5 20, gen6 20
if [ "$from_git" = 1 ]; then shards_total=82; fi # gen2 left out
shards_seen=0   # of them, reached by this run (played now or found made)
shards_played=0 # of them, played by this run
rplies=8 # random moves after the ballot in self-play: 0 to this many
lambda=0.5 # the game result's share of the training target
features=pieces # the network's inputs (ponder train --features)
td="" # ponder train --td: how far the search score looks ahead along the game (empty: not at all)

if [ ! -f "$W/egdb/.done" ]; then
    step "endgame databases, up to 5 pieces"
    "$P" egdb build --pieces 5 --dir "$W/egdb" >&2
    touch "$W/egdb/.done"
fi

selfplay() { # DIR SEED SHARD [ENGINE OPTIONS]
    dir=$1 seed=$2 i=$3
    shift 3
    shards_seen=$((shards_seen + 1))
    [ -f "$dir/shard$i.trn" ] && return 0
    left=""
    if [ "$shards_played" -gt 0 ]; then # the time so far a shard, trainings included
        per=$((($(date +%s) - start) / shards_played))
        left=", about $((per * (shards_total - shards_seen + 1) / 60)) min to go"
    fi
    step "$dir shard $i of the run's 40 (self-play shard $shards_seen of $shards_total$left)"
    "$P" selfplay --games 80000 --seed "$seed" --nodes 8000 --random-plies "$rplies" \
        --shard "$i/40" --out "$dir/shard$i.trn.tmp" -q "$@"
    mv "$dir/shard$i.trn.tmp" "$dir/shard$i.trn"
    shards_played=$((shards_played + 1))
}

train() { # OUT NAME EPOCHS FILES...   ($lambda, $features and $td: as set above)
    out=$1 name=$2 epochs=$3
    shift 3
    [ -f "$out" ] && return 0
    step "training $name"
    data=""
    for f in "$@"; do data="$data --data $f"; done
    # shellcheck disable=SC2086
    "$P" train $data --out "$out.tmp" --epochs "$epochs" --lambda "$lambda" --egdb "$W/egdb" \
        --features "$features" ${td:+--td "$td"} --name "$name" --log "$W/$name.log" \
        --checkpoint "$W/$name.ckpt" >&2
    mv "$out.tmp" "$out"
}

# historical NAME COMMIT : with --from-git, the network NAME as committed at COMMIT (the default
# network of its day) in place of its training.
historical() {
    [ "$from_git" = 1 ] && [ ! -f "$W/$1.pnet" ] || return 0
    step "$1 from git, the default network at commit $2"
    if ! git show "$2:data/nets/default.pnet" >"$W/$1.pnet.tmp"; then
        rm -f "$W/$1.pnet.tmp"
        echo "build-net: --from-git: no network at commit $2 ($1); a clone with the project's" \
            "history is needed (git clone, not an archive), or run without --from-git" >&2
        exit 1
    fi
    mv "$W/$1.pnet.tmp" "$W/$1.pnet"
}

for i in 1 2 3 4; do selfplay "$W/gen0" 2026 $i --eval classic; done
train "$W/g1a.pnet" g1a 20 "$W/gen0/shard1.trn" "$W/gen0/shard2.trn" "$W/gen0/shard3.trn"
for i in 1 2 3 4 5; do selfplay "$W/gen1" 2027 $i --eval net --net "$W/g1a.pnet"; done
historical g2a 0c7276a
train "$W/g2a.pnet" g2a 16 "$W"/gen0/shard[1-4].trn "$W"/gen1/shard[1-3].trn
historical g3a 4b12c5b
if [ "$from_git" = 0 ]; then
    for i in 1 2 3 4 5 6 7 8 9 10; do
        selfplay "$W/gen2" 2028 $i --eval net --net "$W/g2a.pnet"
    done
fi
# The order of the files matters to the trainer: gen2's in the shell's order (1, 10, 2, ..., 9),
# as g3a was trained.
train "$W/g3a.pnet" g3a 16 "$W"/gen0/shard[1-4].trn "$W"/gen1/shard[1-5].trn "$W"/gen2/shard*.trn
for i in $(seq 1 20); do selfplay "$W/gen3" 2029 "$i" --eval net --net "$W/g3a.pnet"; done
# gen3's files in the shell's order too (1, 10-19, 2, 20, 3-9), as g4e was trained.
historical g4e 179cd25
train "$W/g4e.pnet" g4e 16 "$W"/gen0/shard[1-4].trn "$W"/gen1/shard[1-5].trn "$W"/gen3/shard*.trn
# gen4: 13 shards of g4e with 0-12 random moves after the ballot (fewer repeated games).
rplies=12
for i in $(seq 1 13); do
    selfplay "$W/gen4" 2030 "$i" --eval net --net "$W/g4e.pnet"
done
# gen3's and gen4's files in the shell's order, as g5b was trained; a quarter result, three
# quarters search score.
lambda=0.25
historical g5b 784d18c
train "$W/g5b.pnet" g5b 16 "$W"/gen0/shard[1-4].trn "$W"/gen1/shard[1-5].trn "$W"/gen3/shard*.trn \
    "$W"/gen4/shard*.trn
# gen5: 20 shards of g5b from positions of gen3's and gen4's games (their files in the shell's
# order, one file), then 0-2 random moves.
if [ ! -f "$W/gen5/prior.trn" ]; then
    cat "$W"/gen3/shard*.trn "$W"/gen4/shard*.trn >"$W/gen5/prior.trn.tmp"
    mv "$W/gen5/prior.trn.tmp" "$W/gen5/prior.trn"
fi
rplies=2
for i in $(seq 1 20); do
    selfplay "$W/gen5" 2031 "$i" --eval net --net "$W/g5b.pnet" --openings "$W/gen5/prior.trn"
done
historical g6a fe04566
train "$W/g6a.pnet" g6a 16 "$W"/gen0/shard[1-4].trn "$W"/gen1/shard[1-5].trn "$W"/gen3/shard*.trn \
    "$W"/gen4/shard*.trn "$W"/gen5/shard*.trn
# gen6: 20 shards of g6a from positions of gen4's and gen5's games, the way gen5 was made.
if [ ! -f "$W/gen6/prior.trn" ]; then
    cat "$W"/gen4/shard*.trn "$W"/gen5/shard*.trn >"$W/gen6/prior.trn.tmp"
    mv "$W/gen6/prior.trn.tmp" "$W/gen6/prior.trn"
fi
for i in $(seq 1 20); do
    selfplay "$W/gen6" 2032 "$i" --eval net --net "$W/g6a.pnet" --openings "$W/gen6/prior.trn"
done
# g7t: g6a's data with gen6 beside, the mobility inputs, and search scores that look ahead along
# the game (--td 0.5). g7m, the default before it, is this step without --td.
features=mobility
td=0.5
train "$W/g7t.pnet" g7t 16 "$W"/gen0/shard[1-4].trn "$W"/gen1/shard[1-5].trn "$W"/gen3/shard*.trn \
    "$W"/gen4/shard*.trn "$W"/gen5/shard*.trn "$W"/gen6/shard*.trn
# g7t-s90: the same network, its scores 9/8 as large.
if [ ! -f "$W/g7t-s90.pnet" ]; then
    step "g7t-s90: g7t with the score scale 90"
    "$P" train --init "$W/g7t.pnet" --scale 90 --name g7t-s90 --out "$W/g7t-s90.pnet.tmp" >&2
    mv "$W/g7t-s90.pnet.tmp" "$W/g7t-s90.pnet"
fi
cp "$W/g7t-s90.pnet" data/nets/default.pnet
step "data/nets/default.pnet written; run make to build it in"
