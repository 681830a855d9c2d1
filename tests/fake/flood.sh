#!/bin/sh
# flood.sh PONDER N [player args]: plays N legal moves, then floods stdout with an endless line.
PONDER=$1 N=$2
shift 2
. "$(dirname "$0")/relay.sh"
relay_start "$@"
relay_moves "$N"
read -r line
tr '\000' 7 </dev/zero
