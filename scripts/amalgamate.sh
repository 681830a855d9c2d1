#!/bin/sh
# amalgamate.sh - writes one self-contained C file from a front end and the modules it needs.
#
# usage: scripts/amalgamate.sh [-1] [-1] [-m] [-s SRCDIR] [-o OUT] [-c CC] MODULE FUNCTION
#
# `make hackerrank' runs `scripts/amalgamate.sh -1 -m -o build/hackerrank.c hackerrank
# cmd_hackerrank': the result compiles with `gcc -std=c11 -O2 build/hackerrank.c -lm' alone, and
# its main() calls FUNCTION(argc, argv), so it behaves as `ponder MODULE'. It is generated from the
# sources every time, never kept by hand, and the modules are picked by rule, so it follows the
# code as it changes:
#
#  1. Modules. MODULE.c is taken, and with it every X.c whose header X.h it includes (directly or
#     through other headers), and so on for the files taken. Then, as a linker pulls archive
#     members, every other SRCDIR/*.c (never main.c) that defines a symbol still undefined is
#     taken, until the objects link with `CC -std=c11 OBJECTS -lm' and nothing else (no -pthread
#     either, but see -1) with a main() that calls FUNCTION.
#  2. Names. Each taken file is compiled with -O0 -g and its static functions and variables kept
#     (-fkeep-static-functions -fkeep-inline-functions); nm -l tells where each symbol is defined.
#     A static name defined in a .c file that is also defined by another taken file or header is
#     renamed in that file only, by `#define NAME FILE__NAME' before its text and `#undef NAME'
#     after it. Every macro a .c file defines is #undef'd after it. Types and enumerators local to
#     two .c files cannot be renamed this way; they make the compilation fail, loudly.
#  3. Text. Feature-test macros (_POSIX_C_SOURCE, _DEFAULT_SOURCE, ...) go to the top, then every
#     system header included outside #if blocks, once (so no renaming macro reaches into one).
#     Project headers follow, each once, every header after the ones it includes, without `#pragma
#     once' and without the project's #include "..." lines; then the .c files, MODULE.c last; then
#     main(). A project include of a file that is not a header (*.inc, ...) is replaced by the
#     file's text where it stands.
#  4. Options. -1 (one thread): the program runs one thread, but its modules can start more, and C
#     libraries before glibc 2.34 keep pthread_create, pthread_join, pthread_detach and
#     pthread_once in libpthread, which `-lm' alone does not link. Those the program uses are
#     replaced by single-thread stand-ins (starting a thread fails with EAGAIN, as when a system
#     is out of threads; pthread_once runs its function the first time). -m (minified): the
#     comments go (CC -fpreprocessed -dD -E -P, which removes comments and expands nothing), all
#     but the opening one that says what the file is and where it came from; the file is a third
#     smaller, to paste into a web form.
#
# Exit status 0 on success, 1 (with the reason on stderr, and OUT left alone) on any failure.
set -u

SRCDIR=src
OUT=-
CC=${CC:-gcc}
MINIFY=false
ONE_THREAD=false
while getopts 1ms:o:c: opt; do
    case $opt in
    1) ONE_THREAD=true ;;
    m) MINIFY=true ;;
    s) SRCDIR=$OPTARG ;;
    o) OUT=$OPTARG ;;
    c) CC=$OPTARG ;;
    *) echo "usage: $0 [-1] [-m] [-s SRCDIR] [-o OUT] [-c CC] MODULE FUNCTION" >&2; exit 1 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -ne 2 ]; then
    echo "usage: $0 [-1] [-m] [-s SRCDIR] [-o OUT] [-c CC] MODULE FUNCTION" >&2
    exit 1
fi
MODULE=$1
FUNCTION=$2
die() {
    echo "amalgamate: $*" >&2
    exit 1
}
[ -f "$SRCDIR/$MODULE.c" ] || die "no file $SRCDIR/$MODULE.c"
case $FUNCTION in *[!A-Za-z0-9_]* | [0-9]* | '') die "\`$FUNCTION' is not a C identifier" ;; esac
SRCDIR=$(cd "$SRCDIR" && pwd) || die "cannot enter $SRCDIR"

