#!/bin/sh
# finetune-net.sh - fine-tunes a network on deeper self-play: its own games at more nodes a move
# than the recipe's 8,000, then `ponder train --init` from it at a lower learning rate
# (docs/generations.md, "Fine-tuning g7a on deeper scores").
#
#   scripts/finetune-net.sh [-i NET] [-n NODES] [-s SHARDS] [-e EPOCHS] [-l LR] [-f SET] [-o NAME]
#                           [WORKDIR]
#
#   -i NET     the network to start from and to play the games (default: builtin)
#   -n NODES   nodes a move in the self-play games (default 32000)
#   -s SHARDS  shards of 2,000 games (of a 40-shard, 80,000-game run, seed 2040; default 4)
#   -e EPOCHS  training epochs (default 3)
#   -l LR      Adam's learning rate (default 0.0003, a third of the recipe's)
#   -f SET     the trained network's inputs: pieces, or mobility to grow a pieces network into
#              the mobility set (its new inputs start at zero; docs/training.md) (default: those
#              of NET)
#   -o NAME    the network's name; it is written to WORKDIR/NAME.pnet (default ft)
#   WORKDIR    where the data goes (default build/finetune; not in git)
#
# Every step writes under a temporary name and is skipped when its result is there, so the
# script can be stopped at any time and run again to go on (a shard in progress starts again).
# A 2,000-game shard at 32,000 nodes takes about 9 minutes on an idle 2-core machine (about
# 240,000 positions); training on 4 shards, a few seconds an epoch.
set -eu
cd "$(dirname "$0")/.."
init=builtin nodes=32000 shards=4 epochs=3 lr=0.0003 name=ft features=
while getopts i:n:s:e:l:f:o:h opt; do
    case $opt in
    i) init=$OPTARG ;;
    n) nodes=$OPTARG ;;
    s) shards=$OPTARG ;;
    e) epochs=$OPTARG ;;
    l) lr=$OPTARG ;;
    f) features="--features $OPTARG" ;;
    o) name=$OPTARG ;;
    *) sed -n '2,25p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
W=${1:-build/finetune}
make ponder >&2
P=$PWD/ponder
step() { echo "finetune-net: $*" >&2; }
net=
[ "$init" = builtin ] || net="--net $init"

mkdir -p "$W/egdb" "$W/n$nodes"
if [ ! -f "$W/egdb/.done" ]; then
    step "endgame databases, up to 5 pieces (to relabel results)"
    "$P" egdb build --pieces 5 --dir "$W/egdb" >&2
    touch "$W/egdb/.done"
fi
data=
for i in $(seq 1 "$shards"); do
    f="$W/n$nodes/shard$i.trn"
    if [ ! -f "$f" ]; then
        step "self-play shard $i of $shards ($nodes nodes a move), $(date +%H:%M:%S)"
        # shellcheck disable=SC2086
        PONDER_EGDB=none "$P" selfplay --games 80000 --seed 2040 --nodes "$nodes" \
            --random-plies 8 --shard "$i/40" --out "$f.tmp" -q --eval net $net
        mv "$f.tmp" "$f"
    fi
    data="$data --data $f"
done
if [ ! -f "$W/$name.pnet" ]; then
    step "training $name from $init"
    # shellcheck disable=SC2086
    "$P" train $data --init "$init" --epochs "$epochs" --lr "$lr" --lambda 0.25 $features \
        --egdb "$W/egdb" --name "$name" --log "$W/$name.log" --checkpoint "$W/$name.ckpt" \
        --out "$W/$name.pnet.tmp" >&2
    mv "$W/$name.pnet.tmp" "$W/$name.pnet"
fi
step "$W/$name.pnet; try it with ponder match ... 'ponder player --net $W/$name.pnet' 'ponder player'"
