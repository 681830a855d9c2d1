#!/bin/sh
# bench.sh - `make bench`: engine and move-generator speed on this machine.
#   ponder bench (default depth): the node signature and nodes per second of the engine;
#   ponder perft 12 from the start: the move generator's speed.
cd "$(dirname "$0")/.." || exit 1
echo "== ponder bench"
./ponder bench || exit 1
echo
echo "== ponder perft 12"
./ponder perft 12 | tail -n 1
echo
echo "== ponder match: 1000 games between two random movers, -j 2 (the referee's overhead)"
start=$(date +%s.%N)
./ponder match -q -j 2 --games 1000 --time 1 "./ponder player --random --seed {seed} --fen {fen}" \
    "./ponder player --random --seed {seed} --fen {fen}" | grep '^Score'
echo "$(date +%s.%N) $start" | awk '{ printf "%.2f s\n", $1 - $2 }'
