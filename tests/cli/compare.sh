#!/bin/sh
# compare.sh - `ponder compare`: two match runs of the same games, paired by game number. The
# arithmetic on a hand-made pair of runs (tests/data/compare: games 1-4 played in both, the
# compared player scoring win, draw, loss, win in a.pdn and draw, draw, win, win in b.pdn, with
# b.pdn's games in another order and one more game); two real `ponder match' runs of the random
# mover with the same seed, which must compare as identical; every bad input refused with what
# and where.
. "$(dirname "$0")/lib.sh"
D=$PONDER_DATA/compare

# The differences +1/2, 0, -1, 0: mean -0.125, interval +- 0.6166 (worked out in
# tests/unit/test_match_stats.c); the base's score 0.75 and the run's 0.625, Elo 88.7 against
# 190.8, so -102.1 at the base's score.
"$PONDER" compare "$D/a.pdn" "$D/b.pdn" >"$TMP/ab.out" 2>"$TMP/ab.err"
if [ $? -eq 0 ]; then pass "compare: two runs"; else fail "compare: two runs" "$(cat "$TMP/ab.err")"; fi
expect_grep "compare: the player is the run's first program, 4 games paired" \
    '^new, paired by game number: 4 games in all 2 files \(of 4 and 5\)$' "$TMP/ab.out"
expect_grep "compare: the run's results on the paired games" \
    '^RUN +\+2 =1 -1 +0\.6250  Elo \+88\.7 \+- inf  .*a\.pdn$' "$TMP/ab.out"
expect_grep "compare: the base's, game 5 left out" \
    '^BASE +\+2 =2 -0 +0\.7500  Elo \+190\.8 \+- 458\.0  .*b\.pdn$' "$TMP/ab.out"
expect_grep "compare: the paired difference and its interval" \
    '^Difference, RUN less BASE: -0\.1250 \+- 0\.6166 in score \(95%: -0\.7416 \.\. \+0\.4916\); Elo -102\.1 ' \
    "$TMP/ab.out"
expect_grep "compare: how many games changed" \
    '^Results: the same in 2 games, RUN better in 1, worse in 1$' "$TMP/ab.out"
expect_grep "compare: the cross table's win row" '^  RUN win +1 +1 +0$' "$TMP/ab.out"
expect_grep "compare: the cross table's loss row" '^  RUN loss +1 +0 +0$' "$TMP/ab.out"

# --json: the same figures; an interval with no end is null.
"$PONDER" compare --json "$TMP/ab.json" "$D/a.pdn" "$D/b.pdn" >/dev/null 2>&1
expect_grep "compare --json: the player and the pairs" '^  "paired_games": 4,$' "$TMP/ab.json"
expect_grep "compare --json: each run" \
    '"games": 5, "wins": 2, "draws": 2, "losses": 0, "score": 0\.750000, "elo": 190\.848' \
    "$TMP/ab.json"
expect_grep "compare --json: the difference" \
    '"difference": \{"score": -0\.125000, "error": 0\.616558, .*"elo": -102\.109[0-9]*, .*"elo_high": null\}' \
    "$TMP/ab.json"
expect_grep "compare --json: the results moved" '^  "results": \[\[1, 1, 0\], \[0, 1, 0\], \[1, 0, 0\]\]$' \
    "$TMP/ab.json"
expect_status "compare --json: an unwritable file" 1 \
    "$PONDER" compare --json "$TMP/no/such/dir.json" "$D/a.pdn" "$D/b.pdn"
expect_grep "compare --json: ... says so" '^ponder compare: cannot write .*dir\.json: ' "$TMP/err"

"$PONDER" compare --player ref "$D/a.pdn" "$D/b.pdn" >"$TMP/ref.out" 2>&1
expect_grep "compare --player: the other side's view" \
    '^Difference, RUN less BASE: \+0\.1250 \+- 0\.6166' "$TMP/ref.out"
# Against two bases (the same file twice): the mean of b and b is b.
"$PONDER" compare "$D/a.pdn" "$D/b.pdn" "$D/b.pdn" >"$TMP/abb.out" 2>&1
expect_grep "compare: against the mean of several bases" \
    '^Difference, RUN less the mean of the BASEs: -0\.1250 \+- 0\.6166' "$TMP/abb.out"
expect_grep "compare: each base on its own line" '^BASE2 +\+2 =2 -0 ' "$TMP/abb.out"
"$PONDER" compare - "$D/b.pdn" <"$D/a.pdn" >"$TMP/stdin.out" 2>&1
expect_grep "compare: the run read from standard input" '^Difference, RUN less BASE: -0\.1250' \
    "$TMP/stdin.out"

