#!/bin/sh
# chaos.sh PONDER SEED [player args] - a fake engine for the match stress test: SEED (the
# match's per-game {seed}) picks how many legal moves it plays (0-24) and then how it
# misbehaves, through the fakes of tests/fake/: a crash, a hang, an exit, `Give up!', garbage,
# an illegal move, an endless line, closing its output, answering too late, printing out of
# turn; or it plays the whole game honestly (`ponder player --random').
PONDER=$1 SEED=$2
shift 2
F=$(cd "$(dirname "$0")/../fake" && pwd)
n=$((SEED % 25))
case $((SEED / 25 % 11)) in
0) exec sh "$F/crash.sh" "$PONDER" $n "$@" ;;
1) exec sh "$F/hang.sh" "$PONDER" $n "$@" ;;
2) exec sh "$F/exit.sh" 3 ;;
3) exec sh "$F/garbage.sh" "$PONDER" $n "Give up!" "$@" ;;
4) exec sh "$F/garbage.sh" "$PONDER" $n "$(printf '\001\377 12 x')" "$@" ;;
5) exec sh "$F/illegal.sh" "$PONDER" $n "$@" ;;
6) exec sh "$F/flood.sh" "$PONDER" $n "$@" ;;
7) exec sh "$F/closed.sh" "$PONDER" $n "$@" ;;
8) exec sh "$F/slow.sh" "$PONDER" $n 2 "$@" ;;
9) exec sh "$F/chatty.sh" "$PONDER" $n "$@" ;;
*) exec "$PONDER" player --random --seed "$SEED" "$@" ;;
esac
