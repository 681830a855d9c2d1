/*
 * test_timeman.c - the time a move gets. An exact move time: the hard deadline leaves a margin
 * for answering (at least 6 ms, 3% of a longer limit, at most 30 ms), the soft one is the same. A
 * game clock: the hard deadline never passes the time left less the margin, the share grows with
 * the increment and with fewer moves to go, the soft deadline moves later when the best move
 * changes or the score drops and never past the hard one. No limit means no deadline.
 */
#include "check.h"
#include "search.h"
#include "timeman.h"

enum { NOW = 1000 }; /* an arbitrary start on the clock: deadlines are relative to it */

/* The hard and soft deadlines of L, in seconds after the start. */
static void deadlines(const SearchLimits *l, double *hard, double *soft)
{
    TimeManager tm;
    timeman_start(&tm, l, NOW);
    *hard = tm.hard - NOW;
    *soft = tm.soft - NOW;
}

static void exact(double t, double *hard, double *soft)
{
    SearchLimits l = {.time = t};
    deadlines(&l, hard, soft);
}

static void test_margins(void)
{
    double hard, soft;
    exact(0.05, &hard, &soft); /* a match at 0.05 s a move: 6 ms kept for the answer */
    CHECK(hard > 0.0439 && hard < 0.0441);
    CHECK(soft == hard);      /* nothing to save time for: an iteration starts while time is left */
    exact(0.5, &hard, &soft); /* 3% */
    CHECK(hard > 0.4849 && hard < 0.4851);
    exact(1.0, &hard, &soft); /* `st 1': 30 ms kept, the search ends before 1.02 s */
    CHECK(hard > 0.9699 && hard < 0.9701);
    CHECK(soft == hard);
    exact(10.0, &hard, &soft); /* the margin stops growing at 30 ms */
    CHECK(hard > 9.9699 && hard < 9.9701);
    exact(0.004, &hard, &soft); /* a tiny limit keeps at least half of itself */
    CHECK(hard > 0.0019 && hard < 0.0021);
}

/* Over a grid of clocks, increments and moves to go: a deadline always, never beyond the time
 * left less the margin, the soft one before the hard one. */
static void test_clock_never_flags(void)
{
    static const double clocks[] = {0.02, 0.05, 0.1, 0.5, 1, 10, 60, 600, 7200};
    static const double incs[] = {0, 0.01, 0.1, 1, 30};
    static const int mtgs[] = {0, 1, 2, 5, 40, 1000};
    int bad = 0;
    for (size_t i = 0; i < sizeof clocks / sizeof *clocks; i++)
        for (size_t j = 0; j < sizeof incs / sizeof *incs; j++)
            for (size_t k = 0; k < sizeof mtgs / sizeof *mtgs; k++) {
                SearchLimits l = {.clock = clocks[i], .inc = incs[j], .moves_to_go = mtgs[k]};
                double hard, soft;
                deadlines(&l, &hard, &soft);
                if (!(hard > 0 && hard <= clocks[i] - TIME_MARGIN_MIN + 1e-12 && soft > 0 &&
                      soft <= hard)) {
                    printf("  clock %g inc %g mtg %d: hard %g soft %g\n", clocks[i], incs[j],
                           mtgs[k], hard, soft);
                    bad++;
                }
            }
    CHECK(bad == 0);
    /* Less than the margin left: still a deadline, within the clock. */
    double hard, soft;
    SearchLimits l = {.clock = 0.004};
    deadlines(&l, &hard, &soft);
    CHECK(hard > 0 && hard < 0.004);
}

static double optimum(double clock, double inc, int mtg)
{
    SearchLimits l = {.clock = clock, .inc = inc, .moves_to_go = mtg};
    TimeManager tm;
    timeman_start(&tm, &l, NOW);
    return tm.optimum;
}

