/*
 * match_stats.c - Elo, LOS, SPRT and round-robin ratings for the match referee (match_stats.h).
 *
 * Elo and its interval follow what chess testing tools report: the score s of N games, the
 * per-game variance var = (W (1-s)^2 + D (1/2-s)^2 + L s^2) / N of the trinomial model, and the
 * interval s +- 1.96 sqrt(var / N) turned into Elo at each end (so it is not symmetric in Elo;
 * the `+-' figure is half its width).
 *
 * The SPRT is the generalised SPRT (GSPRT) of the trinomial model, the test chess engine testing
 * frameworks run (M. Van den Bergh, "A practical introduction to the GSPRT", 2016; fishtest's
 * LLRcalc). Each hypothesis Hj fixes the expected score s_j = 1 / (1 + 10^(-eloj/400)); the
 * likelihood of the observed counts n = (W, D, L) is maximised over the outcome probabilities
 * p = (pW, pD, pL) with that expected score, and the test statistic is
 *
 *     LLR = sum_i n_i ln(p1_i / p0_i).
 *
 * The constrained maximum (a Lagrange multiplier argument) is p_i = q_i / (1 + lambda (x_i - s))
 * where q is the observed frequency, x = (1, 1/2, 0) the outcome scores, and lambda the root of
 * sum_i q_i (x_i - s) / (1 + lambda (x_i - s)) = 0, which is decreasing in lambda on the interval
 * where every denominator is positive; we find it by bisection. An outcome never observed would
 * make the constraint unreachable (all wins cannot have expected score 0.6), so zero counts are
 * replaced by 1e-3, as LLRcalc does. The test stops for H1 when LLR >= ln((1-beta)/alpha) and
 * for H0 when LLR <= ln(beta/(1-alpha)) (Wald's bounds).
 *
 * Games played in colour-swapped pairs (the same opening, each program once with Black) are
 * also counted by pair: the pentanomial model, as fishtest and OpenBench count them. A pair
 * scores 0, 1/4, 1/2, 3/4 or 1 a game; its score and interval are those above with the pairs
 * as the samples (N pairs, the variance of the pair scores), and its GSPRT the same
 * constrained maximum over five outcomes. Pairing takes out what an opening is worth to one
 * colour: when the side an opening favours wins with either program, the pair scores 1/2 and
 * adds no variance, where the trinomial model counts a win and a loss. So where openings favour
 * a colour, as ballots do, the interval is narrower and the test stops sooner; it is wider only
 * where one program wins both games of a pair more often than independent games would.
 *
 * A paired comparison (stats_paired) is the mean of per-game differences with the normal
 * interval of a mean, the sample variance dividing by N - 1.
 *
 * Round-robin ratings are the maximum-likelihood Bradley-Terry (logistic Elo) ratings, found by
 * the minorisation-maximisation iteration of Hunter (2004): gamma_i <- P_i / sum_j n_ij /
 * (gamma_i + gamma_j), with gamma = 10^(rating/400) and P_i the points of player i.
 */
#include "match_stats.h"

#include "types.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RATING_ITERATIONS = 20000 };
static const double Z95 = 1.959963984540054; /* the two-sided 95% quantile of the normal */
static const double SPRT_EPSILON = 1e-3;     /* stands in for an outcome count of zero */
static const double RATING_PRIOR = 0.01;     /* points each side gets per pair that played */

