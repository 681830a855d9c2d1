#!/bin/sh
# run.sh - `make valgrind': the front ends' transcript tests and every saved fuzz input under
# valgrind memcheck. A check passes when the program does what the transcript says (the exact
# output where it is deterministic, else the exit status) AND memcheck found no invalid access,
# no use of uninitialised memory and no leak (definite or indirect; memory still reachable at
# exit, such as a server's worker threads, is not a leak). One PASS/FAIL line per check, then
# `N passed, N failed'.
#
# It runs build/valgrind/ponder (made without -march=native, see mk/valgrind.mk) and
# build/valgrind/tests/test_fuzz. VALGRIND_QUICK=1 runs a smaller set (one per front end).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/proc.sh
export PONDER="$PWD/build/valgrind/ponder"
export PONDER_DATA="$PWD/tests/data"
REPLAY="$PWD/build/valgrind/tests/test_fuzz"
QUICK=${VALGRIND_QUICK:-0}
TMP=$(mktemp -d)
SERVER=""
trap '[ -n "$SERVER" ] && kill -9 "$SERVER" 2>/dev/null; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
D=$PONDER_DATA
passed=0
failed=0

command -v valgrind >/dev/null || { echo "FAIL valgrind is not installed (scripts/deps/valgrind.list)"; exit 1; }

pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() {
    echo "FAIL $1"
    shift
    [ $# -gt 0 ] && printf '    %s\n' "$@"
    failed=$((failed + 1))
}

# vg LOG CMD... : CMD under memcheck, its report in LOG; memcheck errors make the status 99.
vg() {
    log=$1
    shift
    valgrind --tool=memcheck --error-exitcode=99 --leak-check=full \
        --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
        --num-callers=30 --log-file="$log" "$@"
}

# check NAME STATUS WANT_STATUS LOG [EXPECTED GOT]
check() {
    name=$1 st=$2 want=$3 log=$4
    if [ "$st" -eq 99 ] && [ "$want" -ne 99 ]; then
        fail "$name" "memcheck:" "$(grep -E '^==[0-9]+== ' "$log" | grep -vE 'Memcheck|Copyright|Using Valgrind|Command:|^==[0-9]+== *$' | head -n 40)"
    elif [ "$st" -ne "$want" ]; then
        fail "$name" "exit status $st, expected $want" "$(head -c 600 "$TMP/err")"
    elif [ $# -ge 6 ] && ! cmp -s "$5" "$6"; then
        fail "$name" "output differs from $5:" "$(diff "$5" "$6" | head -n 20)"
    else
        pass "$name"
    fi
}

# run NAME WANT_STATUS INPUT [EXPECTED] -- ARGS... : ponder ARGS < INPUT under memcheck.
run() {
    name=$1 want=$2 input=$3 expected=${4:-}
    shift 4
    vg "$TMP/vg.log" "$PONDER" "$@" <"$input" >"$TMP/out" 2>"$TMP/err"
    st=$?
    if [ -n "$expected" ]; then
        check "valgrind $name" $st "$want" "$TMP/vg.log" "$expected" "$TMP/out"
    else
        check "valgrind $name" $st "$want" "$TMP/vg.log"
    fi
}

# --- the console: transcripts with exact output, and the original program's sessions ----------
C=$D/console
run "console commands" 0 "$C/commands.in" "$C/commands.out" console
if [ "$QUICK" != 1 ]; then
    run "console setboard errors" 0 "$C/fen.in" "$C/fen.out" console
    run "console moves" 0 "$C/moves.in" "$C/moves.out" console
    run "console multi-jumps" 0 "$C/multijump.in" "$C/multijump.out" console
    run "console game ends" 0 "$C/gameend.in" "$C/gameend.out" console
    run "console interrupted searches" 0 "$C/engine.in" "$C/interrupt.out" console
    for t in t1-commands t2-endgame t3-multijump t4-engine t5-analyze t6-reply; do
        run "console original $t" 0 "$D/ponder-transcripts/$t.in" "" console --hash 4
    done
fi

# --- tower: the assignment's transcripts, exact -------------------------------------------------
T=$D/tower
for t in test0 test2 game-end err-target-not-empty; do
    want=0
    case $t in err-*) want=1 ;; esac
    [ "$QUICK" = 1 ] && [ "$t" != test2 ] && continue
    run "tower $t" $want "$T/$t.txt" "$T/$t-out.txt" tower
done
[ "$QUICK" != 1 ] && run "tower --depth 5" 0 "$T/test2.txt" "$T/test2-depth5-out.txt" tower --depth 5

# --- hackerrank: forced answers exact; a side without a move ------------------------------------
H=$D/hackerrank
for n in must-capture crown-continues shot; do
    [ "$QUICK" = 1 ] && [ "$n" != crown-continues ] && continue
    run "hackerrank $n" 0 "$H/$n.in" "$H/$n.expected" hackerrank --depth 6 --hash 1
done
[ "$QUICK" != 1 ] && run "hackerrank no legal move" 1 "$H/no-move-blocked.in" "" hackerrank --hash 1

# --- play: a human session with every command, and a whole game between two computers ----------
printf 'human\ncomputer\n1\nno\n1\n2\nhint\nundo\nboard\nhelp\n9-14\nsave %s/game.pdn\nquit\n' \
    "$TMP" >"$TMP/play.in"
run "play human against computer, commands" 0 "$TMP/play.in" "" play --depth 3 --color never --hash 1
if [ "$QUICK" != 1 ]; then
    printf 'yes\n' >"$TMP/yes"
    run "play computer against computer from a board file" 0 "$TMP/yes" "" play --black computer \
        --white computer --board "$D/sable-boards/sampleCheckers1.txt" --depth 2 --color never --hash 1
fi

# --- player: the middleware protocol -------------------------------------------------------------
printf '0 0\n24 20\n22 18\n' >"$TMP/player.in"
run "player" 0 "$TMP/player.in" "" player --depth 4 --hash 1

# --- serve: requests over loopback, then Ctrl-C: a clean shutdown frees everything -------------
if [ "$QUICK" != 1 ] && command -v curl >/dev/null; then
    # Started directly (not through vg, a function: $! would be a subshell that drops SIGINT).
    valgrind --tool=memcheck --error-exitcode=99 --leak-check=full \
        --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
        --num-callers=30 --log-file="$TMP/vg-serve.log" \
        "$PONDER" serve --port 0 --workers 1 --hash 1 >"$TMP/serve.out" 2>"$TMP/err" &
    SERVER=$!
    URL=$(serve_url "$TMP/serve.out" "$SERVER" 600)
    if [ -z "$URL" ]; then
        fail "valgrind serve" "the server did not start" "$(head -c 600 "$TMP/err")"
    else
        J='Content-Type: application/json'
        id=$(curl -s -X POST -H "$J" -d '{"side":"both"}' "$URL/api/games" |
            sed -n 's/^{"id":"\([0-9a-f]*\)".*/\1/p')
        codes=""
        for req in "POST /api/games/$id/move {\"move\":\"11-15\"}" \
            "POST /api/games/$id/engine {\"wait\":true,\"time\":0.2}" \
            "GET /api/games/$id/moves" "GET /api/games/$id/pdn" "GET /api/status" \
            "POST /api/games/$id/move {\"move\":" "POST /api/games/$id/undo {\"plies\":2}" \
            "DELETE /api/games/$id" "GET /api/games/$id" "GET /"; do
            set -- $req
            codes="$codes $(curl -s -o /dev/null -w '%{http_code}' -X "$1" -H "$J" \
                ${3:+-d "$3"} "$URL$2")"
        done
        kill -INT "$SERVER"
        # A shutdown that hangs is a failure too: at most 60 s.
        wait_exit "$SERVER" 600 || kill -9 "$SERVER"
        wait "$SERVER"
        st=$?
        SERVER=""
        if [ "$codes" != " 200 200 200 200 200 400 200 204 404 200" ] || [ -z "$id" ]; then
            fail "valgrind serve" "game '$id', statuses:$codes"
        else
            check "valgrind serve: requests, then a clean shutdown" $st 0 "$TMP/vg-serve.log"
        fi
    fi
fi

# --- every saved fuzz input, through every harness -----------------------------------------------
if [ "$QUICK" != 1 ]; then
    vg "$TMP/vg-fuzz.log" "$REPLAY" >"$TMP/fuzz.out" 2>"$TMP/err"
    st=$?
    grep -E '^(PASS|FAIL)' "$TMP/fuzz.out" | sed 's/^/    /'
    check "valgrind fuzz replay (tests/fuzz/corpus, tests/fuzz/regress)" $st 0 "$TMP/vg-fuzz.log"
fi

echo "valgrind: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
