#!/bin/sh
# play.sh - `ponder play', the terminal game, driven through a pipe with scripted answers (and
# once through a pseudo-terminal for the colour path): options, a full game against the
# computer, computer-vs-computer from every sample board file, every kind of bad answer, and the
# end of input at every question.
. "$(dirname "$0")/lib.sh"

BOARDS="$PONDER_DATA/sable-boards"
PLAYDATA="$PONDER_DATA/play"
# Small searches keep the games fast and (with a generous time limit that never binds) the same
# from run to run.
DEPTH=4
[ "${PONDER_VARIANT:-release}" = asan ] && DEPTH=3
ENGINE="--depth $DEPTH --hash 8"
LIMIT=120 # seconds any one run may take before it counts as a hang

# play NAME INPUT ARGS... : runs `ponder play ARGS' with INPUT (a string, printf-style escapes
# allowed) on stdin; output in $TMP/NAME.out, errors in $TMP/NAME.err, status in $status.
play() {
    name=$1 input=$2
    shift 2
    printf "$input" | timeout $LIMIT "$PONDER" play "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
    status=$?
}

# ok NAME : the last run exited 0 with nothing on stderr.
ok() {
    if [ "$status" -eq 0 ] && [ ! -s "$TMP/$1.err" ]; then pass "$1"; else
        fail "$1" "exit status $status" "$(head -c 800 "$TMP/$1.err")" "$(tail -n 5 "$TMP/$1.out")"
    fi
}

# The answer lines piped in are echoed; a complaint follows the line it answers.
said() { expect_grep "$1" "$2" "$TMP/$3.out"; }

# ---- options -------------------------------------------------------------------------------
"$PONDER" play --help >"$TMP/help.out" 2>&1
if [ $? -eq 0 ] && grep -q '^usage: ponder play' "$TMP/help.out"; then pass "play --help"; else
    fail "play --help" "$(head -n 5 "$TMP/help.out")"
fi
for bad in "--black martian" "--white" "--time 0" "--time abc" "--time -3" "--depth 0" \
    "--depth x" "--nodes 0" "--color sometimes" "--threads 0" "--hash -1" "--frobnicate" \
    "extra" "--board /nonexistent/board.txt" "--board $PLAYDATA/bad-digit.txt" \
    "--board $PLAYDATA/bad-player.txt" "--board $PLAYDATA/short.txt"; do
    # shellcheck disable=SC2086
    expect_status "play $bad: exit 2" 2 "$PONDER" play $bad
    if [ -s "$TMP/err" ]; then pass "play $bad: says why"; else fail "play $bad: says why"; fi
done
# An engine option the engine refuses: a run-time failure (1), like the other engine programs.
expect_status "play --weights /nonexistent: exit 1" 1 "$PONDER" play --weights /nonexistent/w.txt \
    --black human --white human
expect_grep "play --weights /nonexistent: says why" "^ponder play: .*/nonexistent/w.txt" "$TMP/err"
# A man on its own crowning row (Black's on 29): the words every program uses (board_reachable).
expect_status "play --board with a man on its crowning row: exit 2" 2 "$PONDER" play --board \
    "$PLAYDATA/crowning-row.txt" --black human --white human
expect_grep "play --board with a man on its crowning row: says so" \
    "crowning-row.txt: a Black man on square 29, its crowning row \(write it as a king: K29\)" "$TMP/err"
"$PONDER" play --board "$PLAYDATA/bad-digit.txt" 2>"$TMP/err" >/dev/null
expect_grep "bad board file: what and where" "is not a board file: square 11: .7' is not a digit 0-4 at line 3, column 11" "$TMP/err"

