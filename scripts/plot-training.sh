#!/bin/sh
# plot-training.sh - draws docs/training.png from the loss log of `ponder train --log FILE':
# the training loss and the held-out losses (squared error and cross-entropy) per epoch, and
# the training speed.
#
#   scripts/plot-training.sh [LOSS_LOG [OUT.png]]
#
# LOSS_LOG (default docs/training-loss.log) holds lines
#   epoch E lr LR train LOSS valid_mse M valid_ce C seconds S pos_per_s R cpu_seconds U
# (epoch 0: the untrained network) and `#' comments; a resumed run appends to it, so an epoch
# may appear twice: the last line of each epoch counts. Needs gnuplot (Debian gnuplot-nox).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
log=${1:-$root/docs/training-loss.log}
out=${2:-$root/docs/training.png}
command -v gnuplot >/dev/null 2>&1 || {
    echo "$0: gnuplot is missing (Debian: apt-get install gnuplot-nox)" >&2
    exit 1
}
[ -r "$log" ] || { echo "$0: cannot read $log" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk '$1 == "epoch" && NF >= 16 {
         cpu = $16 > 0 ? $14 * $12 / $16 : 0
         line[$2 + 0] = $2 " " $6 " " $8 " " $10 " " $14 " " cpu
         if ($2 + 0 > last) last = $2 + 0
     }
     END { for (e = 0; e <= last; e++) if (e in line) print line[e] }' "$log" >"$tmp/epochs"
[ -s "$tmp/epochs" ] || { echo "$0: no \`epoch ...' lines in $log" >&2; exit 1; }
title=$(sed -n 's/^# \([0-9]* training positions, [0-9]* held out\).*; \(lambda.*\)/\1; \2/p' "$log" |
    tail -n 1)
# The training loss is the optimised one (named in the last summary): drawn on its own axis.
if sed -n 's/^# [0-9]* training positions.* \([a-z]*\) loss, seed.*/\1/p' "$log" | tail -n 1 |
    grep -qx mse; then
    train_axes=x1y2 train_title="training (squared error, right)"
else
    train_axes=x1y1 train_title="training (cross-entropy)"
fi

gnuplot <<EOF
set terminal pngcairo size 1100,460 font "sans,10"
set output "$out"
set multiplot layout 1,2 title "ponder train: $title"
set title "loss per epoch (epoch 0: the untrained network)"
set xlabel "epoch"
set ylabel "cross-entropy"
set y2label "mean squared error"
set ytics nomirror
set y2tics
set key top right
set grid
plot "$tmp/epochs" using 1:2 axes $train_axes with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "$train_title", \
     "$tmp/epochs" using 1:4 with linespoints lw 2 pt 5 lc rgb "#d62728" title "held out, cross-entropy", \
     "$tmp/epochs" using 1:3 axes x1y2 with linespoints lw 1 pt 4 dt 2 lc rgb "#9467bd" title "held out, squared error (right)"
set title "training speed"
unset y2label
unset y2tics
set ytics mirror
set ylabel "positions per second"
set key bottom right
plot "$tmp/epochs" using 1:5 every ::1 with linespoints lw 2 pt 7 lc rgb "#2ca02c" title "wall clock", \
     "$tmp/epochs" using 1:6 every ::1 with linespoints lw 2 pt 5 lc rgb "#ff7f0e" title "per CPU second (all threads)"
unset multiplot
EOF
echo "$0: wrote $out"
