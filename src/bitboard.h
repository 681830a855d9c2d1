/*
 * bitboard.h - shifts and masks on the 32-square board.
 *
 * Row r (0-7) holds indices 4r..4r+3. On even rows (squares 1-4, 9-12, ...) the dark squares sit
 * in columns 1,3,5,7 of the diagram with Black at the top; on odd rows in columns 0,2,4,6. A step
 * towards higher rows is +4 from every square plus +5 (even rows, not the last square of the row)
 * or +3 (odd rows, not the first). The four directions are named by what they do to row and
 * column: DIR_UL (+1 row, -1 col), DIR_UR (+1,+1), DIR_DL (-1,-1), DIR_DR (-1,+1); Black men move
 * "up" (UL, UR), White men "down". A jump in a direction is two steps in it.
 */
#pragma once

#include "types.h"

enum { DIR_UL = 0, DIR_UR = 1, DIR_DL = 2, DIR_DR = 3, DIR_NB = 4 };

#define BB_EVEN_ROWS 0x0F0F0F0Fu /* rows holding squares 1-4, 9-12, 17-20, 25-28 */
#define BB_ODD_ROWS 0xF0F0F0F0u
#define BB_EVEN_NOT_LAST 0x07070707u /* even rows without their last square (4, 12, ...) */
#define BB_ODD_NOT_FIRST 0xE0E0E0E0u /* odd rows without their first square (5, 13, ...) */
#define BB_ROW(r) (0xFu << (4 * (r)))

static inline Bitboard bb_ul(Bitboard x) { return ((x & BB_EVEN_ROWS) << 4) | ((x & BB_ODD_NOT_FIRST) << 3); }
static inline Bitboard bb_ur(Bitboard x) { return ((x & BB_EVEN_NOT_LAST) << 5) | ((x & BB_ODD_ROWS) << 4); }
static inline Bitboard bb_dl(Bitboard x) { return ((x & BB_EVEN_ROWS) >> 4) | ((x & BB_ODD_NOT_FIRST) >> 5); }
static inline Bitboard bb_dr(Bitboard x) { return ((x & BB_EVEN_NOT_LAST) >> 3) | ((x & BB_ODD_ROWS) >> 4); }

/* One step of every square of X in direction DIR (squares that leave the board vanish). */
static inline Bitboard bb_shift(Bitboard x, int dir)
{
    switch (dir) {
    case DIR_UL: return bb_ul(x);
    case DIR_UR: return bb_ur(x);
    case DIR_DL: return bb_dl(x);
    default: return bb_dr(x);
    }
}

static inline int bb_popcount(Bitboard x) { return __builtin_popcount(x); }
static inline int bb_lsb(Bitboard x) { return __builtin_ctz(x); }
static inline Bitboard bb_pop_lsb(Bitboard *x)
{
    Bitboard b = *x & (0u - *x);
    *x &= *x - 1;
    return b;
}

/* Per-square step and jump tables, filled by bb_init() (idempotent, thread-safe after the first
 * call returns). -1 means off the board. */
extern int8_t bb_step[SQUARE_NB][DIR_NB];
extern int8_t bb_jump[SQUARE_NB][DIR_NB];

void bb_init(void);

/* Row 0-7 and diagram column 0-7 (Black's back row at the top, column 0 on the left) of an index,
 * and back. bb_square_at returns -1 for a light or off-board square. */
static inline int bb_row(int sq) { return sq >> 2; }
static inline int bb_col(int sq) { return 2 * (sq & 3) + (((sq >> 2) & 1) ? 0 : 1); }
static inline int bb_square_at(int row, int col)
{
    if (row < 0 || row > 7 || col < 0 || col > 7 || ((row + col) & 1) == 0)
        return -1;
    return 4 * row + col / 2;
}
