#!/bin/sh
# perft.sh - the move generator's benchmark (`make bench`): perft 12 without and with the hash
# table (median of 5 runs each), perft 14 --paths with the hash table, and copy-make against
# make/unmake. Prints the figures docs/perft.md quotes.
#
# Leaves per second are given two ways: by the wall clock (the last column `ponder perft'
# prints) and, when /usr/bin/time is there, by processor time (all the leaves of the run, perft
# 1 to 12, over its user time), which a machine shared with other work disturbs much less.
set -u
cd "$(dirname "$0")/../.." || exit 1
P=./ponder
RUNS=5

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# run ARGS... : one `ponder perft' run; prints `WALL_RATE CPU_RATE' (CPU_RATE - without time)
run() {
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f 'user %U' -o /tmp/ponder-perft-time.$$ $P perft "$@" >/tmp/ponder-perft-out.$$
        user=$(awk '/^user/ {print $2}' /tmp/ponder-perft-time.$$)
    else
        $P perft "$@" >/tmp/ponder-perft-out.$$
        user=0
    fi
    awk -v user="$user" '{ n += $3; rate = $5 } END {
        printf "%.0f %s\n", rate, (user > 0 ? sprintf("%.0f", n / user) : "-") }' /tmp/ponder-perft-out.$$
    rm -f /tmp/ponder-perft-time.$$ /tmp/ponder-perft-out.$$
}

for mode in "" "--hash 512"; do
    results=$(i=0; while [ $i -lt $RUNS ]; do run 12 $mode; i=$((i + 1)); done)
    wall=$(echo "$results" | awk '{print $1}' | median)
    cpu=$(echo "$results" | awk '{print $2}' | median)
    echo "perft 12 ${mode:-(no hash)}: median of $RUNS: $wall leaves/s (wall clock), $cpu leaves/s (processor time)"
done
echo "perft 14 --paths --hash 2048:"
$P perft 14 --paths --hash 2048 | tail -n 2
build/release/makeunmake
