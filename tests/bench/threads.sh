#!/bin/sh
# threads.sh - Lazy SMP's time to depth (`make bench`): `ponder bench DEPTH' on 1 and on 2
# threads, alternating, RUNS runs each; prints the median total time of each and their ratio.
# Usage: sh tests/bench/threads.sh [DEPTH [RUNS]]   (defaults 27 and 5)
set -u
cd "$(dirname "$0")/../.." || exit 1
DEPTH=${1:-27}
RUNS=${2:-5}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
total_ms() { ./ponder bench "$DEPTH" --threads "$1" --hash 64 | awk '/^Total time/ {print $4}'; }

one=""
two=""
i=0
while [ $i -lt "$RUNS" ]; do
    one="$one $(total_ms 1)"
    two="$two $(total_ms 2)"
    i=$((i + 1))
done
m1=$(echo $one | tr ' ' '\n' | median)
m2=$(echo $two | tr ' ' '\n' | median)
echo "time to depth $DEPTH over the bench positions, median of $RUNS: 1 thread $m1 ms, 2 threads $m2 ms"
echo "  runs, 1 thread:$one"
echo "  runs, 2 threads:$two"
awk -v a="$m1" -v b="$m2" 'BEGIN { printf "  speed-up: %.2fx\n", a / b }'
