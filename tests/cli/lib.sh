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
