#!/bin/sh
# crash.sh PONDER N [player args]: plays N legal moves, then dies of SIGSEGV on its next turn.
PONDER=$1 N=$2
shift 2
. "$(dirname "$0")/relay.sh"
relay_start "$@"
i=0
while [ "$i" -lt "$N" ]; do relay_move || exit 0; i=$((i + 1)); done
read -r line
kill -SEGV $$
