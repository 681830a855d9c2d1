#!/bin/sh
# hub.sh - `ponder hub': transcripts of the Hub protocol in pydraughts' English dialect
# (tests/data/hub/NAME.in -> NAME.out; info lines lose their time= and nps=, which vary): the
# handshake, searches whose moves check the square and colour mapping (a capture for the first
# mover, a double jump with its pieces in ascending order), bad input of every kind answered
# with `error'; then what needs timing: ping, stop and ponder-hit during a search, quit and end
# of input during an endless one; and the command line.
. "$(dirname "$0")/lib.sh"
HUB=$PONDER_DATA/hub

for t in handshake search bad; do
    "$PONDER" hub <"$HUB/$t.in" 2>"$TMP/err" | sed -E 's/ time=[0-9.]+ nps=[0-9.]+//' >"$TMP/out"
    expect_same "hub transcript $t" "$HUB/$t.out" "$TMP/out"
done

START=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww

# The opening book through its parameters: book=true plays the built-in book's move at once (a
# 30 s search would not be done within the 3 s waited, which leave the sanitizer build on a
# loaded machine time to make the engine); book=false searches (info lines).
{
    printf 'hub\nset-param name=book value=true\ninit\npos pos=%s\nlevel move-time=30\ngo think\n' "$START"
    sleep 3
    printf 'quit\n'
} | "$PONDER" hub >"$TMP/out" 2>&1
if grep -q '^done move=[0-9]*-[0-9]*$' "$TMP/out" && ! grep -q '^info' "$TMP/out"; then
    pass "set-param book=true: the book's move at once"
else fail "set-param book=true: the book's move at once" "$(tail -n 5 "$TMP/out")"; fi
{
    printf 'hub\nset-param name=book value=false\ninit\npos pos=%s\nlevel depth=3\ngo think\n' "$START"
    sleep 3
    printf 'quit\n'
} | "$PONDER" hub >"$TMP/out" 2>&1
if grep -q '^info depth=3 ' "$TMP/out" && grep -q '^done move=' "$TMP/out"; then
    pass "set-param book=false: a search"
else fail "set-param book=false: a search" "$(tail -n 5 "$TMP/out")"; fi

# Contempt is for play: the Hub kings' position with its start a move away, at contempt -1000
# `go think' values the repetition at ten men and plays 1-5; `go analyze' does not count it.
KK=WWeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeB
{
    printf 'hub\nset-param name=contempt value=-1000\ninit\n'
    printf 'pos pos=%s moves="1-5 32-27 5-1 27-32"\nlevel depth=8\ngo think\ngo analyze\n' "$KK"
    sleep 2
    printf 'quit\n'
} | "$PONDER" hub >"$TMP/out" 2>&1
if [ "$(grep -c '^info depth=8 .* score=10.00 .*pv="1-5"$' "$TMP/out")" = 1 ] &&
    [ "$(grep -c '^info depth=8 ' "$TMP/out")" = 2 ] && grep -q '^done move=1-5$' "$TMP/out"; then
    pass "contempt -1000: go think seeks the repetition, go analyze does not value it"
else fail "contempt -1000: go think seeks the repetition, go analyze does not value it" "$(grep -E '^(info depth=8|done)' "$TMP/out")"; fi

# During an endless search: ping is answered at once, stop ends it with done, a command for
# after the search is refused while it lasts.
{
    printf 'hub\ninit\npos pos=%s\nlevel infinite\ngo analyze\n' "$START"
    sleep 0.3
    printf 'ping\npos pos=%s\n' "$START"
    sleep 0.2
    printf 'stop\nping\n'
} | "$PONDER" hub >"$TMP/out" 2>&1
grep -v '^info' "$TMP/out" | tail -n 4 >"$TMP/got"
printf 'pong\nerror message="pos during an endless search: send stop first"\n' >"$TMP/want"
grep '^done move=' "$TMP/out" | head -n 1 >>"$TMP/want"
echo pong >>"$TMP/want"
if grep -q '^done move=' "$TMP/got" && grep -q '^info depth=' "$TMP/out"; then
    expect_same "hub: ping, refusal and stop during an endless search" "$TMP/want" "$TMP/got"
else
    fail "hub: ping, refusal and stop during an endless search" "$(cat "$TMP/out" | head -n 20)"
fi

# go ponder searches until ponder-hit, then answers within the level's time.
{
    printf 'hub\ninit\npos pos=%s\nlevel move-time=0.2\ngo ponder\n' "$START"
    sleep 0.5
    printf 'ponder-hit\n'
    sleep 2
    printf 'quit\n'
} | "$PONDER" hub >"$TMP/out" 2>&1
if [ "$(grep -c '^done move=' "$TMP/out")" -eq 1 ]; then pass "hub: ponder-hit turns pondering into a timed search"
else fail "hub: ponder-hit turns pondering into a timed search" "$(grep -v '^info' "$TMP/out")"; fi

