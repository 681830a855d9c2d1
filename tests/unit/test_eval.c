/*
 * test_eval.c - the evaluation: colour symmetry, every number from the weights table, and the
 * sense of the main terms.
 */
#include "check.h"
#include "engine.h"
#include "eval.h"
#include "movegen.h"
#include "notation.h"
#include "ponder.h"
#include "random_games.h"
#include "weights.h"

#include <stdarg.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull; /* random_positions()'s */

static Board positions[2000];

static void test_symmetry(void)
{
    Weights w;
    weights_default(&w);
    int n = random_positions(positions, 2000, 120, 4, &rng_state);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        Board m;
        board_turn(&positions[i], &m);
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
    weights_refresh(&w);
    int n = random_positions(positions, 500, 120, 4, &rng_state);
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (eval_board(&w, &positions[i]) != 0)
            bad++;
    CHECK(bad == 0);
    weights_set(&w, W_MAN_MG, 100);
    weights_set(&w, W_MAN_EG, 100);
    CHECK(weights_fresh(&w, -1));
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

/* All weights zero but the ones listed (pairs of id, value; ending with -1). */
static void only(Weights *w, ...)
{
    for (int i = 0; i < WEIGHT_NB; i++)
        w->v[i] = 0;
    va_list ap;
    va_start(ap, w);
    for (int id = va_arg(ap, int); id >= 0; id = va_arg(ap, int))
        w->v[id] = va_arg(ap, int);
    va_end(ap);
    weights_refresh(w);
}

/* The sense of the terms, each alone (so the test holds whatever values a tuner gives them):
 * the start is even but for the tempo; a runaway man is found as such; the weaker side's king is
 * credited for sitting in a double corner; a trapped king is found. */
static void test_terms(void)
{
    Weights w;
    weights_default(&w);
    CHECK(eval_fen(&w, "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12") ==
          w.v[W_TEMPO]);
    CHECK(eval_fen(&w, "B:W21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,11,12") > 0);

    /* White to move: Black's man on 20 is free with White on 29 (3 rows to go), not with White
     * on 32, which stands in its cone. */
    only(&w, W_RUNAWAY_MG, 50, W_RUNAWAY_EG, 50, W_RUNAWAY_ROW, 5, -1);
    CHECK(eval_fen(&w, "W:W29:B20") == -35);
    CHECK(eval_fen(&w, "W:W32:B20") == 0);
    CHECK(eval_fen(&w, "B:W13:B4") == -35); /* White's man on 13, 3 rows to go, seen by Black */

    only(&w, W_KING_MG, 100, W_KING_EG, 100, W_WEAK_DOUBLE_CORNER, 20, -1);
    /* The corner bonus is an ending term: 3 pieces blend 3/24 opening and 21/24 ending. */
    CHECK(eval_fen(&w, "W:WK1:BK18,K19") == -(3 * 100 + 21 * (100 - 20)) / 24);
    CHECK(eval_fen(&w, "W:WK3:BK18,K19") == -100);

    /* Black's king on 4 (the single corner) has one neighbour, 8, holding a White man it cannot
     * jump (11 is taken). */
    only(&w, W_KING_TRAPPED_MG, -30, W_KING_TRAPPED_EG, -30, -1);
    CHECK(eval_fen(&w, "B:W8,11:BK4,3") == -30);
}

/* The blended weights follow the values whichever way they are set: weights_set equals a change
 * of the values plus weights_refresh, a perturbation of one phase set back leaves the weights as
 * they were, and a stale blend is detected. */
static void test_blend_follows_values(void)
{
    static Weights a, b, before;
    weights_default(&a);
    b = a;
    CHECK(weights_fresh(&a, -1));
    for (int id = 0; id < WEIGHT_NB; id += 3) {
        int value = (id * 37) % 200 - 100;
        weights_set(&a, id, value);
        b.v[id] = value;
    }
    weights_refresh(&b);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    before = a;
    weights_set_phase(&a, W_MAN_ROW3_EG, 999, 7);
    CHECK(weights_fresh(&a, 7));
    CHECK(!weights_fresh(&a, 8));
    CHECK(!weights_fresh(&a, -1));
    weights_set_phase(&a, W_MAN_ROW3_EG, before.v[W_MAN_ROW3_EG], 7);
    CHECK(memcmp(&a, &before, sizeof a) == 0);
    /* A pair's blend at phase P: mg * P + eg * (24 - P); a lone weight: value * 24. */
    CHECK(a.blend[10][W_KING_MG] == a.v[W_KING_MG] * 10 + a.v[W_KING_EG] * 14);
    CHECK(a.blend[10][W_KING_EG] == a.v[W_KING_EG] * 14);
    CHECK(a.blend[10][W_TEMPO] == a.v[W_TEMPO] * 24);
}

int main(void)
{
    /* eval_board() is too hot to check its tables: a program calls this first (main.c does). */
    ponder_init();
    RUN("eval", test_symmetry);
    RUN("eval", test_weights_drive_everything);
    RUN("eval", test_terms);
    RUN("eval", test_blend_follows_values);
    return check_total_failed ? 1 : 0;
}
