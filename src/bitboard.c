/*
 * bitboard.c - the step and jump tables of bitboard.h, computed from row/column geometry so that
 * no hand-typed neighbour list can be wrong.
 */
#include "bitboard.h"

#include <pthread.h>

int8_t bb_step[SQUARE_NB][DIR_NB];
int8_t bb_jump[SQUARE_NB][DIR_NB];

static void fill_tables(void)
{
    static const int dr[DIR_NB] = {1, 1, -1, -1};
    static const int dc[DIR_NB] = {-1, 1, -1, 1};
    for (int sq = 0; sq < SQUARE_NB; sq++) {
        int r = bb_row(sq), c = bb_col(sq);
        for (int d = 0; d < DIR_NB; d++) {
            bb_step[sq][d] = (int8_t)bb_square_at(r + dr[d], c + dc[d]);
            bb_jump[sq][d] = (int8_t)bb_square_at(r + 2 * dr[d], c + 2 * dc[d]);
        }
    }
}

void bb_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fill_tables);
}
