/*
 * test_match_stats.c - the match arithmetic (match_stats.h) against values worked out by hand.
 *
 * The running example is 60 wins, 20 draws and 20 losses:
 *   score s = (60 + 20/2) / 100 = 0.7; Elo = -400 log10(1/0.7 - 1) = -400 log10(0.428571)
 *           = 147.19;
 *   variance per game = (60 * 0.3^2 + 20 * 0.2^2 + 20 * 0.7^2) / 100 = (5.4 + 0.8 + 9.8) / 100
 *           = 0.16, so the standard error of s is sqrt(0.16 / 100) = 0.04;
 *   95% interval of s: 0.7 -+ 1.96 * 0.04 = 0.62160 .. 0.77840, in Elo
 *           -400 log10(0.37840 / 0.62160) = 86.23 .. -400 log10(0.22160 / 0.77840) = 218.25,
 *           so +- (218.25 - 86.23) / 2 = 66.01;
 *   LOS = 0.5 (1 + erf(40 / sqrt(160))) = 0.5 (1 + erf(3.1623)) = 0.999996.
 */
#include "check.h"
#include "match_stats.h"
#include "types.h"

#include <math.h>
#include <stdlib.h>

#define CHECK_NEAR(a, b, tol)                                                                      \
    do {                                                                                           \
        double near_a = (a), near_b = (b);                                                         \
        if (!(fabs(near_a - near_b) <= (tol))) {                                                   \
            printf("  %s:%d: %s == %.6f, expected %.6f (+- %g)\n", __FILE__, __LINE__, #a, near_a, \
                   near_b, (double)(tol));                                                         \
            check_failed++;                                                                        \
        }                                                                                          \
    } while (0)

static void elo_of_score(void)
{
    CHECK_NEAR(stats_elo_of_score(0.5), 0.0, 1e-12);
    CHECK_NEAR(stats_elo_of_score(0.7), 147.1907, 1e-3);
    CHECK_NEAR(stats_elo_of_score(0.3), -147.1907, 1e-3);
    /* 10^(400/400) = 10: a 400-point edge scores 10/11. */
    CHECK_NEAR(stats_elo_of_score(10.0 / 11.0), 400.0, 1e-9);
    CHECK(stats_elo_of_score(1.0) == INFINITY);
    CHECK(stats_elo_of_score(0.0) == -INFINITY);
    for (double e = -700; e <= 700; e += 35)
        CHECK_NEAR(stats_elo_of_score(stats_score_of_elo(e)), e, 1e-9);
}

static void elo_60_20_20(void)
{
    StatsElo e;
    stats_elo(&(StatsWdl){60, 20, 20}, &e);
    CHECK(e.games == 100);
    CHECK_NEAR(e.score, 0.7, 1e-12);
    CHECK_NEAR(e.elo, 147.19, 0.01);
    CHECK_NEAR(e.elo_low, 86.23, 0.01);
    CHECK_NEAR(e.elo_high, 218.25, 0.01);
    CHECK_NEAR(e.elo_error, 66.01, 0.01);
    CHECK_NEAR(e.los, 0.999996, 1e-6);
    /* The mirror image: every figure changes sign, LOS goes to 1 - LOS. */
    StatsElo m;
    stats_elo(&(StatsWdl){20, 20, 60}, &m);
    CHECK_NEAR(m.elo, -147.19, 0.01);
    CHECK_NEAR(m.elo_low, -218.25, 0.01);
    CHECK_NEAR(m.elo_error, 66.01, 0.01);
    CHECK_NEAR(m.los, 1.0 - 0.999996, 1e-6);
}

