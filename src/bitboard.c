/*
 * bitboard.c - the step and jump tables of bitboard.h, computed from row/column geometry so that
 * no hand-typed neighbour list can be wrong.
 */
#include "bitboard.h"

int8_t bb_step[SQUARE_NB][DIR_NB];
int8_t bb_jump[SQUARE_NB][DIR_NB];

void bb_init(void)
{
    static bool done;
    if (done)
        return;
    static const int dr[DIR_NB] = {1, 1, -1, -1};
    static const int dc[DIR_NB] = {-1, 1, -1, 1};
    for (int sq = 0; sq < SQUARE_NB; sq++) {
        int r = bb_row(sq), c = bb_col(sq);
        for (int d = 0; d < DIR_NB; d++) {
            bb_step[sq][d] = (int8_t)bb_square_at(r + dr[d], c + dc[d]);
            bb_jump[sq][d] = (int8_t)bb_square_at(r + 2 * dr[d], c + 2 * dc[d]);
        }
    }
    done = true;
}

/* Filled before main() runs, so no caller can forget and no thread races the first use. */
__attribute__((constructor)) static void bb_init_at_load(void) { bb_init(); }