TMP=$(mktemp -d) || die "cannot make a temporary directory"
trap 'rm -rf "$TMP"' EXIT
: >"$TMP/taken"   # .c files taken, in the order taken (names relative to SRCDIR)
: >"$TMP/headers" # headers in emission order
: >"$TMP/seen"    # files whose includes were followed

# The project files FILE includes with #include "...", one per line.
includes() {
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$SRCDIR/$1"
}
has_line() { grep -qxF -- "$2" "$1"; }

# Step 1a: the include rule. follow FILE: for each header reached, take its .c.
follow() {
    has_line "$TMP/seen" "$1" && return 0
    echo "$1" >>"$TMP/seen"
    for inc in $(includes "$1"); do
        [ -f "$SRCDIR/$inc" ] || die "$1 includes \"$inc\", which is not in $SRCDIR"
        case $inc in
        */*) die "$1 includes \"$inc\": only files directly in $SRCDIR are supported" ;;
        *.h)
            c=${inc%.h}.c
            if [ -f "$SRCDIR/$c" ] && [ "$c" != main.c ] && ! has_line "$TMP/taken" "$c"; then
                echo "$c" >>"$TMP/taken"
            fi
            follow "$inc" || return 1
            ;;
        esac
    done
}
echo "$MODULE.c" >"$TMP/taken"
n=0
while [ "$n" -lt "$(wc -l <"$TMP/taken")" ]; do
    n=$((n + 1))
    follow "$(sed -n "${n}p" "$TMP/taken")" || exit 1
done

# Compiles FILE.c to $TMP/FILE.o (once) for nm.
CFLAGS_NM="-std=c11 -D_DEFAULT_SOURCE -O0 -g -fkeep-static-functions -fkeep-inline-functions -w"
compile() {
    [ -f "$TMP/${1%.c}.o" ] && return 0
    $CC $CFLAGS_NM -I"$SRCDIR" -c "$SRCDIR/$1" -o "$TMP/${1%.c}.o" 2>"$TMP/cc.err" ||
        die "cannot compile $1: $(head -c 2000 "$TMP/cc.err")"
}

# Step 1b: the link rule. With -1 the objects may use libpthread: the stand-ins replace it.
LINK_THREADS=""
$ONE_THREAD && LINK_THREADS=-pthread
printf 'int %s(int argc, char **argv);\nint main(int argc, char **argv) { return %s(argc, argv); }\n' \
    "$FUNCTION" "$FUNCTION" >"$TMP/main_stub.c"
$CC -std=c11 -c "$TMP/main_stub.c" -o "$TMP/main_stub.o" || die "cannot compile a main() stub"
while :; do
    objs=""
    for c in $(cat "$TMP/taken"); do
        compile "$c"
        objs="$objs $TMP/${c%.c}.o"
    done
    # shellcheck disable=SC2086
    if $CC -std=c11 -o "$TMP/linked" "$TMP/main_stub.o" $objs $LINK_THREADS -lm 2>"$TMP/ld.err"; then
        break
    fi
    missing=$(sed -n "s/.*undefined reference to [\`'\"]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p" \
        "$TMP/ld.err" | sort -u)
    [ -n "$missing" ] || die "the modules do not link: $(head -c 2000 "$TMP/ld.err")"
    added=""
    for sym in $missing; do
        for path in "$SRCDIR"/*.c; do
            c=${path##*/}
            [ "$c" = main.c ] && continue
            has_line "$TMP/taken" "$c" && continue
            grep -qw -- "$sym" "$path" || continue
            compile "$c"
            if nm -P --defined-only "$TMP/${c%.c}.o" | grep -q "^$sym [A-TV-Z] "; then
                echo "$c" >>"$TMP/taken"
                added="$added $c"
                break
            fi
        done
    done
    [ -n "$added" ] || die "nothing in $SRCDIR defines what the modules need without -pthread or
other libraries: $(grep -i 'undefined reference' "$TMP/ld.err" | sort -u | head -n 20)"
done
for c in $(cat "$TMP/taken"); do
    follow "$c" || exit 1
done

