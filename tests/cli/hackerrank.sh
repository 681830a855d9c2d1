#!/bin/sh
# hackerrank.sh - `ponder hackerrank` (seed 001): the challenge's samples and positions of our own,
# the time limit, bad input and arguments; then the single C file of `make hackerrank`
# (scripts/amalgamate.sh), generated afresh from the sources, compiled as the site compiles it and
# compared with `ponder hackerrank' on every input here and on random positions; and the
# amalgamation's renaming and module rules on a small project made up for the purpose.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HR=$PONDER_DATA/hackerrank
if [ "${PONDER_VARIANT:-release}" = asan ]; then RANDOM_N=8; else RANDOM_N=40; fi
DEPTH=7 # fixed depth of the comparisons: fast, and deep enough to exercise the whole search

# hr PROGRAM INPUT ARGS... : runs PROGRAM (ponder hackerrank, or the single-file build) on INPUT;
# stdout in $TMP/out, stderr in $TMP/err, exit status in $status.
hr() {
    prog=$1 input=$2
    shift 2
    if [ "$prog" = ponder ]; then
        "$PONDER" hackerrank "$@" <"$input" >"$TMP/out" 2>"$TMP/err"
    else
        "$prog" "$@" <"$input" >"$TMP/out" 2>"$TMP/err"
    fi
    status=$?
}

# expect_move NAME EXPECTED : the last run printed EXPECTED (a file), nothing on stderr, status 0.
expect_move() {
    if [ "$status" -ne 0 ] || [ -s "$TMP/err" ] || ! cmp -s "$2" "$TMP/out"; then
        fail "$1" "status $status" "stdout: $(cat "$TMP/out")" "expected: $(cat "$2")" \
            "stderr: $(head -c 600 "$TMP/err")"
    else pass "$1"; fi
}

# is_one_of LEGAL : the last run printed one of the moves of LEGAL (blank-line-separated blocks).
is_one_of() {
    awk -v out="$TMP/out" '
        BEGIN { while ((getline l < out) > 0) want = want l "\n" }
        /^$/ { if (block == want) found = 1; block = ""; next }
        { block = block $0 "\n" }
        END { if (block == want) found = 1; exit !found }' "$1"
}

