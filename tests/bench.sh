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
