#!/bin/sh
# match.sh - `ponder match` and `ponder tournament`: every misbehaving fake engine of tests/fake
# gets the right adjudication while the match goes on; the PDN file and the JSON hold every
# finished game; no process outlives a run, whether it ends normally, by SIGINT or by SIGTERM;
# openings (ballots, files, the rule about {fen}), SPRT stop, the tournament tables, bad
# arguments. (The PDN files are read back move by move in tests/unit/test_referee.c.)
. "$(dirname "$0")/lib.sh"
FAKE=$(cd "$(dirname "$0")/../fake" && pwd)
RAND="$PONDER player --random --seed {seed} --fen {fen}"
# The time per move is small; the margin is generous so that a loaded machine never makes an
# honest program lose on time (a hang costs time + margin).
if [ "${PONDER_VARIANT:-release}" = asan ]; then
    TIMING="--time 0.05 --margin 1 --startup 3"
else
    TIMING="--time 0.05 --margin 0.5 --startup 2"
fi
MARK="ponder-match-test-$$"

# leftovers: prints the processes still carrying this run's marker in their environment (the
# runs below are started with PONDER_TEST_MARK=$MARK; every program and its children inherit it).
leftovers() {
    i=0
    while [ $i -lt 20 ]; do
        found=$(grep -las "PONDER_TEST_MARK=$MARK" /proc/[0-9]*/environ 2>/dev/null)
        [ -z "$found" ] && return 0
        sleep 0.1
        i=$((i + 1))
    done
    for f in $found; do
        pid=${f#/proc/}
        pid=${pid%/environ}
        tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null
        echo
    done
}

expect_no_leftovers() {
    [ -d /proc/self ] || { pass "$1 (no /proc: not checked)"; return; }
    left=$(leftovers)
    if [ -z "$left" ]; then pass "$1"; else fail "$1" "still running:" "$left"; fi
}

# count PATTERN FILE: lines matching PATTERN.
count() { grep -Ec -- "$1" "$2"; }

# expect_count NAME PATTERN FILE N
expect_count() {
    got=$(count "$2" "$3")
    if [ "$got" -eq "$4" ]; then pass "$1"; else
        fail "$1" "$got lines match /$2/, expected $4" "$(head -c 600 "$3")"
    fi
}

# fake_case NAME CAUSE FAKE-COMMAND: two games of the fake against the random mover, one with
# each colour; the fake must lose both by CAUSE, and both games must be recorded.
fake_case() {
    name=$1 cause=$2 cmd=$3
    PONDER_TEST_MARK=$MARK "$PONDER" match -j 2 --games 2 $TIMING --json "$TMP/$name.json" \
        --pdn "$TMP/$name.pdn" --names "$name,random" "$cmd --fen {fen}" "$RAND" \
        >"$TMP/$name.out" 2>"$TMP/$name.err"
    st=$?
    if [ $st -eq 0 ]; then pass "$name: the match completes"; else
        fail "$name: the match completes" "exit status $st" "$(cat "$TMP/$name.err")"
    fi
    expect_grep "$name: two games played" '"games": 2,' "$TMP/$name.json"
    expect_grep "$name: lost both by $cause" "\"first\": \\{[^}]*\"$cause\": 2" "$TMP/$name.json"
    expect_grep "$name: the random mover lost none" '"losses": 2,' "$TMP/$name.json"
    expect_count "$name: both games in the PDN" '^\[Result "' "$TMP/$name.pdn" 2
    expect_count "$name: PDN records the cause" "^\\[Termination \"$cause\"\\]" "$TMP/$name.pdn" 2
    expect_no_leftovers "$name: no process left behind"
}

fake_case crash crash "sh $FAKE/crash.sh $PONDER 3"
fake_case hang timeout "sh $FAKE/hang.sh $PONDER 3"
fake_case garbage malformed "sh $FAKE/garbage.sh $PONDER 3 e2e4?!"
fake_case giveup malformed "sh $FAKE/garbage.sh $PONDER 2 Give_up!"
fake_case illegal illegal "sh $FAKE/illegal.sh $PONDER 3"
fake_case flood malformed "sh $FAKE/flood.sh $PONDER 3"
fake_case exit exit "sh $FAKE/exit.sh 1"
fake_case slow timeout "sh $FAKE/slow.sh $PONDER 3 3"
fake_case closed closed "sh $FAKE/closed.sh $PONDER 3"
fake_case chatty malformed "sh $FAKE/chatty.sh $PONDER 3"
expect_grep "give-up is shown as given" "answered \`Give_up!'" "$TMP/giveup.out"
expect_grep "crash names the signal" 'signal 11' "$TMP/crash.out"
expect_count "the PDN names the game type (21, English checkers)" '^\[GameType "21"\]$' "$TMP/crash.pdn" 2
expect_grep "flood is a line too long" 'without ending the line' "$TMP/flood.out"

# A tournament of the random mover and several misbehaving programs: everyone plays everyone, the
# tournament goes on through all the failures, and each program loses by its own fault.
PONDER_TEST_MARK=$MARK "$PONDER" tournament -j 2 $TIMING --json "$TMP/t.json" --pdn "$TMP/t.pdn" \
    random="$RAND" random2="$PONDER player --random --seed 99 --fen {fen}" \
    crash="sh $FAKE/crash.sh $PONDER 2 --fen {fen}" \
    illegal="sh $FAKE/illegal.sh $PONDER 2 --fen {fen}" \
    exit="sh $FAKE/exit.sh 1" \
    hang="sh $FAKE/hang.sh $PONDER 2 --fen {fen}" >"$TMP/t.out" 2>"$TMP/t.err"
st=$?
# 6 entrants: 15 pairs, 2 games each. exit.sh has no {fen} but never reads its input: it is given
# the same {fen} rule check as everyone, so give it one.
if [ $st -eq 2 ] && grep -q "no {fen}" "$TMP/t.err"; then
    pass "tournament refuses a command without {fen} among commands with it"
else
    fail "tournament refuses a command without {fen} among commands with it" "status $st" \
        "$(cat "$TMP/t.err")"
fi
PONDER_TEST_MARK=$MARK "$PONDER" tournament -j 2 $TIMING --json "$TMP/t.json" --pdn "$TMP/t.pdn" \
    random="$RAND" random2="$PONDER player --random --seed 99 --fen {fen}" \
    crash="sh $FAKE/crash.sh $PONDER 2 --fen {fen}" \
    illegal="sh $FAKE/illegal.sh $PONDER 2 --fen {fen}" \
    exit="sh $FAKE/exit.sh 1 {fen}" \
    hang="sh $FAKE/hang.sh $PONDER 2 --fen {fen}" >"$TMP/t.out" 2>"$TMP/t.err"
st=$?
if [ $st -eq 0 ]; then pass "tournament completes"; else
    fail "tournament completes" "status $st" "$(cat "$TMP/t.err")"
fi
expect_grep "tournament played 30 games" '"games": 30,' "$TMP/t.json"
expect_count "tournament PDN holds 30 games" '^\[Result "' "$TMP/t.pdn" 30
for who in crash illegal exit hang; do
    case $who in crash) c=crash ;; illegal) c=illegal ;; exit) c=exit ;; hang) c=timeout ;; esac
    expect_grep "tournament: $who loses by $c" "\"name\": \"$who\".*\"$c\": ([5-9]|10)[,}]" "$TMP/t.json"
