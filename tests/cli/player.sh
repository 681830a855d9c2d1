#!/bin/sh
# player.sh - `ponder player` (seed 002's middleware protocol): answers with one legal move per
# line and nothing else on stdout, as Black (`0 0') or White, from --fen positions; the engine,
# --baseline and --random modes; bad input (illegal, unreadable, `0 0' late, over-long lines) ends
# it with status 1 and a message on stderr; end of input with status 0; bad arguments exit 2.
. "$(dirname "$0")/lib.sh"

# play NAME ARGS... : feeds $TMP/in to `ponder player ARGS'; stdout $TMP/out, stderr $TMP/err,
# exit status in $status.
play() {
    "$PONDER" player "$@" <"$TMP/in" >"$TMP/out" 2>"$TMP/err"
    status=$?
}

# expect_lines NAME N : $TMP/out has exactly N lines and play exited 0.
expect_lines() {
    got=$(wc -l <"$TMP/out")
    if [ "$status" -eq 0 ] && [ "$got" -eq "$2" ]; then pass "$1"; else
        fail "$1" "exit status $status, $got lines, expected 0 and $2" "$(head -c 400 "$TMP/out")" \
            "$(head -c 400 "$TMP/err")"
    fi
}

# The seven legal first moves of Black.
FIRST='^(9 13|9 14|10 14|10 15|11 15|11 16|12 16)$'

printf '0 0\n' >"$TMP/in"
play --depth 3
expect_lines "engine as Black answers one line" 1
expect_grep "engine's first move is legal" "$FIRST" "$TMP/out"
play --time 0.05
expect_lines "engine with --time answers one line" 1
expect_grep "timed engine's first move is legal" "$FIRST" "$TMP/out"
play --baseline
expect_lines "baseline as Black answers one line" 1
expect_grep "baseline's first move is legal" "$FIRST" "$TMP/out"
play --random --seed 5
expect_lines "random as Black answers one line" 1
expect_grep "random's first move is legal" "$FIRST" "$TMP/out"
play --depth 2 --hash 4 --threads 2
expect_lines "engine takes --hash and --threads" 1

# --nodes: a search of so many nodes, the same whatever the load: two matches of 2000-node
# players play the same game move for move.
play --nodes 2000
expect_lines "engine with --nodes answers one line" 1
expect_grep "--nodes engine's first move is legal" "$FIRST" "$TMP/out"
for run in 1 2; do
    "$PONDER" match -q --games 1 --max-plies 60 --pdn "$TMP/nodes$run.pdn" \
        "$PONDER player --nodes 2000 --fen {fen}" "$PONDER player --nodes 3000 --fen {fen}" \
        >/dev/null 2>"$TMP/err"
    grep -v '^\[\(Date\|Time\|TimeControl\)' "$TMP/nodes$run.pdn" >"$TMP/nodes$run.moves"
done
if grep -q '^1\. ' "$TMP/nodes1.moves"; then
    expect_same "--nodes: the same game twice" "$TMP/nodes1.moves" "$TMP/nodes2.moves"
else
    fail "--nodes: the same game twice" "no game in $(cat "$TMP/nodes1.pdn" "$TMP/err")"
fi

# As White: a move of Black's first, answered by a White move (21-24 move down to 17-20).
printf '11 15\n' >"$TMP/in"
play --depth 3
expect_lines "engine as White answers one line" 1
expect_grep "engine's White reply moves a White man" '^2[1-4] (1[7-9]|20)$' "$TMP/out"

# A longer exchange: the deterministic baseline as Black, the random player supplying White's
# replies; the baseline must repeat its first move and answer the reply, two lines in all.
printf '0 0\n' >"$TMP/in"
play --baseline
m1=$(cat "$TMP/out")
printf '%s\n' "$m1" >"$TMP/in"
play --random --seed 3
w1=$(cat "$TMP/out")
printf '0 0\n%s\n' "$w1" >"$TMP/in"
play --baseline
expect_lines "baseline answers each move of a game" 2
if [ "$(head -n 1 "$TMP/out")" = "$m1" ]; then pass "baseline is deterministic"; else
    fail "baseline is deterministic" "first move $(head -n 1 "$TMP/out"), before $m1"