# ---- computer against computer from each sample board ----------------------------------------
for f in "$BOARDS"/sampleCheckers*.txt; do
    b=$(basename "$f" .txt)
    play "cc-$b" 'yes\n' --black computer --white computer --time 60 $ENGINE --board "$f"
    ok "cc $b: runs to the end"
    side=$(tr -d '\r' <"$f" | awk 'NF { n++ } n == 9 { print ($1 == 1 ? "Black" : "White"); exit }')
    first=$(grep -m1 -E '^    Move [0-9]+, (Black|White) to move' "$TMP/cc-$b.out")
    case "$first" in
    *"$side to move") pass "cc $b: $side moves first, as the file says" ;;
    *) fail "cc $b: $side moves first, as the file says" "first position: $first" ;;
    esac
    end=$(grep -m1 '^\*\*\* ' "$TMP/cc-$b.out")
    tag=$(sed -n 's/^Result \([^ ]*\) after .*/\1/p' "$TMP/cc-$b.out")
    case "$end/$tag" in
    "*** Black wins"*/1-0 | "*** White wins"*/0-1 | "*** Draw"*/1/2-1/2) pass "cc $b: $tag announced" ;;
    *) fail "cc $b: result announced" "end line: $end" "result: $tag" ;;
    esac
    # The PDN printed on request: the position set up from the file, the same result.
    if grep -q '^\[FEN "[BW]:' "$TMP/cc-$b.out" && grep -q "^\[Result \"$tag\"\]" "$TMP/cc-$b.out" &&
        grep -q "^\[SetUp \"1\"\]" "$TMP/cc-$b.out"; then
        pass "cc $b: PDN with the start position and result"
    else
        fail "cc $b: PDN with the start position and result" "$(grep '^\[' "$TMP/cc-$b.out")"
    fi
    if grep -q "$(printf '\033')" "$TMP/cc-$b.out"; then
        fail "cc $b: plain text through a pipe" "escape sequences in the output"
    else pass "cc $b: plain text through a pipe"; fi
done

# The board file's time limit is the computer's unless --time says otherwise.
play cc-time '\n' --black computer --white computer --depth 2 --hash 8 --board "$BOARDS/sampleCheckers10.txt"
said "board file's time limit is the default answer" 'time limit per move, in seconds\? \[3\] $' cc-time
said "board file sets the time limit" 'computer: 3 s a move' cc-time
play cc-time2 '' --black computer --white computer --time 7 --depth 2 --hash 8 --board "$BOARDS/sampleCheckers10.txt"
said "--time overrides the board file's limit" 'computer: 7 s a move' cc-time2
# The options as getopt_long reads them: --opt=value, abbreviations, the same game.
play cc-time3 '' --black=computer --wh=computer --time=7 --depth=2 --hash=8 --threads=1 \
    --board="$BOARDS/sampleCheckers10.txt"
# The same moves and evaluations; the seconds each search took vary from run to run.
sed -E 's/, [0-9]+\.[0-9]+ s,/, _ s,/' "$TMP/cc-time2.out" >"$TMP/cc-time2.cmp"
sed -E 's/, [0-9]+\.[0-9]+ s,/, _ s,/' "$TMP/cc-time3.out" >"$TMP/cc-time3.cmp"
expect_same "play --opt=value: the same game as --opt value" "$TMP/cc-time2.cmp" "$TMP/cc-time3.cmp"
expect_option_limit play hash 1 65536
expect_option_limit play threads 1 256
expect_usage_error "play: -- ends the options" "unexpected argument \`--depth'" \
    "$PONDER" play -- --depth 2
expect_usage_error "play names an unknown short option" "unknown option \`-x'" "$PONDER" play -x
said "PDN question at the end" 'Show the game in PDN\? .* \[no\] $' cc-time2
ok "EOF at the PDN question quits"

# With one legal move the computer plays at once, without searching.
grep -q 'plays .*(the only legal move)' "$TMP"/cc-*.out && pass "forced move played at once" ||
    fail "forced move played at once" "no '(the only legal move)' in any game"
grep -q -E 'plays .*\(depth [0-9]+, [0-9.]+ s, (eval [+-][0-9]+\.[0-9]{2}|(win|loss) in [0-9]+ plies) for (Black|White)\)' \
    "$TMP"/cc-*.out && pass "computer move: depth, time and evaluation" ||
    fail "computer move: depth, time and evaluation"

# ---- a whole game, human against the computer ------------------------------------------------
# The human always plays the first listed move. A first run finds how many moves that takes; the
# second answers exactly that many, then asks for the PDN.
ones() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) print 1 }'; }
ones 600 >"$TMP/ones"
printf 'n\n' | cat - "$TMP/ones" | timeout $LIMIT "$PONDER" play --black human --white computer \
    --time 60 $ENGINE >"$TMP/hc1.out" 2>"$TMP/hc1.err"
