#!/bin/sh
# console.sh - the engine console (`ponder', `ponder console'): transcripts of the original
# program replayed, our own transcripts for every command and error, games to their end, the
# engine's moves, thinking on the user's time, input while thinking, the end of input, options.
#
# Transcripts are compared byte for byte unless a mask is named. Masks (the `mask' filter below)
# replace what depends on the engine rather than on the console, in the expected and the actual
# output alike:
#   moves   the position and the move line printed after the engine's move -> `<engine move>'
#   rows    also: each row of the thinking table -> its depth and `#' (or `-' for an unfinished
#           iteration); PV continuation lines dropped. Values, times, node counts and PVs
#           depend on the engine and the machine; the depths (and the layout) must match.
#   blocks  also: each block of thinking output (header, rule, rows) -> `<search output>',
#           except a block whose only row is `1 - 0.000 0' (a search stopped before it began,
#           fully determined by the console), which is compared as it is.
#   all     like blocks, for every block.
#
# The original's transcripts (tests/data/ponder-transcripts) differ from ours in the ways
# docs/console.md lists; the expected output is the original's with exactly these edits:
#   t1  the help text is ours (tests/data/console/help.txt): same commands, same two columns;
#       `setboard B:W:B1' is accepted (tests/data/console/empty-list.txt) instead of an error;
#       `foo' is an unknown command, not an illegal move.
#   t2, t3  results follow PDN: a Black win is [Result "1-0"] (the original printed "0-1");
#       `setboard' of a finished position (t2's W:W5:B1,2, White blocked) announces the result.
#   t4  mask `all': the analysis and thinking blocks before `go' are compared exactly by the
#       `t4 up to go' check; from `go' on the engine's choice and depth differ, and its last
#       ponder ran 5 s before the original stopped it, where ours stops at once at the end of
#       input.
#   t5  mask `rows': depths 1 to 8 and the layout; the values and lines are our engine's.
#   t6  mask `moves': the engine's reply is its own.
#   all every board turned around (tests/lib/turn-boards.awk): the console draws Black's side,
#       squares 1-4, at the top as PDN diagrams do; the original drew it at the bottom (`rotate'
#       or `flip' shows that).
. "$(dirname "$0")/lib.sh"

DATA=$PONDER_DATA/console
ORIG=$PONDER_DATA/ponder-transcripts
# The original drew Black's side (squares 1-4) at the bottom; the console now draws PDN's way up.
TURN="$(cd "$(dirname "$0")/../lib" && pwd)/turn-boards.awk"
PROMPT='^  \*\*\* \(Black\|White\) \*\*\*$'

