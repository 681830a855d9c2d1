#!/bin/sh
# build-book.sh - builds the built-in opening book (data/book/default.pbk) from nothing, with the
# engine as built (its built-in network): drop-out expansion from the 156 ballots and the start
# position, then more from the start position alone (which the ballots' trees mostly cover
# already), then the two merged (docs/book.md, "The built-in book").
#
#   scripts/build-book.sh [-n NODES] [-p POSITIONS] [-s START] [OUT]
#
#   -n NODES      nodes a search (default 2000000)
#   -p POSITIONS  book positions grown from the ballots and the start (default 4864)
#   -s START      book positions grown from the start position alone (default 600)
#   OUT           the merged book (default build/book/default.pbk; copy it to data/book/ to
#                 build it into the binary)
#
# The two builds go to build/book/ (not in git). `ponder book build` saves every 30 seconds and
# on Ctrl-C, and goes on from its file, so the script can be stopped at any time and run again
# to go on. With the defaults and the g7a network: 23,291 searches (46.6 G nodes) in 65 minutes,
# then 2,956 (5.9 G nodes) in 8 minutes, on the idle 2-core development machine (6 searches a
# second on 2 threads); with g7t-s90 (session 63): 23,166 (46.3 G nodes) in 94 minutes, then
# 2,976 (6.0 G nodes) in 12 minutes (4.1-4.5 searches a second).
set -eu
cd "$(dirname "$0")/.."
nodes=2000000 positions=4864 start=600
while getopts n:p:s:h opt; do
    case $opt in
    n) nodes=$OPTARG ;;
    p) positions=$OPTARG ;;
    s) start=$OPTARG ;;
    *) sed -n '2,19p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
out=${1:-build/book/default.pbk}
make ponder >&2
mkdir -p build/book
# The book's name: the built-in network's (bytes 40-63 of its file, docs/nnue.md) and the nodes.
net=$(dd if=data/nets/default.pnet bs=1 skip=40 count=24 2>/dev/null | tr -d '\000')
size=$((nodes / 1000))k
[ $((nodes % 1000000)) -eq 0 ] && size=$((nodes / 1000000))M
name="ponder ${net:-classic} $size"
./ponder book build --out build/book/ballots.pbk --positions "$positions" --nodes "$nodes" \
    --hash 64 --name "$name"
./ponder book build --out build/book/start.pbk --no-ballots --positions "$start" \
    --nodes "$nodes" --hash 64 --name "$name"
./ponder book merge --out "$out" build/book/ballots.pbk build/book/start.pbk
./ponder book info "$out"