done
expect_grep "tournament: the random movers lose no game by fault" \
    '"name": "random".*"faults": \{"illegal": 0, "malformed": 0, "timeout": 0, "exit": 0, "crash": 0, "closed": 0\}' \
    "$TMP/t.json"
expect_grep "tournament prints a crosstable" '^Crosstable' "$TMP/t.out"
expect_grep "tournament prints standings with ratings and error bars" \
    '^1 +random2? +[+-][0-9]+\.[0-9] +([0-9]+\.[0-9]|inf) +10 ' "$TMP/t.out"
expect_grep "tournament: JSON has the error bars" '"rating_error": ([0-9.e+-]+|null), ' "$TMP/t.json"
expect_no_leftovers "tournament: no process left behind"

# Two random movers: a normal match. Progress lines when piped, the table at the end.
PONDER_TEST_MARK=$MARK "$PONDER" match -j 2 --games 12 $TIMING --seed 4 --json "$TMP/r.json" \
    --pdn "$TMP/r.pdn" "$RAND" "$RAND" >"$TMP/r.out" 2>"$TMP/r.err"
expect_grep "random match: 12 games" '"games": 12,' "$TMP/r.json"
expect_grep "random match: JSON has the Elo figures" '"elo": (-?[0-9.e+-]+|null),' "$TMP/r.json"
expect_grep "random match: JSON has the error" '"elo_error": (-?[0-9.e+-]+|null),' "$TMP/r.json"
expect_grep "random match: JSON counts the causes" '"causes": \{"no-moves": [0-9]+, "repetition"' "$TMP/r.json"
expect_grep "random match: no faults" '"faults": \{"first": \{"illegal": 0, "malformed": 0, "timeout": 0, "exit": 0, "crash": 0, "closed": 0\}, "second": \{"illegal": 0, "malformed": 0, "timeout": 0, "exit": 0, "crash": 0, "closed": 0\}\}' "$TMP/r.json"
expect_grep "random match: JSON counts the late answers" '"late_replies": \{"first": [0-9]+, "second": [0-9]+\}' "$TMP/r.json"
# Random movers answer in well under a second: in milliseconds, not "0.000 s".
expect_grep "random match: the table shows the slowest answers" '^Slowest answer: A [0-9]+\.[0-9]+ ms, B [0-9]+\.[0-9]+ ms' "$TMP/r.out"
expect_grep "random match: the time a game and a move" '^Time a game \(answers after the first\): A [0-9]+\.[0-9]+ s, B [0-9]+\.[0-9]+ s; a move: A [0-9.]+ ms, B [0-9.]+ ms' "$TMP/r.out"
# The time each side spent: an engine searching 0.05 s a move against a random mover, which
# answers at once. Over 14 answers the engine spends more than 0.1 s, the random mover far less.
"$PONDER" match -q --games 1 --max-plies 30 --json "$TMP/spent.json" \
    "$PONDER player --time 0.05 --fen {fen}" "$RAND" >/dev/null 2>&1
spent=$(sed -n 's/.*"spent_seconds": {"first": \([0-9.]*\), "second": \([0-9.]*\)}.*/\1 \2/p' "$TMP/spent.json")
if [ -n "$spent" ] && echo "$spent" | awk '{ exit !($1 > 0.1 && $2 < 0.1) }'; then
    pass "match JSON: spent_seconds sums each side's answers"
else
    fail "match JSON: spent_seconds sums each side's answers" "$(cat "$TMP/spent.json")"
fi
expect_count "random match: a progress line per game" '^game [0-9]+/12: ' "$TMP/r.out" 12
expect_grep "random match: score line" '^Score of A vs B: [0-9]+ - [0-9]+ - [0-9]+ ' "$TMP/r.out"
expect_grep "random match: Elo line" '^Elo difference: ' "$TMP/r.out"
expect_grep "random match: LOS line" '^Likelihood of superiority: [0-9.]+%' "$TMP/r.out"
expect_grep "random match: endings line" '^Endings: ' "$TMP/r.out"
# Draws by the material left: from a position with Black two kings up and one with equal kings,
# two plies each (no capture can come so soon), each colour once: every kind counted once or twice.
printf 'B:WK32:BK1,K3\nB:WK32:BK1\n' >"$TMP/mat.fen"
"$PONDER" match -j 1 $TIMING --openings "$TMP/mat.fen" --max-plies 2 --json "$TMP/mat.json" \
    "$RAND" "$RAND" >"$TMP/mat.out" 2>&1
expect_grep "match: draws by material at the end" '^Draws by material at the end: even 2, A ahead 1, B ahead 1$' "$TMP/mat.out"
expect_grep "match JSON: draws by material" '"draws_by_material": \{"even": 2, "first_ahead": 1, "second_ahead": 1\},' "$TMP/mat.json"
# Pairs: the pentanomial counts of the 6 rounds agree with the games' W/D/L (a pair scoring
# i half points for A counts i towards 2W + D).
penta=$(sed -n 's/.*"pentanomial": \[\([0-9]*\), \([0-9]*\), \([0-9]*\), \([0-9]*\), \([0-9]*\)\].*/\1 \2 \3 \4 \5/p' "$TMP/r.json")
wdl=$(sed -n 's/.*"wins": \([0-9]*\),.*/\1/p; s/.*"draws": \([0-9]*\),.*/\1/p' "$TMP/r.json" | head -2 | tr '\n' ' ')
if [ -n "$penta" ] && echo "$penta $wdl" | awk '{ exit !($1 + $2 + $3 + $4 + $5 == 6 && $2 + 2 * $3 + 3 * $4 + 4 * $5 == 2 * $6 + $7) }' &&
    grep -q '"pairs": 6,' "$TMP/r.json"; then
    pass "random match: the pairs add up to the games"
else
    fail "random match: the pairs add up to the games" "$penta / $wdl" "$(cat "$TMP/r.json")"
fi
expect_grep "random match: pairs line" '^Pairs: 6 with both colours played, A scoring 0, 1/2, 1, 3/2, 2: \[[0-9]+, [0-9]+, [0-9]+, [0-9]+, [0-9]+\]' "$TMP/r.out"
# An opening that Black wins at once whoever plays it: a win and a loss for A, which the pair
# scores 1 of 2, no evidence and no variance, where the game count sees one win and one loss.
printf 'B:W18:B14\n' >"$TMP/bias.fen"
"$PONDER" match -j 1 $TIMING --openings "$TMP/bias.fen" --max-plies 4 --json "$TMP/bias.json" \
    "$RAND" "$RAND" >"$TMP/bias.out" 2>&1