# Step 2: static names that would collide in one file. defs.txt: NAME KIND FILE, where KIND is
# `static' (a local symbol defined in a .c file), `header' (defined in a project header) or
# `global' (an external symbol).
for c in $(cat "$TMP/taken"); do
    nm -l --defined-only "$TMP/${c%.c}.o" | awk -v dir="$SRCDIR/" -v file="$c" '
        NF >= 3 && $3 !~ /\./ {
            name = $3; type = $2; where = $4
            sub(/:[0-9]+$/, "", where)
            if (type ~ /^[A-Z]$/) print name, "global", file
            else if (where == dir file) print name, "static", file
            else if (index(where, dir) == 1) print name, "header", file
        }'
done | sort -u >"$TMP/defs.txt"
# A static NAME of FILE collides when any other line defines NAME elsewhere: another file's static
# or global, or a header (the same header definition seen from several files is one definition).
awk '
    { kind[NR] = $2; name[NR] = $1; file[NR] = $3 }
    $2 == "header" { header[$1] = 1 }
    $2 != "header" { count[$1]++ }
    END {
        for (i = 1; i <= NR; i++)
            if (kind[i] == "static" && (count[name[i]] > 1 || header[name[i]]))
                print file[i], name[i]
    }' "$TMP/defs.txt" | sort -u >"$TMP/renames"

# Step 3: the text.
FEATURE='^[[:space:]]*#[[:space:]]*define[[:space:]]+_[A-Z0-9_]*_SOURCE([[:space:]]|$)'
grep -hE "$FEATURE" $(sed "s|^|$SRCDIR/|" "$TMP/seen") 2>/dev/null |
    awk '{ name = $2; if (!(name in seen) && name != "_DEFAULT_SOURCE" && name != "_POSIX_C_SOURCE") { seen[name] = 1; print } }' \
        >"$TMP/features"

# System headers go to the top too, once each, so that no renaming macro can reach into them:
# every #include <...> outside #if blocks, in order of first appearance.
SYSINC='/^[ \t]*#[ \t]*if/ { depth++ } /^[ \t]*#[ \t]*endif/ { depth-- }
    /^[ \t]*#[ \t]*include[ \t]*</ && depth == 0 { sys = 1 }'
system_includes() {
    awk "$SYSINC"' sys { sub(/^[ \t]*#[ \t]*include[ \t]*/, ""); sub(/>.*/, ">"); print "#include " $0 } { sys = 0 }' "$SRCDIR/$1"
}

# body FILE: the text of FILE without project includes of headers, system includes outside #if
# blocks, feature macros and `#pragma once'; includes of other project files are replaced by
# their text.
body() {
    awk -v dir="$SRCDIR/" "$SYSINC"'
        sys { sys = 0; next }
        /^[ \t]*#[ \t]*pragma[ \t]+once/ { next }
        /^[ \t]*#[ \t]*define[ \t]+_[A-Z0-9_]*_SOURCE([ \t]|$)/ { next }
        /^[ \t]*#[ \t]*include[ \t]*"/ {
            inc = $0
            sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
            if (inc ~ /\.h$/) next
            print "/* ---- " inc " ---- */"
            while ((getline line < (dir inc)) > 0) {
                if (line ~ /^[ \t]*#[ \t]*include[ \t]*"/) {
                    print "amalgamate: " inc ": nested project includes are not supported" > "/dev/stderr"
                    exit 1
                }
                print line
            }
            close(dir inc)
            next
        }
        { print }' "$SRCDIR/$1"
}

# Headers in include order: emit_header FILE puts FILE after everything it includes.
emit_header() {
    has_line "$TMP/headers" "$1" && return 0
    echo "$1" >>"$TMP/headers"
    for inc in $(includes "$1"); do
        case $inc in *.h) emit_header "$inc" ;; esac
    done
    echo "/* ---- $1 ---- */" >>"$TMP/text"
    body "$1" >>"$TMP/text" || exit 1
}