static void elo_edges(void)
{
    StatsElo e;
    stats_elo(&(StatsWdl){0, 0, 0}, &e);
    CHECK(e.games == 0);
    CHECK_NEAR(e.score, 0.5, 0);
    CHECK_NEAR(e.elo, 0.0, 0);
    CHECK_NEAR(e.los, 0.5, 0);
    /* All draws: score 1/2, no variance, an interval of width 0. */
    stats_elo(&(StatsWdl){0, 10, 0}, &e);
    CHECK_NEAR(e.elo, 0.0, 1e-12);
    CHECK_NEAR(e.elo_error, 0.0, 1e-12);
    CHECK_NEAR(e.los, 0.5, 0);
    /* All wins: infinite Elo, unbounded interval. */
    stats_elo(&(StatsWdl){12, 0, 0}, &e);
    CHECK(e.elo == INFINITY);
    CHECK(isinf(e.elo_error));
    /* 1 win 1 loss: s = 0.5, var = 0.25, se = sqrt(0.25/2) = 0.35355, s +- 0.69296 leaves
     * [0, 1]: unbounded. */
    stats_elo(&(StatsWdl){1, 0, 1}, &e);
    CHECK_NEAR(e.elo, 0.0, 1e-12);
    CHECK(isinf(e.elo_error));
    /* 50 wins 50 losses: se = 0.05, s +- 0.098: -400 log10(0.402/0.598) = 68.99. */
    stats_elo(&(StatsWdl){50, 0, 50}, &e);
    CHECK_NEAR(e.elo_high, 68.99, 0.01);
    CHECK_NEAR(e.elo_low, -68.99, 0.01);
}

static void los(void)
{
    CHECK_NEAR(stats_los(0, 0), 0.5, 0);
    CHECK_NEAR(stats_los(5, 5), 0.5, 1e-12);
    /* W - L = 2, W + L = 2: 0.5 (1 + erf(2 / 2)) = 0.5 (1 + 0.842701) = 0.921350. */
    CHECK_NEAR(stats_los(2, 0), 0.921350, 1e-6);
    CHECK_NEAR(stats_los(0, 2), 0.078650, 1e-6);
}

static void sprt_parse(void)
{
    StatsSprt p;
    char err[ERR_LEN];
    CHECK(stats_sprt_parse("0,10,0.05,0.05", &p, err));
    CHECK_NEAR(p.elo0, 0, 0);
    CHECK_NEAR(p.elo1, 10, 0);
    CHECK_NEAR(p.alpha, 0.05, 0);
    CHECK_NEAR(p.beta, 0.05, 0);
    CHECK(stats_sprt_parse("-3.5,2,0.01,0.1", &p, err));
    CHECK(!stats_sprt_parse("0,10,0.05", &p, err));
    CHECK(strstr(err, "4 numbers") != NULL);
    CHECK(!stats_sprt_parse("0,10,0.05,0.05,1", &p, err));
    CHECK(!stats_sprt_parse("10,0,0.05,0.05", &p, err)); /* elo0 must be below elo1 */
    CHECK(strstr(err, "below") != NULL);
    CHECK(!stats_sprt_parse("0,10,0.5,0.05", &p, err)); /* alpha must be under 1/2 */
    CHECK(!stats_sprt_parse("0,10,0,0.05", &p, err));
    CHECK(!stats_sprt_parse("0,x,0.05,0.05", &p, err));
    CHECK(!stats_sprt_parse("", &p, err));
    CHECK(!stats_sprt_parse("0,10,0.05,nan", &p, err));
}

static void sprt_bounds(void)
{
    StatsSprt p = {0, 10, 0.05, 0.05};
    /* ln(0.05 / 0.95) = -2.944439, ln(0.95 / 0.05) = +2.944439. */
    CHECK_NEAR(stats_sprt_lower(&p), -2.944439, 1e-6);
    CHECK_NEAR(stats_sprt_upper(&p), 2.944439, 1e-6);
    CHECK(stats_sprt_decide(2.95, &p) == SPRT_H1);
    CHECK(stats_sprt_decide(-2.95, &p) == SPRT_H0);
    CHECK(stats_sprt_decide(2.9, &p) == SPRT_CONTINUE);
    StatsSprt q = {0, 10, 0.01, 0.1};
    /* ln(0.1 / 0.99) = -2.292535, ln(0.9 / 0.01) = 4.499810. */
    CHECK_NEAR(stats_sprt_lower(&q), -2.292535, 1e-6);
    CHECK_NEAR(stats_sprt_upper(&q), 4.499810, 1e-6);
}

