#!/bin/sh
# perft.sh - the move generator's benchmark (`make bench`): perft 12 without and with the hash
# table (median of 3 runs each), perft 14 --paths with the hash table, and copy-make against
# make/unmake. Prints the figures docs/perft.md quotes.
set -u
cd "$(dirname "$0")/../.." || exit 1
P=./ponder

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

for mode in "" "--hash 512"; do
    rates=$(for i in 1 2 3; do $P perft 12 $mode | tail -n 1; done | awk '{print $5}')
    secs=$(for i in 1 2 3; do $P perft 12 $mode | tail -n 1; done | awk '{print $4}')
    echo "perft 12 ${mode:-(no hash)}: median $(echo "$rates" | median) leaves/s, $(echo "$secs" | median) s"
done
echo "perft 14 --paths --hash 2048:"
$P perft 14 --paths --hash 2048 | tail -n 2
build/release/makeunmake