status=$?
ok hc1
moves=$(sed '/^\*\*\* /q' "$TMP/hc1.out" | grep -c '^Your move (')
if grep -q '^\*\*\* ' "$TMP/hc1.out" && [ "$moves" -gt 0 ]; then
    pass "human v computer: the game ends ($moves human moves)"
else
    fail "human v computer: the game ends" "$(tail -n 20 "$TMP/hc1.out")"
fi
{
    printf 'n\n'
    ones "$moves"
    printf 'yes\n'
} >"$TMP/hc2.in"
timeout $LIMIT "$PONDER" play --black human --white computer --time 60 $ENGINE <"$TMP/hc2.in" \
    >"$TMP/hc2.out" 2>"$TMP/hc2.err"
status=$?
ok "human v computer: replayed game"
# (the same apart from the time each search took)
sed -e '/^\*\*\* /q' -e 's/, [0-9.]* s, /, T s, /' "$TMP/hc1.out" >"$TMP/hc1.game"
sed -e '/^\*\*\* /q' -e 's/, [0-9.]* s, /, T s, /' "$TMP/hc2.out" >"$TMP/hc2.game"
expect_same "human v computer: the same game twice (fixed depth)" "$TMP/hc1.game" "$TMP/hc2.game"
tag=$(sed -n 's/^Result \([^ ]*\) after .*/\1/p' "$TMP/hc2.out")
said "human v computer: PDN on request" "^\[Result \"$tag\"\]" hc2
said "human v computer: PDN names the players" '^\[White "Ponder"\]' hc2
said "human v computer: PDN movetext ends with the result" "(^| )$tag\$" hc2
# Every move of the game is in the PDN: count the plies announced and the moves written.
plies=$(grep -c -E '^(Black|White) plays |^Your move \(' "$TMP/hc2.out")
pdn_moves=$(sed -n '/^\[Result/,$p' "$TMP/hc2.out" | tr ' ' '\n' | grep -c -E '^[1-9][0-9]?[-x][1-9][0-9]?(x[1-9][0-9]?)*$')
if [ "$plies" -eq "$pdn_moves" ]; then pass "human v computer: PDN holds all $plies moves"; else
    fail "human v computer: PDN holds every move" "$plies moves played, $pdn_moves in the PDN"
fi

# The computer as Black moves first; the human answers by typing moves.
play hc3 'c\nh\n60\nno\n1\nundo\nhint\n1\nquit\n' $ENGINE
ok "computer as Black: runs"
said "computer as Black moves first" '^Black plays [0-9]+-[0-9]+ ' hc3
said "undo takes back the computer's reply as well" '^Took back 2 moves\.' hc3
said "hint suggests a listed move" '^Hint: [0-9]+\. [0-9]+[-x][0-9]' hc3
said "quit says goodbye" '^Goodbye\.$' hc3
said "quit after moves offers to save the game" '^Save the game before leaving\? \(no, or save FILE\) \[no\] $' hc3

# A hint is advice to the player, not the engine's own move: it values a draw at 0 whatever the
# engine's contempt. Two kings, both sides human, the start a move away (1-6 repeats it): at
# contempt -1000 the engine would value the repetition at ten men; the hint does not.
play hint-draw "h\nh\nyes\n$PLAYDATA/two-kings.txt\n1-6\n32-27\n6-1\n27-32\nhint\nquit\n" \
    $ENGINE --contempt -1000
ok "hint with contempt -1000: runs"
said "a hint values a draw at 0, not at the engine's contempt" '^Hint: [0-9]\. 1-[56] .*eval [+-]0\.[0-9][0-9] for Black\)$' hint-draw

# `flip' turns the board round (PDN's way up by default: squares 1-4 at the top), and back.
play flip 'h\nh\nno\nflip\nflip\nquit\n'
ok "flip: runs"
awk '/^    \+---\+[0-9]/ { print $0 }' "$TMP/flip.out" | sed -n '1p;5p;9p' >"$TMP/flip.tops"
printf '%s\n' '    +---+1--+---+2--+---+3--+---+4--+' '    +---+32-+---+31-+---+30-+---+29-+' \
    '    +---+1--+---+2--+---+3--+---+4--+' >"$TMP/flip.want"
