/*
 * timeman.h - how long a search may think: the share of a game clock one move gets, and the
 * deadlines that enforce it.
 *
 * A timed search has two deadlines. The hard one ends the search wherever it is: it sits a
 * safety margin before the time the move may take, so that unwinding, joining the helper threads
 * and sending the answer fit inside it; it never moves. The soft one says whether another
 * iteration is worth starting: an iteration usually costs more than all the earlier ones together,
 * so one that would start late is skipped and its time saved for later moves. With a game clock
 * the soft deadline moves after every iteration: later when the best move has just changed or the
 * score has dropped (the position is harder than it looked), never past the hard one.
 *
 * Nothing here reads the board: the search reports each finished iteration
 * (timeman_iteration), and the manager answers with deadlines. All times are seconds on the
 * timeman_now() clock.
 */
#pragma once

#include <stdbool.h>

struct SearchLimits;

typedef struct {
    double start;   /* timeman_now() when the clock started (search start or ponder hit) */
    double hard;    /* absolute time at which the search stops at once (0: never) */
    double soft;    /* absolute time after which no new iteration starts (0: never) */
    double optimum; /* with a game clock: the time this move should take when nothing is
                       unusual (0: no clock; the soft deadline is then fixed) */
    double changes; /* best-move changes in recent iterations (decays by half per iteration) */
    int last_score; /* the score of the previous iteration */
    bool has_last;  /* whether last_score holds one */
} TimeManager;

enum {
    TIME_MOVES_LEFT_GUESS = 30, /* moves assumed still to play when the clock gives none */
};
#define TIME_MARGIN_MIN 0.006 /* the least safety margin a timed move keeps (seconds) */

/* A monotonic clock in seconds (the one every deadline is on). */
double timeman_now(void);

/* Sets up deadlines for a search within LIMITS (its time, clock, inc, moves_to_go fields; the
 * rest is ignored) whose clock starts at NOW. A search with neither time nor clock gets no
 * deadline. The hard deadline never lies beyond the time left minus a safety margin of at least
 * TIME_MARGIN_MIN. */
void timeman_start(TimeManager *tm, const struct SearchLimits *limits, double now);

/* A search that has no deadline (yet): pondering, analysis, depth or node limits alone. */
void timeman_start_untimed(TimeManager *tm, double now);

/* Reports a finished iteration: its SCORE and whether its best move differs from the previous
 * iteration's. With a game clock this moves the soft deadline. */
void timeman_iteration(TimeManager *tm, int score, bool best_changed);

/* Whether the search has deadlines. */
bool timeman_timed(const TimeManager *tm);

/* Whether the hard deadline has passed. */
bool timeman_hard_expired(const TimeManager *tm);

/* Whether a new iteration should not be started any more. */
bool timeman_soft_expired(const TimeManager *tm);

/* Seconds since the clock started. */
double timeman_elapsed(const TimeManager *tm);
