#!/bin/sh
# strength.sh - plays this tree's engine against an older one built from git, the way every
# strength figure in docs/ is measured.
#
#   scripts/strength.sh [-r REF] [-t SECONDS [-T SECONDS] | -n NODES] [-g GAMES] [-s SPRT] [-o DIR]
#                       [-N NAME] [-a DIR | -A DIR] [-S SEED] [-R REF_ARGS] [-- NEW_ARGS...]
#
#   -r REF      the reference commit (default ce1f348, the engine before the network); `.' is
#               this tree's own build, for two settings of one engine (with -R and NEW_ARGS:
#               two networks, an option on and off)
#   -t SECONDS  per move for both sides (default 0.1)
#   -T SECONDS  per move for the reference alone (time odds; default: the -t time). The referee
#               allows each move the longer of the two times, and each engine is told its own
#   -n NODES    a fixed number of nodes a move for both sides instead of a time: the games do
#               not depend on the machine's load (a change of search or evaluation measured
#               without its change of speed); the referee then allows 10 s a move. The
#               reference needs `ponder player --nodes' (commit 8a7cbe8 and later)
#   -g GAMES    games (default 312: every ballot twice, colours swapped)
#   -s E0,E1,A,B  stop early by the GSPRT (passed to ponder match --sprt)
#   -o DIR      where the PDN, the JSON result and the reference build go (default build/strength)
#   -a DIR      end a game once the endgame databases in DIR know its position (ponder match
#               --adjudicate: the king endings that would be played out to the 40-move rule
#               take no more time); the engines still play without databases. The run's name
#               gets "-adj"
#   -A DIR      the same, but a win only once the winner is ahead in pieces (ponder match
#               --adjudicate-wins ahead): a win on even pieces is played out, so the score is
#               the engines' own. The run's name gets "-adjA"
#   -N NAME     the run's name (DIR/NAME.pdn and .json) instead of the one made from the commit
#               (below): to go on with a run after commits that leave the engine as it was
#   -S SEED     the order of the openings (ponder match --seed; default 1, the order of every
#               1,000-game run against ce1f348). Another seed for a head-to-head test keeps its
#               games apart from those runs'
#   -R REF_ARGS extra options for the reference's `ponder player' (one word or several in one
#               argument, e.g. -R '--net old.pnet --book none')
#   NEW_ARGS    extra options for the new engine's `ponder player' (e.g. --eval classic)
#
# The reference is built once in a git worktree under DIR (reused by later runs). Both sides
# play one thread with the same time and a 64 MB table, no endgame databases (PONDER_EGDB=none),
# two games at once (-j 2 for a 2-core machine: run nothing else heavy meanwhile). The result
# (W/D/L, Elo with its 95% interval, the same by colour-swapped pairs) is what `ponder match'
# prints.
#
# A run is named after this tree's commit, the reference, the time, the games and the extra
# options (DIR/NAME.pdn and .json); it goes on where it stopped when the same command is run
# again (`ponder match --resume': the finished games are read back, only the missing ones are
# played), so a run of hours can be split over several sittings (a commit changes the name:
# give the old one with -N to go on with it; a -S other than 1 and -R options add to the name).
# Runs with the same -g and -S (and so the same openings, colours and order) play the same
# games, so two of them, e.g. this tree and an earlier commit each against ce1f348, compare
# game by game with `ponder compare NEW.pdn OLD.pdn' (docs/match.md): a tighter interval than
# the two runs' own.
#
# A head-to-head test of two networks in one build, the way docs/generations.md measures them:
#   scripts/strength.sh -r . -S 73 -g 1000 -s 0,10,0.05,0.05 -R '--net old.pnet --book none' \
#       -- --net new.pnet --book none
set -eu
cd "$(dirname "$0")/.."
ref=ce1f348
tm=0.1
games=312
sprt=
out=build/strength
nodes=
rtm=
runname=
adjudicate=
ahead=
seed=1
rextra=
while getopts r:t:T:n:g:s:o:N:a:A:S:R:h opt; do
    case $opt in
    r) ref=$OPTARG ;;
    t) tm=$OPTARG ;;
    T) rtm=$OPTARG ;;
    n) nodes=$OPTARG ;;
    g) games=$OPTARG ;;
    s) sprt=$OPTARG ;;
    o) out=$OPTARG ;;
    N) runname=$OPTARG ;;
    a) adjudicate=$OPTARG ahead= ;;
    A) adjudicate=$OPTARG ahead=A ;;
    S) seed=$OPTARG ;;
    R) rextra=$OPTARG ;;
    *) sed -n '2,55p' "$0" >&2; exit 2 ;;
    esac
done
case $runname in */*) echo "strength: -N: a name, not a path: $runname" >&2; exit 2 ;; esac
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
extra="$*"

case $seed in '' | *[!0-9]*) echo "strength: -S: a number, not $seed" >&2; exit 2 ;; esac

mkdir -p "$out"
make -j2 ponder >&2
if [ "$ref" = . ]; then
    refdir=.
    refname=ref
    runref=self
else
    refdir="$out/ref-$ref"
    refname=$ref
    runref=$ref
    if [ ! -x "$refdir/ponder" ]; then
        [ -d "$refdir" ] || git worktree add --detach "$refdir" "$ref" >&2
        make -C "$refdir" -j2 ponder >&2
    fi
fi

export PONDER_EGDB=none
tag=$(printf '%s' "$extra" | cksum | cut -d' ' -f1)
rtag=$(printf '%s' "$rextra" | cksum | cut -d' ' -f1)
if [ -n "$nodes" ]; then
    [ -z "$rtm" ] || { echo "strength: -T needs -t, not -n" >&2; exit 2; }
    limit="${nodes}n"
    play="--nodes $nodes"
    rplay=$play
    tm=10
elif [ -n "$rtm" ]; then
    limit="${tm}s-vs-${rtm}s"
    play="--time $tm"
    rplay="--time $rtm"
    tm=$(awk -v a="$tm" -v b="$rtm" 'BEGIN { print (a + 0 > b + 0) ? a : b }')
else
    limit="${tm}s"
    play="--time {time}"
    rplay=$play
fi
name=${runname:-"$(git describe --always --dirty)-vs-$runref-$limit-${games}g${extra:+-x$tag}${rextra:+-r$rtag}${adjudicate:+-adj$ahead}"}
[ "$seed" = 1 ] || name="$name-s$seed"
set -- --time "$tm" --games "$games" -j 2 --seed "$seed" --names "new,$refname" \
    --pdn "$out/$name.pdn" --json "$out/$name.json" --resume
[ -n "$sprt" ] && set -- "$@" --sprt "$sprt"
[ -n "$adjudicate" ] && set -- "$@" --adjudicate "$adjudicate"
[ -n "$ahead" ] && set -- "$@" --adjudicate-wins ahead
echo "strength: $(git rev-parse --short HEAD) ${extra:+($extra) }vs $refname${rextra:+ ($rextra)}, $games games, $limit a move: $out/$name.pdn" >&2
./ponder match "$@" \
    "$PWD/ponder player --threads 1 --hash 64 $play --fen {fen} $extra" \
    "$(cd "$refdir" && pwd)/ponder player --threads 1 --hash 64 $rplay --fen {fen} $rextra"