static void sprt_llr(void)
{
    /* No draws: the trinomial maximum is the binomial one, p = (s_j, 0, 1 - s_j), so
     * LLR = W ln(s1/s0) + L ln((1-s1)/(1-s0)). Elo 0 and 50: s0 = 0.5, s1 = 0.571463;
     * 30 ln(1.142926) + 20 ln(0.857074) = 30 * 0.133592 - 20 * 0.154227 = 0.92323 (the zero
     * draw count, read as 0.001, moves it by less than 1e-4). */
    StatsSprt p = {0, 50, 0.05, 0.05};
    CHECK_NEAR(stats_sprt_llr(&(StatsWdl){30, 0, 20}, &p), 0.92323, 1e-4);
    /* The mirror image (wins and losses swapped, hypotheses -50 and 0) has H0 and H1 changing
     * places: the same LLR with the opposite sign. */
    StatsSprt m = {-50, 0, 0.05, 0.05};
    CHECK_NEAR(stats_sprt_llr(&(StatsWdl){20, 0, 30}, &m), -0.92323, 1e-4);
    /* 60-20-20 against Elo 0 and 10: the Lagrange root gives 1.389822 (checked with an
     * independent script); the normal approximation N (s1-s0)(2s-s0-s1) / (2 var) =
     * 100 * 0.014387 * 0.385613 / 0.32 = 1.7337 is in the same place but, with s far from both
     * hypotheses, not close. */
    StatsSprt q = {0, 10, 0.05, 0.05};
    CHECK_NEAR(stats_sprt_llr(&(StatsWdl){60, 20, 20}, &q), 1.389822, 1e-5);
    /* When the data sit near the hypotheses, the approximation is good: 400-1000-380, Elo -2
     * and 3: exact 0.57268. */
    StatsSprt r = {-2, 3, 0.05, 0.05};
    CHECK_NEAR(stats_sprt_llr(&(StatsWdl){400, 1000, 380}, &r), 0.57268, 1e-4);
    double s = (400 + 500.0) / 1780,
           var = (400 * (1 - s) * (1 - s) + 1000 * (0.5 - s) * (0.5 - s) + 380 * s * s) / 1780;
    double s0 = stats_score_of_elo(-2), s1 = stats_score_of_elo(3);
    double approx = 1780 * (s1 - s0) * (2 * s - s0 - s1) / (2 * var);
    CHECK_NEAR(stats_sprt_llr(&(StatsWdl){400, 1000, 380}, &r), approx, 0.01);
    /* No games: no evidence. All draws: evidence for the hypothesis nearer 1/2. */
    CHECK_NEAR(stats_sprt_llr(&(StatsWdl){0, 0, 0}, &q), 0.0, 0);
    CHECK(stats_sprt_llr(&(StatsWdl){0, 200, 0}, &q) < stats_sprt_lower(&q));
    /* A long winning streak accepts H1, a long losing one H0. */
    CHECK(stats_sprt_decide(stats_sprt_llr(&(StatsWdl){300, 100, 100}, &q), &q) == SPRT_H1);
    CHECK(stats_sprt_decide(stats_sprt_llr(&(StatsWdl){100, 100, 300}, &q), &q) == SPRT_H0);
}

