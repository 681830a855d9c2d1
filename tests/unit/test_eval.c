/*
 * test_eval.c - the evaluation: colour symmetry, every number from the weights table, and the
 * sense of the main terms.
 */
#include "check.h"
#include "engine.h"
#include "eval.h"
#include "movegen.h"
#include "notation.h"
#include "weights.h"

static Bitboard reverse_bits(Bitboard x)
{
    Bitboard r = 0;
    for (int i = 0; i < SQUARE_NB; i++)
        if (x >> i & 1u)
            r |= 1u << (31 - i);
    return r;
}

/* B with the colours swapped and the board turned half a circle: the same position for the
 * other side. */
static Board mirror(const Board *b)
{
    Board m = *b;
    m.pieces[BLACK] = reverse_bits(b->pieces[WHITE]);
    m.pieces[WHITE] = reverse_bits(b->pieces[BLACK]);
    m.kings = reverse_bits(b->kings);
    m.side = b->side ^ 1;
    m.key = board_compute_key(&m);
    return m;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rng(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* Positions from random games: N positions into OUT. */
static int random_positions(Board *out, int n)
{
    int k = 0;
    while (k < n) {
        Board b;
        board_start(&b);
        for (int ply = 0; ply < 120 && k < n; ply++) {
            MoveList l;
            if (movegen_generate(&b, &RULES_ENGLISH, false, &l) == 0)
                break;
            board_apply(&b, &l.moves[rng() % (unsigned)l.count]);
            if (rng() % 4 == 0)
                out[k++] = b;
        }
    }
    return k;
}

static Board positions[2000];

static void test_symmetry(void)
{
    Weights w;
    weights_default(&w);
    int n = random_positions(positions, 2000);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        Board m = mirror(&positions[i]);
        if (eval_board(&w, &positions[i]) != eval_board(&w, &m))
            bad++;
    }
    CHECK(bad == 0);
}

/* With every weight zero the evaluation is zero everywhere: no number hides in eval.c. With
 * only the man weights set, it counts men. */
static void test_weights_drive_everything(void)
{
    Weights w;
    for (int i = 0; i < WEIGHT_NB; i++)
        w.v[i] = 0;
    int n = random_positions(positions, 500);
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (eval_board(&w, &positions[i]) != 0)
            bad++;
    CHECK(bad == 0);
    w.v[W_MAN_MG] = w.v[W_MAN_EG] = 100;
    bad = 0;
    for (int i = 0; i < n; i++) {
        const Board *b = &positions[i];
        int us = b->side;
        int men = __builtin_popcount(b->pieces[us] & ~b->kings) -
                  __builtin_popcount(b->pieces[us ^ 1] & ~b->kings);
        if (eval_board(&w, b) != 100 * men)
            bad++;
    }
    CHECK(bad == 0);
}

static int eval_fen(const Weights *w, const char *fen)
{
    Board b;
    ParseError pe;
    bool ok = notation_parse_fen(fen, &b, &pe);
    CHECK(ok);
    return ok ? eval_board(w, &b) : 0;
}

/* The start is even (only the side to move's tempo); a man up is about a man; a runaway man
 * is worth more than a blocked one; the weak side's king is better off in a double corner. */
static void test_terms(void)
{
    Weights w;
    weights_default(&w);
    CHECK(eval_fen(&w, "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12") ==
          w.v[W_TEMPO]);
    int up = eval_fen(&w, "B:W21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,11,12");
    CHECK(up > SCORE_MAN / 2 && up < 2 * SCORE_MAN);
    /* White to move in both: Black's man on 20 is free with White on 29, not with White on 32. */
    CHECK(eval_fen(&w, "W:W29:B20") < eval_fen(&w, "W:W32:B20"));
    CHECK(eval_fen(&w, "W:WK1:BK18,K19") > eval_fen(&w, "W:WK3:BK18,K19"));
}

int main(void)
{
    RUN("eval", test_symmetry);
    RUN("eval", test_weights_drive_everything);
    RUN("eval", test_terms);
    return check_total_failed ? 1 : 0;
}
