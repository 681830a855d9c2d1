#!/bin/sh
# hang.sh PONDER N [player args]: plays N legal moves, then never answers again (a child `sleep'
# that only a process-group kill ends).
PONDER=$1 N=$2
shift 2
. "$(dirname "$0")/relay.sh"
relay_start "$@"
relay_moves "$N"
sleep 3600