expect_grep "match: a biased opening, one win each" '^Score of A vs B: 1 - 1 - 0 ' "$TMP/bias.out"
expect_grep "match: a biased opening is an even pair" '^Pairs: 1 with both colours played, A scoring 0, 1/2, 1, 3/2, 2: \[0, 0, 1, 0, 0\]; Elo 0.0 \+- 0.0 ' "$TMP/bias.out"
expect_grep "match JSON: pentanomial" '"pentanomial": \[0, 0, 1, 0, 0\],' "$TMP/bias.json"
# Three games: the third round has one game, which counts in W/D/L but in no pair.
"$PONDER" match -j 1 --games 3 $TIMING --openings "$TMP/bias.fen" --max-plies 4 \
    --json "$TMP/bias3.json" "$RAND" "$RAND" >/dev/null 2>&1
expect_grep "match JSON: an odd game is in no pair" '"pairs": 1,' "$TMP/bias3.json"
expect_grep "match JSON: the odd game counts in the score" '"games": 3,' "$TMP/bias3.json"
expect_count "random match: PDN has 12 games" '^\[Result "' "$TMP/r.pdn" 12
expect_count "random match: each game names its ballot" '^\[Opening "ballot [0-9]{3}: ' "$TMP/r.pdn" 12
expect_no_leftovers "random match: no process left behind"
# The PDN file is appended to, never overwritten.
"$PONDER" match -q --games 2 $TIMING --pdn "$TMP/r.pdn" "$RAND" "$RAND" >/dev/null 2>&1
expect_count "PDN file is appended to" '^\[Result "' "$TMP/r.pdn" 14

# Openings: each pair of games shares one, colours swapped; --seed shuffles them repeatably.
"$PONDER" match -q -j 1 --games 4 $TIMING --pdn "$TMP/o1.pdn" "$RAND" "$RAND" >/dev/null 2>&1
grep '^\[Opening' "$TMP/o1.pdn" >"$TMP/o1.names"
printf '[Opening "ballot 001: 9-13 21-17 5-9"]\n[Opening "ballot 001: 9-13 21-17 5-9"]\n[Opening "ballot 002: 9-13 21-17 6-9"]\n[Opening "ballot 002: 9-13 21-17 6-9"]\n' >"$TMP/o1.want"
expect_same "ballots in order, each twice" "$TMP/o1.want" "$TMP/o1.names"
grep -E '^\[(Black|White)' "$TMP/o1.pdn" | head -n 4 | tr '\n' ' ' >"$TMP/o1.colours"
echo >>"$TMP/o1.colours"
printf '[Black "A"] [White "B"] [Black "B"] [White "A"] \n' >"$TMP/o1.cwant"
expect_same "colours swap within a pair" "$TMP/o1.cwant" "$TMP/o1.colours"
"$PONDER" match -q -j 1 --games 6 --seed 7 $TIMING --pdn "$TMP/s1.pdn" "$RAND" "$RAND" >/dev/null 2>&1
"$PONDER" match -q -j 1 --games 6 --seed 7 $TIMING --pdn "$TMP/s2.pdn" "$RAND" "$RAND" >/dev/null 2>&1
grep '^\[Opening' "$TMP/s1.pdn" >"$TMP/s1.names"
grep '^\[Opening' "$TMP/s2.pdn" >"$TMP/s2.names"
expect_same "the same --seed gives the same openings" "$TMP/s1.names" "$TMP/s2.names"
if ! cmp -s "$TMP/s1.names" "$TMP/o1.names"; then pass "--seed shuffles the openings"; else
    fail "--seed shuffles the openings"
fi
# Positions from a PDN file: FEN set-up tags in the output.
"$PONDER" match -q -j 2 --games 4 $TIMING --openings "$PONDER_DATA/openings/eleven-man-ballots.pdn" \
    --pdn "$TMP/e.pdn" --json "$TMP/e.json" "$RAND" "$RAND" >"$TMP/e.out" 2>"$TMP/e.err"
expect_grep "openings file: 4 games" '"games": 4,' "$TMP/e.json"
expect_count "openings file: every game has its FEN" '^\[FEN "B:W' "$TMP/e.pdn" 4
# No {fen} in any command: the standard start, with a note.
"$PONDER" match -j 2 --games 2 $TIMING --pdn "$TMP/n.pdn" "$PONDER player --random" \
    "$PONDER player --random" >"$TMP/n.out" 2>"$TMP/n.err"
expect_grep "no {fen}: a note says so" 'no command has \{fen\}' "$TMP/n.err"
expect_count "no {fen}: games from the standard start" '^\[(FEN|Opening) ' "$TMP/n.pdn" 0
expect_count "no {fen}: two games" '^\[Result ' "$TMP/n.pdn" 2
expect_status "no {fen} with --openings is refused" 2 "$PONDER" match --openings ballots \
    "$PONDER player --random" "$PONDER player --random"
expect_grep "...and explained" 'no command has \{fen\}' "$TMP/err"
expect_status "one command without {fen} is refused" 2 "$PONDER" match "$RAND" "$PONDER player --random"
expect_grep "...and named" "\`B' has no \{fen\}" "$TMP/err"
expect_status "a missing openings file is refused" 2 "$PONDER" match --openings "$TMP/none.pdn" "$RAND" "$RAND"
expect_grep "...and named" 'none.pdn' "$TMP/err"
# A man on its own crowning row in an openings file: refused before any game starts, with the
# file, line and column and the words every program uses (it was read, and then `ponder player'
# refused the position: "Black's program could not start (exit status 2 ...)").
printf '# two openings\nB:W21,22:B9,10\nB:W1,21:B5,9\n' >"$TMP/crown.fen"
expect_status "openings file with a man on its crowning row: exit 2" 2 "$PONDER" match --games 2 \
    $TIMING --pdn "$TMP/crown.pdn" --openings "$TMP/crown.fen" "$RAND" "$RAND"
expect_grep "...the file, line, column and why" \
    '^ponder match: crown\.fen:3:4: a White man on square 1, its crowning row \(write it as a king: K1\)$' \
    "$TMP/err"
if [ ! -e "$TMP/crown.pdn" ]; then pass "...before any game"; else
    fail "...before any game" "$(cat "$TMP/crown.pdn")"
fi
printf '[Event "x"]\n[FEN "W:W21:B5,29"]\n*\n' >"$TMP/crown-tag.pdn"
expect_status "a PDN openings file's FEN tag with one: exit 2" 2 "$PONDER" match --games 2 \
    $TIMING --openings "$TMP/crown-tag.pdn" "$RAND" "$RAND"
