#!/bin/sh
# gen-weights.sh - makes the values of a weights file the compiled-in defaults of Ponder.
#
#   scripts/gen-weights.sh WEIGHTS_FILE [HEADER]
#
# WEIGHTS_FILE is a weights file (`name value' lines, `#' comments), e.g. the output of `ponder
# tune'. HEADER (default src/weights.h) holds the table WEIGHTS_TABLE(X) of X(NAME, DEFAULT)
# entries, the one place a weight and its default are declared. Each X(NAME, old) whose lower-
# cased NAME the file gives becomes X(NAME, new); weights the file does not name keep their
# values, and the comments of the table stay as they are. Lines that changed get their
# continuation backslash back in column 100, and a line grown past it is split. Nothing is written unless the whole file is good:
# a malformed line, a name given twice, or a name the table does not have is an error (status
# 1). The changed weights are listed on stderr as `name: old -> new'. Then `make' builds them in.
set -eu

usage() {
    echo "usage: $0 WEIGHTS_FILE [HEADER]" >&2
    exit 2
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
case $1 in -h | --help) echo "usage: $0 WEIGHTS_FILE [HEADER]"; exit 0 ;; esac
file=$1
header=${2:-$(dirname "$0")/../src/weights.h}
[ -r "$file" ] || { echo "$0: cannot read $file" >&2; exit 1; }
[ -r "$header" ] || { echo "$0: cannot read $header" >&2; exit 1; }
grep -q '^#define WEIGHTS_TABLE(X)' "$header" ||
    { echo "$0: $header has no WEIGHTS_TABLE(X)" >&2; exit 1; }

tmp=$(mktemp "$header.XXXXXX")
trap 'rm -f "$tmp"' EXIT

awk -v q="'" -v wfile="$file" -v header="$header" '
function fail(msg) { print "gen-weights.sh: " msg > "/dev/stderr"; bad = 1; exit 1 }
function pad(s) { while (length(s) < 99) s = s " "; return s "\\" }
BEGIN {
    # 1. The weights file.
    n = 0
    while ((got = (getline line < wfile)) > 0) {
        n++
        sub(/\r$/, "", line)
        if (line ~ /^[ \t]*(#.*)?$/)
            continue
        sub(/^[ \t]+/, "", line)
        sub(/[ \t]+$/, "", line)
        if (split(line, f, /[ \t]+/) != 2 || f[1] !~ /^[a-z0-9_]+$/ || f[2] !~ /^-?[0-9]+$/)
            fail(wfile ":" n ": expected `name value" q " (a lower-case name, an integer): " line)
        name = toupper(f[1])
        if (name in want)
            fail(wfile ":" n ": weight `" f[1] "" q " given twice")
        want[name] = f[2] + 0
        line_of[name] = n
    }
    if (got < 0)
        fail("cannot read " wfile)
}
# 2. The table: every line from its #define to the first line without a continuation.
/^#define WEIGHTS_TABLE\(X\)/ { in_table = 1 }
in_table {
    out = ""
    rest = $0
    changed = 0
    while (match(rest, /X\([A-Z0-9_]+, *-?[0-9]+\)/)) {
        entry = substr(rest, RSTART, RLENGTH)
        out = out substr(rest, 1, RSTART - 1)
        rest = substr(rest, RSTART + RLENGTH)
        name = entry
        sub(/^X\(/, "", name)
        sub(/,.*/, "", name)
        old = entry
        sub(/^[^,]*, */, "", old)
        sub(/\)$/, "", old)
        seen[name]++
        if (name in want && want[name] != old + 0) {
            entry = "X(" name ", " want[name] ")"
            changes = changes sprintf("%s: %d -> %d\n", tolower(name), old, want[name])
            changed = 1
        }
        out = out entry
    }
    line = out rest
    if (changed && line ~ /\\$/) {
        sub(/[ \t]*\\$/, "", line)
        if (length(line) > 98) {
            # Too long now: the entries flow onto as many lines as they need.
            indent = line
            sub(/[^ ].*/, "", indent)
            cur = ""
            r = line
            while (match(r, /X\([A-Z0-9_]+, *-?[0-9]+\)/)) {
                e = substr(r, RSTART, RLENGTH)
                r = substr(r, RSTART + RLENGTH)
                if (cur != "" && length(cur) + 1 + length(e) > 98) {
                    print pad(cur)
                    cur = indent e
                } else
                    cur = cur == "" ? indent e : cur " " e
            }
            line = cur
        }
        line = pad(line)
    }
    print line
    if ($0 !~ /\\$/)
        in_table = 0
    next
}
{ print }
END {
    if (bad)
        exit 1
    for (name in want)
        if (!(name in seen))
            fail(wfile ":" line_of[name] ": `" tolower(name) "" q " is not a weight of " header)
    for (name in seen)
        if (seen[name] > 1)
            fail(header ": " tolower(name) " appears " seen[name] " times in the table")
    printf "%s", changes > "/dev/stderr"
}
' "$header" >"$tmp"

cat "$tmp" >"$header"