# A real ponder-hit under a clock: the pondering search reports its iterations before the hit,
# goes on after it (no new search from depth 1) and answers within the clock (level time=1
# moves=10: about a tenth of a second is its share, the clock counted from the hit). The hit is
# sent once pondering has reported a few iterations; each output line is stamped with the
# milliseconds since the start.
rm -f "$TMP/hubfifo"
mkfifo "$TMP/hubfifo"
{
    t0=$(date +%s%N)
    timeout 60 "$PONDER" hub <"$TMP/hubfifo" 2>&1 | while IFS= read -r l; do
        echo "$((($(date +%s%N) - t0) / 1000000)) $l"
    done
} >"$TMP/out" &
hubpid=$!
exec 4>"$TMP/hubfifo"
printf 'hub\ninit\npos pos=%s\nlevel time=1 moves=10\ngo ponder\n' "$START" >&4
t=0
until grep -q ' info depth=4 ' "$TMP/out" 2>/dev/null || [ $t -gt 3000 ]; do sleep 0.02; t=$((t + 1)); done
sleep 0.3
hit=$(awk 'END { print $1 }' "$TMP/out")
printf 'ponder-hit\n' >&4
t=0
until grep -q ' done ' "$TMP/out" 2>/dev/null || [ $t -gt 250 ]; do sleep 0.02; t=$((t + 1)); done
printf 'quit\n' >&4
exec 4>&-
wait $hubpid
awk -v hit="$hit" '
    $2 == "info" && $1 <= hit { before++; last_before = $3 }
    $2 == "info" && $1 > hit && !after { first_after = $3; after = 1 }
    $2 == "done" { done = $1 }
    END {
        sub(/depth=/, "", last_before); sub(/depth=/, "", first_after)
        ok = before > 0 && (!after || first_after + 0 > last_before + 0) && done > hit &&
             done - hit < 1000
        printf "%s infos before the hit %d (last depth %s), first depth after %s, done %d ms after the hit\n",
            ok ? "ok" : "bad", before, last_before, first_after, done - hit
    }' "$TMP/out" >"$TMP/got"
if grep -q '^ok' "$TMP/got"; then pass "hub: go ponder + ponder-hit: one search, done within the clock"
else fail "hub: go ponder + ponder-hit: one search, done within the clock" "$(cat "$TMP/got")" \
    "$(grep -v ' info' "$TMP/out")"; fi

# Only ponder-hit or stop ends pondering: none came, so no done before quit.
{
    printf 'hub\ninit\npos pos=%s\nlevel move-time=0.05\ngo ponder\n' "$START"
    sleep 0.5
    printf 'quit\n'
} | "$PONDER" hub >"$TMP/out" 2>&1
if grep -q '^done' "$TMP/out"; then fail "hub: pondering waits for ponder-hit" "$(grep -v '^info' "$TMP/out")"
else pass "hub: pondering waits for ponder-hit"; fi

# quit and end of input end an endless search at once: after quit, input stays open for 8 s more,
# so a hub that ignored quit would still be running then.
for how in quit eof; do
    {
        printf 'hub\ninit\npos pos=%s\nlevel infinite\ngo analyze\n' "$START"
        sleep 0.3
        [ $how = quit ] && printf 'quit\n' && sleep 8
    } | {
        start=$(date +%s%N)
        timeout 20 "$PONDER" hub >"$TMP/out" 2>&1
        echo "$? $((($(date +%s%N) - start) / 1000000))" >"$TMP/ended"
    }
    read -r status ms <"$TMP/ended"
    if [ "$status" -eq 0 ] && [ "$ms" -lt 5000 ]; then
        pass "hub: $how ends an endless search at once (status 0)"
    else fail "hub: $how ends an endless search at once (status 0)" "status $status after $ms ms"; fi
done

# A clock: time= and inc= give a move well within the clock.
printf 'hub\ninit\npos pos=%s\nlevel time=1 inc=0.1\ngo think\nnew-game\n' "$START" |
    "$PONDER" hub >"$TMP/out" 2>&1
expect_grep "hub: level time= inc= answers" '^done move=' "$TMP/out"

expect_status "hub --help" 0 "$PONDER" hub --help
expect_grep "hub --help prints usage" '^usage: ponder hub' "$TMP/out"
expect_status "hub with an unknown argument" 2 "$PONDER" hub --frobnicate
expect_grep "hub names the unknown option" 'unknown option .--frobnicate' "$TMP/err"
expect_usage_error "hub: an argument" "unexpected argument \`extra'" "$PONDER" hub extra
expect_usage_error "hub: -- ends the options" "unexpected argument \`--help'" "$PONDER" hub -- --help
