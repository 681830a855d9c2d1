#!/bin/sh
# seed-corpus.sh [PONDER] - writes the seed inputs of every fuzz harness, tests/fuzz/corpus/NAME/,
# from the test data (tests/data/) and from the tests' own examples. Run once to make the seeds
# (they are committed); run again after adding a harness or test data, then commit what changed.
# Files are named seed-*; inputs libFuzzer adds through `make fuzz-merge' have hash names.
# PONDER (default ./ponder) lists the legal moves of the move harness's positions.
set -eu
cd "$(dirname "$0")/../.."
PONDER=${1:-./ponder}
C=tests/fuzz/corpus
D=tests/data

put() { # put HARNESS NAME: stdin becomes $C/HARNESS/seed-NAME
    mkdir -p "$C/$1"
    cat >"$C/$1/seed-$2"
}

# FEN: every FEN the unit tests use (good and bad), and the perft positions.
i=0
grep -ho '"[BW"]:[^"]*"' tests/unit/*.c | sed 's/^"//; s/"$//' | sort -u | while IFS= read -r f; do
    i=$((i + 1))
    printf '%s' "$f" | put fen "unit-$i"
done
grep -o '[BW]:[^ ]*:[^ ]*' $D/perft.txt | sort -u | while IFS= read -r f; do
    i=$((i + 1))
    printf '%s' "$f" | put fen "perft-$i"
done
printf '"W:W21-32:B1-12."' | put fen quoted
printf ' B : W 21 , K22 : B K1 , 2 ' | put fen blanks

# Move notations: byte 0 picks the position (the order of POSITIONS in lib/fuzz.c), the rest is
# one of its legal moves in square notation, as a middleware path, and a few wrong ones.
n=0
while IFS='|' read -r fen rules; do
    byte=$(printf '\\%03o' $n)
    k=0
    # (a position the program refuses stops the script: its seeds would be missing unnoticed)
    moves=$("$PONDER" perft 1 --divide --paths --rules "$rules" --fen "$fen") ||
        { echo "seed-corpus.sh: position $n ($fen) refused" >&2; exit 1; }
    printf '%s\n' "$moves" | grep -v '^perft' |
        while read -r move count; do
            k=$((k + 1))
            { printf "$byte"; printf '%s' "$move"; } | put moves "p$n-$k"
            { printf "$byte"; printf '%s' "$move" | tr 'x-' '  '; } | put moves "p$n-$k-path"
            { printf "$byte"; printf '%s!' "$(printf '%s' "$move" | sed 's/x.*x/x/')"; } |
                put moves "p$n-$k-short"
        done
    { printf "$byte"; printf '32-1'; } | put moves "p$n-bad"
    n=$((n + 1))
done <<'POSITIONS'
B:W21-32:B1-12|english
W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12|english
B:W14,15,22,23:BK10|english
B:W6,7,14,15,22,23:BK1|english
B:W10,18,27,K9,K17,K19,K26:B25,K5,K11,K31|english
W:W17,21,24,25,29,32:B5,6,7,8,10,14,22,28|english
B:W26,27:B22|hackerrank
B:W26,27:B22|english
B:W6,14,15,22,23:BK1|english
W:W5,6,7,8:B1,2,3,4|english
B:W:B25|english
B:W21-32:B1-12|tower
B:W14,22:BK18|tower
POSITIONS

# PDN: the first games of the Tinsley collection one by one, a few opening lines, FEN set-ups.
mkdir -p "$C/pdn"
awk -v dir="$C/pdn" '/^\[Event/ { g++ } g >= 1 && g <= 12 { print > (dir "/seed-tinsley-" g) }' \
    $D/pdn/tinsley-games.pdn
head -n 6 $D/openings/eleven-man-ballots.pdn | put pdn eleven-man
printf '[FEN "W:W18,K30:B1,K9"]\n1. 9-14 18x9 2. 1-5 0-1\n' | put pdn fen-setup
printf '{a comment} 1. 11-15 (1. 9-13 21-17) 23-19 $3 2. 8-11! 22-17?; rest of line\n*\n' |
    put pdn comments
printf '\357\273\277[Event "x"]\r\n1. 11-15 23-19 1/2-1/2\r\n' | put pdn bom-crlf

# HackerRank input, tower actions, board files, console and play sessions: the tests' files.
for f in $D/hackerrank/*.in; do put hackerrank "$(basename "$f" .in)" <"$f"; done
for f in $D/tower/*.txt; do
    case "$f" in *-out.txt) continue ;; esac
    put tower "$(basename "$f" .txt)" <"$f"
done
for f in $D/sable-boards/*.txt $D/play/*.txt; do put boardfile "$(basename "$f" .txt)" <"$f"; done
for f in $D/console/*.in $D/ponder-transcripts/*.in; do
    put console "$(basename "$f" .in)" <"$f"
done

# Middleware lines for `ponder player': moving first, answering, and broken lines.
printf '0 0\n' | put player first
printf '11 15\n' | put player answer
printf '0 0\n24 20\n' | put player two
printf ' 0  0 \r\n23 18\n' | put player crlf
printf '9 13\n0 0\n' | put player late-marker
printf '11 15 19\n' | put player bad

# Opening files: FEN lines and PDN.
head -n 4 $D/openings/eleven-man-ballots.pdn | put openings eleven-man
printf '# two positions\nB:W21-32:B1-12\n\nW:W18,K30:B1,K9\n' | put openings fen-lines
printf '[Event "a"]\n1. 9-13 22-18 2. 11-16 *\n\n[Event "b"]\n1. 10-15 *\n' | put openings pdn

# Weights files: every weight at its built-in value, one changed, comments and blanks.
grep -o 'X([A-Z0-9_]*, *-\{0,1\}[0-9]*)' src/weights.h | sed 's/X(\([^,]*\), *\(.*\))/\1 \2/' |
    tr 'A-Z' 'a-z' | put weights all
printf '# tuned\n\n  man_mg   120  \n' | put weights one
# Network files: a random net (tests/bench/nnue_random.c, n1 = 32, 4 buckets) behind the
# harness's mode byte (\001: the checksum is made right first), and damaged copies of it.
make -s build/release/nnue-random
NET=$(mktemp)
build/release/nnue-random 32 "$NET" 5
poke() { # poke OFFSET BYTES...: a copy of the net with BYTES (octal escapes) at OFFSET
    T=$(mktemp)
    cp "$NET" "$T"
    printf "$2" | dd of="$T" bs=1 seek="$1" conv=notrunc 2>/dev/null
    cat "$T"
    rm -f "$T"
}
{ printf '\000'; cat "$NET"; } | put nnue random-n1-32
{ printf '\001'; cat "$NET"; } | put nnue random-n1-32-fixsum
{ printf '\000'; head -c 64 "$NET"; } | put nnue header-only
{ printf '\001'; head -c -100 "$NET"; } | put nnue truncated
{ printf '\001'; poke 16 '\041\000\000\000'; } | put nnue n1-33
{ printf '\000'; poke 300 '\377'; } | put nnue checksum
{ printf '\001'; poke 28 '\001\000\000\000'; } | put nnue buckets-1-long
# A split net (version 2: a first layer per bucket), and its layer count made wrong.
build/release/nnue-random 32 "$NET" 6 split
{ printf '\001'; cat "$NET"; } | put nnue split-n1-32
{ printf '\001'; poke 36 '\002\000\000\000'; } | put nnue split-layers-2
{ printf '\001'; poke 8 '\001\000\000\000'; } | put nnue split-as-version-1
# A net of the mobility feature set (288 inputs), and one whose header says 128 instead.
build/release/nnue-random 32 "$NET" 7 mobility
{ printf '\001'; cat "$NET"; } | put nnue mobility-n1-32
{ printf '\001'; poke 12 '\200\000\000\000'; } | put nnue mobility-as-pieces
# A pairwise net (version 3), its activation made unknown, and n1 not a multiple of 64.
build/release/nnue-random 64 "$NET" 8 pair
{ printf '\001'; cat "$NET"; } | put nnue pair-n1-64
{ printf '\001'; poke 38 '\002\000'; } | put nnue pair-activation-2
{ printf '\001'; poke 16 '\140\000\000\000'; } | put nnue pair-n1-96
rm -f "$NET"
echo "seeds written under $C/"

# The web API: request lines as tests/fuzz/serve.c reads them (`@' is the last game created).
printf 'GET /api/status\nHEAD /api/status\n' | put serve status
printf 'POST /api/games {}\nGET /api/games/@\nGET /api/games/@/moves\nPOST /api/games/@/move {"move":"11-15"}\nPOST /api/games/@/move {"path":[22,18]}\nPOST /api/games/@/move {"move":"15x22"}\nPOST /api/games/@/undo {"plies":2}\nGET /api/games/@/pdn\nDELETE /api/games/@\nGET /api/games/@\n' | put serve game
printf 'POST /api/games {"side":"white","time":0.02,"depth":3,"fen":"W:W18,K30:B1,K9"}\nPOST /api/games/@/engine {"wait":true,"time":0.02}\nPOST /api/games/@/engine {}\nPOST /api/games/@/stop\nPATCH /api/games/@ {"side":"none","time":0.01}\n' | put serve engine
printf 'POST /api/games {"fen":"B:W1:B29"}\nPOST /api/games {"side":"red"}\n~POST /api/games {}\nPOST /api/games {"x":1}\nPOST /api/games [1,2]\nPOST /api/games {"time":1e999}\nPUT /api/games\nGET /api/nothing\nGET /api/games/0123456789abcdef/moves\nPOST /api/games/zz/move {}\n' | put serve errors
printf 'POST /api/games {"side":"black","level":"beginner","clock":{"base":5,"increment":1}}\nPOST /api/games/@/move {"move":"11-15"}\nPOST /api/games/@/engine {"wait":true}\nPOST /api/games/@/draw\nPOST /api/games/@/resign\nPOST /api/games/@/undo\nPATCH /api/games/@ {"level":"club","clock":null}\n' | put serve play
printf 'POST /api/games {"ballot":4,"side":"both"}\nPOST /api/games/@/analyse {"ply":1,"lines":3,"time":0.02}\nPOST /api/games/@/analyse {"lines":2}\nPOST /api/games/@/graph {"time":0.01,"depth":2}\nPOST /api/games/@/stop\nPOST /api/games {"ballot":0}\nPOST /api/games {"clock":{"base":0}}\n' | put serve review
printf 'POST /api/pdn {"pdn":"[Event \\"a\\"]\\n1. 11-15 22-18 *\\n\\n1. 9-14 33-1 *\\n"}\nPOST /api/games {"pdn":"1. 11-15 22-18 15x22 *","game":1}\nPOST /api/games {"pdn":"","game":2}\nPOST /api/pdn {"pdn":5}\nGET /api/pdn\n' | put serve pdn
printf 'POST /api/games {"side":"both"}\nPOST /api/games/@/move {"move":"9x18"}\nPOST /api/games/@/move {"path":[9,"13"]}\nPOST /api/games/@/move {"move":"9-13","path":[9,13]}\nPOST /api/games/@/undo {"plies":-1}\nPOST /api/games/@/undo {"plies":99999}\n' | put serve moves

# The terminal game: set-up answers, moves by number and text, commands, the PDN question.
printf 'human\ncomputer\n1\nno\n1\n2\nhint\nundo\nboard\nhelp\n9-14\nsave game.pdn\nquit\n' | put play human
printf 'computer\ncomputer\n0.1\nno\nyes\n' | put play computers
printf 'h\nh\n\nno\n11-15\n22x15\n1\n99\n0\nundo\nundo\nundo\nq\n' | put play humans
printf 'maybe\nhuman\nhuman\n-1\n1e9\nnan\n2\nyes\nnone.txt\n\n\001\000x\n' | put play bad-answers

# Endgame database files: the 2- and 3-piece slices as `ponder egdb build' writes them.
EG=$(mktemp -d)
"$PONDER" egdb build --pieces 3 --dir "$EG" >/dev/null 2>&1
for f in "$EG"/*.egdb; do put egdb "$(basename "$f" .egdb)" <"$f"; done
rm -rf "$EG"

# Training-position files: a short self-play run, its first blocks, and its header alone.
TF=$(mktemp)
"$PONDER" selfplay --games 2 --seed 1 --nodes 300 --out "$TF" >/dev/null 2>&1
head -c 1024 "$TF" | put trainfile selfplay-start
head -c 16 "$TF" | put trainfile header-only
put trainfile selfplay-2-games <"$TF"

# Network files and checkpoints of `ponder train' (the smallest shape, one epoch on that run).
TN=$(mktemp -d)
"$PONDER" train --data "$TF" --hidden 32 --buckets 1 --epochs 1 --batch 64 --threads 1 \
    --out "$TN/net.pnet" --checkpoint "$TN/ck" -q >/dev/null 2>&1
put trainnet net <"$TN/net.pnet"
head -c 200 "$TN/net.pnet" | put trainnet net-head
put trainnet checkpoint <"$TN/ck"
rm -rf "$TN"
rm -f "$TF"
