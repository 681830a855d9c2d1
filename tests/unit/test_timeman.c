/*
 * test_timeman.c - the deadlines of a timed search: the hard one leaves a margin for answering
 * (at least 6 ms, 3% of a longer limit, at most 30 ms), the soft one is at 70%, and no limit
 * means no deadline.
 */
#include "check.h"
#include "timeman.h"

/* The hard and soft deadlines of LIMIT, in seconds after the start. */
static void deadlines(double limit, double *hard, double *soft)
{
    TimeManager tm;
    timeman_start(&tm, limit);
    *hard = tm.hard - tm.start;
    *soft = tm.soft - tm.start;
}

static void test_margins(void)
{
    double hard, soft;
    deadlines(0.05, &hard, &soft); /* a match at 0.05 s a move: 6 ms kept for the answer */
    CHECK(hard > 0.0439 && hard < 0.0441);
    CHECK(soft > 0.0349 && soft < 0.0351);
    deadlines(0.5, &hard, &soft); /* 3% */
    CHECK(hard > 0.4849 && hard < 0.4851);
    deadlines(1.0, &hard, &soft); /* `st 1': 30 ms kept, the search ends before 1.02 s */
    CHECK(hard > 0.9699 && hard < 0.9701);
    CHECK(soft > 0.6999 && soft < 0.7001);
    deadlines(10.0, &hard, &soft); /* the margin stops growing at 30 ms */
    CHECK(hard > 9.9699 && hard < 9.9701);
    deadlines(0.004, &hard, &soft); /* a tiny limit keeps at least half of itself */
    CHECK(hard > 0.0019 && hard < 0.0021);
}

static void test_no_limit(void)
{
    TimeManager tm;
    timeman_start(&tm, 0);
    CHECK(tm.hard == 0 && tm.soft == 0);
    CHECK(!timeman_hard_expired(&tm));
    CHECK(!timeman_soft_expired(&tm));
    CHECK(timeman_elapsed(&tm) >= 0);
}

static void test_expiry(void)
{
    TimeManager tm;
    timeman_start(&tm, 0.001); /* 0.5 ms hard deadline */
    while (!timeman_hard_expired(&tm))
        ;
    CHECK(timeman_elapsed(&tm) >= 0.0005);
    CHECK(timeman_soft_expired(&tm));
}

int main(void)
{
    RUN("timeman", test_margins);
    RUN("timeman", test_no_limit);
    RUN("timeman", test_expiry);
    return check_total_failed ? 1 : 0;
}
