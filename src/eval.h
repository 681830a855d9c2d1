/*
 * eval.h - the static evaluation: how good a quiet position is for the side to move.
 *
 * Terms (all weighted from weights.h): material with a king worth more in the ending, men's
 * advancement by row, the back-rank guard, centre and edge, mobility, runaway men, balance of the
 * two wings, trapped and dominated kings, and in endings the stronger side's drive against the
 * weaker side's kings (out of the double corners, towards them, trading down). Opening (_mg) and
 * ending (_eg) values are blended by the number of pieces left.
 */
#pragma once

#include "board.h"
#include "weights.h"

enum { EVAL_PHASE_MAX = WEIGHT_PHASE_MAX }; /* pieces at which the _mg weights apply alone */

/* Fills the evaluation's tables (and the bitboard tables they come from) the first time it is
 * called; idempotent and thread-safe. ponder_init() calls it (engine_new and the tuner do), and
 * eval_board() assumes it has been called: it is too hot to check. */
void eval_init(void);

/* The evaluation of B for the side to move, in hundredths of a man. W must be fresh: its blend
 * made by weights_default, weights_parse or weights_refresh after any change to its values.
 * eval_init() (or ponder_init()) must have been called. */
int eval_board(const Weights *w, const Board *b);
