#!/bin/sh
# plot-tuning.sh - draws docs/tuning.png: the training loss of a `ponder tune' run, and the Elo
# of successive weight versions measured with `ponder match'.
#
#   scripts/plot-tuning.sh [LOSS_LOG [ELO_TABLE [OUT.png]]]
#
# LOSS_LOG (default docs/tuning-loss.log) is the standard output of `ponder tune': its lines
# `iter N round R train LOSS valid LOSS linear|exact' are drawn, the linear model's loss as
# lines and the evaluation's own loss at the rounded weights (exact) as points. ELO_TABLE
# (default docs/tuning-elo.txt) has one line per version, `# comments' allowed:
#   VERSION-LABEL  ELO  ERROR
# with ELO the version's rating relative to the first (the built-in weights before tuning, 0 0)
# and ERROR the half-width of its 95% interval. Needs gnuplot (Debian gnuplot-nox).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
loss=${1:-$root/docs/tuning-loss.log}
elo=${2:-$root/docs/tuning-elo.txt}
out=${3:-$root/docs/tuning.png}
command -v gnuplot >/dev/null 2>&1 || {
    echo "$0: gnuplot is missing (Debian: apt-get install gnuplot-nox)" >&2
    exit 1
}
for f in "$loss" "$elo"; do
    [ -r "$f" ] || { echo "$0: cannot read $f" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk '$1 == "iter" && $9 == "linear" { print $2, $6, $8 }' "$loss" >"$tmp/linear"
awk '$1 == "iter" && $9 == "exact" { print $2, $6, $8 }' "$loss" >"$tmp/exact"
awk '!/^#/ && NF >= 3 { print NR - 1, $2, $3, $1 }' "$elo" | awk '{ $1 = n++; print }' >"$tmp/elo"
[ -s "$tmp/linear" ] || { echo "$0: no \`iter ... linear' lines in $loss" >&2; exit 1; }
[ -s "$tmp/elo" ] || { echo "$0: no versions in $elo" >&2; exit 1; }
hasvalid=$(awk '$3 > 0 { v = 1 } END { print v + 0 }' "$tmp/linear")

gnuplot <<EOF
set terminal pngcairo size 1100,460 font "sans,10"
set output "$out"
set multiplot layout 1,2
set title "ponder tune: loss per iteration"
set xlabel "iteration (Levenberg-Marquardt step)"
set ylabel "mean squared error"
set key top right
set grid
plot "$tmp/linear" using 1:2 with lines lw 2 lc rgb "#1f77b4" title "training (linear model)", \
     "$tmp/exact" using 1:2 with points pt 7 ps 1.2 lc rgb "#1f77b4" title "training (evaluation, rounded weights)"$(
    [ "$hasvalid" = 1 ] && printf '%s' ", \\
     \"$tmp/linear\" using 1:3 with lines lw 2 lc rgb \"#d62728\" title \"held out (linear model)\", \\
     \"$tmp/exact\" using 1:3 with points pt 5 ps 1.2 lc rgb \"#d62728\" title \"held out (evaluation)\"")
set title "Elo of successive weight versions (95% interval)"
set xlabel "version"
set ylabel "Elo against version 0 (hand-set weights)"
unset key
set xrange [-0.5:*]
set offsets 0, 0.5, 20, 20
plot "$tmp/elo" using 1:2:3:xticlabels(4) with yerrorbars pt 7 ps 1.5 lc rgb "#2ca02c", \
     "$tmp/elo" using 1:2 with lines lw 1 lc rgb "#2ca02c"
unset multiplot
EOF
echo "$0: wrote $out"