static void ratings(void)
{
    /* Two players, 60-20-20: the difference is the match Elo, 147.19, split around 0. */
    double pts2[4] = {0, 70, 30, 0};
    int g2[4] = {0, 100, 100, 0};
    double r2[2];
    stats_ratings(2, pts2, g2, r2);
    CHECK_NEAR(r2[0], 147.19 / 2, 0.05);
    CHECK_NEAR(r2[1], -147.19 / 2, 0.05);
    /* Three players whose results fit ratings exactly: A scores 0.7 against B and against C,
     * B and C break even (the tiny prior that keeps perfect scores finite moves these by about
     * 0.02). Then A - B = A - C = 147.19 and mean 0: A = 98.13, B = C = -49.06. */
    double pts3[9] = {0, 70, 140, 30, 0, 50, 60, 50, 0};
    int g3[9] = {0, 100, 200, 100, 0, 100, 200, 100, 0};
    double r3[3];
    stats_ratings(3, pts3, g3, r3);
    CHECK_NEAR(r3[0], 98.13, 0.1);
    CHECK_NEAR(r3[1], -49.06, 0.1);
    CHECK_NEAR(r3[2], -49.06, 0.1);
    /* A perfect score is clamped, and a player with no games gets 0. */
    double pts4[9] = {0, 4, 0, 0, 0, 0, 0, 0, 0};
    int g4[9] = {0, 4, 0, 4, 0, 0, 0, 0, 0};
    double r4[3];
    stats_ratings(3, pts4, g4, r4);
    CHECK(r4[0] > 300 && r4[0] <= STATS_RATING_CAP);
    CHECK(r4[1] < -300 && r4[1] >= -STATS_RATING_CAP);
    CHECK_NEAR(r4[2], 0.0, 0);
}

/* Paired differences +1/2, 0, -1, 0: mean -1/8; squared deviations 0.390625, 0.015625,
 * 0.765625, 0.015625 sum to 1.1875, the sample variance is 1.1875 / 3 = 0.395833, and the
 * interval's half-width 1.959964 sqrt(0.395833 / 4) = 0.616558. */
static void paired(void)
{
    StatsPaired p;
    const double d[4] = {0.5, 0, -1, 0};
    stats_paired(d, 4, &p);
    CHECK(p.games == 4);
    CHECK_NEAR(p.mean, -0.125, 1e-12);
    CHECK_NEAR(p.error, 0.616558, 1e-6);
    const double same[3] = {0, 0, 0};
    stats_paired(same, 3, &p);
    CHECK_NEAR(p.mean, 0.0, 0);
    CHECK_NEAR(p.error, 0.0, 0);
    stats_paired(d, 1, &p); /* one game: a mean, no interval */
    CHECK_NEAR(p.mean, 0.5, 0);
    CHECK(p.error == INFINITY);
    stats_paired(d, 0, &p);
    CHECK(p.games == 0 && p.mean == 0 && p.error == INFINITY);
}

