#!/bin/sh
# run.sh VARIANT... - runs the whole test suite once per build variant (release, asan).
#
# Unit tests: every build/VARIANT/tests/test_* binary. Command-line tests: every tests/cli/*.sh,
# run with PONDER set to that variant's binary. Both print `PASS name' / `FAIL name' lines; a
# program that exits non-zero without printing a FAIL line counts as one failure. The last line
# is `N passed, N failed' over all variants.
set -u
cd "$(dirname "$0")/.." || exit 1
passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
export PONDER_DATA="$PWD/tests/data"
# The tests must not depend on endgame databases the user may have built.
export PONDER_EGDB=none
# Nor on an opening book (installed or built in): tests that want one name it.
export PONDER_BOOK=none
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=86"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

count() { # $1 = label, $2 = exit status; reads $log
    p=$(grep -c '^PASS ' "$log")
    f=$(grep -c '^FAIL ' "$log")
    if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL $1 (exit status $2)"
        tail -n 20 "$log" | sed 's/^/    /'
        f=1
    fi
    grep -A 30 '^FAIL ' "$log" | grep -v '^PASS ' | sed 's/^/    /' | head -n 60
    grep '^SKIP ' "$log" | sed "s|^|    $1: |"
    passed=$((passed + p))
    failed=$((failed + f))
}

for variant in "$@"; do
    if [ "$variant" = release ]; then
        export PONDER="$PWD/ponder"
    else
        export PONDER="$PWD/build/$variant/ponder"
    fi
    export PONDER_VARIANT="$variant"
    start=$(date +%s)
    before_p=$passed
    before_f=$failed
    for t in build/"$variant"/tests/test_*; do
        [ -x "$t" ] || continue
        case "$t" in *.o | *.d) continue ;; esac
        "$t" >"$log" 2>&1
        count "$variant/$(basename "$t")" $?
    done
    for t in tests/cli/*.sh; do
        [ -f "$t" ] || continue
        sh "$t" >"$log" 2>&1
        count "$variant/$(basename "$t")" $?
    done
    echo "$variant: $((passed - before_p)) passed, $((failed - before_f)) failed in $(($(date +%s) - start)) s"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