static void test_clock_share(void)
{
    /* Sudden death: about a thirtieth of the clock. */
    double o = optimum(60, 0, 0);
    CHECK(o > 60.0 / 31 && o < 60.0 / 29);
    /* An increment is spent too: 60 s + 1 s a move gives about a second more per move. */
    double oi = optimum(60, 1, 0);
    CHECK(oi > o + 0.9 && oi < o + 1.0);
    /* Moves to go: 10 left gets about a tenth, 40 left a fortieth, the last move nearly all
     * the clock. */
    double o10 = optimum(60, 0, 10), o40 = optimum(60, 0, 40), o1 = optimum(60, 0, 1);
    CHECK(o10 > 5.9 && o10 < 6.0);
    CHECK(o40 > 1.45 && o40 < 1.5);
    CHECK(o1 > 59.9 && o1 <= 60 - TIME_MARGIN_MIN);
    /* The hard deadline allows a hard move several optimums, but not 80% of the clock. */
    SearchLimits l = {.clock = 60};
    double hard, soft;
    deadlines(&l, &hard, &soft);
    CHECK(hard > 3 * o && hard < 0.8 * 60);
    CHECK(soft > 0.69 * o && soft < 0.71 * o);
    SearchLimits low = {.clock = 2, .inc = 5};
    deadlines(&low, &hard, &soft);
    CHECK(hard <= 0.8 * 2);
    /* With an exact move time as well, the smaller wins. */
    SearchLimits both = {.clock = 60, .time = 0.5};
    deadlines(&both, &hard, &soft);
    CHECK(hard > 0.4849 && hard < 0.4851);
}

/* The soft deadline after a run of iterations with these best-move changes and scores. */
static double soft_after(const bool *changed, const int *scores, int n)
{
    SearchLimits l = {.clock = 60};
    TimeManager tm;
    timeman_start(&tm, &l, NOW);
    for (int i = 0; i < n; i++)
        timeman_iteration(&tm, scores[i], changed[i]);
    CHECK(tm.soft <= tm.hard);
    return tm.soft - NOW;
}

static void test_instability(void)
{
    static const bool steady[] = {false, false, false, false};
    static const bool flip[] = {false, false, false, true};
    static const bool flips[] = {false, true, true, true};
    static const int flat[] = {10, 12, 11, 12};
    static const int drop[] = {10, 12, 11, -40};
    static const int crash[] = {10, 12, 11, -2000};
    double base = soft_after(steady, flat, 4);
    double one = soft_after(flip, flat, 4), many = soft_after(flips, flat, 4);
    CHECK(base > 0.69 * optimum(60, 0, 0) && base < 0.71 * optimum(60, 0, 0));
    CHECK(one > 1.4 * base);
    CHECK(many > one);
    double fell = soft_after(steady, drop, 4);
    CHECK(fell > 1.4 * base && fell < 1.6 * base);
    /* However unstable, never past the hard deadline (checked in soft_after) nor 3 times. */
    double worst = soft_after(flips, crash, 4);
    CHECK(worst > fell && worst <= 3.0001 * base);
    /* An exact move time does not stretch. */
    SearchLimits l = {.time = 1.0};
    TimeManager tm;
    timeman_start(&tm, &l, NOW);
    double s0 = tm.soft;
    timeman_iteration(&tm, 0, true);
    timeman_iteration(&tm, -500, true);
    CHECK(tm.soft == s0);
}

static void test_no_limit(void)
{
    TimeManager tm;
    SearchLimits l = {.depth = 5, .nodes = 1000};
    timeman_start(&tm, &l, timeman_now());
    CHECK(!timeman_timed(&tm));
    CHECK(!timeman_hard_expired(&tm));
    CHECK(!timeman_soft_expired(&tm));
    timeman_iteration(&tm, -3000, true);
    CHECK(!timeman_soft_expired(&tm));
    timeman_start_untimed(&tm, timeman_now() - 2.0); /* started two seconds ago */
    CHECK(timeman_elapsed(&tm) >= 2.0 && timeman_elapsed(&tm) < 2.5);
}

static void test_expiry(void)
{
    TimeManager tm;
    SearchLimits l = {.time = 0.001}; /* 0.5 ms hard deadline */
    timeman_start(&tm, &l, timeman_now());
    CHECK(timeman_timed(&tm));
    while (!timeman_hard_expired(&tm))
        ;
    CHECK(timeman_elapsed(&tm) >= 0.0005);
    CHECK(timeman_soft_expired(&tm));
}

int main(void)
{
    RUN("timeman", test_margins);
    RUN("timeman", test_clock_never_flags);
    RUN("timeman", test_clock_share);
    RUN("timeman", test_instability);
    RUN("timeman", test_no_limit);
    RUN("timeman", test_expiry);
    return check_total_failed ? 1 : 0;
}
