#!/bin/sh
# slow.sh PONDER N DELAY [player args]: plays N legal moves, then answers every move DELAY
# seconds late (a legal answer, too late).
PONDER=$1 N=$2 DELAY=$3
shift 3
. "$(dirname "$0")/relay.sh"
relay_start "$@"
relay_moves "$N"
while IFS= read -r line; do
    sleep "$DELAY"
    printf '%s\n' "$line" >&3
    IFS= read -r reply <&4 || exit 0
    printf '%s\n' "$reply"
done