mask() { # mask MODE < output > masked
    awk -v mode="$1" '
    function search_line(l) { return l == HDR || l == SEP || l ~ ROW || l ~ CONT }
    BEGIN {
        HDR = "  depth   value      time       nodes"
        SEP = "  ----------------------------------------------------------------------------"
        ROW = "^ +[0-9]+ +(-?[0-9]+|-) +[0-9]+\\.[0-9][0-9][0-9] +[0-9]+( |$)"
        CONT = "^                                      [0-9]"
        TRIVIAL = "      1       -     0.000           0"
    }
    { line[NR] = $0 }
    END {
        n = 0
        i = 1
        while (i <= NR) {
            l = line[i]
            if (mode != "moves" && search_line(l)) {
                trivial = 1
                for (j = i; j <= NR && search_line(line[j]); j++)
                    if ((line[j] ~ ROW || line[j] ~ CONT) && line[j] != TRIVIAL)
                        trivial = 0
                if (mode == "rows") {
                    for (k = i; k < j; k++) {
                        if (line[k] ~ CONT)
                            continue
                        if (line[k] ~ ROW) {
                            split(line[k], f, " ")
                            o[++n] = sprintf("%7d %s", f[1], f[2] == "-" ? "-" : "#")
                        } else
                            o[++n] = line[k]
                    }
                } else if (mode == "all" || !trivial)
                    o[++n] = "<search output>"
                else
                    for (k = i; k < j; k++)
                        o[++n] = line[k]
                i = j
                continue
            }
            if (l ~ /^[0-9]+([-x][0-9]+)+$/ && n >= 18 && o[n - 17] ~ /^;\[FEN /) {
                n -= 18
                o[++n] = "<engine move>"
                i++
                continue
            }
            o[++n] = l
            i++
        }
        for (k = 1; k <= n; k++)
            print o[k]
    }'
}

# compare NAME EXPECTED ACTUAL [MODE]: byte for byte, or both through `mask MODE'.
compare() {
    if [ $# -ge 4 ]; then
        mask "$4" <"$2" >"$TMP/want.m"
        mask "$4" <"$3" >"$TMP/got.m"
        expect_same "$1" "$TMP/want.m" "$TMP/got.m"
    else
        expect_same "$1" "$2" "$3"
    fi
}

# transcript NAME IN EXPECTED [MODE]: the console fed from the file IN.
transcript() {
    timeout 120 "$PONDER" console <"$2" >"$TMP/got" 2>"$TMP/err"
    st=$?
    if [ $st -ne 0 ]; then
        fail "$1" "exit status $st" "$(head -c 600 "$TMP/err")"
        return
    fi
    compare "$1" "$3" "$TMP/got" ${4:+"$4"}
}

# Waits until FILE has N prompt lines (60 s at most).
await_prompts() {
    t=0
    while [ "$(grep -c "$PROMPT" "$1" 2>/dev/null)" -lt "$2" ]; do
        t=$((t + 1))
        [ $t -gt 3000 ] && return 1
        sleep 0.02
    done
}

# Waits until FILE has a line matching the extended regular expression RE (60 s at most).
await_line() {
    t=0
    until grep -Eq -- "$2" "$1" 2>/dev/null; do
        t=$((t + 1))
        [ $t -gt 3000 ] && return 1
        sleep 0.02
    done
}

# A console reading from a FIFO that the test writes to on descriptor 3, output in $OUT.
start_console() {
    rm -f "$TMP/fifo"
    mkfifo "$TMP/fifo"
    : >"$OUT"
    timeout 120 "$PONDER" console "$@" <"$TMP/fifo" >"$OUT" 2>"$TMP/err" &
    PID=$!
    exec 3>"$TMP/fifo"
}
feed() { printf '%s\n' "$@" >&3; }
# Closes the input and returns the console's exit status.
end_console() {
    exec 3>&-
    wait $PID
}

# paced NAME IN EXPECTED: feeds IN one line at a time, each once the line before has been
# answered (its prompt printed), as a user at a terminal would: the engine's moves then come
# between the lines instead of being cut short by the next one.
paced() {
    OUT=$TMP/paced
    start_console
    want=1
    ok=true
    await_prompts "$OUT" $want || ok=false
    while $ok && IFS= read -r l; do
        feed "$l"
        [ "$l" = quit ] && break
        want=$((want + 1))
        await_prompts "$OUT" $want || ok=false
    done <"$2"
    end_console
    st=$?
    if ! $ok || [ $st -ne 0 ]; then
        fail "$1" "no answer in time or exit status $st" "$(tail -n 5 "$OUT")"
        return
    fi
    compare "$1" "$3" "$OUT"
}

# ---- The original's transcripts, replayed ----

awk -v help="$DATA/help.txt" -v empty="$DATA/empty-list.txt" '
    /^    \?               / { while ((getline l < help) > 0) print l; skip = 1; next }
    skip && /^    / { next }
    { skip = 0 }
    /^Error \(illegal FEN, square number `0.* out of range\): B:W:B1$/ {
        while ((getline l < empty) > 0) print l
        next
    }
    /^Error \(illegal move, unexpected character `f.\): foo$/ {
        print "Error (unknown command, `help'"'"' lists them): foo"
        next
    }
    { print }' "$ORIG/t1-commands.out" | awk -f "$TURN" >"$TMP/t1.want"
transcript "original t1 (commands, errors)" "$ORIG/t1-commands.in" "$TMP/t1.want"
for t in t2-endgame t3-multijump; do
    sed 's/^\[Result "0-1"\]$/[Result "1-0"]/' "$ORIG/$t.out" |
        awk '/^;\[FEN "W:W5:B1,2"\]$/ { over = 1 }
            { print }
            over && /^  \+4--/ { print "[Result \"1-0\"]"; print "{Black win}"; over = 0 }' |
        awk -f "$TURN" >"$TMP/$t.want"
    transcript "original $t" "$ORIG/$t.in" "$TMP/$t.want"
done
head -n 12 "$ORIG/t4-engine.in" >"$TMP/t4-head.in"
head -n 94 "$ORIG/t4-engine.out" | awk -f "$TURN" >"$TMP/t4-head.want"
transcript "original t4 up to go (interrupted searches, verbose)" "$TMP/t4-head.in" "$TMP/t4-head.want"
for t in t4-engine t5-analyze t6-reply; do
    awk -f "$TURN" "$ORIG/$t.out" >"$TMP/$t.want"
done
transcript "original t4 (masked: all)" "$ORIG/t4-engine.in" "$TMP/t4-engine.want" all
transcript "original t5 (masked: rows)" "$ORIG/t5-analyze.in" "$TMP/t5-analyze.want" rows
transcript "original t6 (masked: moves)" "$ORIG/t6-reply.in" "$TMP/t6-reply.want" moves

# ---- Our transcripts ----

transcript "commands and their errors" "$DATA/commands.in" "$DATA/commands.out"
transcript "a newcomer's lines: unknown commands, HELP, finished and crowning-row positions, the FEN line back" "$DATA/newcomer.in" "$DATA/newcomer.out"
transcript "clocks: level, time, otim, st, and their errors" "$DATA/clock.in" "$DATA/clock.out"

# The engine searches with its clock: `level 0 0:03 0' (3 s for the game) makes `go' answer in
# a share of it (about 0.1 s) where `st 5', the default, would think for seconds; the move is
# charged to the engine's own clock (print shows less than 3 s), and `time' sets that clock.
OUT=$TMP/clock
start_console
await_prompts "$OUT" 1
t0=$(date +%s%N)
feed "level 0 0:03 0" "go"
await_prompts "$OUT" 3
ms=$((($(date +%s%N) - t0) / 1000000))
feed print "time 150" print quit
end_console
if [ "$ms" -lt 1500 ] && grep -Eq '^  Clock 3\+0: engine 2\.[0-9]{2} s$' "$OUT" &&
    grep -Eq '^  Clock 3\+0: engine 1\.50 s$' "$OUT"; then
    pass "clock: go answers within a share of the clock, charged to it ($ms ms)"
else
    fail "clock: go answers within a share of the clock, charged to it ($ms ms)" \
        "$(grep -v '^ *[|+]' "$OUT" | tail -n 12)"
fi
transcript "setboard: every FEN error" "$DATA/fen.in" "$DATA/fen.out"
transcript "moves: errors, captures, crowning, abbreviated and ambiguous" "$DATA/moves.in" "$DATA/moves.out"
transcript "multi-jumps one jump at a time and whole, undo" "$DATA/multijump.in" "$DATA/multijump.out"
transcript "game ends: wins, blocks, repetition" "$DATA/gameend.in" "$DATA/gameend.out"
transcript "searches stopped by waiting input, then resumed" "$DATA/engine.in" "$DATA/interrupt.out"
paced "engine moves, undo of two plies, go, black, white" "$DATA/engine.in" "$DATA/engine.out"
transcript "thinking table: depths, header every 8, layout (masked: rows)" "$DATA/table.in" "$DATA/table.out" rows

# The 40-move rule: 80 king moves with no position three times (two kings on cycles of 6 and
# 8 squares); the draw comes with the 80th. Compared without the board drawings (the FEN lines
# stay) to keep the expected file short.
"$PONDER" console <"$DATA/draw40.in" | grep -v '^  [|+]' >"$TMP/draw40"
expect_same "draw by the 40-move rule, after the 80th move only" "$DATA/draw40.out" "$TMP/draw40"

# The same depth-limited analysis twice: the same rows but for the time column.
printf 'force\nsd 6\nanalyze\n' >"$TMP/det.in"
"$PONDER" <"$TMP/det.in" | sed 's/^\(  [ 0-9]\{5\} [ 0-9-]\{7\}\) [ 0-9.]\{9\}/\1 TIME/' >"$TMP/det1"
"$PONDER" <"$TMP/det.in" | sed 's/^\(  [ 0-9]\{5\} [ 0-9-]\{7\}\) [ 0-9.]\{9\}/\1 TIME/' >"$TMP/det2"
expect_same "a depth-limited analysis is deterministic" "$TMP/det1" "$TMP/det2"
if grep -Eq '^      6 +-?[0-9]+ +TIME +[0-9]+ [0-9]+[-x]' "$TMP/det1"; then
    pass "analysis rows: depth, value, time, nodes, PV"
else
    fail "analysis rows: depth, value, time, nodes, PV" "$(cat "$TMP/det1" | tail -n 12)"
fi

# Contempt is for play, not analysis: with the repetition of the start a move away, at contempt
# -1000 a search to play values it at ten men and plays 3-7; an analysis shows the draw as 0
# (depth 7: at 8 it may prefer a king move the network values a few hundredths above it).
printf 'force\nsetboard B:WK14:BK3\n3-7\n14-17\n7-3\n17-14\nsd 8\n' >"$TMP/rep.in"
{ cat "$TMP/rep.in"; printf 'verbose\ngo\n'; } | "$PONDER" console --contempt -1000 >"$TMP/rep.think"
{ cat "$TMP/rep.in"; printf 'analyze\n'; } | "$PONDER" console --contempt -1000 >"$TMP/rep.analyze"
if grep -Eq '^      8 +1000 .* 3-7$' "$TMP/rep.think" &&
    grep -Eq '^      7 +0 .* 3-7$' "$TMP/rep.analyze"; then
    pass "contempt -1000: the search to play seeks the repetition, the analysis values it 0"
else
    fail "contempt -1000: the search to play seeks the repetition, the analysis values it 0" \
        "$(grep -E '^      [78] ' "$TMP/rep.think" "$TMP/rep.analyze")"
fi

# Bad input lines: too long, NUL byte; the console goes on.
{ head -c 5000 /dev/zero | tr '\0' a; printf '\nping 1\npi\000ng 2\nping 3\n'; } >"$TMP/bad.in"
transcript "a line too long, a NUL byte" "$TMP/bad.in" "$DATA/badlines.out"

# Garbage: 400 random lines from a fixed seed (commands with random arguments, random moves,
# random characters); every line is answered, the program ends normally.
awk 'BEGIN {
    srand(7)
    nw = split("? analyze black force go help history new ping print rotate setboard sd st undo verbose white", w, " ")
    chars = "0123456789x-:,BWKbwk \".;X\t"
    print "sd 2"
    print "st 0.05"
    for (i = 0; i < 400; i++) {
        r = rand()
        if (r < 0.4)
            line = sprintf("%d%s%d", int(rand() * 34), rand() < 0.5 ? "-" : "x", int(rand() * 34))
        else {
            line = r < 0.7 ? w[int(rand() * nw) + 1] : ""
            n = line == "" || rand() < 0.5 ? int(rand() * 14) : 0
            if (n > 0 && line != "")
                line = line " "
            for (j = 0; j < n; j++)
                line = line substr(chars, int(rand() * length(chars)) + 1, 1)
        }
        print line
    }
}' >"$TMP/garbage.in"
timeout 120 "$PONDER" <"$TMP/garbage.in" >"$TMP/garbage.out" 2>"$TMP/err"
st=$?
lines=$(wc -l <"$TMP/garbage.in")
prompts=$(grep -c "$PROMPT" "$TMP/garbage.out")
if [ $st -eq 0 ] && [ "$prompts" -gt "$lines" ]; then
    pass "400 random lines: each answered, normal end"
