#!/bin/sh
# crash.sh PONDER N [player args]: plays N legal moves, then dies of SIGSEGV on its next turn.
PONDER=$1 N=$2
shift 2
. "$(dirname "$0")/relay.sh"
relay_start "$@"
relay_moves "$N"
read -r line
kill -SEGV $$
