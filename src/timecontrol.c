/*
 * timecontrol.c - parsing time controls and running one side's clock (timecontrol.h).
 *
 * The text is read piece by piece with strtod/strtol and every piece is checked for range, so a
 * control like "40/0" or "60+-1" is refused with the piece named rather than giving a clock that
 * starts empty. Moves to go under "M/BASE" are counted from the moves made on the clock: after
 * M, 2M, ... moves BASE is added again, as cutechess-cli does.
 */
#include "timecontrol.h"

#include "engine.h"
#include "types.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TC_SECONDS_MIN 0.001
#define TC_SECONDS_MAX 86400.0
enum { TC_MOVES_MAX = 1000 };

/* Reads a number of seconds, or minutes:seconds when MINUTES is allowed, from the whole of
 * [S, END). False with the reason in ERR. */
static bool tc_seconds(const char *what, const char *s, const char *end, bool minutes, double min,
                       double *out, char *err)
{
    char buf[TC_TEXT_LEN];
    size_t n = (size_t)(end - s);
    if (n == 0 || n >= sizeof buf) {
        snprintf(err, ERR_LEN, "%s is %s", what, n == 0 ? "missing" : "too long");
        return false;
    }
    memcpy(buf, s, n);
    buf[n] = '\0';
    double v = 0;
    char *rest = buf;
    char *colon = minutes ? strchr(buf, ':') : NULL;
    if (colon) {
        *colon = '\0';
        char *e;
        errno = 0;
        long m = strtol(buf, &e, 10);
        if (e == buf || *e || errno || m < 0 || m > (long)(TC_SECONDS_MAX / 60)) {
            snprintf(err, ERR_LEN, "%s: `%s' is not a number of minutes", what, buf);
            return false;
        }
        v = 60.0 * (double)m;
        rest = colon + 1;
    }
    char *e;
    errno = 0;
    double sec = strtod(rest, &e);
    if (e == rest || *e || errno || !isfinite(sec) || isspace((unsigned char)*rest) || sec < 0) {
        snprintf(err, ERR_LEN, "%s: `%s' is not a number of seconds", what, rest);
        return false;
    }
    v += sec;
    if (v < min || v > TC_SECONDS_MAX) {
        snprintf(err, ERR_LEN, "%s: %g s is out of range (%g .. %g)", what, v, min, TC_SECONDS_MAX);
        return false;
    }
    *out = v;
    return true;
}

bool tc_parse(const char *text, TimeControl *tc, char *err)
{
    TimeControl t = {0};
    if (!text || !*text) {
        snprintf(err, ERR_LEN, "empty time control");
        return false;
    }
    if (strlen(text) >= TC_TEXT_LEN) {
        snprintf(err, ERR_LEN, "time control too long (%d characters at most)", TC_TEXT_LEN - 1);
        return false;
    }
    const char *slash = strchr(text, '/');
    const char *plus = strchr(text, '+');
    const char *end = text + strlen(text);
    if (!slash && !plus) {
        if (!tc_seconds("time per move", text, end, false, TC_SECONDS_MIN, &t.per_move, err))
            return false;
        *tc = t;
        return true;
    }
    if (slash && plus && plus < slash) {
        snprintf(err, ERR_LEN, "`+' before `/': write MOVES/BASE+INC");
        return false;
    }
    const char *base = text;
    if (slash) {
        char *e;
        errno = 0;
        long m = strtol(text, &e, 10);
        if (e != slash || text == slash || errno || !isdigit((unsigned char)*text) || m < 1 ||
            m > TC_MOVES_MAX) {
            snprintf(err, ERR_LEN, "moves per control: `%.*s' is not a number from 1 to %d",
                     (int)(slash - text), text, TC_MOVES_MAX);
            return false;
        }
        t.moves = (int)m;
        base = slash + 1;
    }
    if (!tc_seconds("base time", base, plus ? plus : end, true, TC_SECONDS_MIN, &t.base, err))
        return false;
    if (plus && !tc_seconds("increment", plus + 1, end, false, 0, &t.inc, err))
        return false;
    *tc = t;
    return true;
}

void tc_format(const TimeControl *tc, char *out, size_t size)
{
    if (!tc_is_clock(tc))
        snprintf(out, size, "%g", tc->per_move);
    else if (tc->moves > 0 && tc->inc > 0)
        snprintf(out, size, "%d/%g+%g", tc->moves, tc->base, tc->inc);
    else if (tc->moves > 0)
        snprintf(out, size, "%d/%g", tc->moves, tc->base);
    else
        snprintf(out, size, "%g+%g", tc->base, tc->inc);
}

void tc_format_pdn(const TimeControl *tc, char *out, size_t size)
{
    if (tc_is_clock(tc))
        tc_format(tc, out, size);
    else
        snprintf(out, size, "%g s per move", tc->per_move);
}

bool tc_is_clock(const TimeControl *tc)
{
    return tc->per_move <= 0;
}

void tc_clock_start(const TimeControl *tc, TcClock *c)
{
    c->left = tc_is_clock(tc) ? tc->base : 0;
    c->moves = 0;
}

double tc_clock_allowed(const TimeControl *tc, const TcClock *c)
{
    return tc_is_clock(tc) ? c->left : tc->per_move;
}

void tc_clock_limits(const TimeControl *tc, const TcClock *c, SearchLimits *limits)
{
    limits->time = limits->clock = limits->inc = 0;
    limits->moves_to_go = 0;
    if (!tc_is_clock(tc)) {
        limits->time = tc->per_move;
        return;
    }
    /* A clock of 0 means "no clock" to the search: an empty one still gets the least time. */
    limits->clock = c->left > TC_SECONDS_MIN ? c->left : TC_SECONDS_MIN;
    limits->inc = tc->inc;
    limits->moves_to_go = tc->moves > 0 ? tc->moves - c->moves % tc->moves : 0;
}

void tc_clock_spend(const TimeControl *tc, TcClock *c, double seconds)
{
    c->moves++;
    if (!tc_is_clock(tc))
        return;
    c->left -= seconds;
    c->left += tc->inc;
    if (tc->moves > 0 && c->moves % tc->moves == 0)
        c->left += tc->base;
}