else
    fail "400 random lines: each answered, normal end" "exit status $st, $prompts prompts for $lines lines" "$(head -c 600 "$TMP/err")"
fi

# ---- Input while thinking, thinking on the user's time, the end of input ----

# A ping while the engine thinks is answered at once; `force' stops the search, no move.
OUT=$TMP/ping
start_console
feed "st unlimited" "sd unlimited" go
await_line "$OUT" '^  Thinking \.\.\.$'
sleep 0.3
feed "ping 42"
await_line "$OUT" '^pong 42$'
sleep 0.2
feed force quit
end_console
compare "ping while thinking, then force" "$DATA/ping-think.out" "$OUT"

# `quit' and the end of input during a search with no limit end the program at once.
OUT=$TMP/quit
start_console
feed "st unlimited" "sd unlimited" go
await_line "$OUT" '^  Thinking \.\.\.$'
sleep 0.3
feed quit
sleep 5 3>&- &
sleeper=$!
wait $PID
st=$?
if kill -0 $sleeper 2>/dev/null && [ $st -eq 0 ]; then
    pass "quit while thinking"
else
    fail "quit while thinking" "exit status $st, or not within 5 s"
fi
kill $sleeper 2>/dev/null
exec 3>&-

OUT=$TMP/eof
start_console
feed "st unlimited" "sd unlimited" go
await_line "$OUT" '^  Thinking \.\.\.$'
sleep 0.3
sleep 5 3>&- &
sleeper=$!
end_console
st=$?
if kill -0 $sleeper 2>/dev/null && [ $st -eq 0 ] && tail -n 2 "$OUT" | head -n 1 | grep -q 'Thinking'; then
    pass "end of input while thinking with no limit: quits at once, no move"