expect_grep "...the file, line, column and why" \
    '^ponder match: crown-tag\.pdn:2:16: bad FEN tag: a Black man on square 29, its crowning row' \
    "$TMP/err"

# SPRT: the baseline against random moves is decided long before 300 games.
"$PONDER" match -j 2 --games 300 $TIMING --sprt 0,50,0.05,0.05 --json "$TMP/sprt.json" \
    "$PONDER player --baseline --depth 2 --fen {fen}" "$RAND" >"$TMP/sprt.out" 2>&1
expect_grep "SPRT accepts H1" '"result": "H1"' "$TMP/sprt.json"
expect_grep "SPRT JSON: the model and both LLRs" '"sprt": \{"model": "pentanomial", .*"llr": [-0-9.]+, "llr_trinomial": [-0-9.]+, ' "$TMP/sprt.json"
expect_grep "SPRT stops early" '"games": ([0-9]|[0-9][0-9]),' "$TMP/sprt.json"
expect_grep "SPRT line in the table" '^SPRT \(pairs\): .*H1 accepted' "$TMP/sprt.out"
# The verdict's LLR is the one at the deciding game, past the upper bound, whatever the games
# still in flight then (-j 2) did to the final one.
upper=$(sed -n 's/.*"upper": \([-0-9.]*\).*/\1/p' "$TMP/sprt.json")
dllr=$(sed -n 's/.*"decided_llr": \([-0-9.]*\).*/\1/p' "$TMP/sprt.json")
dgames=$(sed -n 's/.*"decided_games": \([0-9]*\).*/\1/p' "$TMP/sprt.json")
if [ -n "$upper" ] && [ -n "$dllr" ] && [ "${dgames:-0}" -gt 0 ] &&
    awk -v v="$dllr" -v u="$upper" 'BEGIN { exit !(v + 0 >= u + 0) }'; then
    pass "SPRT records the deciding game and its LLR, past the bound"
else
    fail "SPRT records the deciding game and its LLR, past the bound" "$(grep sprt "$TMP/sprt.json")"
fi

# --resume: 8 games, then the same command for 12 with --resume plays only games 9-12; the score
# and the games are those of one 12-game run (random movers seeded per game, so game k is the
# same game in every run). A file of another run, a game twice or a damaged game is refused
# before anything is played, with the file and the game named.
RES="--time 0.05 --margin 0.5 --startup 2 --seed 3 -j 2"
"$PONDER" match -q $RES --games 12 --pdn "$TMP/full.pdn" --json "$TMP/full.json" "$RAND" "$RAND" \
    >/dev/null 2>&1
"$PONDER" match -q $RES --games 8 --pdn "$TMP/part.pdn" "$RAND" "$RAND" >/dev/null 2>&1
"$PONDER" match $RES --games 12 --pdn "$TMP/part.pdn" --json "$TMP/part.json" --resume \
    "$RAND" "$RAND" >"$TMP/resume.out" 2>&1
expect_grep "--resume: says what it read back" '^Resuming: 8 of 12 games read back from ' \
    "$TMP/resume.out"
expect_count "--resume: plays only the 4 games missing" '^game [0-9]+/12: ' "$TMP/resume.out" 4
expect_count "--resume: the file then holds all 12" '^\[Round ' "$TMP/part.pdn" 12
# The games by number, dates aside: one line per game, sorted.
games_by_round() {
    awk '/^\[Round/ { r = $2 } /^\[/ { next } NF { g[r] = g[r] $0 } END { for (k in g) print k, g[k] }' \
        "$1" | sort
}
games_by_round "$TMP/full.pdn" >"$TMP/full.games"
games_by_round "$TMP/part.pdn" >"$TMP/part.games"
expect_same "--resume: the same 12 games as one run" "$TMP/full.games" "$TMP/part.games"
grep -E '"(games|wins|draws|losses|pairs|pentanomial)"' "$TMP/full.json" >"$TMP/full.score"
grep -E '"(games|wins|draws|losses|pairs|pentanomial)"' "$TMP/part.json" >"$TMP/part.score"
expect_same "--resume: the same score and pairs as one run" "$TMP/full.score" "$TMP/part.score"
expect_grep "--resume: the pairs of games read back count" '"pairs": 6,' "$TMP/part.json"
expect_grep "--resume: the JSON counts the games read back" '"read_back": 8,' "$TMP/part.json"
expect_grep "--resume: the JSON's answer times cover the 4 games played now" '"timed_games": 4,' \
    "$TMP/part.json"
expect_grep "...and those of a run in one sitting all 12" '"timed_games": 12,' "$TMP/full.json"
"$PONDER" match $RES --games 12 --pdn "$TMP/part.pdn" --resume "$RAND" "$RAND" \
    >"$TMP/again.out" 2>&1
if grep -q '^Resuming: 12 of 12 ' "$TMP/again.out" && ! grep -q '^game ' "$TMP/again.out" &&
    grep -q '^Score of A vs B: ' "$TMP/again.out"; then
    pass "--resume of a finished run plays nothing and prints the score"
else
    fail "--resume of a finished run plays nothing and prints the score" "$(cat "$TMP/again.out")"
fi
expect_usage_error "--resume needs --pdn" "--resume goes on from the games in the --pdn FILE" \
    "$PONDER" match --resume "$RAND" "$RAND"
cp "$TMP/part.pdn" "$TMP/keep.pdn"
expect_status "--resume refuses a file of another run (other names)" 1 \
    "$PONDER" match -q $RES --games 12 --names X,Y --pdn "$TMP/part.pdn" --resume "$RAND" "$RAND"
expect_grep "...naming the game and the tag" "part.pdn: game [0-9]+ \(line [0-9]+\): Black \`[AB]', this run's \`[XY]'" "$TMP/err"
expect_same "...leaving the file as it was" "$TMP/keep.pdn" "$TMP/part.pdn"
expect_status "--resume refuses another seed (other openings)" 1 \
    "$PONDER" match -q --time 0.05 --seed 4 --games 12 --pdn "$TMP/part.pdn" --resume "$RAND" "$RAND"
expect_grep "...naming the opening" "Opening \`ballot" "$TMP/err"
expect_status "--resume refuses another time control" 1 \
    "$PONDER" match -q --time 0.1 --seed 3 --games 12 --pdn "$TMP/part.pdn" --resume "$RAND" "$RAND"
expect_grep "...naming it" "TimeControl \`0.05 s per move', this run's \`0.1 s per move'" "$TMP/err"
expect_status "--resume refuses games past --games" 1 \
    "$PONDER" match -q $RES --games 6 --pdn "$TMP/part.pdn" --resume "$RAND" "$RAND"
expect_grep "...saying so" "has Round \`[0-9]+', not a game number of this run \(1-6\)" "$TMP/err"
cat "$TMP/keep.pdn" "$TMP/keep.pdn" >"$TMP/twice.pdn"
expect_status "--resume refuses a game twice" 1 \
    "$PONDER" match -q $RES --games 12 --pdn "$TMP/twice.pdn" --resume "$RAND" "$RAND"
