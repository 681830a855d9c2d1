/*
 * score.h - the scale of search scores, shared by the engine, its front ends and the training
 * file format.
 *
 * Scores are from the side to move's point of view, in hundredths of a man (a man is worth
 * about SCORE_MAN). A won position scores SCORE_WIN - plies-to-win, a lost one -(SCORE_WIN -
 * plies); score_is_decisive() tells them apart from ordinary evaluations.
 */
#pragma once

#include "types.h"

#include <stdbool.h>

enum {
    SCORE_MAN = 100,                          /* one man, the unit of the evaluation */
    SCORE_WIN = 30000,                        /* a win now; a win in N plies is SCORE_WIN - N */
    SCORE_DECISIVE = SCORE_WIN - 2 * MAX_PLY, /* |score| above this: a proven win or loss */
    SCORE_INFINITE = 32000,                   /* beyond every score (window bounds) */
};

/* Whether SCORE is a proven win or loss. */
static inline bool score_is_decisive(int score)
{
    return score > SCORE_DECISIVE || score < -SCORE_DECISIVE;
}

/* The plies to the end of the game a decisive SCORE promises. */
static inline int score_plies_to_end(int score)
{
    return score > 0 ? SCORE_WIN - score : SCORE_WIN + score;
}
