#!/bin/sh
# floors.sh - the core library (build/VARIANT/libponder-core.a: util, rules, engine; see the
# Makefile) keeps the library's promises, read from its objects with nm, so a change that breaks
# one fails here rather than in a host program:
#
#  1. Nothing that prints, exits or reads the environment: no reference to printf, vprintf, puts,
#     putchar, perror, stdout, stderr, exit, _exit, _Exit, quick_exit, abort, assert
#     (__assert_fail), getenv, secure_getenv, system, popen (nor their _chk forms).
#     Writing with fprintf, fputs, fputc or fwrite to a stream is allowed: the library cannot name
#     stdout or stderr (those symbols are forbidden above), so such a stream is one the caller
#     handed in (pdn_write, weights_write) or a file the library opened for the caller (the
#     database slices egdb_write_slice creates); the caller decides where it goes. Reading stdin
#     is allowed too: util_read_file reads it only when the caller asks for it by passing "-".
#  2. No front end: no symbol the library uses is defined by an object outside it (cli.c,
#     command.c, the programs), and none comes from civetweb (mg_*) or cJSON (cJSON_*).
#  3. Each floor uses only the floors below it: util nothing of the project, the rules library
#     nothing of the engine.
#  4. No work at load time: no object has a constructor (.init_array or .ctors section).
#
# The objects checked are the release build's, whatever variant the suite runs: that is the
# library a host links. The checked builds (asan, debug: -DPONDER_CHECKED) add by design what
# these rules forbid: the sanitizers' module constructors, and an invariant check in eval.c that
# reports a programmer's error (weights changed without weights_refresh) on stderr and aborts.
. "$(dirname "$0")/lib.sh"

dir=build/release
core=$dir/libponder-core.a
if [ ! -f "$core" ]; then
    fail "the core library exists" "$core is missing: \`make $core' builds it"
    exit 0
fi
pass "the core library exists"

# Symbols: U (undefined) and D (defined, global) of a set of objects.
undef() { nm -u "$@" 2>/dev/null | awk 'NF == 2 && $1 == "U" {print $2} NF == 1 {print $1}' | grep -v ':$' | sort -u; }
defined() { nm -g --defined-only "$@" 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u; }

ar t "$core" >"$TMP/members"
(cd "$TMP" && ar x "$OLDPWD/$core") || { fail "the core library unpacks" "ar x $core"; exit 0; }
set --
while read -r m; do set -- "$@" "$TMP/$m"; done <"$TMP/members"
undef "$@" >"$TMP/core.u"
defined "$@" >"$TMP/core.d"
comm -23 "$TMP/core.u" "$TMP/core.d" >"$TMP/core.ext" # what the core needs from outside

# 1. Forbidden calls.
FORBIDDEN='^(printf|vprintf|puts|putchar|perror|stdout|stderr|exit|_exit|_Exit|quick_exit|abort|__assert_fail|getenv|secure_getenv|system|popen|__printf_chk|__vprintf_chk)$'
grep -E "$FORBIDDEN" "$TMP/core.ext" >"$TMP/bad" || true
if [ -s "$TMP/bad" ]; then
    for m in $(cat "$TMP/members"); do
        hits=$(undef "$TMP/$m" | grep -E "$FORBIDDEN" | tr '\n' ' ')
        [ -n "$hits" ] && echo "$m: $hits"
    done >"$TMP/where"
    fail "the core library never prints, exits or reads the environment" "$(cat "$TMP/where")"
else
    pass "the core library never prints, exits or reads the environment"
fi
# The check sees what it looks for (a core object with a printf call would be caught).
printf '#include <stdio.h>\nvoid floors_probe(void);\nvoid floors_probe(void) { printf("x%%d\\n", 1); }\n' >"$TMP/probe.c"
if cc -c "$TMP/probe.c" -o "$TMP/probe.o" 2>/dev/null && undef "$TMP/probe.o" | grep -Eq "$FORBIDDEN"; then
    pass "the forbidden-call check catches printf"
else
    fail "the forbidden-call check catches printf" "$(undef "$TMP/probe.o")"
fi

# 2. No front end and no web libraries.
front=""
for o in "$dir"/*.o; do
    grep -qxF "$(basename "$o")" "$TMP/members" || front="$front $o"
done
if [ -z "$front" ]; then
    fail "front-end objects to compare against" "no object of $dir is outside the core"
else
    # shellcheck disable=SC2086
    defined $front >"$TMP/front.d"
    comm -12 "$TMP/core.ext" "$TMP/front.d" >"$TMP/bad"
    grep -E '^(mg_|cJSON_)' "$TMP/core.ext" >>"$TMP/bad"
    if [ -s "$TMP/bad" ]; then
        fail "the core library uses no front-end symbol" "$(tr '\n' ' ' <"$TMP/bad")"
    else
        pass "the core library uses no front-end symbol"
    fi
fi

# 3. Floors.
floors=$(make -s --no-print-directory print-floors 2>/dev/null)
objs() { echo "$floors" | sed -n "s/^$1: //p" | tr ' ' '\n' | sed "/^$/d; s|^|$TMP/|; s|$|.o|"; }
util_objs=$(objs util)
rules_objs=$(objs rules)
engine_objs=$(objs engine)
if [ -z "$util_objs" ] || [ -z "$rules_objs" ] || [ -z "$engine_objs" ]; then
    fail "the floors are listed by make print-floors" "$floors"
else
    # shellcheck disable=SC2086
    defined $rules_objs $engine_objs >"$TMP/above-util.d"
    # shellcheck disable=SC2086
    undef $util_objs | comm -12 - "$TMP/above-util.d" >"$TMP/bad"
    if [ -s "$TMP/bad" ]; then fail "util uses nothing of the rules or the engine" "$(tr '\n' ' ' <"$TMP/bad")"; else
        pass "util uses nothing of the rules or the engine"
    fi
    # shellcheck disable=SC2086
    defined $engine_objs >"$TMP/engine.d"
    # shellcheck disable=SC2086
    undef $rules_objs | comm -12 - "$TMP/engine.d" >"$TMP/bad"
    if [ -s "$TMP/bad" ]; then fail "the rules library uses nothing of the engine" "$(tr '\n' ' ' <"$TMP/bad")"; else
        pass "the rules library uses nothing of the engine"
    fi
fi

# 4. Constructors.
: >"$TMP/ctors"
for m in $(cat "$TMP/members"); do
    if objdump -h "$TMP/$m" | grep -Eq '\.(init_array|ctors)'; then echo "$m" >>"$TMP/ctors"; fi
done
if [ -s "$TMP/ctors" ]; then fail "the core library does nothing at load" "constructors in: $(tr '\n' ' ' <"$TMP/ctors")"; else
    pass "the core library does nothing at load"
fi
