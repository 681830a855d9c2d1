#!/bin/sh
# illegal.sh PONDER N [player args]: plays N legal moves, then a well-formed move that is never
# legal (32 1).
PONDER=$1 N=$2
shift 2
. "$(dirname "$0")/relay.sh"
relay_start "$@"
relay_moves "$N"
read -r line
echo "32 1"
sleep 3600
