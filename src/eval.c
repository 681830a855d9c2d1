/*
 * eval.c - the static evaluation (see eval.h).
 *
 * Both sides are scored by the same function, side_terms(), from their own seat: rows count from
 * the side's own back row, "forward" is the way its men move. The function is inlined once per
 * colour with the colour a constant, so the direction choices fold away. Every set of squares it
 * uses that is not relative to a side (centre, edges, double corners, wings) is symmetric under
 * the half turn, so both sides are scored alike (the tests check colour symmetry). Opening (mg)
 * and ending (eg) values are blended by the piece count: the weights arrive blended for each
 * phase (Weights.blend), so each term is added once, and the sum, 24 times the blended score,
 * is divided at the end, which gives exactly (mg * phase + eg * (24 - phase)) / 24. Every number
 * comes from the Weights table.
 */
#include "eval.h"

#include "bitboard.h"

#include <pthread.h>

#include <stdio.h>
#include <stdlib.h>

/* Squares seen from Black's side; all four sets are symmetric under the half turn. */
#define EVAL_CENTER 0x00666600u        /* squares 10, 11, 14, 15, 18, 19, 22, 23 */
#define EVAL_EDGE 0x18181818u          /* squares 4, 5, 12, 13, 20, 21, 28, 29: the side columns */
#define EVAL_DOUBLE_CORNER 0x88000011u /* squares 1, 5 and 28, 32 */
#define EVAL_LEFT_HALF 0x33333333u     /* columns 0-3 (diagram) */

static Bitboard cone[COLOR_NB][SQUARE_NB]; /* squares a man of a colour on sq could still reach */
static uint8_t reverse4[16];               /* a 4-bit pattern read backwards */
static uint8_t distance[SQUARE_NB][SQUARE_NB]; /* king steps between two squares (no pieces) */

static void fill_tables(void)
{
    for (int sq = 31; sq >= 0; sq--) {
        Bitboard c = 0;
        for (int d = DIR_UL; d <= DIR_UR; d++) {
            int n = bb_step[sq][d];
            if (n >= 0)
                c |= (1u << n) | cone[BLACK][n];
        }
        cone[BLACK][sq] = c;
    }
    for (int sq = 0; sq < SQUARE_NB; sq++) {
        Bitboard c = 0;
        for (int d = DIR_DL; d <= DIR_DR; d++) {
            int n = bb_step[sq][d];
            if (n >= 0)
                c |= (1u << n) | cone[WHITE][n];
        }
        cone[WHITE][sq] = c;
    }
    for (int p = 0; p < 16; p++)
        reverse4[p] = (uint8_t)(((p & 1) << 3) | ((p & 2) << 1) | ((p & 4) >> 1) | ((p & 8) >> 3));
    for (int a = 0; a < SQUARE_NB; a++)
        for (int b = 0; b < SQUARE_NB; b++) {
            int dr = bb_row(a) - bb_row(b), dc = bb_col(a) - bb_col(b);
            dr = dr < 0 ? -dr : dr;
            dc = dc < 0 ? -dc : dc;
            distance[a][b] = (uint8_t)(dr > dc ? dr : dc);
        }
}

void eval_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    bb_init();
    pthread_once(&once, fill_tables);
}

/* One step forward (the way men of US move) to the left and right of the mover. */
static inline Bitboard fwd_a(int us, Bitboard x)
{
    return us == BLACK ? bb_ul(x) : bb_dr(x);
}
static inline Bitboard fwd_b(int us, Bitboard x)
{
    return us == BLACK ? bb_ur(x) : bb_dl(x);
}

/* Terms of side US (men MEN, kings KINGS) against OMEN and OKINGS, from US's seat, with the
 * blended weights B of the position's phase and the plain values V: 24 times the blended score.
 * Material is left to the caller. */
