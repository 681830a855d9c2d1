#!/bin/sh
# style.sh - the house style's mechanical rules (README, "Code style"), over every C file of the
# project (src/, tests/: the files `make format' formats):
#
#  1. Each file is as `make format' (clang-format with .clang-format) leaves it. The layout a
#     clang-format version produces differs from version to version, so this check runs with the
#     one the code is formatted with, clang-format 14 (Debian 12's, scripts/deps/format.list), and
#     is skipped with another or none.
#  2. No line is longer than 100 columns (what clang-format cannot break: long string literals it
#     leaves alone, comments it does not reflow).
#  3. Each source file (src/) opens with its paragraph, `/*' then ` * NAME - what it does', and has
#     at most 800 lines (a longer one is split, or does two jobs).
#
# The sources are the same for every build variant, so the checks run once, with the release one.
. "$(dirname "$0")/lib.sh"

if [ "${PONDER_VARIANT:-release}" != release ]; then
    exit 0
fi
files=$(ls src/*.[ch] tests/*/*.[ch] tests/*/lib/*.[ch] 2>/dev/null)
if [ -z "$files" ]; then
    fail "the C files are found" "no src/*.c here (run from the project's top directory)"
    exit 0
fi

# 1. clang-format.
FORMAT_MAJOR=14
version=$(clang-format --version 2>/dev/null | sed -n 's/.*clang-format version \([0-9]*\).*/\1/p')
if [ -z "$version" ]; then
    skip "every C file is as make format leaves it" "no clang-format: scripts/deps/format.list"
elif [ "$version" != "$FORMAT_MAJOR" ]; then
    skip "every C file is as make format leaves it" \
        "clang-format $version here; the code is laid out by version $FORMAT_MAJOR"
else
    bad=""
    for f in $files; do
        clang-format "$f" >"$TMP/formatted" 2>"$TMP/err" || {
            bad="$bad $f"
            continue
        }
        if ! cmp -s "$f" "$TMP/formatted"; then
            [ -z "$bad" ] && diff -u "$f" "$TMP/formatted" | head -n 20 >"$TMP/first"
            bad="$bad $f"
        fi
    done
    if [ -z "$bad" ]; then
        pass "every C file is as make format leaves it"
    else
        fail "every C file is as make format leaves it" "not formatted (make format):$bad" \
            "$(sed 's/^/    /' "$TMP/first" 2>/dev/null)"
    fi
fi

# 2. 100 columns.
# shellcheck disable=SC2086 # $files is a list of paths without spaces
long=$(awk 'length > 100 { print FILENAME ":" FNR ": " length " columns" }' $files | head -n 10)
if [ -z "$long" ]; then
    pass "no line of a C file is longer than 100 columns"
else
    fail "no line of a C file is longer than 100 columns" "$long"
fi

# 3. The opening paragraph and the length of each source file.
nohead="" toolong=""
for f in src/*.[ch]; do
    name=${f#src/}
    first=$(sed -n 1p "$f")
    second=$(sed -n 2p "$f")
    case "$second" in
    " * $name - "*) [ "$first" = "/*" ] || nohead="$nohead $f" ;;
    *) nohead="$nohead $f" ;;
    esac
    n=$(wc -l <"$f")
    [ "$n" -le 800 ] || toolong="$toolong $f ($n lines)"
done
if [ -z "$nohead" ]; then
    pass "each source file opens with \`/*' and \` * NAME - what it does'"
else
    fail "each source file opens with \`/*' and \` * NAME - what it does'" "not so:$nohead"
fi
if [ -z "$toolong" ]; then
    pass "no source file is longer than 800 lines"
else
    fail "no source file is longer than 800 lines" "split these:$toolong"
fi
