#!/bin/sh
# slow.sh PONDER N DELAY [player args]: plays N legal moves, then answers every move DELAY
# seconds late (a legal answer, too late).
PONDER=$1 N=$2 DELAY=$3
shift 3
. "$(dirname "$0")/relay.sh"
relay_start "$@"
i=0
while [ "$i" -lt "$N" ]; do relay_move || exit 0; i=$((i + 1)); done
while IFS= read -r line; do
    sleep "$DELAY"
    printf '%s\n' "$line" >&3
    IFS= read -r reply <&4 || exit 0
    printf '%s\n' "$reply"
done
