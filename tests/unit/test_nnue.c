/*
 * test_nnue.c - the network evaluation: features, the quantised inference against the float
 * reference (within a bound derived from the weights), every SIMD path against the portable one,
 * the file round trip, every kind of damaged file, and the engine's use of a network.
 */
#include "check.h"
#include "engine.h"
#include "movegen.h"
#include "nnue.h"
#include "nnue_random.h"
#include "notation.h"
#include "random_games.h"
#include "rules.h"

#include <math.h>
#include <unistd.h>

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint32_t rng(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}
static uint64_t games_state = 0x2545F4914F6CDD1Dull; /* random_positions()'s */

enum { NPOS = 1500 };
static Board positions[NPOS];
static int npositions;

/* The feature set and the activation of the random nets made next (the tests that cover several
 * switch them). */
static int features_set = NNUE_FEATURES;
static int act_set = NNUE_ACT_CLAMP;

/* A random quantised net of the shape (SETS first layers: 1 or BUCKETS), from SEED. */
static NnueNet *random_net_sets(int n1, int n2, int n3, int buckets, int sets, uint64_t seed,
                                bool wide)
{
    char err[ERR_LEN];
    NnueFloat f;
    if (!nnue_float_alloc(&f, features_set, n1, n2, n3, buckets, sets, act_set, err)) {
        printf("  %s\n", err);
        return NULL;
    }
    nnue_random_fill(&f, seed, wide);
    NnueNet *n = nnue_quantise(&f, err);
    nnue_float_free(&f);
    if (!n)
        printf("  %s\n", err);
    return n;
}

/* A random net with one first layer shared by the buckets. */
static NnueNet *random_net(int n1, int n2, int n3, int buckets, uint64_t seed, bool wide)
{
    return random_net_sets(n1, n2, n3, buckets, 1, seed, wide);
}