# Two real runs with the same seed play the same games: nothing differs.
RAND="$PONDER player --random --seed {seed} --fen {fen}"
for run in 1 2; do
    "$PONDER" match -q -j 2 --games 8 --time 0.5 --seed 3 --names one,two \
        --pdn "$TMP/run$run.pdn" "$RAND" "$RAND" >/dev/null 2>&1
done
"$PONDER" compare "$TMP/run1.pdn" "$TMP/run2.pdn" >"$TMP/same.out" 2>&1
expect_grep "compare: the same run twice pairs all 8 games" \
    '^one, paired by game number: 8 games in all 2 files \(of 8 and 8\)$' "$TMP/same.out"
expect_grep "compare: the same run twice differs by nothing" \
    '^Difference, RUN less BASE: \+0\.0000 \+- 0\.0000' "$TMP/same.out"
expect_grep "compare: ... in no game" '^Results: the same in 8 games, RUN better in 0, worse in 0$' \
    "$TMP/same.out"
# Another seed is another order of the openings: refused.
"$PONDER" match -q -j 2 --games 8 --time 0.5 --seed 4 --names one,two \
    --pdn "$TMP/run3.pdn" "$RAND" "$RAND" >/dev/null 2>&1
expect_status "compare: runs of another seed are refused" 1 \
    "$PONDER" compare "$TMP/run1.pdn" "$TMP/run3.pdn"
expect_grep "compare: ... saying which game differs and how" \
    '^ponder compare: game [0-9]+ differs in the opening: .*run1\.pdn \(line [0-9]+\) has `ballot' \
    "$TMP/err"

# bad_file NAME FILE PATTERN: comparing a.pdn with FILE fails (status 1) with PATTERN.
bad_file() {
    expect_status "compare: $1: status 1" 1 "$PONDER" compare "$D/a.pdn" "$2"
    expect_grep "compare: $1: the message" "$3" "$TMP/err"
}
bad_file "another opening" "$D/opening.pdn" \
    "^ponder compare: game 3 differs in the opening: .*a\.pdn \(line 17\) has \`ballot 2: 9-13 22-17 13x22' with new as Black, .*opening\.pdn \(line 1\) \`ballot 9: 10-14 22-17 14-18' with new as Black: not runs of the same games"
bad_file "another colour" "$D/colour.pdn" \
    "^ponder compare: game 1 differs in the player's colour: .* with new as Black, .* with new as White"
bad_file "a game twice" "$D/twice.pdn" '^ponder compare: .*twice\.pdn: game 2 is in the file twice \(lines 9 and 33\)$'
bad_file "a game without a result" "$D/noresult.pdn" \
    '^ponder compare: .*noresult\.pdn: game 1 \(line 1\) has no result$'
bad_file "an illegal move" "$D/illegal.pdn" \
    "^ponder compare: .*illegal\.pdn: illegal move \`9-14' for Black at move 2 at line 7, column 18$"
bad_file "no game number" "$D/noround.pdn" \
    "^ponder compare: .*noround\.pdn: the game at line 1 has Round \`first', not a game number"
bad_file "no game in common" "$D/other.pdn" \
    '^ponder compare: no game number is in every file with new: not runs of the same games\?$'
bad_file "a missing file" "$TMP/nothing.pdn" '^ponder compare: cannot open .*nothing\.pdn: '
: >"$TMP/empty.pdn"
expect_status "compare: an empty run: status 1" 1 "$PONDER" compare "$TMP/empty.pdn" "$D/a.pdn"
expect_grep "compare: an empty run: the message" \
    '^ponder compare: .*empty\.pdn: no game with a game number \(Round tag\) and players$' "$TMP/err"
expect_status "compare: a player in no game: status 1" 1 \
    "$PONDER" compare --player nobody "$D/a.pdn" "$D/b.pdn"
expect_grep "compare: a player in no game: the message" \
    '^ponder compare: .*a\.pdn: nobody plays in none of its 4 games \(--player NAME\?\)$' "$TMP/err"
expect_status "compare: standard input twice: status 1" 1 "$PONDER" compare - -
expect_grep "compare: standard input twice: the message" "can be only one of the files" "$TMP/err"

expect_usage_error "compare: one file is not enough" "ponder compare: two PDN files are needed" \
    "$PONDER" compare "$D/a.pdn"
expect_usage_error "compare: --player needs a name" "ponder compare: --player needs a name" \
    "$PONDER" compare --player= "$D/a.pdn" "$D/b.pdn"
expect_usage_error "compare: an unknown option" "ponder compare:" \
    "$PONDER" compare --bogus "$D/a.pdn" "$D/b.pdn"
expect_status "compare --help" 0 "$PONDER" compare --help
expect_grep "compare --help: the usage" '^usage: ponder compare ' "$TMP/out"