static void penta(void)
{
    /* [10, 20, 40, 20, 10]: s = (20/4 + 40/2 + 20 * 3/4 + 10) / 100 = 1/2, the pairs' variance
     * (10/4 + 20/16 + 20/16 + 10/4) / 100 = 0.075, se = sqrt(0.075 / 100), Elo 0 +- 37.44. The
     * figures here were checked with an independent script (Python). */
    StatsElo e;
    stats_penta_elo(&(StatsPenta){{10, 20, 40, 20, 10}}, &e);
    CHECK(e.games == 200);
    CHECK_NEAR(e.score, 0.5, 1e-12);
    CHECK_NEAR(e.elo, 0.0, 1e-9);
    CHECK_NEAR(e.elo_high, 37.4421, 1e-3);
    CHECK_NEAR(e.elo_low, -37.4421, 1e-3);
    CHECK_NEAR(e.los, 0.5, 1e-12);
    stats_penta_elo(&(StatsPenta){{5, 15, 40, 30, 10}}, &e);
    CHECK_NEAR(e.score, 0.5625, 1e-12);
    CHECK_NEAR(e.elo, 43.6578, 1e-3);
    CHECK_NEAR(e.elo_low, 9.5973, 1e-3);
    CHECK_NEAR(e.elo_high, 78.5769, 1e-3);
    CHECK_NEAR(e.los, 0.994061, 1e-6);
    StatsSprt q = {0, 10, 0.05, 0.05}, r = {-5, 5, 0.05, 0.05};
    CHECK_NEAR(stats_penta_llr(&(StatsPenta){{5, 15, 40, 30, 10}}, &q), 1.190722, 1e-5);
    CHECK_NEAR(stats_penta_llr(&(StatsPenta){{5, 15, 40, 30, 10}}, &r), 1.326965, 1e-5);
    CHECK_NEAR(stats_penta_llr(&(StatsPenta){{10, 20, 40, 20, 10}}, &q), -0.137899, 1e-5);
    CHECK_NEAR(stats_penta_llr(&(StatsPenta){{2, 25, 60, 10, 3}}, &q), -1.461298, 1e-5);
    /* A zero count (read as 0.001, as the trinomial test does). Here Newton's method from 0
     * leaves the interval where every probability is positive and finds a root outside it
     * (LLR 6.96); the bisection stays inside. */
    CHECK_NEAR(stats_penta_llr(&(StatsPenta){{0, 3, 120, 30, 3}}, &q), 4.424741, 1e-5);
    /* The mirror image: Elo, interval and LLR change sign, LOS goes to 1 - LOS. */
    StatsElo m;
    stats_penta_elo(&(StatsPenta){{10, 30, 40, 15, 5}}, &m);
    CHECK_NEAR(m.elo, -43.6578, 1e-3);
    CHECK_NEAR(m.elo_high, -9.5973, 1e-3);
    CHECK_NEAR(m.los, 1.0 - 0.994061, 1e-6);
    StatsSprt qm = {-10, 0, 0.05, 0.05};
    CHECK_NEAR(stats_penta_llr(&(StatsPenta){{10, 30, 40, 15, 5}}, &qm), -1.190722, 1e-5);
    /* Every pair a win and a loss (an opening that decides the game whoever plays it): the
     * trinomial model sees 100 wins and 100 losses, Elo 0 +- 48.5; the pairs see no variance at
     * all and no evidence either way. */
    stats_penta_elo(&(StatsPenta){{0, 0, 100, 0, 0}}, &e);
    CHECK_NEAR(e.elo, 0.0, 1e-9);
    CHECK_NEAR(e.elo_error, 0.0, 1e-9);
    CHECK_NEAR(e.los, 0.5, 0);
    StatsElo t;
    stats_elo(&(StatsWdl){100, 0, 100}, &t);
    CHECK(t.elo_error > 48 && t.elo_error < 49);
    /* No pairs; all pairs won. */
    stats_penta_elo(&(StatsPenta){{0, 0, 0, 0, 0}}, &e);
    CHECK(e.games == 0 && e.score == 0.5 && e.elo == 0 && e.los == 0.5 && isinf(e.elo_error));
    CHECK_NEAR(stats_penta_llr(&(StatsPenta){{0, 0, 0, 0, 0}}, &q), 0.0, 0);
    stats_penta_elo(&(StatsPenta){{0, 0, 0, 0, 7}}, &e);
    CHECK(e.elo == INFINITY && isinf(e.elo_error) && e.los == 1.0);
    /* Every pair won: each adds about ln(s1 / s0) = 0.028 for Elo 0 against 10 (both
     * hypotheses are near 1/2, and a clean sweep is as unlikely under either), so 40 pairs give
     * 1.13, short of the bound, and 400 give 11.35. */
    CHECK_NEAR(stats_penta_llr(&(StatsPenta){{0, 0, 0, 0, 40}}, &q), 1.134782, 1e-5);
    CHECK(stats_sprt_decide(stats_penta_llr(&(StatsPenta){{0, 0, 0, 0, 400}}, &q), &q) == SPRT_H1);
    CHECK(stats_sprt_decide(stats_penta_llr(&(StatsPenta){{400, 0, 0, 0, 0}}, &q), &q) == SPRT_H0);
}

int main(void)
{
    RUN("match_stats", elo_of_score);
    RUN("match_stats", elo_60_20_20);
    RUN("match_stats", elo_edges);
    RUN("match_stats", los);
    RUN("match_stats", sprt_parse);
    RUN("match_stats", sprt_bounds);
    RUN("match_stats", sprt_llr);
    RUN("match_stats", penta);
    RUN("match_stats", ratings);
    RUN("match_stats", paired);
    return check_total_failed ? 1 : 0;
}