double stats_score_of_elo(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

double stats_elo_of_score(double s)
{
    if (s <= 0.0)
        return -INFINITY;
    if (s >= 1.0)
        return INFINITY;
    return -400.0 * log10(1.0 / s - 1.0);
}

double stats_los(int wins, int losses)
{
    if (wins + losses == 0)
        return 0.5;
    return 0.5 * (1.0 + erf((double)(wins - losses) / sqrt(2.0 * (wins + losses))));
}

/* OUT's score S, its Elo and the 95% interval of a mean of N samples of variance VAR (N > 0). */
static void set_interval(StatsElo *out, double s, double var, int n)
{
    double margin = Z95 * sqrt(var / n);
    out->score = s;
    out->elo = stats_elo_of_score(s);
    out->elo_low = stats_elo_of_score(s - margin);
    out->elo_high = stats_elo_of_score(s + margin);
    out->elo_error = isfinite(out->elo_low) && isfinite(out->elo_high)
                         ? (out->elo_high - out->elo_low) / 2.0
                         : INFINITY;
}

/* OUT with no games: an even score, no interval. */
static void set_empty(StatsElo *out)
{
    out->score = 0.5;
    out->elo = out->elo_low = out->elo_high = 0.0;
    out->elo_error = INFINITY;
}

void stats_elo(const StatsWdl *r, StatsElo *out)
{
    int n = r->wins + r->draws + r->losses;
    out->games = n;
    out->los = stats_los(r->wins, r->losses);
    if (n == 0) {
        set_empty(out);
        return;
    }
    double s = (r->wins + 0.5 * r->draws) / n;
    double var =
        (r->wins * (1 - s) * (1 - s) + r->draws * (0.5 - s) * (0.5 - s) + r->losses * s * s) / n;
    set_interval(out, s, var, n);
}

void stats_paired(const double *d, int n, StatsPaired *out)
{
    out->games = n;
    out->mean = 0.0;
    out->error = INFINITY;
    if (n <= 0)
        return;
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += d[i];
    double mean = sum / n;
    out->mean = mean;
    if (n < 2)
        return;
    double ss = 0;
    for (int i = 0; i < n; i++)
        ss += (d[i] - mean) * (d[i] - mean);
    out->error = Z95 * sqrt(ss / (n - 1) / n);
}

bool stats_sprt_valid(const StatsSprt *p, char *err)
{
    if (!isfinite(p->elo0) || !isfinite(p->elo1) || !(p->elo0 < p->elo1)) {
        snprintf(err, ERR_LEN, "elo0 (%g) must be below elo1 (%g)", p->elo0, p->elo1);
        return false;
    }
    if (fabs(p->elo0) > 1000 || fabs(p->elo1) > 1000) {
        snprintf(err, ERR_LEN, "elo0 and elo1 must lie within -1000..1000");
        return false;
    }
    if (!(p->alpha > 0 && p->alpha < 0.5) || !(p->beta > 0 && p->beta < 0.5)) {
        snprintf(err, ERR_LEN, "alpha (%g) and beta (%g) must lie strictly between 0 and 0.5",
                 p->alpha, p->beta);
        return false;
    }
    return true;
}

bool stats_sprt_parse(const char *text, StatsSprt *p, char *err)
{
    double v[4];
    const char *s = text;
    for (int i = 0; i < 4; i++) {
        char *end;
        v[i] = strtod(s, &end);
        if (end == s || !isfinite(v[i])) {
            snprintf(err, ERR_LEN, "`%s': value %d is not a number (expected ELO0,ELO1,ALPHA,BETA)",
                     text, i + 1);
            return false;
        }
        s = end;
        if (i < 3) {
            if (*s != ',') {
                snprintf(err, ERR_LEN,
                         "`%s': expected 4 numbers separated by commas "
                         "(ELO0,ELO1,ALPHA,BETA)",
                         text);
                return false;
            }
            s++;
        }
    }
    if (*s != '\0') {
        snprintf(err, ERR_LEN, "`%s': unexpected `%s' after the fourth number", text, s);
        return false;
    }
    *p = (StatsSprt){v[0], v[1], v[2], v[3]};
    return stats_sprt_valid(p, err);
}

/* The maximum-likelihood probabilities P of K outcomes scoring X[i] (0 and 1 among them) for
 * frequencies Q under the constraint that the expected score is T, 0 < T < 1 (see the top of
 * the file). */
static void constrained_mle(int k, const double *x, const double *q, double t, double *p)
{
    double d[5];
    for (int i = 0; i < k; i++)
        d[i] = x[i] - t;
    /* Every 1 + lambda d_i > 0: lambda in (-1/(1-t), 1/t). */
    double lo = -1.0 / (1.0 - t), hi = 1.0 / t, lambda = 0.0;
    for (int iter = 0; iter < 200; iter++) {
        lambda = 0.5 * (lo + hi);
        if (lambda <= lo || lambda >= hi)
            break;
        double f = 0.0;
        for (int i = 0; i < k; i++)
            f += q[i] * d[i] / (1.0 + lambda * d[i]);
        if (f > 0)
            lo = lambda;
        else
            hi = lambda;
    }
    double sum = 0.0;
    for (int i = 0; i < k; i++)
        sum += p[i] = q[i] / (1.0 + lambda * d[i]);
    for (int i = 0; i < k; i++)
        p[i] /= sum; /* removes the last rounding error of the bisection */
}

/* The GSPRT's LLR for the counts COUNT[0..K-1] of outcomes scoring X[i] (K <= 5). */
static double gsprt_llr(int k, const double *x, const int *count, const StatsSprt *p)
{
    double n[5], total = 0.0, q[5], p0[5], p1[5];
    int observed = 0;
    for (int i = 0; i < k; i++) {
        observed += count[i];
        n[i] = count[i] > 0 ? count[i] : SPRT_EPSILON;
        total += n[i];
    }
    if (observed == 0)
        return 0.0;
    for (int i = 0; i < k; i++)
        q[i] = n[i] / total;
    constrained_mle(k, x, q, stats_score_of_elo(p->elo0), p0);
    constrained_mle(k, x, q, stats_score_of_elo(p->elo1), p1);
    double llr = 0.0;
    for (int i = 0; i < k; i++)
        llr += n[i] * log(p1[i] / p0[i]);
    return llr;
}

double stats_sprt_llr(const StatsWdl *r, const StatsSprt *p)
{
    static const double x[3] = {1.0, 0.5, 0.0};
    const int count[3] = {r->wins, r->draws, r->losses};
    return gsprt_llr(3, x, count, p);
}

/* The score of a pair that scored I half points, per game. */
static double pair_score(int i)
{
    return i / 4.0;
}

double stats_penta_llr(const StatsPenta *r, const StatsSprt *p)
{
    double x[5];
    for (int i = 0; i < 5; i++)
        x[i] = pair_score(i);
    return gsprt_llr(5, x, r->pairs, p);
}

void stats_penta_elo(const StatsPenta *r, StatsElo *out)
{
    int n = 0;
    double sum = 0.0;
    for (int i = 0; i < 5; i++) {
        n += r->pairs[i];
        sum += r->pairs[i] * pair_score(i);
    }
    out->games = 2 * n;
    out->los = 0.5;
    if (n == 0) {
        set_empty(out);
        return;
    }
    double s = sum / n, var = 0.0;
    for (int i = 0; i < 5; i++)
        var += r->pairs[i] * (pair_score(i) - s) * (pair_score(i) - s);
    var /= n;
    set_interval(out, s, var, n);
    double se = sqrt(var / n);
    out->los = se > 0    ? 0.5 * (1.0 + erf((s - 0.5) / (se * sqrt(2.0))))
               : s > 0.5 ? 1.0
               : s < 0.5 ? 0.0
                         : 0.5;
}

double stats_sprt_lower(const StatsSprt *p)
{
    return log(p->beta / (1.0 - p->alpha));
}
double stats_sprt_upper(const StatsSprt *p)
{
    return log((1.0 - p->beta) / p->alpha);
}

SprtDecision stats_sprt_decide(double llr, const StatsSprt *p)
{
    if (llr >= stats_sprt_upper(p))
        return SPRT_H1;
    if (llr <= stats_sprt_lower(p))
        return SPRT_H0;
    return SPRT_CONTINUE;
}

void stats_ratings(int n, const double *points, const int *games, double *ratings)
{
    double *gamma = malloc(sizeof(double) * (size_t)n);
    double *next = malloc(sizeof(double) * (size_t)n);
    if (!gamma || !next) {
        for (int i = 0; i < n; i++)
            ratings[i] = 0.0;
        free(gamma);
        free(next);
        return;
    }
    for (int i = 0; i < n; i++)
        gamma[i] = 1.0;
    /* Hunter's MM iteration with a tiny prior (RATING_PRIOR points each way per pair that met)
     * so that a perfect or zero score still has a finite maximum. */
    for (int iter = 0; iter < RATING_ITERATIONS; iter++) {
        double change = 0.0;
        for (int i = 0; i < n; i++) {
            double pts = 0.0, denom = 0.0;
            for (int j = 0; j < n; j++) {
                int g = games[i * n + j];
                if (j == i || g <= 0)
                    continue;
                pts += points[i * n + j] + RATING_PRIOR;
                denom += (g + 2 * RATING_PRIOR) / (gamma[i] + gamma[j]);
            }
            next[i] = denom > 0 ? pts / denom : gamma[i];
        }
        /* Normalise (geometric mean 1) so the numbers stay in range. */
        double logsum = 0.0;
        for (int i = 0; i < n; i++)
            logsum += log(next[i]);
        double norm = exp(logsum / n);
        for (int i = 0; i < n; i++) {
            next[i] /= norm;
            change = fmax(change, fabs(log(next[i] / gamma[i])));
            gamma[i] = next[i];
        }
        if (change < 1e-12)
            break;
    }
    double mean = 0.0;
    for (int i = 0; i < n; i++)
        mean += ratings[i] = 400.0 * log10(gamma[i]);
    mean /= n;
    for (int i = 0; i < n; i++) {
        bool played = false;
        for (int j = 0; j < n; j++)
            played |= games[i * n + j] > 0;
        ratings[i] =
            played ? fmax(-STATS_RATING_CAP, fmin(STATS_RATING_CAP, ratings[i] - mean)) : 0.0;
    }
    free(gamma);
    free(next);
}
