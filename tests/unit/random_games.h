/*
 * random_games.h - positions from random games of English checkers, for the tests that check a
 * property over many positions (test_eval.c, test_nnue.c). Seeded, so a failure can be replayed.
 */
#pragma once

#include "board.h"
#include "movegen.h"
#include "rng.h"

#include <stdint.h>

/* Plays random games from the start, each until MAX_PLIES or a side without a move, and keeps
 * each position reached with chance 1 in ONE_IN until N are in OUT. STATE is the splitmix64
 * state the choices come from (rng.h). Returns N. */
static inline int random_positions(Board *out, int n, int max_plies, unsigned one_in,
                                   uint64_t *state)
{
    int k = 0;
    while (k < n) {
        Board b;
        board_start(&b);
        for (int ply = 0; ply < max_plies && k < n; ply++) {
            MoveList l;
            if (movegen_generate(&b, &RULES_ENGLISH, false, &l) == 0)
                break;
            board_apply(&b, &l.moves[(uint32_t)(rng_splitmix64(state) >> 32) % (unsigned)l.count]);
            if ((uint32_t)(rng_splitmix64(state) >> 32) % one_in == 0)
                out[k++] = b;
        }
    }
    return k;
}
