/*
 * timeman.h - when a timed search must stop.
 *
 * A search with a time limit has two deadlines. The hard one ends the search wherever it is: it
 * sits a small margin before the limit, so that unwinding, joining the helper threads and
 * returning fit inside it. The soft one says whether another iteration is worth starting: an
 * iteration usually costs more than all the earlier ones together, so one that would start late
 * is skipped and its time saved for the caller.
 */
#pragma once

#include <stdbool.h>

typedef struct {
    double start;    /* util_now() when the search began */
    double hard;     /* absolute time at which the search stops at once (0: never) */
    double soft;     /* absolute time after which no new iteration starts (0: never) */
} TimeManager;

/* Sets up deadlines for a search of at most LIMIT seconds (0: no time limit) starting now. */
void timeman_start(TimeManager *tm, double limit);

/* Whether the hard deadline has passed. */
bool timeman_hard_expired(const TimeManager *tm);

/* Whether a new iteration should not be started any more. */
bool timeman_soft_expired(const TimeManager *tm);

/* Seconds since the search started. */
double timeman_elapsed(const TimeManager *tm);