else
    fail "end of input while thinking with no limit: quits at once, no move" "exit status $st" "$(tail -n 3 "$OUT")"
fi
kill $sleeper 2>/dev/null

# With a limit, the end of input lets the engine finish its move first.
printf 'st 0.2\nsd unlimited\ngo\n' >"$TMP/eofmove.in"
transcript "end of input while thinking with a limit: the move, then quit" "$TMP/eofmove.in" "$DATA/eof-move.out" moves

# Pondering: after its move the engine thinks on the user's time (verbose mode shows it) until
# the user's move, and replies.
OUT=$TMP/ponder
start_console
feed "sd 3" verbose "setboard B:W5:BK20" 20-24
await_line "$OUT" '^5-1$'
await_prompts "$OUT" 5
sleep 0.5
feed 24-20
await_prompts "$OUT" 6
feed quit
end_console
compare "pondering shows in verbose mode; a reply while pondering (masked: all)" "$DATA/ponder.out" "$OUT" all

# A ping while pondering is answered with the prompt, as when idle.
OUT=$TMP/ponder-ping
start_console
feed "sd 3" "setboard B:W5:BK20" 20-24
await_prompts "$OUT" 4
sleep 0.3
feed "ping 3"
await_line "$OUT" '^pong 3$'
feed 24-20
await_prompts "$OUT" 6
feed quit
end_console
compare "ping while pondering, then a move (masked: moves)" "$DATA/ponder-ping.out" "$OUT" moves