version=$(git -C "$SRCDIR" describe --always --dirty 2>/dev/null) && version=" $version"
{
    echo "/*"
    echo " * \`ponder $MODULE' of Ponder (checkers engine)$version in one C file, written by"
    echo "scripts/amalgamate.sh from $(tr '\n' ' ' <"$TMP/taken" | sed 's/ $//')." |
        fold -s -w 96 | sed 's/ *$//; s/^/ * /'
    echo " * Do not edit: change the sources and run \`make $MODULE'."
    echo " * Build: gcc -std=c11 -O2 FILE.c -lm"
    echo " */"
} >"$TMP/head"
{
    echo "#define _DEFAULT_SOURCE 1"
    echo "#define _POSIX_C_SOURCE 200809L"
    cat "$TMP/features"
    for f in $(cat "$TMP/seen"); do system_includes "$f"; done | awk '!seen[$0]++'
} >"$TMP/text"
if $ONE_THREAD; then
    used=$(nm -u "$TMP/linked" | sed -n 's/^ *U \(pthread_[a-z_]*\).*/\1/p' | sort -u)
    case " $(echo $used) " in *" pthread_"*) ;; *) used="" ;; esac
    if [ -n "$used" ]; then
        cat <<'SHIM'
/* ---- one thread (scripts/amalgamate.sh -1) ---- */
/* This program runs one thread. C libraries before glibc 2.34 keep the functions below in
 * libpthread, which `-lm' alone does not link: single-thread stand-ins replace them. Starting a
 * thread fails as on a system out of threads; pthread_once runs its function the first time. */
#include <errno.h>
#include <pthread.h>
#include <string.h>
SHIM
        for f in $used; do
            case $f in
            pthread_create) cat <<'SHIM' ;;
static int one_thread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *x)
{
    (void)t, (void)a, (void)f, (void)x;
    return EAGAIN;
}
#define pthread_create one_thread_create
SHIM
            pthread_join) cat <<'SHIM' ;;
static int one_thread_join(pthread_t t, void **result)
{
    (void)t, (void)result;
    return ESRCH;
}
#define pthread_join one_thread_join
SHIM
            pthread_detach) cat <<'SHIM' ;;
static int one_thread_detach(pthread_t t)
{
    (void)t;
    return ESRCH;
}
#define pthread_detach one_thread_detach
SHIM
            pthread_once) cat <<'SHIM' ;;
static int one_thread_once(pthread_once_t *once, void (*f)(void))
{
    static const pthread_once_t fresh = PTHREAD_ONCE_INIT;
    if (memcmp(once, &fresh, sizeof fresh) == 0) {
        *(unsigned char *)once ^= 1;
        f();
    }
    return 0;
}
#define pthread_once one_thread_once
SHIM
            esac
        done
    fi >>"$TMP/text"
fi
: >"$TMP/headers"
for c in $(cat "$TMP/taken"); do
    for inc in $(includes "$c"); do
        case $inc in *.h) emit_header "$inc" ;; esac
    done
done
# The .c files: the entry module last.
for c in $(grep -vxF "$MODULE.c" "$TMP/taken" | sort) "$MODULE.c"; do
    m=${c%.c}
    {
        echo "/* ---- $c ---- */"
        awk -v f="$c" -v m="$m" '$1 == f { print "#define " $2 " " m "__" $2 }' "$TMP/renames"
        body "$c" || exit 1
        awk -v f="$c" '$1 == f { print "#undef " $2 }' "$TMP/renames"
        sed -n 's/^[[:space:]]*#[[:space:]]*define[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' \
            "$SRCDIR/$c" | grep -v '^_[A-Z0-9_]*_SOURCE$' | sort -u | sed 's/^/#undef /'
    } >>"$TMP/text" || exit 1
done
printf '\n/* ---- main ---- */\nint main(int argc, char **argv) { return %s(argc, argv); }\n' \
    "$FUNCTION" >>"$TMP/text"
if $MINIFY; then
    $CC -fpreprocessed -dD -E -P -x c "$TMP/text" -o "$TMP/min" 2>"$TMP/cc.err" ||
        die "cannot strip the comments: $(head -c 2000 "$TMP/cc.err")"
    cat "$TMP/head" "$TMP/min" >"$TMP/text"
else
    cat "$TMP/head" "$TMP/text" >"$TMP/min" && mv "$TMP/min" "$TMP/text"
fi

if [ "$OUT" = - ]; then
    cat "$TMP/text"
else
    mkdir -p "$(dirname "$OUT")" && cp "$TMP/text" "$OUT.$$.tmp" && mv "$OUT.$$.tmp" "$OUT" ||
        die "cannot write $OUT"
fi