expect_same "flip: square 1 at the top, then 32, then 1 again" "$TMP/flip.want" "$TMP/flip.tops"

# `quit' at a set-up question leaves (it was "please answer yes or no").
for n in 0 1 2 3; do
    input=$(printf 'h\nc\n5\nquit\n' | head -n $n | tr '\n' '|' | sed 's/|/\\n/g')
    play "setup-quit$n" "${input}quit\n"
    ok "quit at set-up question $((n + 1)): exit 0"
    if tail -n 1 "$TMP/setup-quit$n.out" | grep -q '^Goodbye\.$' && ! grep -q 'please' "$TMP/setup-quit$n.out"; then
        pass "quit at set-up question $((n + 1)): leaves"
    else fail "quit at set-up question $((n + 1)): leaves" "$(tail -n 3 "$TMP/setup-quit$n.out")"; fi
done

# One legal move: the messages do not say "a number from 1 to 1".
play one-move '0\nx\n1\nquit\n' --black human --white human --board "$PLAYDATA/one-move.txt"
ok "one legal move: runs"
said "one legal move: the prompt offers 1" "^Black's move \\(1, or help\\): 0$" one-move
said "one legal move: no move 0" '^There is no move 0: there is one move, 1\.$' one-move
said "one legal move: an unknown word" "^.x' is not a move or a command\. Type 1, the only move, a move" one-move
if grep -q 'from 1 to 1' "$TMP/one-move.out"; then fail "one legal move: never \"from 1 to 1\""; else
    pass "one legal move: never \"from 1 to 1\""
fi

# Ctrl-C (SIGINT) while the computer thinks, and at the move prompt: the game ends with an offer to
# save it, which is taken (it used to end the program and lose the game).
for when in thinking prompt; do
    rm -f "$TMP/fifo" "$TMP/int-$when.pdn"
    mkfifo "$TMP/fifo"
    if [ $when = thinking ]; then args="--black human --white computer --time 30"; else
        args="--black human --white human"
    fi
    # shellcheck disable=SC2086
    "$PONDER" play $args <"$TMP/fifo" >"$TMP/int-$when.out" 2>&1 &
    pid=$!
    exec 3>"$TMP/fifo"
    printf 'no\n11-15\n' >&3
    t=0
    if [ $when = thinking ]; then want='is thinking'; else want="^White's move"; fi
    until grep -q "$want" "$TMP/int-$when.out" || [ $t -gt 500 ]; do
        sleep 0.02
        t=$((t + 1))
    done
    sleep 0.2
    kill -INT $pid
    t=0
    until grep -q 'Save the game before leaving' "$TMP/int-$when.out" || [ $t -gt 500 ]; do
        sleep 0.02
        t=$((t + 1))
    done
    printf 'save %s\n' "$TMP/int-$when.pdn" >&3
    exec 3>&-
    wait $pid
    st=$?
    if [ $st -eq 0 ] && grep -q '^Interrupted\.$' "$TMP/int-$when.out" &&
        grep -q '^1\. 11-15 \*$' "$TMP/int-$when.pdn" 2>/dev/null; then
        pass "Ctrl-C while $when: the game is offered and saved"
    else fail "Ctrl-C while $when: the game is offered and saved" "status $st" "$(tail -n 6 "$TMP/int-$when.out")"; fi
done

# ---- human against human: a win typed as a move, a draw by repetition --------------------------
play hh-win '14x23\nyes\n' --black human --white human --board "$PLAYDATA/win-in-one.txt"
ok "human v human: win"
said "human v human: the move typed as text is played" '^  1\. 14x23$' hh-win
said "human v human: winner announced" '^\*\*\* Black wins: White has no pieces left\. \*\*\*$' hh-win
said "human v human: PDN result" '^\[Result "1-0"\]' hh-win
said "human v human: PDN start position" '^\[FEN "B:W18:B14"\]' hh-win
play hh-save "14x23\nsave $TMP/no/dir/end.pdn\nmaybe\nsave $TMP/end.pdn\n" --black human --white human \
    --board "$PLAYDATA/win-in-one.txt"
