#!/bin/sh
# userdocs.sh - the documentation and the help texts are written for users: none of them speaks
# of the project's internal sources ("seed 000", "SPEC section 1"), which users do not have, and
# the README and docs/ say how the build really behaves (plain `make' installs no npm packages).
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
INTERNAL='[Ss]eed[ -]00[0-9]|SPEC section|\(SPEC\)|the seed and the spec|seed.s (middleware|bot|capture)'

found=$(grep -nE "$INTERNAL" "$ROOT/README.md" "$ROOT"/docs/*.md 2>/dev/null)
if [ -z "$found" ]; then pass "README and docs/ name no internal source"; else
    fail "README and docs/ name no internal source" "$found"
fi

: >"$TMP/helps"
"$PONDER" help >>"$TMP/helps" 2>&1
for cmd in $("$PONDER" help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'); do
    [ "$cmd" = help ] && continue
    "$PONDER" "$cmd" --help >>"$TMP/helps" 2>&1
done
found=$(grep -nE "$INTERNAL" "$TMP/helps")
if [ -z "$found" ]; then pass "no --help text names an internal source"; else
    fail "no --help text names an internal source" "$found"
fi
if [ "$(grep -c '^usage: ponder' "$TMP/helps")" -ge 10 ]; then pass "every command's --help was read"; else
    fail "every command's --help was read" "$(grep -c '^usage: ponder' "$TMP/helps") usage lines"
fi

# npm ci runs from `make test' and `make npm' (mk/serve.mk), not from plain `make'.
if grep -nE 'installed by `make` with `npm ci`' "$ROOT"/docs/*.md "$ROOT/README.md" >"$TMP/npm"; then
    fail "the docs do not say plain make runs npm ci" "$(cat "$TMP/npm")"
else pass "the docs do not say plain make runs npm ci"; fi

# A bad argument prints the problem, named by the program, and where to read more, not the
# whole usage (35 lines that scrolled the problem away).
for args in "match --bogus a b" "egdb" "egdb frob" "serve --port x" "perft abc" "tournament a=x" \
    "play --time 0" "player --depth x" "tune" "selfplay --games 0" "hackerrank --depth 0" \
    "bench 0" "tower extra" "console --bogus" "hub extra" "serve --max-time x" \
    "match --games 0 a b" "tournament --rounds 0 a=x b=y" "tower --depth 0" \
    "egdb build --pieces 1" "train --epochs 0" "tune --rounds 0" "compare x.pdn"; do
    # shellcheck disable=SC2086
    expect_usage_error "ponder $args: the problem, then see --help" "ponder ${args%% *}: " \
        "$PONDER" $args
done
# A number refused names the program, the option and the reason; so does a number read without
# the options' parser (book export).
expect_usage_error "ponder serve --port x names serve, --port and why" \
    "ponder serve: --port: \`x' is not a whole number from 0 to 65535" "$PONDER" serve --port x
expect_usage_error "ponder serve --max-time 0 names serve, --max-time and why" \
    "ponder serve: --max-time: \`0' is not a number from 0.01 to 3600" "$PONDER" serve --max-time 0
expect_usage_error "ponder perft abc names perft and DEPTH" \
    "ponder perft: DEPTH: \`abc' is not a whole number" "$PONDER" perft abc
"$PONDER" book export "$TMP/none.pbk" --plies x </dev/null >"$TMP/out" 2>"$TMP/err"
if [ $? -eq 2 ] && grep -qF "ponder book export: --plies: \`x' is not a whole number" "$TMP/err"; then
    pass "ponder book export --plies x names book export and --plies"
else fail "ponder book export --plies x names book export and --plies" "$(cat "$TMP/err")"; fi
"$PONDER" no-such-command >"$TMP/out" 2>"$TMP/err"
if [ $? -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "unknown command .no-such-command' (.ponder help' lists them)" "$TMP/err"; then
    pass "an unknown command is one line"
else fail "an unknown command is one line" "$(cat "$TMP/err")"; fi
