#!/bin/sh
# chatty.sh PONDER N [player args]: plays N legal moves, then follows its next move with an extra
# line (output out of turn).
PONDER=$1 N=$2
shift 2
. "$(dirname "$0")/relay.sh"
relay_start "$@"
relay_moves "$N"
relay_move || exit 0
echo "info: thinking about the next one"
while relay_move; do :; done