ok "PDN question: save"
said "PDN question: a bad path is refused, the question asked again" '^Cannot write .*/no/dir/end.pdn' hh-save
said "PDN question: other answers refused" "^.maybe': please answer yes, no, or save FILE\.$" hh-save
if grep -q '^\[Result "1-0"\]' "$TMP/end.pdn" && grep -q '^1\. 14x23 1-0' "$TMP/end.pdn"; then
    pass "PDN question: the finished game saved with its result"
else fail "PDN question: the finished game saved with its result" "$(cat "$TMP/end.pdn" 2>&1)"; fi
play hh-draw '1-6\n32-27\n6-1\n27-32\n1-6\n32-27\n6-1\n27-32\nno\n' --black human --white human \
    --board "$PLAYDATA/two-kings.txt"
ok "human v human: draw"
said "draw by repetition announced" '^\*\*\* Draw: the same position has come up three times\. \*\*\*$' hh-draw
said "draw result" '^Result 1/2-1/2 after 4 moves\.$' hh-draw
said "kings shown as kings" '\[B\]' hh-draw

# ---- typed squares resolved as everywhere else (notation_resolve) ------------------------------
# King 1 takes 6 and 7 (1x10x3), or goes round the loop 10-17-26-19-10 first: "1x3" could be
# either, and the whole route 1x10x3 names the short one although the long one passes through 10.
play hh-route '1x3\n1x10x3\n' --black human --white human --board "$PLAYDATA/loop.txt"
ok "typed route: runs"
said "typed route: ends only is ambiguous" '^1x3 could be 1 \(1x10x3\) or 2 \(1x10x17x26x19x10x3\)' hh-route
said "typed route: a whole route names its move" '^  1\. 1x10x3$' hh-route

# ---- every kind of bad answer -----------------------------------------------------------------
long=$(awk 'BEGIN { for (i = 0; i < 1100; i++) printf "9" }')
play bad "martian\nh\n42\nc\nabc\n0\n-1\n1e999\nnan\n$long\n60\nmaybe\nyes\n/nonexistent/b.txt\n$PLAYDATA/bad-digit.txt\n$PLAYDATA/short.txt\n$BOARDS/sampleCheckers4.txt\nfoo\n0\n99\n9-13\n\nsave\nsave $TMP/no/such/dir/g.pdn\nundo\nboard\nhelp\nhint\n19-23\n1\nundo\n1\nsave $TMP/g.pdn\nquit\n" $ENGINE
ok "bad answers: no crash, clean exit"
said "bad player answer" "^.martian' is neither: answer human or computer" bad
said "bad player answer (number)" "^.42' is neither" bad
said "time: not a number" "^.abc' is not a number of seconds" bad
said "time: zero" "^The time limit must be more than 0 seconds\." bad
said "time: negative" "^The time limit must be more than 0 seconds\." bad
said "time: too long" "^.1e999' seconds is too long" bad
said "time: nan" "^.nan' " bad
said "too long an answer" "^That answer is too long \(more than 1023 characters\)\." bad
said "yes/no: other" "^.maybe': please answer yes or no\." bad
said "board: missing file" "^Cannot read the board: cannot open /nonexistent/b.txt" bad
said "board: bad digit, with line and column" "bad-digit.txt is not a board file: square 11: .7' is not a digit 0-4 at line 3, column 11\.$" bad
said "board: too short" "short.txt is not a board file: board ends after 10 of 32 squares" bad
said "board: loaded, White to move, file's time" "^Loaded .*sampleCheckers4.txt: White to move, 5 s per computer move\.$" bad
# (sampleCheckers4 leaves Black one move.)
said "move: word" "^.foo' is not a move or a command\. Type 1, the only move" bad
said "move: number 0" "^There is no move 0: there is one move, 1\.$" bad
said "move: number too big" "^There is no move 99: " bad
said "move: illegal" "^9-13 is not legal" bad
said "save without a file" "^save needs a file name" bad
said "save to a bad path" "^Cannot write .*/no/such/dir/g.pdn: No such file or directory\.$" bad
said "undo at the start" "^Nothing to undo" bad
said "help lists the commands" "^    save FILE   write the game so far" bad
said "undo after a move" "^Took back [12] moves?\.$" bad
said "save writes the file" "^Saved the game to .*/g.pdn\.$" bad
if [ -s "$TMP/g.pdn" ] && grep -q '^\[Event "Ponder terminal game"\]' "$TMP/g.pdn" &&
    grep -q '^\[Result "\*"\]' "$TMP/g.pdn" && grep -q '^\[FEN ' "$TMP/g.pdn"; then
    pass "saved PDN: tags, set-up position, unfinished result"