# timed PROGRAM INPUT ARGS... : hr, and the processor time the run took (what the judge counts) in
# $cpu, the wall time in $wall (both in ms). The search stops on the wall clock, so on a loaded
# machine the processor time is less; the wall time gets a loose bound that only catches a run
# that does not stop.
ms() { date +%s%N | cut -c1-13; }
cpu_ms() { awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d\n", (u[1] * 60 + u[2] + s[1] * 60 + s[2]) * 1000 }' "$1"; }
timed() {
    times >"$TMP/times0"
    t0=$(ms)
    hr "$@"
    wall=$(($(ms) - t0))
    times >"$TMP/times1"
    cpu=$(($(cpu_ms "$TMP/times1") - $(cpu_ms "$TMP/times0")))
}

# --- the challenge's samples and positions of our own -----------------------------------------
# NAME.expected: the only legal move, or the only good one (a winning shot, the bigger capture).
for f in "$HR"/*.expected; do
    name=$(basename "$f" .expected)
    [ -f "$HR/$name.legal" ] && continue # the site's one answer among several right ones
    hr ponder "$HR/$name.in"
    expect_move "hackerrank $name" "$f"
done
# NAME.legal: every legal move; any of them is a right answer.
for f in "$HR"/*.legal; do
    name=$(basename "$f" .legal)
    hr ponder "$HR/$name.in"
    if [ "$status" -eq 0 ] && [ ! -s "$TMP/err" ] && is_one_of "$f"; then pass "hackerrank $name"; else
        fail "hackerrank $name" "status $status" "stdout: $(cat "$TMP/out")" "$(cat "$TMP/err")"
    fi
done
# A side with no legal move has lost: nothing to print, status 1, the reason on stderr.
for name in no-move-blocked no-move-no-pieces; do
    hr ponder "$HR/$name.in"
    if [ "$status" -eq 1 ] && [ ! -s "$TMP/out" ] && grep -q 'has no legal move' "$TMP/err"; then
        pass "hackerrank $name"
    else fail "hackerrank $name" "status $status" "stdout: $(cat "$TMP/out")" "$(cat "$TMP/err")"; fi
done

# --- the time limit: the whole process, start to exit, under --time (default 1 s) --------------
START=$TMP/start.in
printf 'b\n8\n_b_b_b_b\nb_b_b_b_\n_b_b_b_b\n________\n________\nw_w_w_w_\n_w_w_w_w\nw_w_w_w_\n' >"$START"
for t in default 0.5; do
    if [ $t = default ]; then args="" limit=1000; else args="--time $t" limit=500; fi
    # shellcheck disable=SC2086
    timed ponder "$START" $args
    if [ "$status" -eq 0 ] && [ "$cpu" -lt "$limit" ] && [ "$wall" -lt $((2 * limit)) ]; then
        pass "hackerrank time $t (${cpu} ms processor, ${wall} ms wall)"
    else fail "hackerrank time $t" "status $status, ${cpu} ms processor, ${wall} ms wall, limit $limit ms" \
        "$(cat "$TMP/err")"; fi
done
# One legal move in a full middle game (Black must take 2 5 -> 4 7): answered at once whatever
# --time says, since the process ends with it (the engine itself would search it for its time
# to help the next move; here it would take about 4 s).
ONE=$TMP/one.in
printf 'b\n8\n_b_b_b_b\nb_b_b_b_\n_b_b_b_b\n______w_\n_____w__\nw_w_w_w_\n_w_w_w_w\nw_w_____\n' >"$ONE"
printf '1\n2 5\n4 7\n' >"$TMP/one.expected"
timed ponder "$ONE" --time 5
if [ "$status" -eq 0 ] && [ "$wall" -lt 1500 ] && cmp -s "$TMP/out" "$TMP/one.expected"; then
    pass "hackerrank one legal move at once (${wall} ms wall)"
else fail "hackerrank one legal move at once" "status $status, ${wall} ms wall" \
    "stdout: $(cat "$TMP/out")" "$(cat "$TMP/err")"; fi
# --verbose reports the iterations on stderr and nothing more on stdout.
hr ponder "$START" --time 0.2 --verbose
if [ "$status" -eq 0 ] && grep -q '^info depth 1 ' "$TMP/err" && [ "$(wc -l <"$TMP/out")" -eq 3 ]; then
    pass "hackerrank --verbose"
else fail "hackerrank --verbose" "status $status" "$(head -c 600 "$TMP/err")"; fi
# --depth and --nodes give the same answer every time.
hr ponder "$START" --depth $DEPTH
cp "$TMP/out" "$TMP/first"
hr ponder "$START" --depth $DEPTH
expect_move "hackerrank --depth is repeatable" "$TMP/first"
hr ponder "$START" --nodes 20000
cp "$TMP/out" "$TMP/first"
hr ponder "$START" --nodes 20000
expect_move "hackerrank --nodes is repeatable" "$TMP/first"

# --- bad input: status 2, nothing on stdout, what was wrong on stderr --------------------------
ROW='________\n'
BOARD="$ROW$ROW$ROW$ROW$ROW$ROW$ROW$ROW"
BAD=$TMP/bad
mkdir -p "$BAD"
while IFS='|' read -r name text pattern; do
    printf "$text" >"$BAD/$name.in"
    hr ponder "$BAD/$name.in"
    if [ "$status" -eq 2 ] && [ ! -s "$TMP/out" ] && grep -q "^ponder hackerrank: .*$pattern" "$TMP/err"; then
        pass "hackerrank bad input: $name"
    else fail "hackerrank bad input: $name" "status $status, stdout: $(cat "$TMP/out")" \
        "stderr: $(cat "$TMP/err")" "expected: $pattern"; fi
done <<EOF
empty||missing player line
blank player|\n8\n${BOARD}|empty player line
player x|x\n8\n${BOARD}|player must be .b. or .w., not .x.
player B|B\n8\n${BOARD}|player must be .b. or .w., not .B.
player bw|bw\n8\n${BOARD}|unexpected text after the player letter
no size|b\n|missing board size line
size 10|b\n10\n__________\n__________\n__________\n__________\n__________\n__________\n__________\n__________\n__________\n__________\n|board size 10 is not supported
size 6|b\n6\n______\n______\n______\n______\n______\n______\n|board size 6 is not supported
size huge|b\n123456789012\n${BOARD}|board size too large is not supported
size word|b\neight\n${BOARD}|board size must be a number
size -8|b\n-8\n${BOARD}|board size must be a number
short row|b\n8\n${ROW}${ROW}_______\n${ROW}${ROW}${ROW}${ROW}${ROW}|board row 2 has 7 characters, expected 8 at line 5
long row|b\n8\n_________\n${ROW}${ROW}${ROW}${ROW}${ROW}${ROW}${ROW}|board row 0 has 9 characters, expected 8
very long row|b\n8\n________________________________________________________________________________\n|board row 0 has 63+ characters
unknown letter|b\n8\n${ROW}${ROW}${ROW}___x____\n${ROW}${ROW}${ROW}${ROW}|unknown character .x. on the board at line 6, column 4
queen|w\n8\n${ROW}${ROW}${ROW}${ROW}${ROW}__Q_____\n${ROW}${ROW}|unknown character .Q.
light square|b\n8\nb_______\n${ROW}${ROW}${ROW}${ROW}${ROW}${ROW}${ROW}|piece on a light square (row 0, column 0)
missing rows|b\n8\n${ROW}${ROW}${ROW}${ROW}${ROW}|missing board row 5 (8 rows expected)
no rows|w\n8\n|missing board row 0
text after|b\n8\n${BOARD}hello\n|unexpected text after the board at line 11
text after blank lines|b\n8\n${BOARD}\n\nhello\n|unexpected text after the board at line 13
NUL byte|b\n8\n\\000${BOARD}|NUL byte
EOF
# A big input is refused without reading it all into the board.
head -c 200000 /dev/zero | tr '\0' '_' >"$BAD/huge.in"
hr ponder "$BAD/huge.in"
if [ "$status" -eq 2 ] && [ ! -s "$TMP/out" ] && grep -q 'larger than' "$TMP/err"; then
    pass "hackerrank bad input: huge"
else fail "hackerrank bad input: huge" "status $status" "$(cat "$TMP/err")"; fi

# --- bad arguments: status 2 with the usage; --help: status 0 with the usage on stdout ----------
for args in "--time 0" "--time abc" "--time" "--depth 0" "--depth 999" "--nodes -1" "--hash 0" \
    "--bogus" "a b" "/nonexistent/board.txt"; do
    # shellcheck disable=SC2086
    hr ponder "$HR/sample-capture.in" $args
    if [ "$status" -eq 2 ] && [ ! -s "$TMP/out" ] && [ -s "$TMP/err" ]; then pass "hackerrank args: $args"; else
        fail "hackerrank args: $args" "status $status" "stdout: $(cat "$TMP/out")"
    fi
done
# The options as getopt_long reads them: --opt=value, -v bundled with -h, `--' before a FILE whose
# name starts with a dash; the same move as the plain spelling.
hr ponder "$HR/sample-capture.in" --depth 4 --hash 8
cp "$TMP/out" "$TMP/plain.out"
cp "$HR/sample-capture.in" "$TMP/-board"
(cd "$TMP" && "$PONDER" hackerrank --depth=4 --hash=8 -- -board >"$TMP/out" 2>"$TMP/err")
status=$?
if [ "$status" -eq 0 ] && cmp -s "$TMP/plain.out" "$TMP/out"; then
    pass "hackerrank --depth=4 --hash=8 -- -board: the same move"
else fail "hackerrank --depth=4 --hash=8 -- -board: the same move" "status $status" "$(cat "$TMP/err")"; fi
hr ponder /dev/null -vh
if [ "$status" -eq 0 ] && grep -q '^usage: ponder hackerrank' "$TMP/out"; then pass "hackerrank -vh: bundled"; else
    fail "hackerrank -vh: bundled" "status $status"
fi
expect_option_limit hackerrank hash 1 65536
expect_usage_error "hackerrank: --threads is not its option" "unknown option \`--threads'" \
    "$PONDER" hackerrank --threads 2
hr ponder /dev/null --help
if [ "$status" -eq 0 ] && grep -q '^usage: ponder hackerrank' "$TMP/out"; then pass "hackerrank --help"; else
    fail "hackerrank --help" "status $status" "$(cat "$TMP/out")"
fi
hr ponder /dev/null "$HR/sample-capture.in"
expect_move "hackerrank FILE argument" "$HR/sample-capture.expected"

# --- the single C file -------------------------------------------------------------------------
# Made by its make rule (which regenerates it whenever a source changes), then copied.
ONE=$TMP/hackerrank.c
if make -s --no-print-directory -C "$ROOT" build/hackerrank.c >"$TMP/err" 2>&1 &&
    cp "$ROOT/build/hackerrank.c" "$ONE"; then
    pass "make build/hackerrank.c"
else fail "make build/hackerrank.c" "$(cat "$TMP/err")"; fi
if grep -q '#include "' "$ONE"; then fail "single file has no project includes" "$(grep '#include "' "$ONE")"; else
    pass "single file has no project includes"
fi
# The site compiles with exactly `gcc -std=c11 -O2 FILE -lm': no other flag, no warning. Under
# the sanitizer variant the single file is built with the sanitizers instead (the plain build is
# checked by the release run).
if [ "${PONDER_VARIANT:-release}" = asan ]; then
    set -- -std=c11 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined
else
    set -- -std=c11 -O2
fi
if gcc "$@" "$ONE" -lm -o "$TMP/one" 2>"$TMP/cc.err" && [ ! -s "$TMP/cc.err" ]; then
    pass "single file compiles: gcc $* FILE -lm"
else fail "single file compiles: gcc $* FILE -lm" "$(head -c 2000 "$TMP/cc.err")"; fi
# No thread functions that C libraries before glibc 2.34 keep in libpthread (amalgamate.sh -1).
if [ "${PONDER_VARIANT:-release}" = release ]; then
    if nm -u "$TMP/one" | grep -E 'pthread_(create|join|detach|once)' >"$TMP/err"; then
        fail "single file needs no libpthread" "$(cat "$TMP/err")"
    else pass "single file needs no libpthread"; fi
fi

# The same answers, messages and exit statuses as ponder hackerrank: every input above, and
# random positions (any mix of men and kings; most men on their crowning row are made kings, the
# others stay as given).
awk -v seed="$$" -v n="$RANDOM_N" -v dir="$TMP" 'BEGIN {
    srand(seed)
    for (k = 0; k < n; k++) {
        out = dir "/random" k ".in"
        print (rand() < 0.5 ? "b" : "w") > out
        print 8 > out
        density = 0.1 + 0.5 * rand()
        for (r = 0; r < 8; r++) {
            line = ""
            for (c = 0; c < 8; c++) {
                ch = "_"
                if ((r + c) % 2 == 1 && rand() < density) {
                    x = rand()
                    ch = x < 0.4 ? "b" : x < 0.8 ? "w" : x < 0.9 ? "B" : "W"
                    if (ch == "b" && r == 7 && rand() < 0.8) ch = "B"
                    if (ch == "w" && r == 0 && rand() < 0.8) ch = "W"
                }
                line = line ch
            }
            print line > out
        }
        close(out)
    }
}'
same=0
differ=""
for input in "$HR"/*.in "$BAD"/*.in "$START" "$TMP"/random*.in; do
    hr ponder "$input" --depth $DEPTH
    mv "$TMP/out" "$TMP/out.ponder"
    mv "$TMP/err" "$TMP/err.ponder"
    want=$status
    hr "$TMP/one" "$input" --depth $DEPTH
    if [ "$status" -eq "$want" ] && cmp -s "$TMP/out" "$TMP/out.ponder" &&
        cmp -s "$TMP/err" "$TMP/err.ponder" && { [ "$want" -ne 0 ] || [ ! -s "$TMP/err" ]; }; then
        same=$((same + 1))
    else
        differ="$differ
$(basename "$input"): status $status/$want, $(tr '\n' ' ' <"$TMP/out")/$(tr '\n' ' ' <"$TMP/out.ponder") $(head -c 200 "$TMP/err")"
    fi
done
if [ -z "$differ" ] && [ "$same" -gt "$RANDOM_N" ]; then
    pass "single file answers as ponder hackerrank --depth $DEPTH ($same inputs)"
else fail "single file answers as ponder hackerrank --depth $DEPTH" "$(printf '%s' "$differ" | head -c 3000)"; fi
# And within the time limit on its own clock.
timed "$TMP/one" "$START"
if [ "$status" -eq 0 ] && [ "$cpu" -lt 1000 ] && [ "$wall" -lt 2000 ] && [ "$(wc -l <"$TMP/out")" -eq 3 ]; then
    pass "single file time default (${cpu} ms processor, ${wall} ms wall)"
else fail "single file time default" "status $status, ${cpu} ms processor, ${wall} ms wall" \
    "$(cat "$TMP/err")"; fi

# --- the amalgamation's rules, on a made-up project ----------------------------------------------
# a.c, b.c and entry.c all have a static `helper', a.c and b.c a static `count' and a macro LIMIT;
# b.c has a static `twice' that shared.h (which b.c does not include) also defines; b.c calls
# c_value(), declared in extra.h but defined in impl.c (found by the link rule); unrelated.c and
# main.c must stay out; impl.c needs clock_gettime under -std=c11 (its _POSIX_C_SOURCE is hoisted);
# entry.c starts a thread and runs a pthread_once.
P=$TMP/project
mkdir -p "$P"
printf '#pragma once\nint a_value(void);\n' >"$P/a.h"
printf '#pragma once\nint b_value(void);\n' >"$P/b.h"
printf '#pragma once\nint c_value(void);\n' >"$P/extra.h"
printf '#pragma once\nstatic inline int twice(int x) { return 2 * x; }\n' >"$P/shared.h"
printf '#pragma once\nint entry_main(int argc, char **argv);\n' >"$P/entry.h"
cat >"$P/a.c" <<'EOF'
#include "a.h"
#include "shared.h"
#define LIMIT 3
static int count = 1;
static int helper(void) { return LIMIT + count; }
int a_value(void) { return helper() + twice(1); }
EOF
cat >"$P/b.c" <<'EOF'
#include "b.h"
#include "extra.h"
#define LIMIT 5
static int count = 2;
static int helper(void) { return LIMIT * count; }
static int twice(int x) { return 3 * x; }
int b_value(void) { return helper() + twice(1) + c_value(); }
EOF
cat >"$P/impl.c" <<'EOF'
#define _POSIX_C_SOURCE 199309L
#include "extra.h"
#include <time.h>
int c_value(void)
{
    struct timespec ts;
    return clock_gettime(CLOCK_MONOTONIC, &ts) == 0 ? 100 : -1;
}
EOF
cat >"$P/entry.c" <<'EOF'
#include "entry.h"
#include "a.h"
#include "b.h"
#include <pthread.h>
#include <stdio.h>
static int helper(void) { return 1000; }
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int calls;
static void init(void) { calls++; }
static void *work(void *arg) { return arg; }
int entry_main(int argc, char **argv)
{
    (void)argv;
    pthread_t t;
    int started = pthread_create(&t, NULL, work, NULL) == 0;
    if (started)
        pthread_join(t, NULL);
    pthread_once(&once, init);
    pthread_once(&once, init);
    printf("%d %d %d\n", helper() + 10000 * a_value() + b_value() + argc - 1, calls, started);
    return 0;
}
EOF
printf 'static int helper(void) { return 7; }\nint unrelated(void) { return helper(); }\n' >"$P/unrelated.c"
printf 'int main(void) { return 1; }\n' >"$P/main.c"
# With -1 thread creation fails and pthread_once runs once: `61113 1 0'; -m drops the comments.
printf '/* a comment */\n' >>"$P/a.c"
if sh "$ROOT/scripts/amalgamate.sh" -1 -m -s "$P" -o "$P/one.c" entry entry_main 2>"$TMP/err" &&
    gcc -std=c11 -O2 -Wall -Wextra "$P/one.c" -lm -o "$P/one" 2>"$TMP/cc.err" && [ ! -s "$TMP/cc.err" ] &&
    [ "$("$P/one")" = "61113 1 0" ] && ! grep -q 'unrelated\|return 1;\|a comment' "$P/one.c" &&
    ! nm -u "$P/one" | grep -q pthread_; then
    pass "amalgamate: renames colliding statics, undefines macros, follows the link, one thread"
else fail "amalgamate: renames colliding statics, undefines macros, follows the link, one thread" \
    "$(cat "$TMP/err" "$TMP/cc.err")" "output: $("$P/one" 2>&1)"; fi
# A symbol that nothing defines is an error that names it, and OUT is left alone.
printf '#pragma once\nint nowhere(void);\n' >"$P/lost.h"
printf '#include "lost.h"\nint lost_main(int argc, char **argv) { return nowhere() + argc + (argv != 0); }\n' >"$P/lost.c"
echo "keep" >"$P/keep.c"
sh "$ROOT/scripts/amalgamate.sh" -s "$P" -o "$P/keep.c" lost lost_main 2>"$TMP/err"
status=$?
if [ "$status" -eq 1 ] && grep -q 'nowhere' "$TMP/err" && [ "$(cat "$P/keep.c")" = keep ]; then
    pass "amalgamate: an undefined symbol is an error"
else fail "amalgamate: an undefined symbol is an error" "status $status" "$(cat "$TMP/err")"; fi