expect_grep "...naming it" "twice.pdn: game [0-9]+ is in the file twice \(again at line [0-9]+\)" "$TMP/err"
sed '12s/^1\. [0-9]*-[0-9]*/1. 1-32/' "$TMP/keep.pdn" >"$TMP/bad.pdn"
expect_status "--resume refuses a damaged game" 1 \
    "$PONDER" match -q $RES --games 12 --pdn "$TMP/bad.pdn" --resume "$RAND" "$RAND"
expect_grep "...with its line" "bad.pdn: line 12, column [0-9]+: " "$TMP/err"
if [ ! -s "$TMP/out" ]; then pass "...and no score from a refused file"
else fail "...and no score from a refused file" "$(cat "$TMP/out")"; fi

# A tournament goes on the same way (the runner reads the file back for both commands).
TRES="--time 0.05 --margin 0.5 --startup 2 --seed 5 -j 2 --rounds 2"
"$PONDER" tournament -q $TRES --pdn "$TMP/tr.pdn" a="$RAND" b="$RAND" c="$RAND" >/dev/null 2>&1
"$PONDER" tournament $TRES --pdn "$TMP/tr.pdn" --resume a="$RAND" b="$RAND" c="$RAND" \
    >"$TMP/tr.out" 2>&1
if grep -q '^Resuming: 12 of 12 games read back' "$TMP/tr.out" && ! grep -q '^game ' "$TMP/tr.out"
then pass "tournament --resume reads its games back"
else fail "tournament --resume reads its games back" "$(head -c 600 "$TMP/tr.out")"; fi

# Signals: the run stops at once, finished games are all in the PDN, nothing is left behind.
# (A background job of a script ignores SIGINT, and the referee keeps an ignored SIGINT ignored,
# so that job is given the default SIGINT back first: by env --default-signal (coreutils 8.31 and
# later), else by perl; with neither, the SIGINT case is skipped, not passed.)
signal_case() {
    sig=$1 want=$2
    rm -f "$TMP/sig.pdn"
    if [ "$sig" = INT ]; then
        if env --default-signal=INT true 2>/dev/null; then
            set -- env --default-signal=INT
        elif command -v perl >/dev/null 2>&1; then
            set -- perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die "exec: $!\n"'
        else
            skip "SIGINT stops the match" "neither env --default-signal nor perl to undo the ignored SIGINT"
            return
        fi
    else
        set --
    fi
    PONDER_TEST_MARK=$MARK "$@" "$PONDER" match -j 2 --games 100 $TIMING --pdn "$TMP/sig.pdn" \
        "sh $FAKE/hang.sh $PONDER 2 --fen {fen}" "$RAND" >"$TMP/sig.out" 2>"$TMP/sig.err" &
    pid=$!
    sleep 2.5
    kill -"$sig" $pid
    start=$(date +%s)
    wait $pid
    st=$?
    took=$(($(date +%s) - start))
    if [ $st -eq "$want" ] && [ $took -le 2 ]; then pass "SIG$sig stops the match at once ($want)"; else
        fail "SIG$sig stops the match at once ($want)" "status $st after $took s" "$(cat "$TMP/sig.err")"
    fi
    expect_grep "SIG$sig is reported" 'interrupted by signal' "$TMP/sig.err"
    done_games=$(count '^game [0-9]+/100: ' "$TMP/sig.out")
    expect_count "SIG$sig: every finished game is in the PDN" '^\[Result "' "$TMP/sig.pdn" "$done_games"
    if [ "$done_games" -gt 0 ] && [ "$done_games" -lt 100 ]; then pass "SIG$sig: some games were finished"; else
        fail "SIG$sig: some games were finished" "$done_games games"
    fi
    expect_grep "SIG$sig: the summary is printed" '^Score of A vs B' "$TMP/sig.out"
    expect_no_leftovers "SIG$sig: no process left behind"
}
signal_case INT 130
signal_case TERM 143

# A program that cannot start stops the run at once: exit status 1, the command named, and no
# score table (it used to score every game as a loss by "exit status 127" and exit 0).
expect_status "match: a command not found stops it" 1 "$PONDER" match $TIMING --games 4 -j 2 \
    "$TMP/no-such-engine --fen {fen}" "$RAND"
expect_grep "...and names the command" "could not start \(exit status 127: command not found\): $TMP/no-such-engine" "$TMP/err"
if [ -s "$TMP/out" ]; then fail "...with no score table" "$(head -n 5 "$TMP/out")"; else
    pass "...with no score table"
fi
expect_status "match: a usage error (exit status 2 before the first move) stops it" 1 \
    "$PONDER" match $TIMING --games 4 -j 2 "$PONDER player --no-such-option --fen {fen}" "$RAND"
expect_grep "...and says so" "could not start \(exit status 2: a usage error; --stderr FILE keeps its message\): " "$TMP/err"
expect_status "match: a file that is not executable stops it" 1 "$PONDER" match $TIMING --games 2 \
    "$RAND" "$PONDER_DATA/perft.txt {fen}"
expect_grep "...and says so" "exit status 126: not executable" "$TMP/err"
expect_status "tournament: a command not found stops it" 1 "$PONDER" tournament $TIMING -j 2 \
    a="$RAND" b="no-such-engine-$$ --fen {fen}"
# The --help example as written: `ponder' is this program when none is on $PATH (as after make).
PONDER_TEST_MARK=$MARK PATH=/usr/bin:/bin "$PONDER" match $TIMING --games 2 -j 2 -q \
    'ponder player --time {time} --fen {fen}' 'ponder player --random --fen {fen}' \
    >"$TMP/out" 2>"$TMP/err"
st=$?
if [ $st -eq 0 ] && grep -q ' 2 games$' "$TMP/out" && ! grep -Eq 'Endings:.*(exit|crash)' "$TMP/out"; then
    pass "match: the --help example runs with no ponder on \$PATH"
else fail "match: the --help example runs with no ponder on \$PATH" "status $st" "$(cat "$TMP/out" "$TMP/err")"; fi
expect_no_leftovers "...no process left behind"

