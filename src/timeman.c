/*
 * timeman.c - search deadlines (see timeman.h).
 *
 * The margin before the hard limit is 3% of the limit, at least 6 ms and at most 30 ms: enough
 * for the search to notice the clock (it looks every 1024 nodes, about 0.2 ms), unwind and join
 * its helpers, and for the answer to reach a referee that times it from outside (a match at
 * 0.05 s a move: up to 6 ms on an idle machine), while a one-second move still uses 97% of its
 * time. A new iteration starts only
 * in the first 70% of the limit: with a fixed time per move there is nothing to save the rest
 * for, and a move of an unfinished iteration counts when it beat the last one.
 */
#include "timeman.h"

#include "util.h"

enum { TIME_SOFT_PERCENT = 70 };
#define TIME_MARGIN_FRACTION 0.03
#define TIME_MARGIN_MIN 0.006
#define TIME_MARGIN_MAX 0.030

void timeman_start(TimeManager *tm, double limit)
{
    tm->start = util_now();
    if (limit <= 0) {
        tm->hard = tm->soft = 0;
        return;
    }
    double margin = limit * TIME_MARGIN_FRACTION;
    margin = margin < TIME_MARGIN_MIN ? TIME_MARGIN_MIN : margin > TIME_MARGIN_MAX ? TIME_MARGIN_MAX : margin;
    double usable = limit - margin;
    if (usable < limit * 0.5)
        usable = limit * 0.5;
    tm->hard = tm->start + usable;
    tm->soft = tm->start + limit * TIME_SOFT_PERCENT / 100.0;
    if (tm->soft > tm->hard) /* tiny limits: no iteration starts after the hard stop */
        tm->soft = tm->hard;
}

bool timeman_hard_expired(const TimeManager *tm) { return tm->hard > 0 && util_now() >= tm->hard; }

bool timeman_soft_expired(const TimeManager *tm) { return tm->soft > 0 && util_now() >= tm->soft; }

double timeman_elapsed(const TimeManager *tm) { return util_now() - tm->start; }
