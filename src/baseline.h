/*
 * baseline.h - the reference opponent: seed 001's HackerRank bot, rebuilt from its description
 * (depth-6 minimax with alpha-beta pruning over the `eval2' evaluation). `ponder player
 * --baseline' plays it, so matches can measure the engine against a fixed, known yardstick.
 */
#pragma once

#include "movegen.h"

enum { BASELINE_DEPTH = 6 }; /* the seed's search depth */

/* The seed's eval2 of B from the side to move's point of view, in quarter points (a man is 20):
 * for each side, man 5, king 7.75, a piece on its own back row +4, on one of the four middle
 * squares (14, 15, 18, 19) +2.5, on one of the four middle-side squares (13, 16, 17, 20) +0.5,
 * and -3 for each way an opponent standing in front of it could jump it right now; the
 * evaluation is the side to move's total minus the opponent's. */
int baseline_evaluate(const Board *b);

/* Plain alpha-beta of DEPTH plies (at least 1) from B under R, evaluating leaves with
 * baseline_evaluate. Writes the best move to *BEST (the first in generation order among equals)
 * and returns true, or returns false when the side to move has no legal move. */
bool baseline_search(const Board *b, const Rules *r, int depth, Move *best);