# Arguments.
expect_status "match --help exits 0" 0 "$PONDER" match --help
expect_grep "match --help prints usage" '^usage: ponder match' "$TMP/out"
expect_status "tournament --help exits 0" 0 "$PONDER" tournament --help
expect_status "match needs two commands" 2 "$PONDER" match "$RAND"
expect_status "match takes only two commands" 2 "$PONDER" match "$RAND" "$RAND" "$RAND"
expect_status "match refuses --games 0" 2 "$PONDER" match --games 0 "$RAND" "$RAND"
expect_status "match refuses a bad --time" 2 "$PONDER" match --time -1 "$RAND" "$RAND"
expect_status "match refuses a bad -j" 2 "$PONDER" match -j 0 "$RAND" "$RAND"
expect_status "match refuses a bad --sprt" 2 "$PONDER" match --sprt 10,0,0.05,0.05 "$RAND" "$RAND"
expect_grep "...and says why" 'below' "$TMP/err"
expect_status "match refuses bad --names" 2 "$PONDER" match --names onlyone "$RAND" "$RAND"
expect_status "match refuses an unknown option" 2 "$PONDER" match --fast "$RAND" "$RAND"
expect_status "match refuses an empty command" 2 "$PONDER" match " " "$RAND"
expect_status "match reports an unwritable PDN file" 1 "$PONDER" match --games 2 --pdn "$TMP/no/such/dir.pdn" "$RAND" "$RAND"
expect_grep "...and names it" 'dir.pdn' "$TMP/err"
expect_status "tournament needs two entrants" 2 "$PONDER" tournament a="$RAND"
expect_status "tournament refuses NAME without =" 2 "$PONDER" tournament a="$RAND" "$RAND"
expect_status "tournament refuses duplicate names" 2 "$PONDER" tournament a="$RAND" a="$RAND"
expect_status "tournament refuses an empty command" 2 "$PONDER" tournament a="$RAND" b=

# The options as getopt_long reads them, the same in match and tournament (one loop reads both):
# bundled -qj2, --opt=value, options after the commands, `--' before them.
"$PONDER" match -qj2 --games=2 "$RAND" "$RAND" --seed=3 >"$TMP/go.out" 2>"$TMP/go.err"
expect_grep "match -qj2 --games=2 A B --seed=3: two games" '^Score of A vs B: .* 2 games$' "$TMP/go.out"
expect_count "match -qj2: quiet, no progress lines" '^game ' "$TMP/go.out" 0
"$PONDER" tournament -qj2 --rounds=1 -- a="$RAND" b="$RAND" >"$TMP/go.out" 2>"$TMP/go.err"
expect_grep "tournament -qj2 --rounds=1 -- a=A b=B: two games each" '^1 +[ab] .* 2 ' "$TMP/go.out"
expect_count "tournament -qj2: quiet, no progress lines" '^game ' "$TMP/go.out" 0
for prog in match tournament; do
    expect_usage_error "$prog names an unknown option" "ponder $prog: unknown option \`--fast'" \
        "$PONDER" $prog --fast a="$RAND" b="$RAND"
    expect_usage_error "$prog names an unknown short option" "ponder $prog: unknown option \`-x'" \
        "$PONDER" $prog -qx a="$RAND" b="$RAND"
    expect_usage_error "$prog: -j without a value" "ponder $prog: option \`-j' needs a value" \
        "$PONDER" $prog a="$RAND" b="$RAND" -qj
    expect_usage_error "$prog: a bad --time=" "--time: \`-1' is not a number from 0.001 to 86400" \
        "$PONDER" $prog --time=-1 a="$RAND" b="$RAND"
    expect_usage_error "$prog: --quiet takes no value" "option \`--quiet' takes no value" \
        "$PONDER" $prog --quiet=yes a="$RAND" b="$RAND"
done
expect_usage_error "tournament: --games is match's" "ponder tournament: unknown option \`--games'" \
    "$PONDER" tournament --games 2 a="$RAND" b="$RAND"