fi
# Each of its answers is legal: the random player accepts them as White's opponent.
printf '%s\n%s\n' "$m1" "$(sed -n 2p "$TMP/out")" >"$TMP/check.in"
# (random as White got m1, replied w1 with seed 3, then receives the baseline's second move)
"$PONDER" player --random --seed 3 <"$TMP/check.in" >"$TMP/check.out" 2>"$TMP/check.err"
if [ $? -eq 0 ] && [ "$(wc -l <"$TMP/check.out")" -eq 2 ]; then pass "baseline's second move is legal"; else
    fail "baseline's second move is legal" "$(cat "$TMP/check.err")"
fi

# --fen: `0 0' means the side to move in that position.
printf '0 0\n' >"$TMP/in"
play --fen 'W:W21,22:B1' --depth 3
expect_lines "from a FEN with White to move" 1
expect_grep "White moves from the FEN" '^2[12] (1[78])$' "$TMP/out"
printf '14 18\n' >"$TMP/in"
play --fen 'B:W22,23:B14' --baseline
expect_lines "opponent's move applies to the FEN position" 1
printf '0 0\n' >"$TMP/in"
play --fen 'B:W21:B' --depth 3
if [ "$status" -eq 0 ] && [ ! -s "$TMP/out" ]; then pass "no legal move: nothing on stdout, status 0"; else
    fail "no legal move: nothing on stdout, status 0" "status $status" "$(cat "$TMP/out")"
fi
expect_grep "no legal move is explained on stderr" 'no legal move' "$TMP/err"
# A capture must be given as its whole path.
printf '0 0\n' >"$TMP/in"
play --fen 'B:W14,22:B9' --depth 3
expect_grep "a double jump is printed square by square" '^9 18 25$' "$TMP/out"

# Bad input: status 1, a message naming the line and the move, no move printed for it.
printf '9 18\n' >"$TMP/in"
play --depth 2
if [ "$status" -eq 1 ] && [ ! -s "$TMP/out" ]; then pass "illegal move: status 1"; else
    fail "illegal move: status 1" "status $status" "$(cat "$TMP/out")"
fi
expect_grep "illegal move is named" "line 1: bad move \`9 18'" "$TMP/err"
printf 'Give up!\n' >"$TMP/in"
play --random
expect_status "unreadable move: status 1" 1 sh -c "\"$PONDER\" player --random <\"$TMP/in\""
expect_grep "unreadable move is named" "Give up" "$TMP/err"
printf '0 0\n0 0\n' >"$TMP/in"
play --random
if [ "$status" -eq 1 ] && [ "$(wc -l <"$TMP/out")" -eq 1 ]; then pass "a late 0 0: status 1 after one move"; else
    fail "a late 0 0: status 1 after one move" "status $status"
fi
expect_grep "a late 0 0 is explained" "line 2: .0 0. .*first line" "$TMP/err"
printf '' >"$TMP/in"
play --depth 2
if [ "$status" -eq 0 ] && [ ! -s "$TMP/out" ]; then pass "empty input: status 0, no output"; else
    fail "empty input: status 0, no output" "status $status"
fi
printf '\n' >"$TMP/in"
play --random
expect_status "an empty line is not a move" 1 sh -c "\"$PONDER\" player --random <\"$TMP/in\""
awk 'BEGIN { s = ""; for (i = 0; i < 5000; i++) s = s "9"; print s }' >"$TMP/in"
play --random
expect_grep "an over-long line is refused" 'longer than' "$TMP/err"
printf '0 0\r\n' >"$TMP/in"
play --random
expect_lines "CRLF line ends are accepted" 1

