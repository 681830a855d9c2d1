#!/bin/sh
# proc.sh - for the scripts that start `ponder serve' or `ponder match' in the background
# (tests/cli/serve.sh, tests/stress/, tests/valgrind/run.sh, tests/web/bench-serve.sh): waiting
# for a server's address, and for a process to end, each with a bound.

# serve_url OUT PID TENTHS : waits at most TENTHS tenths of a second for `ponder serve' (PID) to
# write its address into file OUT and prints the URL; fails, printing nothing, when the server
# ends first or never says.
serve_url() {
    _i=0
    while [ "$_i" -lt "$3" ]; do
        _url=$(sed -n 's/^ponder serve: listening on \(http:[^ ]*\) .*/\1/p' "$1" 2>/dev/null)
        if [ -n "$_url" ]; then
            echo "$_url"
            return 0
        fi
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.1
        _i=$((_i + 1))
    done
    return 1
}

# wait_exit PID TENTHS : waits at most TENTHS tenths of a second for PID to end; fails when it
# is still running. WAITED: the tenths waited.
wait_exit() {
    WAITED=0
    while kill -0 "$1" 2>/dev/null; do
        [ "$WAITED" -ge "$2" ] && return 1
        sleep 0.1
        WAITED=$((WAITED + 1))
    done
    return 0
}
