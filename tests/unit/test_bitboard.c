/*
 * test_bitboard.c - the square geometry: rows and columns, the step and jump tables, the
 * direction shifts on whole sets, and the spread layout perft counts in. Everything is checked
 * against the board drawn as rows and columns, not against the shift formulas themselves.
 */
#include "bitboard.h"
#include "check.h"
#include "rng.h"

/* Row and column change of each direction (bitboard.h: UL +1 row -1 col, UR +1 +1, DL -1 -1,
 * DR -1 +1). */
static const int drow[DIR_NB] = {1, 1, -1, -1};
static const int dcol[DIR_NB] = {-1, 1, -1, 1};

/* Every index has a dark square for row and column, and back; light and off-board squares are
 * -1; each row holds four squares; square 1 is on Black's back row. */
static void test_rows_and_columns(void)
{
    for (int sq = 0; sq < SQUARE_NB; sq++) {
        int r = bb_row(sq), c = bb_col(sq);
        CHECK(r >= 0 && r < 8 && c >= 0 && c < 8);
        CHECK(((r + c) & 1) == 1);
        CHECK(bb_square_at(r, c) == sq);
        CHECK((BB_ROW(r) >> sq) & 1u);
    }
    int dark = 0;
    for (int r = -1; r <= 8; r++)
        for (int c = -1; c <= 8; c++) {
            int sq = bb_square_at(r, c);
            if (r < 0 || r > 7 || c < 0 || c > 7 || ((r + c) & 1) == 0)
                CHECK(sq == -1);
            else
                dark += sq >= 0;
        }
    CHECK(dark == SQUARE_NB);
    CHECK(BB_ROW(0) == 0xFu && BB_ROW(7) == 0xF0000000u);
    CHECK((BB_EVEN_ROWS | BB_ODD_ROWS) == 0xFFFFFFFFu && (BB_EVEN_ROWS & BB_ODD_ROWS) == 0);
}

/* bb_step and bb_jump are one and two steps on the drawn board, -1 off it. */
static void test_step_and_jump_tables(void)
{
    bb_init();
    bb_init(); /* idempotent */
    for (int sq = 0; sq < SQUARE_NB; sq++)
        for (int d = 0; d < DIR_NB; d++) {
            int r = bb_row(sq), c = bb_col(sq);
            CHECK(bb_step[sq][d] == bb_square_at(r + drow[d], c + dcol[d]));
            CHECK(bb_jump[sq][d] == bb_square_at(r + 2 * drow[d], c + 2 * dcol[d]));
        }
    /* Corners: square 4 (index 3) is on the right edge of Black's back row, 29 (index 28) on the
     * left edge of White's: each has one step, towards the middle of the board. */
    CHECK(bb_step[3][DIR_DL] == -1 && bb_step[3][DIR_DR] == -1 && bb_step[3][DIR_UR] == -1);
    CHECK(bb_step[3][DIR_UL] == 7);
    CHECK(bb_step[28][DIR_UL] == -1 && bb_step[28][DIR_UR] == -1 && bb_step[28][DIR_DL] == -1);
    CHECK(bb_step[28][DIR_DR] == 24);
}

/* Shifting a set moves each square by its own step and drops those that leave the board, so a
 * shift is the union of the shifts of its squares: checked on single squares and random sets. */
static void test_shifts(void)
{
    bb_init();
    for (int d = 0; d < DIR_NB; d++)
        for (int sq = 0; sq < SQUARE_NB; sq++) {
            int to = bb_step[sq][d];
            CHECK(bb_shift(1u << sq, d) == (to >= 0 ? 1u << to : 0u));
        }
    CHECK(bb_shift(0xFFFFFFFFu, DIR_UL) == bb_ul(0xFFFFFFFFu));
    uint64_t s = 12345;
    for (int i = 0; i < 2000; i++) {
        Bitboard x = (Bitboard)rng_splitmix64(&s);
        for (int d = 0; d < DIR_NB; d++) {
            Bitboard want = 0;
            for (Bitboard t = x; t; t &= t - 1)
                if (bb_step[bb_lsb(t)][d] >= 0)
                    want |= 1u << bb_step[bb_lsb(t)][d];
            CHECK(bb_shift(x, d) == want);
        }
    }
    /* Up, then down the other diagonal, is back where it started, for the squares that stay on
     * the board both ways. */
    for (int sq = 0; sq < SQUARE_NB; sq++) {
        Bitboard b = 1u << sq;
        if (bb_ul(b))
            CHECK(bb_dr(bb_ul(b)) == b);
        if (bb_ur(b))
            CHECK(bb_dl(bb_ur(b)) == b);
    }
}

static void test_bit_helpers(void)
{
    CHECK(bb_popcount(0) == 0 && bb_popcount(0xFFFFFFFFu) == 32 && bb_popcount(0x80000101u) == 3);
    CHECK(bb_lsb(1u) == 0 && bb_lsb(0x80000000u) == 31 && bb_lsb(0x00F00000u) == 20);
    Bitboard x = 0x00000A0Cu;
    CHECK(bb_pop_lsb(&x) == 0x4u && x == 0xA08u);
    CHECK(bb_pop_lsb(&x) == 0x8u && x == 0xA00u);
    CHECK(bb_pop_lsb(&x) == 0x200u && bb_pop_lsb(&x) == 0x800u && x == 0);
}

/* The spread layout: a round trip keeps every set, the valid bits are exactly the images of the
 * 32 squares, and a shift by 4 or 5 there is the two forward steps of a Black man (by -4 or -5
 * a White man's), whatever the row. */
static void test_spread_layout(void)
{
    bb_init();
    Spread all = 0;
    for (int sq = 0; sq < SQUARE_NB; sq++) {
        Spread one = bb_spread(1u << sq);
        CHECK(sp_popcount(one) == 1);
        all |= one;
    }
    CHECK(all == SP_VALID);
    uint64_t s = 777;
    for (int i = 0; i < 2000; i++) {
        Bitboard x = (Bitboard)rng_splitmix64(&s);
        Spread sx = bb_spread(x);
        CHECK(bb_unspread(sx) == x);
        CHECK(sp_popcount(sx) == bb_popcount(x));
        Spread up = (sp_shift(sx, SP_FWD_A(BLACK)) | sp_shift(sx, SP_FWD_B(BLACK))) & SP_VALID;
        Spread down = (sp_shift(sx, SP_FWD_A(WHITE)) | sp_shift(sx, SP_FWD_B(WHITE))) & SP_VALID;
        CHECK(bb_unspread(up) == (bb_ul(x) | bb_ur(x)));
        CHECK(bb_unspread(down) == (bb_dl(x) | bb_dr(x)));
    }
    CHECK(bb_unspread(SP_CROWN_ROW(BLACK)) == BB_ROW(7));
    CHECK(bb_unspread(SP_CROWN_ROW(WHITE)) == BB_ROW(0));
}

int main(void)
{
    RUN("bitboard", test_rows_and_columns);
    RUN("bitboard", test_step_and_jump_tables);
    RUN("bitboard", test_shifts);
    RUN("bitboard", test_bit_helpers);
    RUN("bitboard", test_spread_layout);
    return check_total_failed ? 1 : 0;
}
