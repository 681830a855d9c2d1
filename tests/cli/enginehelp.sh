#!/bin/sh
# enginehelp.sh - every program's --help lists each engine option it takes, so a program cannot
# take --book (say) without telling its users. The engine options are the rows of the one table
# in src/opts.c; which of them a program takes is asked of the program itself: `ponder CMD --hash'
# without a value says "option `--hash' needs a value" when CMD takes --hash, something else when
# it does not. The programs are the commands `ponder help' lists and the actions (`book build')
# their usage lines name, so a new one is checked without being added here.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

# The engine options: `{"hash", OPTS_HASH, ...' rows of ENGINE_OPTIONS in src/opts.c.
names=$(sed -n 's/^ *{"\([a-z-]*\)", OPTS_[A-Z]*, CODE_.*/\1/p' "$ROOT/src/opts.c")
if [ "$(echo "$names" | wc -w)" -ge 8 ]; then pass "the engine options are read from src/opts.c"; else
    fail "the engine options are read from src/opts.c" "found: $names"
fi

: >"$TMP/programs"
for cmd in $("$PONDER" help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'); do
    [ "$cmd" = help ] && continue
    echo "$cmd" >>"$TMP/programs"
    # Actions: `usage: ponder book build ...' and the `       ponder book probe ...' below it.
    "$PONDER" "$cmd" --help 2>/dev/null |
        sed -n "s/^\(usage:\)\{0,1\} *ponder $cmd \([a-z][a-z-]*\)\( .*\)\{0,1\}$/$cmd \2/p" |
        sort -u >>"$TMP/programs"
done
if grep -qx "book build" "$TMP/programs"; then pass "the actions of commands are found (book build)"; else
    fail "the actions of commands are found (book build)" "$(cat "$TMP/programs")"
fi

# takes NAME COMMAND...: COMMAND takes the option --NAME (with a value).
takes() {
    name=$1
    shift
    timeout 20 "$@" "--$name" </dev/null >/dev/null 2>"$TMP/probe"
    grep -q "option \`--$name' needs a value" "$TMP/probe"
}

taken=0
while read -r program; do
    # shellcheck disable=SC2086
    "$PONDER" $program --help >"$TMP/help" 2>&1
    missing=
    for name in $names; do
        # shellcheck disable=SC2086
        takes "$name" "$PONDER" $program || continue
        taken=$((taken + 1))
        # An option line: `  --hash MB  ...' (or `  -x, --name ...'), not the [--hash MB] synopsis.
        grep -Eq -- "^ +(-[a-zA-Z], )?--$name( [A-Z]|$)" "$TMP/help" || missing="$missing --$name"
    done
    if [ -z "$missing" ]; then pass "ponder $program --help lists the engine options it takes"; else
        fail "ponder $program --help lists the engine options it takes" "not listed:$missing"
    fi
done <"$TMP/programs"

# The probe itself: the console takes every engine option (OPTS_ENGINE | OPTS_BOOK), and
# hackerrank takes --hash but not --book.
for name in $names; do
    takes "$name" "$PONDER" console || fail "the probe sees console take --$name" "$(cat "$TMP/probe")"
done
if takes hash "$PONDER" hackerrank && ! takes book "$PONDER" hackerrank; then
    pass "the probe tells a program's options from others"
else fail "the probe tells a program's options from others" "$(cat "$TMP/probe")"; fi
if [ "$taken" -ge 30 ]; then pass "the programs take $taken engine options in all"; else
    fail "the programs take engine options" "only $taken found"; fi