# `easy': no thinking on the user's time (nothing after the prompt that follows the engine's
# move); `hard' turns it back on (the ponder search's table follows the prompt).
OUT=$TMP/easy
start_console
feed "sd 3" verbose easy "setboard B:W5:BK20" 20-24
await_line "$OUT" '^5-1$'
await_prompts "$OUT" 6
sleep 0.5
if [ "$(tail -n 1 "$OUT")" = "  *** Black ***" ]; then pass "easy: no pondering"; else
    fail "easy: no pondering" "$(tail -n 8 "$OUT")"
fi
feed hard
await_prompts "$OUT" 7
sleep 0.5
feed quit
end_console
if awk '/^  \*\*\* Black \*\*\*$/ { n++; next } n == 7 && /^  depth   value/ { found = 1 }
        END { exit !found }' "$OUT"; then
    pass "hard: pondering again"
else fail "hard: pondering again" "$(tail -n 12 "$OUT")"; fi
grep -q '^    easy  ' "$DATA/help.txt" && pass "help lists easy" || fail "help lists easy"

# One orientation everywhere: the console's board has its squares where `play' has them (PDN's
# way: 1-4 at the top, 29-32 at the bottom, numbered left to right), and `flip' turns it around.
echo quit | "$PONDER" console | sed -n '2,18p' | grep -E '[0-9]' | sed 's/^ *//' >"$TMP/console-labels"
printf 'h\nh\nno\nquit\n' | "$PONDER" play | grep -E '^ *\+.*[0-9]-*\+' | head -n 8 |
    sed 's/^ *//' >"$TMP/play-labels"
