#!/bin/sh
# install-deps.sh [EXTRA...] - installs the Debian packages Ponder builds and tests with, if any
# is missing. Packages are listed one per line in scripts/deps/*.list (one file per feature). Run
# by `make` before the first build (and again whenever this file changes). Lists in
# scripts/deps/extra/ are installed only when named (`install-deps.sh wine': the target that
# needs them asks). As root it uses apt-get directly, otherwise sudo; it waits and retries while
# another apt holds the package lock.
set -u

cd "$(dirname "$0")" || exit 1
if [ $# -gt 0 ]; then
    LISTS=""
    for x in "$@"; do
        [ -f "deps/extra/$x.list" ] || { echo "install-deps: no list deps/extra/$x.list" >&2; exit 2; }
        LISTS="$LISTS deps/extra/$x.list"
    done
    PACKAGES="$(cat $LISTS | sed 's/#.*//' | tr '\n' ' ')"
else
    PACKAGES="gcc make $(cat deps/*.list 2>/dev/null | sed 's/#.*//' | tr '\n' ' ')"
fi

missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing$missing" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
try=0
until $SUDO apt-get update -qq && $SUDO apt-get install -y -qq $missing; do
    try=$((try + 1))
    if [ $try -ge 30 ]; then
        echo "install-deps: apt-get failed $try times; install$missing by hand" >&2
        exit 1
    fi
    echo "install-deps: apt-get busy or failed, retrying in 10 s ($try/30)" >&2
    sleep 10
done
