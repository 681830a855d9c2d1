#!/bin/sh
# closed.sh PONDER N [player args]: plays N legal moves, then closes its stdout and keeps running.
PONDER=$1 N=$2
shift 2
. "$(dirname "$0")/relay.sh"
relay_start "$@"
i=0
while [ "$i" -lt "$N" ]; do relay_move || exit 0; i=$((i + 1)); done
exec >&-
sleep 3600
