#!/bin/sh
# illegal.sh PONDER N [player args]: plays N legal moves, then a well-formed move that is never
# legal (32 1).
PONDER=$1 N=$2
shift 2
. "$(dirname "$0")/relay.sh"
relay_start "$@"
i=0
while [ "$i" -lt "$N" ]; do relay_move || exit 0; i=$((i + 1)); done
read -r line
echo "32 1"
sleep 3600
