#!/bin/sh
# garbage.sh PONDER N TEXT [player args]: plays N legal moves, then answers TEXT (e.g. `Give up!').
PONDER=$1 N=$2 TEXT=$3
shift 3
. "$(dirname "$0")/relay.sh"
relay_start "$@"
i=0
while [ "$i" -lt "$N" ]; do relay_move || exit 0; i=$((i + 1)); done
read -r line
printf '%s\n' "$TEXT"
sleep 3600