if [ -s "$TMP/play-labels" ] && head -n 1 "$TMP/console-labels" | grep -q '^+---+1--+'; then
    expect_same "the console's squares are where play has them (PDN's orientation)" \
        "$TMP/play-labels" "$TMP/console-labels"
else fail "the console's squares are where play has them (PDN's orientation)" "$(cat "$TMP/console-labels")"; fi
printf 'flip\nquit\n' | "$PONDER" console | sed -n '21,37p' | grep -E '[0-9]' | sed 's/^ *//' >"$TMP/flipped"
if head -n 1 "$TMP/flipped" | grep -q '^+---+32-+---+31-+' && tail -n 1 "$TMP/flipped" | grep -q '^+4--+'; then
    pass "flip turns the console's board around"
else fail "flip turns the console's board around" "$(cat "$TMP/flipped")"; fi

# ---- Options ----

expect_status "console --help" 0 "$PONDER" console --help
expect_grep "console --help prints the usage" '^usage: ponder \[console\]' "$TMP/out"
expect_status "help console" 0 "$PONDER" help console
expect_status "unknown option" 2 "$PONDER" console --bogus
expect_grep "unknown option: see the usage" "^see .ponder console --help'$" "$TMP/err"
expect_status "unknown argument" 2 "$PONDER" console extra
expect_status "--hash without a value" 2 "$PONDER" console --hash
expect_status "--hash 0" 2 "$PONDER" console --hash 0
expect_status "--threads 0" 2 "$PONDER" console --threads 0
expect_status "--weights missing file" 1 "$PONDER" console --weights "$TMP/no-such-file" </dev/null
expect_grep "--weights missing file: the reason" 'no-such-file' "$TMP/err"
"$PONDER" --hash 8 --threads 2 <"$ORIG/t2-endgame.in" >"$TMP/opts" 2>"$TMP/err"
compare "no arguments, --hash 8 --threads 2: the console" "$TMP/t2-endgame.want" "$TMP/opts"
"$PONDER" console --hash=8 --threads=2 -- <"$ORIG/t2-endgame.in" >"$TMP/opts" 2>"$TMP/err"
compare "console --hash=8 --threads=2 --: the console" "$TMP/t2-endgame.want" "$TMP/opts"
"$PONDER" --thr 2 <"$ORIG/t2-endgame.in" >"$TMP/opts" 2>"$TMP/err"
compare "--thr 2, an abbreviation of --threads: the console" "$TMP/t2-endgame.want" "$TMP/opts"
expect_option_limit console hash 1 65536
expect_option_limit console threads 1 256
expect_usage_error "console: -- ends the options" "unexpected argument \`--hash'" \
    "$PONDER" console -- --hash 8
expect_usage_error "console names an unknown short option in a bundle" "unknown option \`-x'" \
    "$PONDER" console -xh
expect_usage_error "console: a value given to --help" "option \`--help' takes no value" \
    "$PONDER" console --help=yes
timeout 20 "$PONDER" console <&- >"$TMP/closed" 2>&1
st=$?
if [ $st -eq 0 ] && tail -n 1 "$TMP/closed" | grep -q "$PROMPT"; then
    pass "closed stdin: the end of input"
else
    fail "closed stdin: the end of input" "exit status $st" "$(tail -n 3 "$TMP/closed")"
fi
printf 'force\nhelp\n' | "$PONDER" console >/dev/full 2>"$TMP/err"
st=$?
if [ $st -eq 1 ]; then pass "output that cannot be written: exit status 1"; else
    fail "output that cannot be written: exit status 1" "exit status $st"
fi
