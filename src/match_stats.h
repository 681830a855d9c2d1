/*
 * match_stats.h - the arithmetic of match results: Elo difference with its 95% interval,
 * likelihood of superiority, the sequential probability ratio test (SPRT) that stops a match as
 * soon as the result is clear, and maximum-likelihood ratings for a round robin.
 *
 * Elo here is the logistic Elo of chess testing tools (cutechess-cli, fishtest): a score s
 * (wins plus half the draws, over the games) means a difference of -400 log10(1/s - 1).
 */
#pragma once

#include <stdbool.h>

typedef struct {
    int wins;   /* games the first program won */
    int draws;  /* drawn games */
    int losses; /* games the first program lost */
} StatsWdl;

typedef struct {
    int games;      /* wins + draws + losses */
    double score;   /* (wins + draws/2) / games, 0.5 with no games */
    double elo;     /* the Elo difference of that score (+-INFINITY at 1 and 0) */
    double elo_low; /* the 95% interval of the difference */
    double elo_high;
    double elo_error; /* (elo_high - elo_low) / 2, the `+-' figure; INFINITY when unbounded */
    double los;       /* likelihood of superiority, 0 to 1 (0.5 with no decisive game) */
} StatsElo;

typedef struct {
    double elo0, elo1;  /* H0: the difference is elo0; H1: it is elo1 (elo0 < elo1) */
    double alpha, beta; /* false-positive and false-negative rates, each in (0, 0.5) */
} StatsSprt;

typedef enum { SPRT_CONTINUE = 0, SPRT_H0, SPRT_H1 } SprtDecision;

/* The expected score of a difference of ELO (the inverse of stats_elo_of_score). */
double stats_score_of_elo(double elo);

/* The Elo difference of score S in [0, 1]: -INFINITY at 0, +INFINITY at 1. */
double stats_elo_of_score(double s);

/* Score, Elo difference, its 95% interval and LOS of R. The interval comes from the variance of
 * the per-game score under the trinomial (win/draw/loss) model: s +- 1.96 sqrt(var / N), each
 * end converted to Elo. */
void stats_elo(const StatsWdl *r, StatsElo *out);

/* Likelihood of superiority: 0.5 (1 + erf((W - L) / sqrt(2 (W + L)))), 0.5 when W + L = 0. */
double stats_los(int wins, int losses);

/* Whether P holds usable SPRT parameters; on failure ERR (ERR_LEN bytes) says why. */
bool stats_sprt_valid(const StatsSprt *p, char *err);

/* Parses "ELO0,ELO1,ALPHA,BETA" into P. Returns false with the reason in ERR (ERR_LEN bytes). */
bool stats_sprt_parse(const char *text, StatsSprt *p, char *err);

/* The generalised log-likelihood ratio of H1 against H0 after R (0 with no games). */
double stats_sprt_llr(const StatsWdl *r, const StatsSprt *p);

/* The bounds the LLR is compared with: ln(beta / (1 - alpha)) and ln((1 - beta) / alpha). */
double stats_sprt_lower(const StatsSprt *p);
double stats_sprt_upper(const StatsSprt *p);

/* H1 when LLR >= the upper bound, H0 when it is <= the lower bound, else SPRT_CONTINUE. */
SprtDecision stats_sprt_decide(double llr, const StatsSprt *p);

/* Colour-swapped pairs of games (one opening, each program once with Black): how many pairs
 * the first program scored 0, 1/2, 1, 3/2 and 2 points in (the pentanomial counts). */
typedef struct {
    int pairs[5];
} StatsPenta;

/* Score, Elo difference, its 95% interval and LOS of R's pairs: s +- 1.96 sqrt(var / N) over
 * N pairs, var the variance of the pairs' scores (a pair scores 0, 1/4, 1/2, 3/4 or 1 a game);
 * games is 2N. LOS is the normal tail of the same (0.5 with no pairs). */
void stats_penta_elo(const StatsPenta *r, StatsElo *out);

/* The GSPRT's log-likelihood ratio of H1 against H0 over R's pairs (0 with no pairs). */
double stats_penta_llr(const StatsPenta *r, const StatsSprt *p);

/* Two runs of the same games compared game by game: the mean of the per-game score differences
 * D[0..N-1] (each in [-1, 1]) and its 95% interval mean +- 1.96 sd / sqrt(N), sd the sample
 * standard deviation (N - 1 in its denominator). Since both runs played the same openings with
 * the same colours, the opening's own bias cancels, and the interval is tighter than the two
 * runs' separate Elo intervals would suggest (far tighter when most games repeat exactly). */
typedef struct {
    int games;    /* N */
    double mean;  /* the mean difference (0 with no games) */
    double error; /* the `+-' figure, 1.96 sd / sqrt(N); INFINITY with fewer than 2 games */
} StatsPaired;

void stats_paired(const double *d, int n, StatsPaired *out);

/* Round-robin ratings: N players, POINTS[i*N+j] what player i scored against j (a win 1, a draw
 * 1/2) in GAMES[i*N+j] games. Writes to RATINGS the maximum-likelihood logistic Elo ratings with
 * mean 0. A tiny prior (0.01 points each way per pair that met) keeps a perfect or zero score
 * finite, and every rating is clamped to +-STATS_RATING_CAP. Players with no games get 0. */
enum { STATS_RATING_CAP = 800 };
void stats_ratings(int n, const double *points, const int *games, double *ratings);
