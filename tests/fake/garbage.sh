#!/bin/sh
# garbage.sh PONDER N TEXT [player args]: plays N legal moves, then answers TEXT (e.g. `Give up!').
PONDER=$1 N=$2 TEXT=$3
shift 3
. "$(dirname "$0")/relay.sh"
relay_start "$@"
relay_moves "$N"
read -r line
printf '%s\n' "$TEXT"
sleep 3600
