/*
 * timeman.c - the share of the clock a move gets, and its deadlines (see timeman.h).
 *
 * Safety margin. Every timed move keeps a margin before its limit: 3% of the time it may use, at
 * least TIME_MARGIN_MIN (6 ms) and at most 30 ms. That is enough for the search to notice the
 * clock (it looks every 1024 nodes, about 0.2 ms), unwind and join its helpers, and for the answer
 * to reach a referee that times it from outside (a match at 0.05 s a move: up to 6 ms on an idle
 * machine), while a one-second move still uses 97% of its time.
 *
 * Exact move time (limits.time). The hard deadline is the time less the margin (at least half the
 * time), and so is the soft one: with a fixed time per move there is nothing to save the rest for,
 * so a new iteration starts whenever time is left, and a move of an unfinished iteration counts
 * when it beat the last one; one legal move is searched too (search_iter.c). (No iteration used
 * to start after 70% of the time: docs/engine.md.)
 *
 * Game clock (limits.clock, inc, moves_to_go). The moves still to play before the clock gets more
 * time are moves_to_go, or TIME_MOVES_LEFT_GUESS when the control has none (sudden death, or an
 * increment only), at most TIME_MOVES_LEFT_MAX. Their time is what is left plus the increments
 * still to come, less a margin per move; this move's optimum is an equal share of it. The hard
 * deadline is TIME_MAX_RATIO optimums, but never more than 80% of the clock less the margin (all
 * of it less the margin on the last move before a control), so one hard position cannot empty the
 * clock. The soft deadline starts at 70% of the optimum and is stretched after each iteration by
 * the search's instability: half an optimum more per recent best-move change (changes decay by
 * half each iteration) and up to double when the score fell by up to a man since the previous
 * iteration; it never passes the hard deadline.
 */
#include "timeman.h"

#include "search.h"
#include "util.h"

enum {
    TIME_SOFT_PERCENT = 70,     /* soft deadline of a game clock: this share of the optimum */
    TIME_MOVES_LEFT_MAX = 50,   /* a longer moves_to_go is planned as this many */
    TIME_MAX_RATIO = 5,         /* the hard deadline: at most this many optimums */
    TIME_DROP_FULL = SCORE_MAN, /* a score drop this big doubles the soft deadline */
};
#define TIME_MARGIN_FRACTION 0.03
#define TIME_MARGIN_MAX 0.030
#define TIME_CLOCK_SHARE_MAX 0.8 /* of the clock, before the last move of a control */
#define TIME_SCALE_MAX 3.0       /* the most instability stretches the soft deadline */

double timeman_now(void)
{
    return util_now();
}

static double margin_for(double t)
{
    double m = t * TIME_MARGIN_FRACTION;
    return m < TIME_MARGIN_MIN ? TIME_MARGIN_MIN : m > TIME_MARGIN_MAX ? TIME_MARGIN_MAX : m;
}

void timeman_start_untimed(TimeManager *tm, double now)
{
    *tm = (TimeManager){.start = now};
}

void timeman_start(TimeManager *tm, const SearchLimits *l, double now)
{
    timeman_start_untimed(tm, now);
    double hard = 0, soft = 0; /* relative to now; 0: none */

    /* 1. Exact time for this move. */
    if (l->time > 0) {
        double usable = l->time - margin_for(l->time);
        if (usable < l->time * 0.5)
            usable = l->time * 0.5;
        hard = usable;
        soft = usable;
    }

    /* 2. A game clock: this move's share. */
    if (l->clock > 0) {
        int mtg = l->moves_to_go > 0 ? l->moves_to_go : TIME_MOVES_LEFT_GUESS;
        if (mtg > TIME_MOVES_LEFT_MAX)
            mtg = TIME_MOVES_LEFT_MAX;
        double inc = l->inc > 0 ? l->inc : 0;
        double margin = margin_for(l->clock);
        double pool = l->clock + inc * (mtg - 1) - margin * mtg;
        double optimum = pool > 0 ? pool / mtg : 0;
        double cap = (mtg == 1 ? 1.0 : TIME_CLOCK_SHARE_MAX) * l->clock - margin;
        if (cap <= 0) /* less than the margin left: answer at once, whatever it costs */
            cap = l->clock * 0.25;
        if (optimum > cap)
            optimum = cap;
        if (optimum <= 0)
            optimum = cap;
        double h = optimum * TIME_MAX_RATIO;
        if (h > cap)
            h = cap;
        if (hard == 0 || h < hard)
            hard = h;
        double s = optimum * TIME_SOFT_PERCENT / 100.0;
        if (soft == 0 || s < soft)
            soft = s;
        tm->optimum = optimum;
    }
    if (hard <= 0)
        return;
    if (soft > hard) /* tiny limits: no iteration starts after the hard stop */
        soft = hard;
    tm->hard = now + hard;
    tm->soft = now + soft;
}

void timeman_iteration(TimeManager *tm, int score, bool best_changed)
{
    tm->changes = tm->changes / 2 + (best_changed ? 1 : 0);
    int drop = tm->has_last && score < tm->last_score ? tm->last_score - score : 0;
    if (drop > TIME_DROP_FULL)
        drop = TIME_DROP_FULL;
    tm->last_score = score;
    tm->has_last = true;
    if (tm->optimum <= 0 || tm->hard <= 0)
        return;
    double scale = (1 + 0.5 * tm->changes) * (1 + (double)drop / TIME_DROP_FULL);
    if (scale > TIME_SCALE_MAX)
        scale = TIME_SCALE_MAX;
    double soft = tm->start + tm->optimum * TIME_SOFT_PERCENT / 100.0 * scale;
    tm->soft = soft < tm->hard ? soft : tm->hard;
}

bool timeman_timed(const TimeManager *tm)
{
    return tm->hard > 0;
}

bool timeman_hard_expired(const TimeManager *tm)
{
    return tm->hard > 0 && util_now() >= tm->hard;
}

bool timeman_soft_expired(const TimeManager *tm)
{
    return tm->soft > 0 && util_now() >= tm->soft;
}

double timeman_elapsed(const TimeManager *tm)
{
    return util_now() - tm->start;
}
