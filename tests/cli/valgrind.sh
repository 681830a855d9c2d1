#!/bin/sh
# valgrind.sh - a quick memcheck pass inside `make test' (in the release round only): one
# transcript per front end under valgrind, through tests/valgrind/run.sh with VALGRIND_QUICK=1
# (about 6 s of processor time). `make valgrind' runs every transcript and every fuzz input.
[ "${PONDER_VARIANT:-release}" = release ] || exit 0
VALGRIND_QUICK=1 exec sh "$(dirname "$0")/../valgrind/run.sh"