# Time controls (--tc, cutechess-cli's forms): every bad form is refused with what was wrong, in
# match, tournament and player alike (timecontrol.c parses them for all three).
for bad in "abc|time per move: \`abc' is not a number of seconds" \
    "0|time per move: 0 s is out of range" \
    "40/|base time is missing" \
    "0/60|moves per control: \`0' is not a number from 1 to 1000" \
    "40/0|base time: 0 s is out of range" \
    "60+|increment is missing" \
    "60+-1|increment: \`-1' is not a number of seconds" \
    "1+2/3|\`+' before \`/'"; do
    tc=${bad%%|*} why=${bad#*|}
    for prog in match tournament; do
        expect_usage_error "$prog --tc '$tc' is refused" "--tc $tc: $why" \
            "$PONDER" $prog --tc "$tc" a="$RAND" b="$RAND"
    done
    expect_usage_error "player --tc '$tc' is refused" "--tc $tc: $why" "$PONDER" player --tc "$tc"
done

# A clock per side: the fake answers its moves 0.4 s late, so under 2+0 its clock runs out (the
# margin of 0.5 s covers an overdraft once, not every move) where --time 0.5 would never make it
# lose; `ponder player --tc {tc}' shares out the same clock and never runs out. The PDN holds the
# time control and both clocks at the end; the JSON the time control and the least clock left.
PONDER_TEST_MARK=$MARK "$PONDER" match -j 2 --games 2 --tc 2+0 --margin 0.5 --startup 2 \
    --json "$TMP/tc.json" --pdn "$TMP/tc.pdn" --names slow,ponder \
    "sh $FAKE/slow.sh $PONDER 3 0.4 --fen {fen}" "$PONDER player --tc {tc} --fen {fen}" \
    >"$TMP/tc.out" 2>"$TMP/tc.err"
expect_grep "--tc 2+0: the slow fake lost both on time" '"first": \{[^}]*"timeout": 2' "$TMP/tc.json"
expect_grep "--tc 2+0: ponder player --tc {tc} lost none" '"second": \{"illegal": 0, "malformed": 0, "timeout": 0,' "$TMP/tc.json"
expect_grep "--tc 2+0: the JSON names the time control" '"time_control": "2\+0"' "$TMP/tc.json"
expect_grep "--tc 2+0: ponder kept time on its clock" '"min_clock_seconds": \{"first": -0\.[0-9]+, "second": [0-9]' "$TMP/tc.json"
expect_count "--tc 2+0: PDN TimeControl tag" '^\[TimeControl "2\+0"\]' "$TMP/tc.pdn" 2
expect_count "--tc 2+0: PDN clocks at the end" '^\[(Black|White)Clock "-?[0-9]+\.[0-9]{3}"\]' "$TMP/tc.pdn" 4
expect_grep "--tc 2+0: the loss names the clock" 'did not answer within [0-9.]+ s \(clock -?[0-9.]+ \+ 0.5 margin\)' "$TMP/tc.pdn"
expect_grep "--tc 2+0: the summary shows the clocks" '^Time control 2\+0: least left on the clock' "$TMP/tc.out"
expect_no_leftovers "--tc 2+0: no process left behind"

# Two ponder players under a repeating control: short games, no time loss, the tag as written.
PONDER_TEST_MARK=$MARK "$PONDER" match -j 2 --games 2 --tc 10/1 --max-plies 30 --margin 1 \
    --startup 2 --json "$TMP/tc2.json" --pdn "$TMP/tc2.pdn" \
    "$PONDER player --tc {tc} --fen {fen}" "$PONDER player --tc {tc} --fen {fen}" \
    >"$TMP/tc2.out" 2>"$TMP/tc2.err"
expect_grep "--tc 10/1: no time loss between two ponder players" '"timeout": 0, "exit": 0, "crash": 0, "closed": 0}, "second": \{"illegal": 0, "malformed": 0, "timeout": 0,' "$TMP/tc2.json"
expect_count "--tc 10/1: PDN TimeControl tag" '^\[TimeControl "10/1"\]' "$TMP/tc2.pdn" 2

# A tournament on a clock: the loss on time is the slow fake's, and the JSON names the control.
PONDER_TEST_MARK=$MARK "$PONDER" tournament -j 2 --tc 2+0 --margin 0.5 --startup 2 \
    --json "$TMP/ttc.json" --pdn "$TMP/ttc.pdn" \
    slow="sh $FAKE/slow.sh $PONDER 3 0.4 --fen {fen}" ponder="$PONDER player --tc {tc} --fen {fen}" \
    >"$TMP/ttc.out" 2>"$TMP/ttc.err"
expect_grep "tournament --tc 2+0: the JSON names the time control" '"time_control": "2\+0",' "$TMP/ttc.json"
expect_grep "tournament --tc 2+0: the slow fake lost both on time" '"name": "slow".*"timeout": 2[,}]' "$TMP/ttc.json"
expect_count "tournament --tc 2+0: PDN TimeControl tag" '^\[TimeControl "2\+0"\]' "$TMP/ttc.pdn" 2
expect_no_leftovers "tournament --tc 2+0: no process left behind"

# Adjudication by the endgame databases (--adjudicate DIR): the 3-piece databases, built here. From
# a 4-piece start Black must capture (14x23); the 3-piece position after it ends the game with the
# result `ponder egdb probe' gives for it, recorded as Termination "egdb" and counted in the JSON;
# a 2-piece start (a king each) is a draw before any move. Without --adjudicate the same games
# are played on. --resume reads the adjudicated games back; a tournament adjudicates too.
EG="$TMP/egdb3"
if "$PONDER" egdb build --pieces 3 --dir "$EG" --threads 2 >"$TMP/eg.out" 2>&1; then
    printf 'B:W18,32:B14,1\nB:WK32:BK1\n' >"$TMP/adj.fen"
    verdict=$("$PONDER" egdb probe --dir "$EG" 'W:W32:B23,1' | cut -d' ' -f1)
    # The winner after 14x23, if any, has 1 piece against 2 (White) or 2 against 1 (Black); of 6
    # games (the openings in the order 1, 1, 2, 2, 1, 1) 4 start with it.
    case $verdict in
    win)
        want="0-1" wins="2, the winner ahead in pieces 0, even 0, behind 2"
        wj='0, "even": 0, "behind": 2' wj6='0, "even": 0, "behind": 4' ;;
    loss)
        want="1-0" wins="2, the winner ahead in pieces 2, even 0, behind 0"
        wj='2, "even": 0, "behind": 0' wj6='4, "even": 0, "behind": 0' ;;
    *) want="1/2-1/2" wins="" wj='0, "even": 0, "behind": 0' wj6=$wj ;;
    esac
    PONDER_TEST_MARK=$MARK "$PONDER" match -j 2 --games 4 $TIMING --openings "$TMP/adj.fen" \
        --adjudicate "$EG" --pdn "$TMP/adj.pdn" --json "$TMP/adj.json" "$RAND" "$RAND" \
        >"$TMP/adj.out" 2>"$TMP/adj.err"
    expect_grep "--adjudicate: the run says what adjudicates" '^Adjudication: a game ends as the endgame databases in .* say once it has 3 pieces or fewer$' "$TMP/adj.out"
    expect_count "--adjudicate: every game ends by the databases" '^\[Termination "egdb"\]' "$TMP/adj.pdn" 4
    expect_count "--adjudicate: after 14x23 the result is the probe's ($verdict for White: $want)" "^1\\. 14x23 $want\$" "$TMP/adj.pdn" 2
    expect_count "--adjudicate: a king each is drawn before any move" '^\[TerminationDetails "the endgame databases: a draw \(2 pieces, Black to move\)"\]' "$TMP/adj.pdn" 2
    expect_grep "--adjudicate: the JSON counts the endings" '"max-plies": 0, "egdb": 4,' "$TMP/adj.json"
    expect_grep "--adjudicate: the summary names them" 'Endings: endgame databases 4' "$TMP/adj.out"
    expect_grep "--adjudicate: the JSON counts the databases' wins by material" "\"egdb_wins_by_material\": \{\"ahead\": $wj\}" "$TMP/adj.json"
    if [ -n "$wins" ]; then
        expect_grep "--adjudicate: the summary counts the databases' wins by material" "^Wins by the endgame databases: $wins\$" "$TMP/adj.out"
    elif grep -q '^Wins by the endgame databases' "$TMP/adj.out"; then
        fail "--adjudicate: no wins by the databases, no line for them" "$(grep '^Wins by' "$TMP/adj.out")"
    else
        pass "--adjudicate: no wins by the databases, no line for them"
    fi
    PONDER_TEST_MARK=$MARK "$PONDER" match -j 2 --games 6 $TIMING --openings "$TMP/adj.fen" \
        --adjudicate "$EG" --pdn "$TMP/adj.pdn" --resume --json "$TMP/adj2.json" "$RAND" "$RAND" \
        >"$TMP/adj2.out" 2>"$TMP/adj2.err"
    expect_grep "--adjudicate --resume: the adjudicated games are read back" '^Resuming: 4 of 6 games read back' "$TMP/adj2.out"
    expect_grep "--adjudicate --resume: and counted with the new ones" '"egdb": 6,' "$TMP/adj2.json"
    expect_grep "--adjudicate --resume: the databases' wins by material too" "\"egdb_wins_by_material\": \\{\"ahead\": $wj6\\}" "$TMP/adj2.json"
    PONDER_TEST_MARK=$MARK "$PONDER" match -j 2 --games 2 $TIMING --max-plies 40 \
        --openings "$TMP/adj.fen" --pdn "$TMP/noadj.pdn" "$RAND" "$RAND" >/dev/null 2>&1
    if grep -q '^\[Termination "egdb"\]' "$TMP/noadj.pdn" || grep -q '^1\. 14x23 [-/0-9]*$' "$TMP/noadj.pdn" ||
        [ "$(grep -c '^\[Termination "' "$TMP/noadj.pdn")" -ne 2 ]; then
        fail "without --adjudicate the games are played on" "$(grep '^\[Termination' "$TMP/noadj.pdn")"
    else
        pass "without --adjudicate the games are played on"
    fi
    # A capture pending is played before the databases judge: from 3 pieces with Black to capture
    # (14x23) the game is adjudicated after 14x23, at 2 pieces with White to move.
    printf 'B:W18,32:B14\n' >"$TMP/cap.fen"
    PONDER_TEST_MARK=$MARK "$PONDER" match -j 2 --games 2 $TIMING --openings "$TMP/cap.fen" \
        --adjudicate "$EG" --pdn "$TMP/cap.pdn" "$RAND" "$RAND" >"$TMP/cap.out" 2>&1
    expect_count "--adjudicate: a capture pending is played first" '^1\. 14x23 [-/0-9]*$' "$TMP/cap.pdn" 2
    expect_count "--adjudicate: then the quiet position is judged" '^\[TerminationDetails "the endgame databases: .* \(2 pieces, White to move\)"\]' "$TMP/cap.pdn" 2
    # --adjudicate-wins ahead: a win only once the winner is ahead in pieces. From B:WK22:B14 (a
    # man each, Black to move loses: 14-17 or 14-18 and the king takes) the default ends the
    # game before any move, a win on even pieces; with `ahead' it is played out to the capture.
    # After 14x23 from B:W18,32:B14,1 Black wins 2 pieces against 1: adjudicated either way.
    printf 'B:WK22:B14\nB:W18,32:B14,1\n' >"$TMP/even.fen"
    PONDER_TEST_MARK=$MARK "$PONDER" match -j 2 --games 4 $TIMING --openings "$TMP/even.fen" \
        --adjudicate "$EG" --pdn "$TMP/evany.pdn" "$RAND" "$RAND" >"$TMP/evany.out" 2>&1
    expect_grep "--adjudicate: a win on even pieces is adjudicated by default" '^Wins by the endgame databases: 4, the winner ahead in pieces 2, even 2, behind 0$' "$TMP/evany.out"
    expect_count "--adjudicate: ...before any move" '^\[TerminationDetails "the endgame databases: White wins \(2 pieces, Black to move\)"\]' "$TMP/evany.pdn" 2
    PONDER_TEST_MARK=$MARK "$PONDER" match -j 2 --games 4 $TIMING --openings "$TMP/even.fen" \
        --adjudicate "$EG" --adjudicate-wins ahead --pdn "$TMP/evahead.pdn" --json "$TMP/evahead.json" \
        "$RAND" "$RAND" >"$TMP/evahead.out" 2>&1
    expect_grep "--adjudicate-wins ahead: the run says so" '^Adjudication: a game ends as the endgame databases in .* say once it has 3 pieces or fewer \(a win once the winner is ahead in pieces\)$' "$TMP/evahead.out"
    expect_count "--adjudicate-wins ahead: the win on even pieces is played out" '^1\. 14-1[78] 22x1[35] 0-1$' "$TMP/evahead.pdn" 2
    expect_count "--adjudicate-wins ahead: ...to the end of the game" '^\[TerminationDetails "Black has no legal move"\]' "$TMP/evahead.pdn" 2
    expect_count "--adjudicate-wins ahead: a win a piece ahead is still adjudicated" '^\[TerminationDetails "the endgame databases: Black wins \(3 pieces, White to move\)"\]' "$TMP/evahead.pdn" 2
    expect_grep "--adjudicate-wins ahead: every database win is a piece ahead" '^Wins by the endgame databases: 2, the winner ahead in pieces 2, even 0, behind 0$' "$TMP/evahead.out"
    expect_grep "--adjudicate-wins ahead: the JSON too" '"egdb_wins_by_material": \{"ahead": 2, "even": 0, "behind": 0\}' "$TMP/evahead.json"
    PONDER_TEST_MARK=$MARK "$PONDER" tournament -j 2 --rounds 2 $TIMING --openings "$TMP/adj.fen" \
        --adjudicate "$EG" --adjudicate-pieces 2 --pdn "$TMP/tadj.pdn" a="$RAND" b="$RAND" \
        >"$TMP/tadj.out" 2>"$TMP/tadj.err"
    n2=$(grep -c '^\[TerminationDetails "the endgame databases: a draw (2 pieces, Black to move)"\]' "$TMP/tadj.pdn")
    n3=$(grep -c '^\[TerminationDetails "the endgame databases: .*(3 pieces' "$TMP/tadj.pdn")
    if [ "$n2" -ge 2 ] && [ "$n3" -eq 0 ]; then
        pass "tournament --adjudicate-pieces 2: 2 pieces adjudicated, 3 not"
    else
        fail "tournament --adjudicate-pieces 2: 2 pieces adjudicated, 3 not" "$(grep '^\[Termination' "$TMP/tadj.pdn")"
    fi
    expect_no_leftovers "--adjudicate: no process left behind"
    mkdir -p "$TMP/no2" && cp "$EG"/db-*.egdb "$TMP/no2/" && rm "$TMP/no2/db-0-1-0-1.egdb"
    expect_usage_error "--adjudicate databases without every 2-piece slice are refused" \
        "ponder match: --adjudicate $TMP/no2: a 2-piece slice is missing (\`ponder egdb build --pieces N')" \
        "$PONDER" match --adjudicate "$TMP/no2" "$RAND" "$RAND"
    expect_usage_error "--adjudicate-pieces beyond the databases is refused" \
        "ponder match: --adjudicate-pieces 4: $EG holds every slice only up to 3 pieces" \
        "$PONDER" match --adjudicate "$EG" --adjudicate-pieces 4 "$RAND" "$RAND"
else
    fail "egdb build --pieces 3 for the adjudication tests" "$(tail -3 "$TMP/eg.out")"
fi
expect_usage_error "--adjudicate a directory that does not exist is refused" \
    "ponder match: --adjudicate: cannot read directory $TMP/none" \
    "$PONDER" match --adjudicate "$TMP/none" "$RAND" "$RAND"
mkdir -p "$TMP/empty"
expect_usage_error "--adjudicate a directory without databases is refused" \
    "ponder match: --adjudicate: no database files in $TMP/empty" \
    "$PONDER" match --adjudicate "$TMP/empty" "$RAND" "$RAND"
expect_usage_error "--adjudicate-pieces without --adjudicate is refused" \
    "ponder match: --adjudicate-pieces limits --adjudicate DIR: give the databases" \
    "$PONDER" match --adjudicate-pieces 5 "$RAND" "$RAND"
expect_usage_error "--adjudicate-wins without --adjudicate is refused" \
    "ponder match: --adjudicate-wins limits --adjudicate DIR: give the databases" \
    "$PONDER" match --adjudicate-wins ahead "$RAND" "$RAND"
expect_usage_error "--adjudicate-wins with a bad word is refused" \
    "ponder tournament: --adjudicate-wins: \`most' is neither any nor ahead" \
    "$PONDER" tournament --adjudicate-wins most a="$RAND" b="$RAND"
expect_usage_error "tournament --adjudicate-pieces 9 is refused" \
    "ponder tournament: --adjudicate-pieces: \`9' is not a whole number from 2 to 8" \
    "$PONDER" tournament --adjudicate-pieces 9 a="$RAND" b="$RAND"
