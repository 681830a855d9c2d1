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

#ifdef __BMI2__
#include <immintrin.h> /* _pdep_u64, _pext_u64 */
#endif

enum { DIR_UL = 0, DIR_UR = 1, DIR_DL = 2, DIR_DR = 3, DIR_NB = 4 };

#define BB_EVEN_ROWS 0x0F0F0F0Fu /* rows holding squares 1-4, 9-12, 17-20, 25-28 */
#define BB_ODD_ROWS 0xF0F0F0F0u
#define BB_EVEN_NOT_LAST 0x07070707u /* even rows without their last square (4, 12, ...) */
#define BB_ODD_NOT_FIRST 0xE0E0E0E0u /* odd rows without their first square (5, 13, ...) */
#define BB_ROW(r) (0xFu << (4 * (r)))

static inline Bitboard bb_ul(Bitboard x)
{
    return ((x & BB_EVEN_ROWS) << 4) | ((x & BB_ODD_NOT_FIRST) << 3);
}
static inline Bitboard bb_ur(Bitboard x)
{
    return ((x & BB_EVEN_NOT_LAST) << 5) | ((x & BB_ODD_ROWS) << 4);
}
static inline Bitboard bb_dl(Bitboard x)
{
    return ((x & BB_EVEN_ROWS) >> 4) | ((x & BB_ODD_NOT_FIRST) >> 5);
}
static inline Bitboard bb_dr(Bitboard x)
{
    return ((x & BB_EVEN_NOT_LAST) >> 3) | ((x & BB_ODD_ROWS) >> 4);
}

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

static inline int bb_popcount(Bitboard x)
{
    return __builtin_popcount(x);
}
static inline int bb_lsb(Bitboard x)
{
    return __builtin_ctz(x);
}
static inline Bitboard bb_pop_lsb(Bitboard *x)
{
    Bitboard b = *x & (0u - *x);
    *x &= *x - 1;
    return b;
}

/* The board turned half a circle: square i goes to 31 - i, the mask's bits reversed. */
static inline Bitboard bb_turn(Bitboard x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    return __builtin_bswap32(x);
}

/* Per-square step and jump tables, filled by bb_init(). -1 means off the board. */
extern int8_t bb_step[SQUARE_NB][DIR_NB];
extern int8_t bb_jump[SQUARE_NB][DIR_NB];

/* Fills bb_step and bb_jump the first time it is called; idempotent and thread-safe (a caller
 * returns once the tables are full). board_init() calls it. */
void bb_init(void);

/* Row 0-7 and diagram column 0-7 (Black's back row at the top, column 0 on the left) of an index,
 * and back. bb_square_at returns -1 for a light or off-board square. */
static inline int bb_row(int sq)
{
    return sq >> 2;
}
static inline int bb_col(int sq)
{
    return 2 * (sq & 3) + (((sq >> 2) & 1) ? 0 : 1);
}
static inline int bb_square_at(int row, int col)
{
    if (row < 0 || row > 7 || col < 0 || col > 7 || ((row + col) & 1) == 0)
        return -1;
    return 4 * row + col / 2;
}

/* ---- The spread layout: one shift per diagonal step ---------------------------------------------
 *
 * Bitboard's layout needs two masks and two shifts per step because its rows alternate between
 * +3/+4 and +4/+5 neighbours. Leaving one unused "ghost" bit after every 8 squares (bit g = sq +
 * sq/8 of a uint64_t, 35 bits, ghosts at 8, 17 and 26) makes every step one shift, the same from
 * every square: UL +4, UR +5, DL -5, DR -4. A step off the left or right edge lands on a ghost bit,
 * one off the top beyond bit 34, one off the bottom falls out of the word: intersecting with a set
 * of real squares (pieces, or SP_VALID & ~occupied) discards all of them. Perft and bulk move
 * counting work in this layout; everything else keeps Bitboard (bit i = square i+1). */
typedef uint64_t Spread;

#define SP_VALID 0x7FBFDFEFFull /* bits 0-34 but the ghosts 8, 17, 26 */

/* X in the spread layout, and back. */
static inline Spread bb_spread(Bitboard x)
{
#ifdef __BMI2__
    return _pdep_u64(x, SP_VALID);
#else
    return (x & 0xFFull) | ((Spread)(x & 0xFF00u) << 1) | ((Spread)(x & 0xFF0000u) << 2) |
           ((Spread)(x & 0xFF000000u) << 3);
#endif
}
static inline Bitboard bb_unspread(Spread x)
{
#ifdef __BMI2__
    return (Bitboard)_pext_u64(x, SP_VALID);
#else
    return (Bitboard)((x & 0xFF) | ((x >> 1) & 0xFF00) | ((x >> 2) & 0xFF0000) |
                      ((x >> 3) & 0xFF000000));
#endif
}

/* X moved N squares of the spread layout (N > 0: towards square 32). N is a constant at every
 * call, so this is one shift. */
static inline Spread sp_shift(Spread x, int n)
{
    return n >= 0 ? x << n : x >> -n;
}

/* The steps of a man of colour C: SP_FWD_A is the one of 4 squares, SP_FWD_B the one of 5. */
#define SP_FWD_A(c) ((c) == BLACK ? 4 : -4)
#define SP_FWD_B(c) ((c) == BLACK ? 5 : -5)

/* The row where a man of colour C is crowned (squares 29-32 for Black, 1-4 for White). */
#define SP_CROWN_ROW(c) ((c) == BLACK ? 0x780000000ull : 0xFull)

/* The squares of S reached by a jump of N (an opponent in OPP one step away, EMPTY beyond). */
static inline Spread sp_jumps(Spread s, Spread opp, Spread empty, int n)
{
    return sp_shift(sp_shift(s, n) & opp, n) & empty;
}

static inline int sp_popcount(Spread x)
{
    return __builtin_popcountll(x);
}

/* The square index (0-31) of spread bit G. */
static inline int sp_index(int g)
{
    return g - g / 9;
}
