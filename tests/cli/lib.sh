# lib.sh - helpers for the command-line tests (sourced, not run). Each test prints
# `PASS name' or `FAIL name' (with details indented below) for tests/run.sh to count.
#   $PONDER       the binary under test      $PONDER_DATA  tests/data
set -u
: "${PONDER:=./ponder}"
: "${PONDER_DATA:=tests/data}"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

pass() { echo "PASS $1"; }
# skip NAME REASON : a check that cannot run here; neither passed nor failed (the runner shows it).
skip() { echo "SKIP $1 ($2)"; }
fail() {
    echo "FAIL $1"
    shift
    [ $# -gt 0 ] && printf '    %s\n' "$@"
    return 0
}

# expect_status NAME STATUS CMD... : runs CMD, checks its exit status.
expect_status() {
    name=$1 want=$2
    shift 2
    "$@" >"$TMP/out" 2>"$TMP/err"
    got=$?
    if [ "$got" -eq "$want" ]; then pass "$name"; else
        fail "$name" "exit status $got, expected $want" "$(head -c 600 "$TMP/err")"
    fi
}

# expect_same NAME EXPECTED_FILE ACTUAL_FILE : compares two files, shows the diff.
expect_same() {
    if cmp -s "$2" "$3"; then pass "$1"; else
        fail "$1" "$(diff "$2" "$3" | head -n 30)"
    fi
}

# expect_grep NAME PATTERN FILE : FILE has a line matching PATTERN (grep -E).
expect_grep() {
    if grep -Eq -- "$2" "$3"; then pass "$1"; else
        fail "$1" "no line matches /$2/ in:" "$(head -c 800 "$3")"
    fi
}

# short_usage_error FILE : FILE (a stderr) ends with "see `ponder CMD --help'" after at most two
# lines of message, not the whole usage, which would scroll the message away.
short_usage_error() {
    tail -n 1 "$1" | grep -q "^see \`ponder [a-z]* --help'$" && [ "$(wc -l <"$1")" -le 3 ] &&
        ! grep -q '^usage: ' "$1"
}

# expect_usage_error NAME MESSAGE CMD... : CMD (stdin empty) exits 2, the status of bad usage,
# with MESSAGE (fixed text) and "see `ponder CMD --help'" on stderr.
expect_usage_error() {
    name=$1 msg=$2
    shift 2
    "$@" </dev/null >"$TMP/out" 2>"$TMP/err"
    got=$?
    if [ "$got" -eq 2 ] && grep -qF -- "$msg" "$TMP/err" && short_usage_error "$TMP/err"; then
        pass "$name"
    else
        fail "$name" "exit status $got, expected 2 with \`$msg' and \`see ponder CMD --help'" \
            "$(head -c 600 "$TMP/err")"
    fi
}

# expect_option_limit PROGRAM OPTION MIN MAX : `ponder PROGRAM' refuses --OPTION=MIN-1 and
# --OPTION MAX+1 with the message every program gives for a number out of range, naming the
# program (`ponder PROGRAM: --OPTION: ...'), and --OPTION without a value; all with status 2
# and the usage. The engine's limits (engine.h) are the same in every program: --hash 1 to
# 65536, --threads 1 to 256.
expect_option_limit() {
    prog=$1 opt=$2 min=$3 max=$4
    low=$((min - 1)) high=$((max + 1))
    expect_usage_error "$prog --$opt=$low is refused" \
        "ponder $prog: --$opt: \`$low' is not a whole number from $min to $max" \
        "$PONDER" "$prog" "--$opt=$low"
    expect_usage_error "$prog --$opt $high is refused" \
        "ponder $prog: --$opt: \`$high' is not a whole number from $min to $max" \
        "$PONDER" "$prog" --"$opt" "$high"
    expect_usage_error "$prog --$opt without a value" "ponder $prog: option \`--$opt' needs a value" \
        "$PONDER" "$prog" --"$opt"
}

# expect_interrupt NAME FILE CMD... : runs CMD (writing FILE, a name in $TMP) in the background,
# sends it SIGINT once FILE's temporary (FILE.tmp*) exists (the program catches the signal before
# it creates that file), and expects it to stop with status 130, leaving neither FILE nor the
# temporary, and to say "interrupted after" on stderr (kept in $TMP/err). At most 60 s for the
# temporary to appear and 60 s to stop; past either bound the program is killed and fails.
expect_interrupt() {
    name=$1 file=$2
    shift 2
    "$@" 2>"$TMP/err" &
    pid=$!
    i=0
    while [ $i -lt 600 ] && ! ls "$TMP" | grep -qF "$file.tmp" && kill -0 $pid 2>/dev/null; do
        sleep 0.1
        i=$((i + 1))
    done
    kill -INT $pid 2>/dev/null
    i=0
    while [ $i -lt 600 ] && kill -0 $pid 2>/dev/null; do
        sleep 0.1
        i=$((i + 1))
    done
    hung=no
    if kill -0 $pid 2>/dev/null; then
        hung=yes
        kill -KILL $pid 2>/dev/null
    fi
    wait $pid
    got=$?
    if [ $hung = no ] && [ $got -eq 130 ] && [ "$(ls "$TMP" | grep -cF "$file")" -eq 0 ] &&
        grep -q "interrupted after" "$TMP/err"; then
        pass "$name"
    else
        fail "$name" "status $got, still running after 60 s: $hung" "$(ls "$TMP")" \
            "$(cat "$TMP/err")"
    fi
}