static int cmp_u16(const void *a, const void *b)
{
    return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* ---- features ----------------------------------------------------------------------------- */

static void test_features(void)
{
    /* Black to move: squares as they are. Black man on 1 (index 0), Black king on 32, White
     * man on 29, White king on 5. */
    Board b;
    board_clear(&b, BLACK);
    board_set(&b, 0, BLACK, false);
    board_set(&b, 31, BLACK, true);
    board_set(&b, 28, WHITE, false);
    board_set(&b, 4, WHITE, true);
    uint16_t f[NNUE_MAX_ACTIVE];
    int n = nnue_features(&b, f);
    CHECK(n == 4);
    CHECK(f[0] == 0 && f[1] == 32 + 31 && f[2] == 64 + 28 && f[3] == 96 + 4);
    /* White to move: White is "us" and the squares turn half a circle (o = 31 - s). */
    b.side = WHITE;
    n = nnue_features(&b, f);
    CHECK(n == 4);
    CHECK(f[0] == 31 - 28 && f[1] == 32 + 31 - 4 && f[2] == 64 + 31 - 0 && f[3] == 96 + 0);
    /* The start position: our men on 0-11, theirs on 84-95, for either side to move. */
    board_start(&b);
    n = nnue_features(&b, f);
    CHECK(n == 24);
    for (int i = 0; i < 12; i++)
        CHECK(f[i] == i && f[12 + i] == 64 + 20 + i);
    /* The mobility set: the piece features first, then 128 + o (ours that cannot move), 160 + o
     * (theirs that cannot move), 192 + o (ours they could jump), 224 + o (ours with moves, none
     * of them safe), 256 + o (theirs the same). Black men on 1, 5 and 6
     * (indices 0, 4, 5), a White man on 30 (29): the man on 1 is stuck behind the other two. */
    board_clear(&b, BLACK);
    board_set(&b, 0, BLACK, false);
    board_set(&b, 4, BLACK, false);
    board_set(&b, 5, BLACK, false);
    board_set(&b, 29, WHITE, false);
    CHECK(nnue_features_of(NNUE_FEATURES, &b, f) == 4);
    n = nnue_features_of(NNUE_FEATURES_MOBILITY, &b, f);
    CHECK(n == 5);
    CHECK(f[0] == 0 && f[1] == 4 && f[2] == 5 && f[3] == 64 + 29 && f[4] == 128 + 0);
    b.side = WHITE;
    n = nnue_features_of(NNUE_FEATURES_MOBILITY, &b, f);
    CHECK(n == 5);
    CHECK(f[0] == 31 - 29 && f[1] == 64 + 31 && f[2] == 64 + 27 && f[3] == 64 + 26 &&
          f[4] == 160 + 31);
    /* Black man on 10 (index 9), White man on 14 (13): both can move (10-15, 14-9), and each
     * could take the other (14x7, 10x17), whoever is to move. */
    board_clear(&b, BLACK);
    board_set(&b, 9, BLACK, false);
    board_set(&b, 13, WHITE, false);
    n = nnue_features_of(NNUE_FEATURES_MOBILITY, &b, f);
    CHECK(n == 3 && f[0] == 9 && f[1] == 64 + 13 && f[2] == 192 + 9);
    b.side = WHITE;
    n = nnue_features_of(NNUE_FEATURES_MOBILITY, &b, f);
    CHECK(n == 3 && f[0] == 31 - 13 && f[1] == 64 + 31 - 9 && f[2] == 192 + 31 - 13);
    /* Black man on 10 (index 9), White man on 18 (17): either move of each is met by a jump
     * (10-14 18x9, 10-15 18x11; 18-14 10x17, 18-15 10x19), so neither has a safe move. */
    board_clear(&b, BLACK);
    board_set(&b, 9, BLACK, false);
    board_set(&b, 17, WHITE, false);
    n = nnue_features_of(NNUE_FEATURES_MOBILITY, &b, f);
    CHECK(n == 4 && f[0] == 9 && f[1] == 64 + 17 && f[2] == 224 + 9 && f[3] == 256 + 17);
    b.side = WHITE;
    n = nnue_features_of(NNUE_FEATURES_MOBILITY, &b, f);
    CHECK(n == 4 && f[0] == 31 - 17 && f[1] == 64 + 31 - 9 && f[2] == 224 + 31 - 17 &&
          f[3] == 256 + 31 - 9);
    /* A black king there instead: it can step back to 6 or 7 (indices 5, 6) safely. */
    board_set(&b, 9, BLACK, true);
    b.side = BLACK;
    n = nnue_features_of(NNUE_FEATURES_MOBILITY, &b, f);
    CHECK(n == 3 && f[0] == 32 + 9 && f[1] == 64 + 17 && f[2] == 256 + 17);
    /* In the start position the two back rows of each side cannot move, and nothing can be
     * taken. */
    board_start(&b);
    n = nnue_features_of(NNUE_FEATURES_MOBILITY, &b, f);
    CHECK(n == 24 + 8 + 8);
    for (int i = 0; i < 8; i++)
        CHECK(f[24 + i] == 128 + i && f[32 + i] == 160 + 24 + i);
    /* Buckets: 1-6 pieces -> 0, 7-12 -> 1, 13-18 -> 2, 19-24 -> 3 with B = 4. */
    CHECK(nnue_bucket(&b, 4) == 3);
    CHECK(nnue_bucket(&b, 1) == 0);
    CHECK(nnue_bucket(&b, 8) == 7);
    int want4[25] = {0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3};
    for (int pieces = 1; pieces <= 24; pieces++) {
        board_clear(&b, BLACK);
        for (int s = 0; s < pieces; s++)
            board_set(&b, s + (s >= 12 ? 8 : 0), s % 2 ? WHITE : BLACK, false);
        CHECK(nnue_bucket(&b, 4) == want4[pieces]);
    }
}

/* Whether a piece of colour C (a king or not) may step or jump in direction D. */
static bool may_go(int c, bool king, int d)
{
    return king || (c == BLACK ? d <= DIR_UR : d >= DIR_DL);
}

/* Whether the piece of colour C that has just stepped from FROM to TO on B (not yet moved there)
 * could be jumped at once: a piece of the other colour next to TO that may jump it onto a square
 * beyond that is empty once the piece has left FROM. */
static bool step_loses_piece(const Board *b, int c, int from, int to)
{
    for (int d = 0; d < DIR_NB; d++) {
        int at = bb_step[to][d ^ 3], land = bb_step[to][d]; /* a jumper going D over TO */
        if (at < 0 || land < 0 || board_color_at(b, at) != (c ^ 1))
            continue;
        if (may_go(c ^ 1, board_is_king(b, at), d) && (land == from || board_color_at(b, land) < 0))
            return true;
    }
    return false;
}

/* The mobility features of random positions against a square-by-square reading of the rules:
 * a piece can move when a square it may step to is empty (the features name the ones that
 * cannot); it has no safe move when it can move but each step is met by a jump of the piece
 * moved; one of ours is in danger when a piece of theirs next to it may jump it (a man forwards
 * only) onto an empty square beyond. */
static void test_mobility_features(void)
{
    int bad = 0, seen[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < npositions; i++) {
        const Board *b = &positions[i];
        int us = b->side, flip = us == BLACK ? 0 : 31;
        Bitboard can[2] = {0, 0}, safe[2] = {0, 0}, want[5] = {0, 0, 0, 0, 0};
        Bitboard empty = board_empty(b);
        for (int sq = 0; sq < SQUARE_NB; sq++) {
            int c = board_color_at(b, sq);
            if (c < 0)
                continue;
            int side = c == us ? 0 : 1;
            for (int d = 0; d < DIR_NB; d++) {
                if (!may_go(c, board_is_king(b, sq), d))
                    continue;
                int to = bb_step[sq][d], over = to, land = bb_jump[sq][d];
                if (to >= 0 && (empty >> to & 1u)) {
                    can[side] |= 1u << sq;
                    if (!step_loses_piece(b, c, sq, to))
                        safe[side] |= 1u << sq;
                }
                if (c != us && land >= 0 && (empty >> land & 1u) && board_color_at(b, over) == us)
                    want[2] |= 1u << over;
            }
        }
        want[0] = b->pieces[us] & ~can[0];
        want[1] = b->pieces[us ^ 1] & ~can[1];
        want[3] = can[0] & ~safe[0];
        want[4] = can[1] & ~safe[1];
        uint16_t f[NNUE_MAX_ACTIVE];
        int n = nnue_features_of(NNUE_FEATURES_MOBILITY, b, f), np = nnue_features(b, f);
        Bitboard got[5] = {0, 0, 0, 0, 0};
        for (int j = np; j < n; j++) {
            int kind = (f[j] - NNUE_FEATURES) / 32;
            if (f[j] < NNUE_FEATURES || kind > 4)
                bad++;
            else
                got[kind] |= 1u << ((f[j] % 32) ^ flip);
        }
        for (int k = 0; k < 5; k++) {
            bad += got[k] != want[k];
            seen[k] += want[k] != 0;
        }
    }
    CHECK(bad == 0);
    CHECK(seen[0] > npositions / 2 && seen[1] > npositions / 2 && seen[2] > npositions / 10);
    CHECK(seen[3] > npositions / 10 && seen[4] > npositions / 10);
}

/* What the side to move of B wins by captures, both sides taking their best (at most PLIES deep,
 * men 2 and kings 3): the shot set's exchange, by the move generator and board_apply. */
static int ref_capture_gain(const Board *b, int plies)
{
    if (plies == 0 || !movegen_jumpers(b))
        return 0;
    MoveList list;
    int n = movegen_generate(b, &RULES_ENGLISH, false, &list), best = -1000;
    for (int i = 0; i < n; i++) {
        Bitboard c = list.moves[i].captured;
        Board child = *b;
        board_apply(&child, &list.moves[i]);
        int v =
            2 * bb_popcount(c) + bb_popcount(c & b->kings) - ref_capture_gain(&child, plies - 1);
        if (v > best)
            best = v;
    }
    return best;
}

/* The shot features (288 + o) of a quiet position by the rules' own moves: each simple move
 * played, the other side's forced captures and ours played out by material, a man or more won. */
static Bitboard ref_shots(const Board *b)
{
    MoveList list;
    int n = movegen_generate(b, &RULES_ENGLISH, false, &list);
    Bitboard shots = 0;
    for (int i = 0; i < n; i++) {
        Board child = *b;
        board_apply(&child, &list.moves[i]);
        if (movegen_jumpers(&child) && ref_capture_gain(&child, 8) <= -2)
            shots |= 1u << list.moves[i].from;
    }
    return shots;
}

static Bitboard shot_squares(const Board *b)
{
    uint16_t f[NNUE_MAX_ACTIVE];
    int n = nnue_features_of(NNUE_FEATURES_SHOTS, b, f), flip = b->side == BLACK ? 0 : 31;
    Bitboard got = 0;
    for (int j = 0; j < n; j++)
        if (f[j] >= NNUE_FEATURES_MOBILITY)
            got |= 1u << ((f[j] - NNUE_FEATURES_MOBILITY) ^ flip);
    return got;
}

/* The shot set: the mobility set's features first, in the same order, then the pieces with a
 * shot as the rules' own moves find them, on random quiet positions and on a made one. */
static void test_shot_features(void)
{
    /* Black to move: 6-10 (index 5 to 9) gives a man; 15x6 (14 over 9) is met by 2x9x18 and
     * 14x7 by 2x11x18, two for one either way; 6-9 gives one for nothing, 2-7 gives none. */
    Board b;
    board_clear(&b, BLACK);
    board_set(&b, 1, BLACK, false);
    board_set(&b, 5, BLACK, false);
    board_set(&b, 13, WHITE, false);
    board_set(&b, 14, WHITE, false);
    CHECK(shot_squares(&b) == 1u << 5 && ref_shots(&b) == 1u << 5);
    Board m;
    board_turn(&b, &m); /* the same from White's seat */
    CHECK(shot_squares(&m) == 1u << 26);
    board_set(&b, 17, WHITE, false); /* 2x9x18 is now 2x9 alone: 15x6 wins the man back */
    CHECK(shot_squares(&b) == 0 && ref_shots(&b) == 0);

    int bad = 0, quiet = 0, with = 0;
    for (int i = 0; i < npositions; i++) {
        const Board *p = &positions[i];
        uint16_t f[NNUE_MAX_ACTIVE], g[NNUE_MAX_ACTIVE];
        int n = nnue_features_of(NNUE_FEATURES_SHOTS, p, f);
        int nm = nnue_features_of(NNUE_FEATURES_MOBILITY, p, g);
        bad += n < nm || memcmp(f, g, (size_t)nm * sizeof f[0]) != 0;
        for (int j = nm; j < n; j++)
            bad += f[j] < NNUE_FEATURES_MOBILITY || f[j] >= NNUE_FEATURES_SHOTS;
        /* The position and those one move on: the network scores quiet positions only. */
        MoveList list;
        int nmoves = movegen_generate(p, &RULES_ENGLISH, false, &list);
        for (int k = -1; k < nmoves; k++) {
            Board c = *p;
            if (k >= 0)
                board_apply(&c, &list.moves[k]);
            if (movegen_jumpers(&c))
                continue;
            quiet++;
            Bitboard want = ref_shots(&c);
            bad += shot_squares(&c) != want;
            with += want != 0;
        }
    }
    printf("  %d quiet positions, %d with a shot\n", quiet, with);
    CHECK(bad == 0);
    CHECK(quiet > 2 * npositions && with > quiet / 200);
}

/* The same position seen from the other seat (colours swapped, board turned) has the same
 * features, so every network scores it the same. */
static void check_seat_symmetry(int features)
{
    features_set = features;
    NnueNet *net = random_net(64, 32, 32, 4, 11, false);
    features_set = NNUE_FEATURES;
    CHECK(net != NULL);
    if (!net)
        return;
    int bad = 0;
    for (int i = 0; i < npositions; i++) {
        const Board *b = &positions[i];
        Board m;
        board_turn(b, &m);
        uint16_t f1[NNUE_MAX_ACTIVE], f2[NNUE_MAX_ACTIVE];
        int n1 = nnue_features_of(features, b, f1), n2 = nnue_features_of(features, &m, f2);
        qsort(f1, (size_t)n1, sizeof f1[0], cmp_u16);
        qsort(f2, (size_t)n2, sizeof f2[0], cmp_u16);
        if (n1 != n2 || memcmp(f1, f2, (size_t)n1 * sizeof f1[0]) != 0 ||
            nnue_evaluate(net, b) != nnue_evaluate(net, &m))
            bad++;
    }
    CHECK(bad == 0);
    nnue_free(net);
}

static void test_seat_symmetry(void)
{
    check_seat_symmetry(NNUE_FEATURES);
    check_seat_symmetry(NNUE_FEATURES_MOBILITY);
    check_seat_symmetry(NNUE_FEATURES_SHOTS);
}

/* ---- quantised against float ------------------------------------------------------------------
 */

/* The bound on |quantised score - S * float logit| for bucket K of NET, with the float model
 * the dequantised net (the same weights exactly):
 *   h1: the accumulator is exact (integers at scale 127), so h1q / 127 = h1; a pairwise layer's
 *       product c0 c1 / 127^2 is rounded to round(c0 c1 * 258 / 2^15), within 0.5 + 16129 *
 *       |258 / 2^15 - 1 / 127| < 0.508 of 127 h1: |h1 - h1q / 127| < 0.508 / 127 =: e1.
 *   h2: h2q = floor(s2 / 64) of the sum at scale 127 * 64, clamped: with h1 exact, 0 <= h2 -
 *       h2q/127 < 1/127 (clamping to [0, 1] never widens a gap); with e1, the sum is off by at
 *       most sum_j |W2[i][j]| e1 more: |h2_i - h2q_i / 127| < (0.508 sum_j |W2[i][j]| + 1) / 127
 *       =: e2_i.
 *   h3: the sum sees h2's errors through W3, then floors again:
 *       |h3_i - h3q_i / 127| < (sum_j |W3[i][j]| 127 e2_j + 1) / 127 =: e3_i.
 *   y:  |y - out / (127 * 256)| <= sum_i |w4_i| e3_i, and the score truncates out * S / 32512,
 *       which adds less than one more: the bound is S * sum_i |w4_i| e3_i + 1. */
static double score_bound(const NnueFloat *f, int k)
{
    double e2[NNUE_N23_MAX]; /* in units of 1/127 */
    int m = nnue_l2_inputs(f->act, f->n1);
    for (int i = 0; i < f->n2; i++) {
        double row = 0;
        for (int j = 0; f->act == NNUE_ACT_PAIR && j < m; j++)
            row += fabs(f->w2[((size_t)k * f->n2 + i) * (size_t)m + (size_t)j]);
        e2[i] = 0.508 * row + 1;
    }
    double ey = 0;
    for (int i = 0; i < f->n3; i++) {
        double row = 0;
        for (int j = 0; j < f->n2; j++)
            row += fabs(f->w3[((size_t)k * f->n3 + i) * f->n2 + j]) * e2[j];
        ey += fabs(f->w4[(size_t)k * f->n3 + i]) * (row + 1) / 127.0;
    }
    return f->scale * ey + 1;
}

static void check_against_float(int n1, int n2, int n3, int buckets, int sets, uint64_t seed,
                                bool wide)
{
    NnueNet *net = random_net_sets(n1, n2, n3, buckets, sets, seed, wide);
    CHECK(net != NULL);
    if (!net)
        return;
    char err[ERR_LEN];
    NnueFloat f;
    CHECK(nnue_dequantise(net, &f, err));
    double bound[NNUE_MAX_BUCKETS], worst = 0, sum = 0;
    for (int k = 0; k < buckets; k++)
        bound[k] = score_bound(&f, k);
    int over = 0, mismatch = 0, distinct = 0, last = 0, paths[NNUE_PATHS] = {0};
    for (int i = 0; i < npositions; i++) {
        const Board *b = &positions[i];
        int q = nnue_evaluate(net, b), p = nnue_evaluate_portable(net, b);
        /* Every path this build has and this CPU runs, not only the fastest. */
        for (int path = 0; path < NNUE_PATHS; path++) {
            int v;
            if (nnue_evaluate_path(net, b, path, &v)) {
                paths[path]++;
                if (v != p)
                    mismatch++;
            }
        }
        double ref = nnue_float_forward(&f, b) * f.scale, lim = SCORE_DECISIVE - 1;
        ref = ref > lim ? lim : ref < -lim ? -lim : ref;
        double d = fabs(q - ref);
        if (d > bound[nnue_bucket(b, buckets)] + 1e-6)
            over++;
        if (d > worst)
            worst = d;
        sum += d;
        if (p != q)
            mismatch++;
        if (i == 0 || q != last)
            distinct++;
        last = q;
    }
    printf("  n1 %d n2 %d n3 %d B %d%s%s%s: |quantised - float| mean %.2f max %.2f, bound "
           "(bucket 0) %.1f; paths compared:%s%s%s\n",
           n1, n2, n3, buckets, sets > 1 ? " split" : "", wide ? " wide" : "",
           act_set == NNUE_ACT_PAIR ? " pairwise" : "", sum / npositions, worst, bound[0],
           paths[NNUE_PATH_PORTABLE] ? " portable" : "", paths[NNUE_PATH_AVX2] ? " avx2" : "",
           paths[NNUE_PATH_AVX512] ? " avx512" : "");
    CHECK(paths[NNUE_PATH_PORTABLE] == npositions);
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    /* An x86 build has the AVX2 form (compiled for it, or for any x86 and chosen at run time);
     * one for any x86 has the AVX-512 form too, for a CPU with F, BW, VL and VNNI. */
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        CHECK(paths[NNUE_PATH_AVX2] == npositions);
#ifndef __AVX2__
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni"))
        CHECK(paths[NNUE_PATH_AVX512] == npositions);
#endif
#endif
    CHECK(over == 0);
    CHECK(mismatch == 0);
    CHECK(distinct > npositions / 4); /* the scores vary: the test is not comparing zeros */
    nnue_float_free(&f);
    nnue_free(net);
}

static void test_quantised_matches_float(void)
{
    check_against_float(32, 32, 32, 1, 1, 1, false);
    check_against_float(128, 32, 32, 4, 1, 2, false);
    check_against_float(256, 32, 32, 4, 1, 3, false);
    check_against_float(96, 64, 32, 3, 1, 4, false);
    check_against_float(256, 32, 32, 4, 1, 5, true);
    check_against_float(1024, 256, 256, 8, 1, 6, false);
    /* One first layer per bucket. */
    check_against_float(256, 32, 32, 4, 4, 7, false);
    check_against_float(96, 64, 32, 3, 3, 8, true);
    check_against_float(1024, 256, 256, 8, 8, 9, false);
    /* The mobility set. */
    features_set = NNUE_FEATURES_MOBILITY;
    check_against_float(256, 32, 32, 4, 1, 10, false);
    check_against_float(96, 64, 32, 3, 3, 11, true);
    /* The shot set. */
    features_set = NNUE_FEATURES_SHOTS;
    check_against_float(256, 32, 32, 4, 1, 12, false);
    check_against_float(96, 64, 32, 3, 3, 13, true);
    features_set = NNUE_FEATURES;
    /* Pairwise first layers: each path's products, shared and split, every set, the largest. */
    act_set = NNUE_ACT_PAIR;
    check_against_float(64, 32, 32, 1, 1, 14, false);
    check_against_float(256, 32, 32, 4, 1, 15, false);
    check_against_float(192, 64, 32, 3, 3, 16, true);
    check_against_float(1024, 256, 256, 8, 1, 17, false);
    features_set = NNUE_FEATURES_MOBILITY;
    check_against_float(512, 32, 32, 4, 1, 18, false);
    features_set = NNUE_FEATURES_SHOTS;
    check_against_float(128, 32, 32, 4, 4, 19, true);
    features_set = NNUE_FEATURES;
    act_set = NNUE_ACT_CLAMP;
}

/* The float model quantised directly (weights rounded too): the scores stay close to the float
 * model's, a sanity check on nnue_quantise's scales. */
static void test_quantise_scales(void)
{
    char err[ERR_LEN];
    NnueFloat f;
    CHECK(nnue_float_alloc(&f, NNUE_FEATURES, 256, 32, 32, 4, 1, NNUE_ACT_CLAMP, err));
    nnue_random_fill(&f, 77, false);
    NnueNet *net = nnue_quantise(&f, err);
    CHECK(net != NULL);
    if (!net)
        return;
    double sum = 0;
    for (int i = 0; i < npositions; i++)
        sum += fabs(nnue_evaluate(net, &positions[i]) - nnue_float_forward(&f, &positions[i]) * 80);
    printf("  quantised from float: mean |difference| %.2f\n", sum / npositions);
    CHECK(sum / npositions < 50); /* a wrong scale would be off by hundreds */
    /* Rounding is half away from zero; out-of-range values saturate. */
    f.w2[1] = 0.5f / 64; /* exactly half a step (a power of two apart) */
    f.w2[2] = -0.5f / 64;
    f.w2[3] = 1.5f / 64;
    f.w1[2] = 1000;
    f.w2[0] = -10;
    f.b4[0] = 1e30f;
    NnueNet *m = nnue_quantise(&f, err);
    CHECK(m && m->w2[1] == 1 && m->w2[2] == -1 && m->w2[3] == 2 && m->w1[2] == INT16_MAX &&
          m->w2[0] == INT8_MIN && m->b4[0] == INT32_MAX);
    nnue_free(m);
    nnue_free(net);
    nnue_float_free(&f);
}

/* Weights at the int8 and int16 extremes, where a SIMD shortcut would saturate or overflow:
 * both paths still agree. */
static void test_extremes(void)
{
    NnueNet *net = random_net(64, 32, 32, 2, 9, true);
    CHECK(net != NULL);
    if (!net)
        return;
    for (int pass = 0; pass < 8; pass++) {
        size_t b = (size_t)net->buckets;
        if (pass >= 6) {
            /* First-layer biases far below zero: the second layer's inputs are mostly zeros
             * (pass 6: one lane in 13 can be on; pass 7: none, every input zero). */
            for (size_t i = 0; i < NNUE_FEATURES * 64; i++)
                net->w1[i] = (int16_t)(i % 3 == 0 ? 100 : -50);
            for (size_t j = 0; j < 64; j++)
                net->b1[j] = (int16_t)(pass == 6 && j % 13 == 0 ? 0 : -30000);
            goto score;
        }
        if (pass == 3) {
            /* Biases near INT32_MIN under negative dot products: an int32 sum would wrap to a
             * large positive one (activation 127 instead of 0). */
            for (size_t i = 0; i < NNUE_FEATURES * 64; i++)
                net->w1[i] = (int16_t)(i % 3 == 0 ? 3000 : -200);
            for (size_t i = 0; i < b * 32 * 64; i++)
                net->w2[i] = INT8_MIN;
            for (size_t i = 0; i < b * 32 * 32; i++)
                net->w3[i] = INT8_MAX;
            for (size_t i = 0; i < b * 32; i++) {
                net->b2[i] = INT32_MIN + (int32_t)(i % 7);
                net->b3[i] = 0;
                net->w4[i] = INT16_MAX;
            }
            net->b4[0] = net->b4[1] = 0;
            goto score;
        }
        if (pass >= 4) {
            /* Hidden biases across the range the AVX2 path clamps (+-2^25) and beyond it
             * (pass 4), and around the activation's thresholds 0 and 127 * 64 (pass 5). */
            for (size_t i = 0; i < b * 32; i++) {
                uint32_t h = (uint32_t)(i + 1) * 2654435761u;
                net->b2[i] = net->b3[i] = pass == 4 ? (int32_t)(h % (1u << 27)) - (1 << 26)
                                                    : (int32_t)(h % 20000u) - 10000;
            }
            goto score;
        }
        for (size_t i = 0; i < b * 32 * 64; i++)
            net->w2[i] = pass == 0 ? INT8_MIN : pass == 1 ? INT8_MAX : (i & 1 ? INT8_MIN : 127);
        for (size_t i = 0; i < b * 32 * 32; i++)
            net->w3[i] = pass == 1 ? INT8_MIN : INT8_MAX;
        for (size_t i = 0; i < NNUE_FEATURES * 64; i++)
            net->w1[i] = (int16_t)(pass == 2 ? INT16_MAX : i % 3 == 0 ? 3000 : -200);
        for (size_t i = 0; i < b * 32; i++) {
            net->w4[i] = pass == 2 ? INT16_MIN : INT16_MAX;
            net->b2[i] = net->b3[i] = pass == 1 ? INT32_MAX : INT32_MIN + 5;
        }
        net->b4[0] = net->b4[1] = pass == 0 ? INT32_MAX : INT32_MIN;
    score:;
        int mismatch = 0;
        for (int i = 0; i < npositions; i++) {
            int q = nnue_evaluate(net, &positions[i]);
            if (q != nnue_evaluate_portable(net, &positions[i]) || q > SCORE_DECISIVE - 1 ||
                q < -(SCORE_DECISIVE - 1))
                mismatch++;
        }
        CHECK(mismatch == 0);
    }
    nnue_free(net);
}

/* nnue_evaluate_features scores a position given by its features and bucket as nnue_evaluate
 * scores the board; out-of-range indices and buckets are clamped, never read past the arrays. */
static void test_evaluate_features(void)
{
    for (int run = 0; run < 6; run++) {
        int sets = run % 2 ? 3 : 1;
        features_set = run < 2   ? NNUE_FEATURES
                       : run < 4 ? NNUE_FEATURES_MOBILITY
                                 : NNUE_FEATURES_SHOTS;
        NnueNet *net = random_net_sets(96, 32, 32, 3, sets, 61 + (uint64_t)run, false);
        features_set = NNUE_FEATURES;
        CHECK(net != NULL);
        if (!net)
            return;
        int diff = 0;
        for (int i = 0; i < npositions; i++) {
            uint16_t f[NNUE_MAX_ACTIVE], back[NNUE_MAX_ACTIVE];
            int nf = nnue_features_of(net->features, &positions[i], f);
            for (int j = 0; j < nf; j++)
                back[nf - 1 - j] = f[j]; /* any order */
            diff += nnue_evaluate_features(net, back, nf, nnue_bucket(&positions[i], 3)) !=
                    nnue_evaluate(net, &positions[i]);
        }
        CHECK(diff == 0);
        uint16_t odd[2] = {400, 0}, zero[2] = {0, 0}; /* 400: past every set */
        CHECK(nnue_evaluate_features(net, odd, 2, 99) == nnue_evaluate_features(net, zero, 2, 2));
        CHECK(nnue_evaluate_features(net, odd, 2, -5) == nnue_evaluate_features(net, zero, 2, 0));
        nnue_free(net);
    }
}

/* ---- incremental updates ------------------------------------------------------------------ */

/* Along random games (captures, multi-jumps, crowning included), each position's accumulators
 * updated from the previous position's equal the ones computed from scratch, and score the
 * same as the full evaluation; also between two unrelated positions. */
static void test_incremental(void)
{
    /* Then two of the mobility set and one of the shot set, whose updates recompute; the last
     * three pairwise (pieces, pieces split, mobility). */
    int shapes[11][3] = {{128, 4, 1}, {256, 4, 1}, {96, 1, 1}, {128, 4, 4},
                         {64, 3, 3},  {256, 4, 1}, {64, 3, 3}, {64, 3, 1},
                         {128, 4, 1}, {64, 3, 3},  {256, 4, 1}};
    for (int s = 0; s < 11; s++) {
        features_set = s < 5 || s == 8 || s == 9 ? NNUE_FEATURES
                       : s < 7 || s == 10        ? NNUE_FEATURES_MOBILITY
                                                 : NNUE_FEATURES_SHOTS;
        act_set = s >= 8 ? NNUE_ACT_PAIR : NNUE_ACT_CLAMP;
        NnueNet *net = random_net_sets(shapes[s][0], 32, 32, shapes[s][1], shapes[s][2],
                                       51 + (uint64_t)s, s == 2);
        features_set = NNUE_FEATURES;
        act_set = NNUE_ACT_CLAMP;
        CHECK(net != NULL);
        if (!net)
            return;
        size_t size = nnue_acc_size(net);
        CHECK(size == 2 * (size_t)shapes[s][0] * 2);
        int16_t *a = aligned_alloc(32, size), *c = aligned_alloc(32, size),
                *full = aligned_alloc(32, size);
        int differ = 0, scores = 0, moves = 0, captures = 0, crowns = 0, across = 0;
        for (int game = 0; game < 40; game++) {
            Board b;
            board_start(&b);
            nnue_acc_refresh(net, &b, a);
            for (int ply = 0; ply < 150; ply++) {
                MoveList l;
                if (movegen_generate(&b, &RULES_ENGLISH, false, &l) == 0)
                    break;
                const Move *m = &l.moves[rng() % (unsigned)l.count];
                captures += m->captured != 0;
                crowns += (m->flags & MOVE_CROWNS) != 0;
                Board child = b;
                board_apply(&child, m);
                across += nnue_bucket(&b, net->buckets) != nnue_bucket(&child, net->buckets);
                nnue_acc_update(net, &b, &child, a, c);
                nnue_acc_refresh(net, &child, full);
                differ += memcmp(c, full, size) != 0;
                scores += nnue_evaluate_acc(net, &child, c) != nnue_evaluate(net, &child) ||
                          nnue_evaluate(net, &child) != nnue_evaluate_portable(net, &child);
                memcpy(a, c, size);
                b = child;
                moves++;
            }
        }
        CHECK(differ == 0);
        CHECK(scores == 0);
        CHECK(moves > 1000 && captures > 100 && crowns > 10);
        CHECK(net->buckets == 1 || across > 40); /* split nets: updates across buckets met */
        /* Between unrelated positions the difference of the boards is applied all the same. */
        for (int i = 0; i + 1 < 200; i++) {
            nnue_acc_refresh(net, &positions[i], a);
            nnue_acc_update(net, &positions[i], &positions[i + 1], a, c);
            nnue_acc_refresh(net, &positions[i + 1], full);
            differ += memcmp(c, full, size) != 0;
        }
        CHECK(differ == 0);
        free(a);
        free(c);
        free(full);
        nnue_free(net);
    }
}

/* ---- files -------------------------------------------------------------------------------- */

static void test_round_trip(void)
{
    NnueNet *net = random_net(160, 64, 32, 3, 21, false);
    CHECK(net != NULL);
    if (!net)
        return;
    size_t size = nnue_write(net, NULL, 0);
    CHECK(size == nnue_file_size(NNUE_FEATURES, 160, 64, 32, 3, 1, NNUE_ACT_CLAMP));
    CHECK(size == 64 + 2 * 128 * 160 + 2 * 160 +
                      3 * (64 * 160 + 4 * 64 + 32 * 64 + 4 * 32 + 2 * 32 + 4) + 4);
    unsigned char *buf = malloc(size);
    CHECK(nnue_write(net, buf, size - 1) == size); /* too small: nothing written */
    CHECK(nnue_write(net, buf, size) == size);
    CHECK(memcmp(buf, "PONDNET", 8) == 0);
    char err[ERR_LEN];
    NnueNet *back = nnue_read(buf, size, "mem", err);
    CHECK(back != NULL);
    if (back) {
        CHECK(back->n1 == 160 && back->n2 == 64 && back->n3 == 32 && back->buckets == 3 &&
              back->scale == 80);
        CHECK_STR(back->name, "random");
        CHECK(memcmp(back->w1, net->w1, 128 * 160 * 2) == 0);
        CHECK(memcmp(back->w2, net->w2, 3 * 64 * 160) == 0);
        CHECK(memcmp(back->b3, net->b3, 3 * 32 * 4) == 0);
        CHECK(memcmp(back->w4, net->w4, 3 * 32 * 2) == 0);
        CHECK(memcmp(back->b4, net->b4, 3 * 4) == 0);
        int diff = 0;
        for (int i = 0; i < npositions; i++)
            diff += nnue_evaluate(net, &positions[i]) != nnue_evaluate(back, &positions[i]);
        CHECK(diff == 0);
        nnue_free(back);
    }
    /* Through a file. */
    char path[64];
    snprintf(path, sizeof path, "/tmp/test_nnue_%d.pnet", (int)getpid());
    CHECK(nnue_save(net, path, err));
    back = nnue_load(path, err);
    CHECK(back != NULL);
    if (back) {
        unsigned char *again = malloc(size);
        CHECK(nnue_write(back, again, size) == size && memcmp(again, buf, size) == 0);
        free(again);
        nnue_free(back);
    }
    remove(path);
    CHECK(nnue_load(path, err) == NULL);
    CHECK(strstr(err, "cannot open") != NULL && strstr(err, path) == err);
    CHECK(!nnue_save(net, "/nonexistent-dir/x.pnet", err));
    CHECK(strstr(err, "cannot create /nonexistent-dir/x.pnet") == err);
    free(buf);
    nnue_free(net);
}

static uint32_t fnv(const unsigned char *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> 8 * i);
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Reads BUF (SIZE bytes, with the checksum made right again when FIX) and expects a failure
 * whose message contains WANT. */
static void expect_damage(const unsigned char *good, size_t good_size, int at, uint32_t value,
                          int width, long resize, bool fix, const char *want)
{
    size_t size = (size_t)((long)good_size + resize);
    unsigned char *buf = calloc(1, size + 8);
    memcpy(buf, good, size < good_size ? size : good_size);
    if (at >= 0) {
        if (width == 4)
            put32(buf + at, value);
        else
            buf[at] = (unsigned char)value;
    }
    if (fix && size >= 4)
        put32(buf + size - 4, fnv(buf, size - 4));
    char err[ERR_LEN];
    NnueNet *n = nnue_read(buf, size, "net.pnet", err);
    if (n || !strstr(err, want) || strncmp(err, "net.pnet: ", 10) != 0) {
        printf("  damage at %d (%u): got \"%s\", expected \"%s\"\n", at, value, n ? "(read)" : err,
               want);
        check_failed++;
    }
    nnue_free(n);
    free(buf);
}

static void test_damaged_files(void)
{
    NnueNet *net = random_net(64, 32, 32, 2, 31, false);
    CHECK(net != NULL);
    if (!net)
        return;
    size_t size = nnue_write(net, NULL, 0);
    unsigned char *good = malloc(size);
    nnue_write(net, good, size);
    char err[ERR_LEN];
    NnueNet *ok = nnue_read(good, size, "net.pnet", err);
    CHECK(ok != NULL);
    nnue_free(ok);

    expect_damage(good, size, -1, 0, 0, -(long)size + 10, false, "10 bytes, too short");
    expect_damage(good, size, 0, 'p', 1, 0, true, "not a Ponder network");
    expect_damage(good, size, 7, 'x', 1, 0, true, "not a Ponder network");
    expect_damage(good, size, 8, 4, 4, 0, true, "version 4 is not supported");
    expect_damage(good, size, 8, 0, 4, 0, true, "version 0 is not supported");
    /* Version 2 says how many first layers: one per bucket, never 0 or another count. */
    expect_damage(good, size, 8, 2, 4, 0, true, "first layers = 0: a version 2 net has one per");
    expect_damage(good, size, 12, 127, 4, 0, true, "features = 127, expected 128");
    /* Session 29's mobility set (224 inputs) became 288: such a file is named and refused. */
    expect_damage(good, size, 12, 224, 4, 0, true,
                  "features = 224, expected 128 (pieces), 288 (mobility) or 320 (shots)");
    expect_damage(good, size, 16, 33, 4, 0, true, "n1 = 33 is not a multiple of 32");
    expect_damage(good, size, 16, 0, 4, 0, true, "n1 = 0 is outside 32..1024");
    expect_damage(good, size, 16, 2048, 4, 0, true, "n1 = 2048 is outside 32..1024");
    expect_damage(good, size, 16, 0xffffffffu, 4, 0, true, "n1 = 1073741824 is outside");
    expect_damage(good, size, 20, 512, 4, 0, true, "n2 = 512 is outside 32..256");
    expect_damage(good, size, 24, 40, 4, 0, true, "n3 = 40 is not a multiple of 32");
    expect_damage(good, size, 28, 0, 4, 0, true, "buckets = 0 is outside 1..8");
    expect_damage(good, size, 28, 9, 4, 0, true, "buckets = 9 is outside 1..8");
    expect_damage(good, size, 32, 0, 4, 0, true, "score_scale = 0 is outside 1..10000");
    expect_damage(good, size, 32, (uint32_t)-5, 4, 0, true, "score_scale = -5 is outside");
    expect_damage(good, size, 32, 10001, 4, 0, true, "score_scale = 10001 is outside");
    expect_damage(good, size, 36, 1, 4, 0, true, "reserved field is 1, not 0");
    expect_damage(good, size, 41, 7, 1, 0, true, "name has a byte 0x07 that is not printable");
    expect_damage(good, size, 40, 0xe9, 1, 0, true, "name has a byte 0xe9");
    expect_damage(good, size, 50, 'x', 1, 0, true, "name is not NUL-padded");
    {
        unsigned char *named = malloc(size);
        memcpy(named, good, size);
        memset(named + 40, 'a', NNUE_NAME_LEN);
        expect_damage(named, size, -1, 0, 0, 0, true, "name is not NUL-terminated");
        free(named);
    }
    expect_damage(good, size, -1, 0, 0, -1, false, "bytes, expected");
    expect_damage(good, size, -1, 0, 0, 1, false, "bytes, expected");
    expect_damage(good, size, 28, 1, 4, 0, true, "bytes, expected");
    expect_damage(good, size, 100, 0x55, 1, 0, false, "checksum mismatch (file damaged?)");
    expect_damage(good, size, (int)size - 2, 0x55, 1, 0, false, "checksum mismatch");
    /* The message names the size the header implies. */
    char want[96];
    snprintf(want, sizeof want, "%zu bytes, expected %zu for n1 = 64", size - 1, size);
    expect_damage(good, size, -1, 0, 0, -1, false, want);
    /* Shapes a writer refuses (nnue_check_shape), as the float model allocator does. */
    NnueFloat f;
    CHECK(!nnue_float_alloc(&f, NNUE_FEATURES, 33, 32, 32, 1, 1, NNUE_ACT_CLAMP, err) &&
          strstr(err, "n1 = 33") != NULL);
    CHECK(
        !nnue_check_shape(NNUE_FEATURES, 64, 32, 32, 1, 1, NNUE_ACT_CLAMP, 80, "bad\tname", err) &&
        strstr(err, "0x09"));
    CHECK(nnue_check_shape(NNUE_FEATURES, 64, 32, 32, 1, 1, NNUE_ACT_CLAMP, 80, "gen1", err));
    /* Version 3 (test_pairwise_file) holds the first layers' count at 36, never 0. */
    expect_damage(good, size, 8, 3, 4, 0, true,
                  "first layers = 0: a version 3 net has 1 or one per bucket");
    free(good);
    nnue_free(net);
}

/* A split net (one first layer per bucket): version 2, the count at bytes 36-39, every layer
 * read back; its damaged headers are named. */
static void test_split_file(void)
{
    NnueNet *net = random_net_sets(160, 64, 32, 3, 3, 22, false);
    CHECK(net != NULL);
    if (!net)
        return;
    size_t size = nnue_write(net, NULL, 0);
    CHECK(size == nnue_file_size(NNUE_FEATURES, 160, 64, 32, 3, 3, NNUE_ACT_CLAMP));
    CHECK(size == 64 + 3 * (2 * 128 * 160 + 2 * 160) +
                      3 * (64 * 160 + 4 * 64 + 32 * 64 + 4 * 32 + 2 * 32 + 4) + 4);
    unsigned char *buf = malloc(size);
    CHECK(nnue_write(net, buf, size) == size);
    CHECK(get32(buf + 8) == 2 && get32(buf + 36) == 3);
    char err[ERR_LEN];
    NnueNet *back = nnue_read(buf, size, "mem", err);
    CHECK(back != NULL);
    if (back) {
        CHECK(back->l1_sets == 3 && back->buckets == 3);
        CHECK(memcmp(back->w1, net->w1, 3 * 128 * 160 * 2) == 0);
        CHECK(memcmp(back->b1, net->b1, 3 * 160 * 2) == 0);
        int diff = 0;
        for (int i = 0; i < npositions; i++)
            diff += nnue_evaluate(net, &positions[i]) != nnue_evaluate(back, &positions[i]);
        CHECK(diff == 0);
        nnue_free(back);
    }
    /* The buckets' first layers are used: changing bucket 0's changes only its positions. */
    for (size_t i = 0; i < 128 * 160; i++)
        net->w1[i] = (int16_t)(net->w1[i] / 2 + 3);
    int changed[3] = {0, 0, 0}, seen[3] = {0, 0, 0};
    NnueNet *orig = nnue_read(buf, size, "mem", err);
    for (int i = 0; orig && i < npositions; i++) {
        int k = nnue_bucket(&positions[i], 3);
        seen[k]++;
        changed[k] += nnue_evaluate(net, &positions[i]) != nnue_evaluate(orig, &positions[i]);
    }
    nnue_free(orig);
    CHECK(seen[0] > 10 && seen[1] > 10 && seen[2] > 10);
    CHECK(changed[0] > seen[0] / 2 && changed[1] == 0 && changed[2] == 0);
    expect_damage(buf, size, 36, 2, 4, 0, true, "first layers = 2: a version 2 net has one per");
    expect_damage(buf, size, 36, 0, 4, 0, true, "first layers = 0");
    expect_damage(buf, size, 8, 1, 4, 0, true, "reserved field is 3, not 0");
    expect_damage(buf, size, 28, 1, 4, 0, true, "first layers = 3");
    expect_damage(buf, size, -1, 0, 0, -1, false, "bytes, expected");
    char want[96];
    snprintf(want, sizeof want,
             "%zu bytes, expected %zu for n1 = 160, n2 = 64, n3 = 32, 3 "
             "buckets, split",
             size + 1, size);
    expect_damage(buf, size, -1, 0, 0, 1, false, want);
    /* Shapes refused: a first-layer count other than 1 or the buckets. */
    NnueFloat f;
    CHECK(!nnue_float_alloc(&f, NNUE_FEATURES, 64, 32, 32, 4, 2, NNUE_ACT_CLAMP, err) &&
          strstr(err, "2 first layers: must be 1 (shared) or one per bucket (4)") != NULL);
    CHECK(!nnue_check_shape(NNUE_FEATURES, 64, 32, 32, 4, 0, NNUE_ACT_CLAMP, 80, "x", err) &&
          strstr(err, "0 first layers"));
    free(buf);
    nnue_free(net);
}

/* A pairwise net: version 3, the first layers and the activation at bytes 36-39, a second layer
 * of n1/2 inputs; read back, it scores alike; its damaged headers are named. */
static void test_pairwise_file(void)
{
    for (int sets = 1; sets <= 3; sets += 2) {
        act_set = NNUE_ACT_PAIR;
        NnueNet *net = random_net_sets(192, 64, 32, 3, sets, 23 + (uint64_t)sets, false);
        act_set = NNUE_ACT_CLAMP;
        CHECK(net != NULL);
        if (!net)
            return;
        size_t size = nnue_write(net, NULL, 0);
        CHECK(size == nnue_file_size(NNUE_FEATURES, 192, 64, 32, 3, sets, NNUE_ACT_PAIR));
        CHECK(size == 64 + (size_t)sets * (2 * 128 * 192 + 2 * 192) +
                          3 * (64 * 96 + 4 * 64 + 32 * 64 + 4 * 32 + 2 * 32 + 4) + 4);
        unsigned char *buf = malloc(size);
        CHECK(nnue_write(net, buf, size) == size);
        CHECK(get32(buf + 8) == 3 && get32(buf + 36) == ((uint32_t)sets | 1u << 16));
        char err[ERR_LEN];
        NnueNet *back = nnue_read(buf, size, "mem", err);
        CHECK(back != NULL);
        if (back) {
            CHECK(back->act == NNUE_ACT_PAIR && back->l1_sets == sets && back->n1 == 192);
            CHECK(memcmp(back->w2, net->w2, 3 * 64 * 96) == 0);
            int diff = 0;
            for (int i = 0; i < npositions; i++)
                diff += nnue_evaluate(net, &positions[i]) != nnue_evaluate(back, &positions[i]);
            CHECK(diff == 0);
            nnue_free(back);
        }
        /* The products matter: the same weights read as a clamp net would be another size. */
        expect_damage(buf, size, 36, (uint32_t)sets, 4, 0, true, "bytes, expected");
        expect_damage(buf, size, 36, (uint32_t)sets | 2u << 16, 4, 0, true,
                      "activation = 2: expected 0 (clamp) or 1 (pairwise)");
        expect_damage(buf, size, 36, 2u | 1u << 16, 4, 0, true,
                      "first layers = 2: a version 3 net has 1 or one per bucket (3");
        expect_damage(buf, size, 16, 160, 4, 0, true,
                      "n1 = 160: a pairwise first layer needs a multiple of 64");
        char want[120];
        snprintf(want, sizeof want,
                 "%zu bytes, expected %zu for n1 = 192, n2 = 64, n3 = 32, 3 buckets%s, pairwise",
                 size + 1, size, sets > 1 ? ", split" : "");
        expect_damage(buf, size, -1, 0, 0, 1, false, want);
        free(buf);
        nnue_free(net);
    }
    char err[ERR_LEN];
    NnueFloat f;
    CHECK(!nnue_float_alloc(&f, NNUE_FEATURES, 96, 32, 32, 4, 1, NNUE_ACT_PAIR, err) &&
          strstr(err, "n1 = 96: a pairwise first layer needs a multiple of 64") != NULL);
    CHECK(!nnue_check_shape(NNUE_FEATURES, 64, 32, 32, 4, 1, 2, 80, "x", err) &&
          strstr(err, "activation 2"));
}

/* NET named NAME (freed here) is described as WANT. */
static void check_describe(NnueNet *net, const char *name, const char *want)
{
    char out[200];
    CHECK(net != NULL);
    if (!net)
        return;
    snprintf(net->name, sizeof net->name, "%s", name);
    nnue_describe(net, out, sizeof out);
    CHECK_STR(out, want);
    nnue_free(net);
}

/* The description --version and CheckerBoard's "about" give: name, shape, and the first
 * layer's sets only when there are several. */
static void test_describe(void)
{
    check_describe(random_net(64, 32, 32, 1, 5, false), "t1",
                   "t1 (128 inputs, 64-32-32, 1 output bucket)");
    check_describe(random_net(64, 32, 32, 1, 5, false), "",
                   "unnamed (128 inputs, 64-32-32, 1 output bucket)");
    check_describe(random_net_sets(64, 32, 32, 4, 4, 6, false), "split",
                   "split (128 inputs, 64-32-32, 4 output buckets, 4 first-layer sets)");
    act_set = NNUE_ACT_PAIR;
    check_describe(random_net(128, 32, 32, 4, 7, false), "pair",
                   "pair (128 inputs, 128-32-32 pairwise, 4 output buckets)");
    act_set = NNUE_ACT_CLAMP;
    /* The built-in network, when there is one, is described by its own header. */
    char out[200];
    nnue_describe_default(out, sizeof out);
    CHECK(nnue_has_default() ? strstr(out, " inputs, ") != NULL : strcmp(out, "none") == 0);
}

/* ---- the engine ---------------------------------------------------------------------------- */

static void test_engine(void)
{
    NnueNet *net = random_net(128, 32, 32, 4, 41, false);
    CHECK(net != NULL);
    if (!net)
        return;
    char path[64], err[ERR_LEN];
    snprintf(path, sizeof path, "/tmp/test_nnue_engine_%d.pnet", (int)getpid());
    CHECK(nnue_save(net, path, err));
    EngineOptions o;
    engine_default_options(&o);
    o.hash_mb = 1;
    o.egdb_dir = NULL;
    o.net = path;
    /* The driver is the program's to register (main.c does): without it a network is refused
     * by name, with it the network evaluates. */
    nnue_hook_register(NULL);
    CHECK(engine_new(&o, err) == NULL);
    CHECK(strstr(err, "network evaluation is not built into this program") != NULL);
    nnue_hook_register(&nnue_driver);
    nnue_hook_register(&nnue_driver); /* again: harmless */
    Engine *e = engine_new(&o, err);
    CHECK(e != NULL);
    if (e) {
        CHECK(engine_uses_net(e));
        int diff = 0;
        for (int i = 0; i < 200; i++)
            diff += engine_evaluate(e, &positions[i]) != nnue_evaluate(net, &positions[i]);
        CHECK(diff == 0);
        /* A search with the network finds a move. */
        static Game g;
        Board b;
        board_start(&b);
        game_init(&g, &RULES_ENGLISH, &b);
        SearchLimits lim = {.depth = 6};
        SearchResult r = engine_search(e, &g, &lim, NULL, NULL);
        CHECK(r.has_move && r.info.nodes > 0);
        engine_free(e);
    }
    /* --eval classic keeps the formula even with a net given. */
    o.eval = ENGINE_EVAL_CLASSIC;
    e = engine_new(&o, err);
    CHECK(e && !engine_uses_net(e));
    engine_free(e);
    /* A damaged file: engine_new fails with the file's message. */
    FILE *fp = fopen(path, "r+b");
    CHECK(fp != NULL);
    if (fp) {
        fseek(fp, 200, SEEK_SET);
        fputc(0x5a ^ fgetc(fp), fp);
        fclose(fp);
    }
    o.eval = ENGINE_EVAL_NET;
    CHECK(engine_new(&o, err) == NULL);
    CHECK(strstr(err, path) == err && strstr(err, "checksum mismatch"));
    /* Without a file, the built-in network, which this build has or has not. */
    o.net = NULL;
    e = engine_new(&o, err);
    CHECK((e != NULL) == nnue_has_default());
    if (!e)
        CHECK(strstr(err, "no network is built in") != NULL);
    engine_free(e);
    o.eval = ENGINE_EVAL_DEFAULT;
    e = engine_new(&o, err);
    CHECK(e && engine_uses_net(e) == nnue_has_default());
    engine_free(e);
    int ev = 0;
    CHECK(engine_eval_parse("classic", &ev) && ev == ENGINE_EVAL_CLASSIC);
    CHECK(engine_eval_parse("net", &ev) && ev == ENGINE_EVAL_NET);
    CHECK(!engine_eval_parse("Net", &ev) && ev == ENGINE_EVAL_NET);
    remove(path);
    nnue_free(net);
}

int main(void)
{
    npositions = random_positions(positions, NPOS, 160, 3, &games_state); /* long: kings too */
    RUN("nnue", test_features);
    RUN("nnue", test_mobility_features);
    RUN("nnue", test_shot_features);
    RUN("nnue", test_seat_symmetry);
    RUN("nnue", test_quantised_matches_float);
    RUN("nnue", test_quantise_scales);
    RUN("nnue", test_extremes);
    RUN("nnue", test_evaluate_features);
    RUN("nnue", test_incremental);
    RUN("nnue", test_round_trip);
    RUN("nnue", test_damaged_files);
    RUN("nnue", test_split_file);
    RUN("nnue", test_pairwise_file);
    RUN("nnue", test_describe);
    RUN("nnue", test_engine);
    return check_total_failed ? 1 : 0;
}
