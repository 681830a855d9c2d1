# relay.sh - sourced by the misbehaving fake engines: runs `$PONDER player --random' as a helper
# so that a fake plays legal moves until it is time to misbehave.
#   relay_start ARGS...  starts the helper (ARGS: e.g. --fen FEN) on two FIFOs
#   relay_move           reads one line from stdin, hands it to the helper, prints its answer;
#                        fails at end of input
#   relay_moves N        relay_move N times; the fake exits (status 0) when the input ends first
# PONDER must name the ponder binary (the fakes take it as their first argument).
relay_start() {
    relay_dir=$(mktemp -d) || exit 3
    mkfifo "$relay_dir/in" "$relay_dir/out" || exit 3
    "$PONDER" player --random --seed 7 "$@" <"$relay_dir/in" >"$relay_dir/out" 2>/dev/null &
    exec 3>"$relay_dir/in" 4<"$relay_dir/out"
    rm -rf "$relay_dir"
}

relay_move() {
    IFS= read -r relay_line || return 1
    printf '%s\n' "$relay_line" >&3
    IFS= read -r relay_reply <&4 || return 1
    printf '%s\n' "$relay_reply"
}

relay_moves() {
    relay_i=0
    while [ "$relay_i" -lt "$1" ]; do
        relay_move || exit 0
        relay_i=$((relay_i + 1))
    done
}