else
    fail "saved PDN: tags, set-up position, unfinished result" "$(head -n 12 "$TMP/g.pdn" 2>&1)"
fi
# Each complaint is followed by the same question again.
if awk '/^.martian. is neither/ { getline; exit !/^Black \(moves first\): human or computer\?/ }' "$TMP/bad.out"; then
    pass "the question is asked again after a bad answer"
else fail "the question is asked again after a bad answer"; fi
# A NUL byte in an answer.
play nul 'h\000\nh\nc\n1\nno\nquit\n'
ok "NUL byte in an answer: no crash"
said "NUL byte in an answer: refused" "^That answer holds a NUL byte\.$" nul

# ---- end of input at every question ------------------------------------------------------------
# The answers below reach, one after the other: Black?, White?, time?, board?, board file,
# the move prompt (twice), and after the last move the PDN question. Cut the input after each.
set -- "h" "c" "" "yes" "$PLAYDATA/win-in-one.txt" "hint" "14x23"
i=0
while [ $i -le $# ]; do
    input=""
    j=0
    for a in "$@"; do
        [ $j -ge $i ] && break
        input="$input$a\n"
        j=$((j + 1))
    done
    play "eof$i" "$input" --depth 2 --hash 8
    ok "EOF after $i answers: exit 0"
    if tail -n 2 "$TMP/eof$i.out" | grep -q -E 'Goodbye\.$|\[no\] $'; then
        pass "EOF after $i answers: quits cleanly"
    else fail "EOF after $i answers: quits cleanly" "$(tail -n 3 "$TMP/eof$i.out")"; fi
    i=$((i + 1))
done
# A last answer without its newline still counts.
play eof-nonl 'h\nh\n\nno\n11-15' --depth 2 --hash 8
ok "last line without a newline"
said "last line without a newline is played" '^  1\. 11-15$' eof-nonl

# ---- colours on a terminal ---------------------------------------------------------------------
if command -v script >/dev/null 2>&1; then
    cmd="$PONDER play --black computer --white computer --time 60 --depth 2 --hash 8 --board $BOARDS/sampleCheckers3.txt"
    TERM=xterm-256color timeout $LIMIT script -qec "$cmd" /dev/null </dev/null >"$TMP/pty.out" 2>&1
    status=$?
    ok pty
    if grep -q "$(printf '\033')\[48;5;28m" "$TMP/pty.out"; then pass "terminal: coloured board"; else
        fail "terminal: coloured board" "$(head -c 400 "$TMP/pty.out" | od -c | head)"
    fi
    said "terminal: the game still ends" '\*\*\* (Black|White) wins|\*\*\* Draw' pty
    NO_COLOR=1 TERM=xterm-256color timeout $LIMIT script -qec "$cmd" /dev/null </dev/null >"$TMP/pty2.out" 2>&1
    if grep -q "$(printf '\033')\[" "$TMP/pty2.out"; then
        fail "terminal with NO_COLOR: plain" "$(grep -m3 "$(printf '\033')" "$TMP/pty2.out" | od -c | head)"
    else pass "terminal with NO_COLOR: plain"; fi
    said "terminal with NO_COLOR: ASCII board" '^    \+---\+---\+' pty2
else
    fail "terminal tests" "script (util-linux) is not installed"
fi
play always '' --black computer --white computer --time 60 --depth 2 --hash 8 --color always \
    --board "$BOARDS/sampleCheckers3.txt"
if grep -q "$(printf '\033')\[4" "$TMP/always.out"; then pass "--color always through a pipe"; else
    fail "--color always through a pipe"
fi
