#!/bin/sh
# closed.sh PONDER N [player args]: plays N legal moves, then closes its stdout and keeps running.
PONDER=$1 N=$2
shift 2
. "$(dirname "$0")/relay.sh"
relay_start "$@"
relay_moves "$N"
exec >&-
sleep 3600
