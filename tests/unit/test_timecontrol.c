/*
 * test_timecontrol.c - time controls as cutechess-cli writes them: every form parses to the
 * right fields and prints back the same, bad ones are refused with the piece named, and a clock
 * under each form loses what a move took and gains the increment and each control's base.
 */
#include "check.h"
#include "engine.h"
#include "timecontrol.h"

#include <math.h>
#include <string.h>

static bool near(double a, double b)
{
    return fabs(a - b) < 1e-9;
}

static void forms(void)
{
    static const struct {
        const char *text, *back;
        double per_move, base, inc;
        int moves;
    } ok[] = {
        {"0.1", "0.1", 0.1, 0, 0, 0},
        {"60+0.5", "60+0.5", 0, 60, 0.5, 0},
        {"60+0", "60+0", 0, 60, 0, 0},
        {"40/60", "40/60", 0, 60, 0, 40},
        {"40/20", "40/20", 0, 20, 0, 40},
        {"1:30+1", "90+1", 0, 90, 1, 0},
        {"40/2:00+0.1", "40/120+0.1", 0, 120, 0.1, 40},
        {"10+0.1", "10+0.1", 0, 10, 0.1, 0},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        TimeControl tc;
        char err[ERR_LEN] = "", back[TC_TEXT_LEN];
        CHECK(tc_parse(ok[i].text, &tc, err));
        CHECK(near(tc.per_move, ok[i].per_move) && near(tc.base, ok[i].base) &&
              near(tc.inc, ok[i].inc) && tc.moves == ok[i].moves);
        tc_format(&tc, back, sizeof back);
        CHECK_STR(back, ok[i].back);
    }
    static const struct {
        const char *text, *says;
    } bad[] = {
        {"", "empty"},
        {"abc", "time per move"},
        {"0", "out of range"},
        {"-1", "time per move"},
        {"40/", "base time is missing"},
        {"/60", "moves per control"},
        {"0/60", "moves per control"},
        {"x/60", "moves per control"},
        {"40/0", "out of range"},
        {"60+", "increment is missing"},
        {"60+-1", "increment"},
        {"60+x", "increment"},
        {"+1", "base time is missing"},
        {"1+2/3", "before `/'"},
        {"1:x+1", "base time"},
        {"100000+0", "out of range"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        TimeControl tc = {.per_move = 7};
        char err[ERR_LEN] = "";
        CHECK(!tc_parse(bad[i].text, &tc, err));
        CHECK(strstr(err, bad[i].says) != NULL);
        CHECK(tc.per_move == 7); /* untouched */
    }
}

static void clocks(void)
{
    char err[ERR_LEN];
    TimeControl tc;
    TcClock c;
    SearchLimits lim;

    /* 40/60: 60 s for 40 moves, then 60 s more. */
    CHECK(tc_parse("40/60", &tc, err));
    tc_clock_start(&tc, &c);
    CHECK(near(c.left, 60) && near(tc_clock_allowed(&tc, &c), 60));
    tc_clock_limits(&tc, &c, &lim);
    CHECK(near(lim.clock, 60) && lim.moves_to_go == 40 && lim.time == 0 && lim.inc == 0);
    for (int i = 0; i < 39; i++)
        tc_clock_spend(&tc, &c, 1.0);
    CHECK(near(c.left, 21));
    tc_clock_limits(&tc, &c, &lim);
    CHECK(lim.moves_to_go == 1);
    tc_clock_spend(&tc, &c, 1.0);
    CHECK(near(c.left, 80));
    tc_clock_limits(&tc, &c, &lim);
    CHECK(lim.moves_to_go == 40);

    /* 10+0.1: the increment after every move; an overrun is carried as an overdraft, and the
     * search still gets a clock (the least one), not "no clock". */
    CHECK(tc_parse("10+0.1", &tc, err));
    tc_clock_start(&tc, &c);
    tc_clock_spend(&tc, &c, 0.5);
    CHECK(near(c.left, 9.6));
    tc_clock_spend(&tc, &c, 9.7);
    CHECK(near(c.left, 0.0));
    tc_clock_spend(&tc, &c, 0.3);
    CHECK(near(c.left, -0.2) && near(tc_clock_allowed(&tc, &c), -0.2));
    tc_clock_limits(&tc, &c, &lim);
    CHECK(lim.clock > 0 && lim.clock < 0.01 && near(lim.inc, 0.1) && lim.moves_to_go == 0);

    /* A time per move is no clock: the search gets an exact time. */
    CHECK(tc_parse("0.25", &tc, err));
    tc_clock_start(&tc, &c);
    tc_clock_spend(&tc, &c, 3);
    CHECK(near(tc_clock_allowed(&tc, &c), 0.25));
    tc_clock_limits(&tc, &c, &lim);
    CHECK(near(lim.time, 0.25) && lim.clock == 0);
    char pdn[TC_TEXT_LEN];
    tc_format_pdn(&tc, pdn, sizeof pdn);
    CHECK_STR(pdn, "0.25 s per move");
}

int main(void)
{
    RUN("timecontrol", forms);
    RUN("timecontrol", clocks);
    return check_total_failed ? 1 : 0;
}