static inline __attribute__((always_inline)) int side_terms(const int *b, const int *v, int us,
                                                            Bitboard men, Bitboard kings,
                                                            Bitboard omen, Bitboard okings)
{
    int s = 0;
    Bitboard occupied = men | kings | omen | okings;
    Bitboard empty = ~occupied;

    /* 1. Advancement of the men, row by row from their own back row. */
    for (int r = 1; r <= 6; r++)
        s += bb_popcount(men & BB_ROW(us == BLACK ? r : 7 - r)) * b[W_MAN_ROW1_MG + r - 1];

    /* 2. The back-rank guard, worth less once the opponent has a king to attack it from behind.
     * Pattern bit i: the i-th home square counted from the side's own square 1 (32 for White). */
    int pattern = us == BLACK ? (int)(men & 0xFu) : reverse4[men >> 28];
    int back = v[W_BACK_0 + pattern];
    if (okings)
        back = back * v[W_BACK_KING_SCALE] / 16;
    s += back * WEIGHT_PHASE_MAX;

    /* 3. Centre and edge. */
    s += bb_popcount(men & EVAL_CENTER) * b[W_MAN_CENTER_MG] +
         bb_popcount(kings & EVAL_CENTER) * b[W_KING_CENTER_MG] +
         bb_popcount(men & EVAL_EDGE) * b[W_MAN_EDGE_MG] +
         bb_popcount(kings & EVAL_EDGE) * b[W_KING_EDGE_MG];

    /* 4. Mobility: empty squares each piece can step to. */
    s += (bb_popcount(fwd_a(us, men) & empty) + bb_popcount(fwd_b(us, men) & empty)) *
         b[W_MAN_MOB_MG];

    /* 5. Balance of the two wings. */
    int left = bb_popcount(men & EVAL_LEFT_HALF), right = bb_popcount(men & ~EVAL_LEFT_HALF);
    s += (left > right ? left - right : right - left) * b[W_BALANCE_MG];

    /* 6. Runaways: with no opposing king, a man whose cone holds no opposing piece crowns: an
     * opposing man outside the cone moves away from it as fast as the cone narrows. */
    if (!okings) {
        Bitboard home = us == BLACK ? BB_ROW(0) : BB_ROW(7);
        Bitboard free = 0; /* found without a branch per man: which ones are free is random */
        for (Bitboard m = men & ~home; m; m &= m - 1) {
            int sq = bb_lsb(m);
            free |= (Bitboard)((cone[us][sq] & omen) == 0) << sq;
        }
        for (; free; free &= free - 1) {
            int sq = bb_lsb(free);
            int to_go = us == BLACK ? 7 - bb_row(sq) : bb_row(sq);
            s += b[W_RUNAWAY_MG] - to_go * b[W_RUNAWAY_ROW];
        }
    }

    /* 7. Kings: mobility, trapped (no move at all) and dominated (every step lands where an
     * opposing piece can take it, counting the square the king leaves as empty). All kings at
     * once, direction by direction. */
    if (kings) {
        Bitboard opp = omen | okings;
        /* Opposing pieces that move in each direction: kings all four ways, men towards US's
         * home (down for Black, up for White). */
        Bitboard attackers[DIR_NB];
        attackers[DIR_UL] = attackers[DIR_UR] = us == BLACK ? okings : opp;
        attackers[DIR_DL] = attackers[DIR_DR] = us == BLACK ? opp : okings;
        Bitboard attacked = 0;
        for (int d = 0; d < DIR_NB; d++)
            attacked |= bb_shift(attackers[d], d) & bb_shift(empty, d ^ 3);
        int moves = 0;
        Bitboard can_step = 0, can_step_safely = 0, can_jump = 0;
        for (int d = 0; d < DIR_NB; d++) {
            int rev = d ^ 3;
            moves += bb_popcount(bb_shift(kings, d) & empty);
            can_step |= bb_shift(empty, rev);
            /* A step to T is safe unless T is attacked, or the piece beyond T (in the same
             * direction) moves back over it into the square the king left. */
            Bitboard safe = empty & ~attacked & ~bb_shift(attackers[rev], rev);
            can_step_safely |= bb_shift(safe, rev);
            can_jump |= bb_shift(bb_shift(empty, rev) & opp, rev);
        }
        Bitboard stuck = kings & ~can_jump;
        s += moves * b[W_KING_MOB_MG] + bb_popcount(stuck & ~can_step) * b[W_KING_TRAPPED_MG] +
             bb_popcount(stuck & can_step & ~can_step_safely) * b[W_KING_DOMINATED_MG];
    }
    return s;
}

/* The ending drive of the stronger side's kings SK against the weaker side's kings WK, on the
 * real board (the squares involved are symmetric under the half turn). */
static int drive_terms(const int *w, Bitboard sk, Bitboard wk)
{
    int v = bb_popcount(wk & EVAL_DOUBLE_CORNER) * -w[W_WEAK_DOUBLE_CORNER];
    for (Bitboard k = sk; k && wk; k &= k - 1) {
        int a = bb_lsb(k), nearest = 7;
        for (Bitboard o = wk; o; o &= o - 1) {
            int d = distance[a][bb_lsb(o)];
            nearest = d < nearest ? d : nearest;
        }
        v += nearest * w[W_CHASE_DISTANCE];
    }
    return v;
}

int eval_board(const Weights *weights, const Board *b)
{
    const int *v = weights->v;
    Bitboard bk = b->pieces[BLACK] & b->kings, bm = b->pieces[BLACK] & ~b->kings;
    Bitboard wk = b->pieces[WHITE] & b->kings, wm = b->pieces[WHITE] & ~b->kings;
    int pieces = bb_popcount(b->pieces[BLACK] | b->pieces[WHITE]);
    int phase = pieces > EVAL_PHASE_MAX ? EVAL_PHASE_MAX : pieces;
#ifdef PONDER_CHECKED
    /* Sanitizer and debug builds: one call in 16 checks that the blend it reads matches the
     * values. */
    static _Thread_local unsigned calls;
    if ((calls++ & 15) == 0 && !weights_fresh(weights, phase)) {
        fprintf(stderr, "eval_board: weights changed without weights_refresh()\n");
        abort();
    }
#endif
    const int *w = weights->blend[phase];

    /* 1. Material, Black minus White: also who is ahead. */
    int men = bb_popcount(bm) - bb_popcount(wm), kings = bb_popcount(bk) - bb_popcount(wk);
    int mat = men * w[W_MAN_MG] + kings * w[W_KING_MG];

    /* 2. Positional terms of each side from its own seat. */
    int total =
        mat + side_terms(w, v, BLACK, bm, bk, wm, wk) - side_terms(w, v, WHITE, wm, wk, bm, bk);

    /* 3. Endings: the side ahead in material chases the other's kings (an ending term) and
     * trades down (both phases). */
    int trade = (EVAL_PHASE_MAX - phase) * v[W_TRADE_DOWN] * EVAL_PHASE_MAX;
    if (mat > 0)
        total += drive_terms(v, bk, wk) * (EVAL_PHASE_MAX - phase) + trade;
    else if (mat < 0)
        total -= drive_terms(v, wk, bk) * (EVAL_PHASE_MAX - phase) + trade;

    int score = total / EVAL_PHASE_MAX;
    return (b->side == BLACK ? score : -score) + v[W_TEMPO];
}