# Arguments.
expect_status "--help exits 0" 0 "$PONDER" player --help
expect_grep "--help prints usage" '^usage: ponder player' "$TMP/out"
# The example moves read as moves: a plain one beside the double jump, which is spelled out.
expect_grep "--help shows a plain move" "\`9 13' for a move" "$TMP/out"
expect_grep "--help explains the jump" "2 to 11 to 18" "$TMP/out"
expect_status "unknown option: status 2" 2 "$PONDER" player --fast
expect_status "bad --time: status 2" 2 "$PONDER" player --time 0
expect_status "bad --depth: status 2" 2 "$PONDER" player --depth x
expect_status "bad --nodes: status 2" 2 "$PONDER" player --nodes 0
expect_grep "bad --nodes is explained" "--nodes: \`0' is not a whole number" "$TMP/err"
expect_status "bad FEN: status 2" 2 "$PONDER" player --fen 'B:W33'
expect_grep "bad FEN is explained" 'bad FEN' "$TMP/err"
expect_status "a man on its crowning row: status 2" 2 "$PONDER" player --fen 'B:W1:B14'
expect_grep "a man on its crowning row is named" 'a White man on square 1, its crowning row' "$TMP/err"
expect_status "stray argument: status 2" 2 "$PONDER" player 9
expect_status "missing weights file: status 1" 1 sh -c "printf '0 0\n' | \"$PONDER\" player --weights \"$TMP/none\""

# The options as getopt_long reads them: --opt=value gives the same game as --opt value.
printf '0 0\n' >"$TMP/in"
play --random --seed 5
cp "$TMP/out" "$TMP/plain"
play --random --seed=5 --hash=4 --threads=2 --
expect_same "player --seed=5 --hash=4 --threads=2 --: the same move" "$TMP/plain" "$TMP/out"
expect_option_limit player hash 1 65536
expect_option_limit player threads 1 256
expect_usage_error "player: -- ends the options" "unexpected argument \`--random'" \
    "$PONDER" player -- --random
expect_usage_error "player names an unknown short option" "unknown option \`-x'" "$PONDER" player -x

# --tc: the player keeps its own clock and shares it out. Under 1.5+0 it makes its 20 moves of a
# 40-ply game (against a depth-2 search, which does not collapse early) within the clock (the
# margin, 1 s a move, covers the pipes and a loaded machine); told --time 1 instead it
# overruns the referee's clock, which shows the clock is what it searched with. (With --time 0.3
# the overrun depended on the game: forced moves and searches that stop early kept a 40-ply game
# within 1.5 s + 1 s once in CI.) Three moves that use their second are enough to lose.
RAND="$PONDER player --depth 2 --fen {fen}"
"$PONDER" match -q --games 1 --tc 1.5+0 --margin 1 --startup 2 --max-plies 40 \
    --json "$TMP/tc.json" "$PONDER player --tc {tc} --fen {fen}" "$RAND" >"$TMP/out" 2>"$TMP/err"
expect_grep "--tc 1.5+0: 20 moves within the clock" '"first": \{"illegal": 0, "malformed": 0, "timeout": 0,' "$TMP/tc.json"
expect_grep "--tc 1.5+0: the game went the distance" '"replies": \{"first": (1[5-9]|2[0-9])' "$TMP/tc.json"
"$PONDER" match -q --games 1 --tc 1.5+0 --margin 1 --startup 2 --max-plies 40 \
    --json "$TMP/tc.json" "$PONDER player --time 1 --fen {fen}" "$RAND" >"$TMP/out" 2>"$TMP/err"
expect_grep "--time 1 under a 1.5+0 clock: lost on time" '"first": \{[^}]*"timeout": 1' "$TMP/tc.json"
printf '0 0\n' >"$TMP/in"
for tc in 0.05 40/1 1+0.01 0:02+0; do
    play --tc "$tc"
    expect_lines "--tc $tc: answers" 1
done
