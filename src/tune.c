/*
 * tune.c - Texel tuning of the evaluation weights (see tune.h for the model).
 *
 * The positions are cut into chunks of CHUNK_SIZE (training chunks first, then held-out ones);
 * every parallel job works chunk by chunk and leaves its sums in the chunk, and the sums are
 * added in chunk order afterwards, so the threads only change the speed. A chunk keeps, for the
 * current linearisation point, each position's evaluation (base) and the non-zero coefficients
 * of the weights in it (a sparse row: most terms are absent from most positions).
 */
#include "tune.h"

#include "eval.h"
#include "rng.h"
#include "util.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum {
    CHUNK_SIZE = 4096,   /* positions per chunk */
    HOLDOUT_BLOCK = 256, /* consecutive records held out (or not) together */
    DELTA = 32,          /* step of the central differences, in weight units */
};

_Static_assert(WEIGHT_NB <= 256, "weight indices are stored in a byte");

typedef struct {
    const size_t *pos;      /* indices into the records of this chunk's positions */
    int count;              /* positions in the chunk */
    bool valid;             /* held out: no gradient */
    float *target;          /* per position: the target probability for Black */
    float *result;          /* per position: the game result for Black (0, 0.5, 1) */
    float *base;            /* per position: the evaluation for Black at the point */
    uint32_t *offset;       /* count + 1 offsets into idx and coef */
    uint8_t *idx;           /* weight of each non-zero coefficient */
    float *coef;            /* its value */
    size_t nnz, cap;        /* coefficients stored and allocated */
    bool oom;               /* an allocation failed */
    double loss;            /* job output: sum of squared errors */
    double grad[WEIGHT_NB]; /* job output: sum of gradients */
    double *hess;           /* job output: sum of Gauss-Newton matrices (upper triangle) */
} Chunk;

typedef struct Tuner Tuner;
typedef void (*ChunkJob)(Tuner *t, Chunk *c);

struct Tuner {
    const TrainRecord *recs;    /* the records */
    size_t *order;              /* training positions, then held-out ones */
    Chunk *chunks;              /* over order */
    int nchunks, ntrain_chunks; /* all chunks, training chunks (the first ones) */
    size_t ntrain, nvalid;      /* positions of each kind */
    int threads;                /* workers per job */
    const bool *frozen;         /* weights left out of the linearisation */
    bool bases_only;            /* linearise: evaluations only, no coefficients */
    Weights point;              /* the linearisation point */
    Weights exact;              /* job_exact: the weights to evaluate with */
    double delta[WEIGHT_NB];    /* current weights minus the point */
    double s;                   /* logistic scale of the model */
    double s_target;            /* logistic scale of the search scores in the target */
    double lambda;              /* share of the result in the target */
    bool vs_result;             /* loss job: against the result rather than the target */
    bool want_hessian;          /* loss job: the Gauss-Newton matrix too (training chunks) */
    ChunkJob job;               /* the job being run */
    atomic_int next;            /* next chunk to take */
};

static inline double sigmoid(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

static inline int eval_black(const Weights *w, const Board *b)
{
    int v = eval_board(w, b);
    return b->side == BLACK ? v : -v;
}

/* ---- running a job over every chunk ---------------------------------------------------------- */

static void *job_worker(void *arg)
{
    Tuner *t = arg;
    for (int c; (c = atomic_fetch_add(&t->next, 1)) < t->nchunks;)
        t->job(t, &t->chunks[c]);
    return NULL;
}

static void run_job(Tuner *t, ChunkJob job)
{
    t->job = job;
    atomic_store(&t->next, 0);
    pthread_t tid[64];
    int n = t->threads < 64 ? t->threads : 64, started = 0;
    for (int i = 1; i < n; i++, started++)
        if (pthread_create(&tid[i - 1], NULL, job_worker, t) != 0)
            break;
    job_worker(t); /* this thread works too, and finishes whatever a failed start left */
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
}

/* ---- the jobs -------------------------------------------------------------------------------- */

static bool push(Chunk *c, int id, float v)
{
    if (c->nnz == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : (size_t)c->count * 16 + 16;
        uint8_t *idx = realloc(c->idx, cap);
        if (!idx)
            return false;
        c->idx = idx;
        float *coef = realloc(c->coef, cap * sizeof *coef);
        if (!coef)
            return false;
        c->coef = coef;
        c->cap = cap;
    }
    c->idx[c->nnz] = (uint8_t)id;
    c->coef[c->nnz++] = v;
    return true;
}

/* Evaluations at the point, and the coefficient of every free weight by central differences. */
static void job_linearise(Tuner *t, Chunk *c)
{
    Weights w = t->point;
    c->nnz = 0;
    for (int k = 0; k < c->count; k++) {
        const Board *b = &t->recs[c->pos[k]].board;
        int pieces = __builtin_popcount(b->pieces[BLACK] | b->pieces[WHITE]);
        int phase = pieces > WEIGHT_PHASE_MAX ? WEIGHT_PHASE_MAX : pieces; /* the blend it reads */
        c->base[k] = (float)eval_black(&w, b);
        c->offset[k] = (uint32_t)c->nnz;
        if (t->bases_only)
            continue;
        for (int i = 0; i < WEIGHT_NB; i++) {
            if (t->frozen[i])
                continue;
            int v = w.v[i];
            weights_set_phase(&w, i, v + DELTA, phase);
            int hi = eval_black(&w, b);
            weights_set_phase(&w, i, v - DELTA, phase);
            int lo = eval_black(&w, b);
            weights_set_phase(&w, i, v, phase);
            if (hi != lo && !push(c, i, (float)(hi - lo) / (2 * DELTA))) {
                c->oom = true;
                return;
            }
        }
    }
    c->offset[c->count] = (uint32_t)c->nnz;
}

/* Targets from the results and search scores. */
static void job_target(Tuner *t, Chunk *c)
{
    for (int k = 0; k < c->count; k++) {
        const TrainRecord *r = &t->recs[c->pos[k]];
        double score = r->board.side == BLACK ? r->score : -r->score;
        c->target[k] =
            (float)(t->lambda * c->result[k] + (1 - t->lambda) * sigmoid(score / t->s_target));
    }
}

/* Loss (and, on training chunks, its gradient) of the linear model at point + delta. */
static void job_loss(Tuner *t, Chunk *c)
{
    double loss = 0;
    memset(c->grad, 0, sizeof c->grad);
    bool grad = !c->valid && !t->vs_result && !t->bases_only;
    bool hess = grad && t->want_hessian;
    if (hess) {
        if (!c->hess && !(c->hess = malloc(sizeof(double) * WEIGHT_NB * WEIGHT_NB))) {
            c->oom = true;
            return;
        }
        memset(c->hess, 0, sizeof(double) * WEIGHT_NB * WEIGHT_NB);
    }
    const float *goal = t->vs_result ? c->result : c->target;
    for (int k = 0; k < c->count; k++) {
        double e = c->base[k];
        uint32_t from = c->offset[k], to = c->offset[k + 1];
        if (!t->bases_only)
            for (uint32_t j = from; j < to; j++)
                e += c->coef[j] * t->delta[c->idx[j]];
        double p = sigmoid(e / t->s), err = p - goal[k];
        loss += err * err;
        if (grad) {
            double d = p * (1 - p) / t->s; /* dp/dE */
            double f = 2 * err * d;
            for (uint32_t j = from; j < to; j++)
                c->grad[c->idx[j]] += f * c->coef[j];
            if (hess) {
                /* Gauss-Newton: 2 (dp/dw)(dp/dw)^T; indices rise along a row. */
                double h = 2 * d * d;
                for (uint32_t j = from; j < to; j++) {
                    double *row = c->hess + c->idx[j] * WEIGHT_NB;
                    double hj = h * c->coef[j];
                    for (uint32_t l = j; l < to; l++)
                        row[c->idx[l]] += hj * c->coef[l];
                }
            }
        }
    }
    c->loss = loss;
}

/* Loss of the evaluation itself at t->exact (the bases stay as they are). */
static void job_exact(Tuner *t, Chunk *c)
{
    double loss = 0;
    for (int k = 0; k < c->count; k++) {
        double p = sigmoid(eval_black(&t->exact, &t->recs[c->pos[k]].board) / t->s);
        double err = p - c->target[k];
        loss += err * err;
    }
    c->loss = loss;
}

/* ---- set-up ---------------------------------------------------------------------------------- */

static void tuner_free(Tuner *t)
{
    for (int i = 0; t->chunks && i < t->nchunks; i++) {
        Chunk *c = &t->chunks[i];
        free(c->target);
        free(c->result);
        free(c->base);
        free(c->offset);
        free(c->idx);
        free(c->coef);
        free(c->hess);
    }
    free(t->chunks);
    free(t->order);
}

/* Splits the records into training and held-out positions and makes the chunks. */
static bool tuner_init(Tuner *t, const TrainRecord *recs, size_t n, double valid_fraction,
                       int threads, char *err)
{
    eval_init(); /* every entry point comes here before it evaluates anything */
    memset(t, 0, sizeof *t);
    t->recs = recs;
    t->threads = threads < 1 ? 1 : threads;
    t->order = malloc((n ? n : 1) * sizeof *t->order);
    if (!t->order)
        goto oom;
    uint64_t cut = (uint64_t)(valid_fraction * 1e6);
    size_t nt = 0, nv = 0;
    for (size_t i = 0; i < n; i++)
        if (rng_mix64(i / HOLDOUT_BLOCK) % 1000000 >= cut)
            t->order[nt++] = i;
    for (size_t i = 0; i < n; i++)
        if (rng_mix64(i / HOLDOUT_BLOCK) % 1000000 < cut)
            t->order[nt + nv++] = i;
    t->ntrain = nt;
    t->nvalid = nv;
    t->ntrain_chunks = (int)((nt + CHUNK_SIZE - 1) / CHUNK_SIZE);
    t->nchunks = t->ntrain_chunks + (int)((nv + CHUNK_SIZE - 1) / CHUNK_SIZE);
    t->chunks = calloc((size_t)t->nchunks + 1, sizeof *t->chunks);
    if (!t->chunks)
        goto oom;
    for (int i = 0; i < t->nchunks; i++) {
        Chunk *c = &t->chunks[i];
        bool valid = i >= t->ntrain_chunks;
        size_t first =
            valid ? nt + (size_t)(i - t->ntrain_chunks) * CHUNK_SIZE : (size_t)i * CHUNK_SIZE;
        size_t end = valid ? nt + nv : nt;
        c->pos = t->order + first;
        c->count = (int)(end - first < CHUNK_SIZE ? end - first : CHUNK_SIZE);
        c->valid = valid;
        c->target = malloc((size_t)c->count * sizeof *c->target);
        c->result = malloc((size_t)c->count * sizeof *c->result);
        c->base = malloc((size_t)c->count * sizeof *c->base);
        c->offset = malloc(((size_t)c->count + 1) * sizeof *c->offset);
        if (!c->target || !c->result || !c->base || !c->offset)
            goto oom;
        for (int k = 0; k < c->count; k++)
            c->result[k] = (float)recs[c->pos[k]].result / 2;
    }
    return true;
oom:
    snprintf(err, ERR_LEN, "out of memory for %zu positions", n);
    tuner_free(t);
    return false;
}

static bool linearise(Tuner *t, const Weights *point, char *err)
{
    t->point = *point;
    memset(t->delta, 0, sizeof t->delta);
    run_job(t, job_linearise);
    for (int i = 0; i < t->nchunks; i++)
        if (t->chunks[i].oom) {
            snprintf(err, ERR_LEN, "out of memory for the coefficients");
            return false;
        }
    return true;
}

/* Runs the loss job and adds up: mean losses into *TRAIN and *VALID, mean gradient into GRAD
 * (may be NULL). */
static void total_loss(Tuner *t, double *train, double *valid, double *grad)
{
    run_job(t, job_loss);
    double lt = 0, lv = 0;
    if (grad)
        memset(grad, 0, WEIGHT_NB * sizeof *grad);
    for (int i = 0; i < t->nchunks; i++) {
        const Chunk *c = &t->chunks[i];
        if (c->valid) {
            lv += c->loss;
            continue;
        }
        lt += c->loss;
        if (grad)
            for (int j = 0; j < WEIGHT_NB; j++)
                grad[j] += c->grad[j];
    }
    *train = t->ntrain ? lt / (double)t->ntrain : 0;
    *valid = t->nvalid ? lv / (double)t->nvalid : 0;
    if (grad && t->ntrain)
        for (int j = 0; j < WEIGHT_NB; j++)
            grad[j] /= (double)t->ntrain;
}

/* The evaluation's own mean losses at W. */
static void exact_loss(Tuner *t, const Weights *w, double *train, double *valid)
{
    t->exact = *w;
    run_job(t, job_exact);
    double lt = 0, lv = 0;
    for (int i = 0; i < t->nchunks; i++)
        *(t->chunks[i].valid ? &lv : &lt) += t->chunks[i].loss;
    *train = t->ntrain ? lt / (double)t->ntrain : 0;
    *valid = t->nvalid ? lv / (double)t->nvalid : 0;
}

/* The s minimising the loss against the results (VS_RESULT) or the target, with the bases
 * already computed: golden section search on log s over [1, 100000]. */
static double fit_scale(Tuner *t, bool vs_result)
{
    bool was = t->bases_only;
    t->bases_only = true;
    t->vs_result = vs_result;
    const double g = (sqrt(5.0) - 1) / 2;
    double a = log(1.0), b = log(100000.0);
    double x1 = b - g * (b - a), x2 = a + g * (b - a), f1, f2, dummy;
    t->s = exp(x1);
    total_loss(t, &f1, &dummy, NULL);
    t->s = exp(x2);
    total_loss(t, &f2, &dummy, NULL);
    for (int i = 0; i < 60; i++) {
        if (f1 < f2) {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - g * (b - a);
            t->s = exp(x1);
            total_loss(t, &f1, &dummy, NULL);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + g * (b - a);
            t->s = exp(x2);
            total_loss(t, &f2, &dummy, NULL);
        }
    }
    t->bases_only = was;
    t->vs_result = false;
    return exp((a + b) / 2);
}

static void report_step(const TuneOptions *o, int round, int iteration, double train, double valid,
                        bool exact)
{
    if (!o->cb)
        return;
    TuneStep st = {round, iteration, train, valid, exact};
    o->cb(&st, o->ctx);
}

/* Solves A x = B for the symmetric positive definite N x N matrix A (Cholesky, A overwritten).
 * Returns false when A is not positive definite. */
static bool cholesky_solve(double *a, const double *b, double *x, int n)
{
    for (int j = 0; j < n; j++) {
        double d = a[j * n + j];
        for (int k = 0; k < j; k++)
            d -= a[j * n + k] * a[j * n + k];
        if (!(d > 0))
            return false;
        d = sqrt(d);
        a[j * n + j] = d;
        for (int i = j + 1; i < n; i++) {
            double v = a[i * n + j];
            for (int k = 0; k < j; k++)
                v -= a[i * n + k] * a[j * n + k];
            a[i * n + j] = v / d;
        }
    }
    for (int i = 0; i < n; i++) { /* L y = b */
        double v = b[i];
        for (int k = 0; k < i; k++)
            v -= a[i * n + k] * x[k];
        x[i] = v / a[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) { /* L^T x = y */
        double v = x[i];
        for (int k = i + 1; k < n; k++)
            v -= a[k * n + i] * x[k];
        x[i] = v / a[i * n + i];
    }
    return true;
}

/* The training loss of the linear model at X (plus the pull towards START), its gradient and
 * Gauss-Newton matrix (full, symmetric) when G and H are given; the held-out loss into *VALID. */
static bool model_at(Tuner *t, const TuneOptions *o, const double *x, const int *start,
                     double *valid, double *g, double *h, double *loss)
{
    for (int i = 0; i < WEIGHT_NB; i++)
        t->delta[i] = x[i] - t->point.v[i];
    t->want_hessian = h != NULL;
    double grad[WEIGHT_NB];
    total_loss(t, loss, valid, g ? grad : NULL);
    t->want_hessian = false;
    double pull = 0;
    for (int i = 0; i < WEIGHT_NB; i++)
        pull += (x[i] - start[i]) * (x[i] - start[i]);
    *loss += o->l2 * pull / WEIGHT_NB;
    if (g)
        for (int i = 0; i < WEIGHT_NB; i++)
            g[i] = grad[i] + 2 * o->l2 * (x[i] - start[i]) / WEIGHT_NB;
    if (!h)
        return true;
    memset(h, 0, sizeof(double) * WEIGHT_NB * WEIGHT_NB);
    for (int c = 0; c < t->ntrain_chunks; c++) {
        const double *ch = t->chunks[c].hess;
        if (t->chunks[c].oom || !ch)
            return false;
        for (int i = 0; i < WEIGHT_NB * WEIGHT_NB; i++)
            h[i] += ch[i];
    }
    for (int i = 0; i < WEIGHT_NB; i++)
        for (int j = i; j < WEIGHT_NB; j++) {
            double v = h[i * WEIGHT_NB + j] / (double)t->ntrain;
            if (i == j)
                v += 2 * o->l2 / WEIGHT_NB;
            h[i * WEIGHT_NB + j] = h[j * WEIGHT_NB + i] = v;
        }
    return true;
}

/* One round of Levenberg-Marquardt on the linear model around t->point, from X (updated): at
 * most O->iterations accepted steps, ending early once a step gains almost nothing. */
static bool levenberg_marquardt(Tuner *t, const TuneOptions *o, int round, double *x,
                                const int *start, char *err)
{
    enum { N = WEIGHT_NB };
    double h[N * N], a[N * N];
    double g[N], d[N], y[N], loss, valid, mu = 1e-3;
    if (!model_at(t, o, x, start, &valid, g, h, &loss))
        goto oom;
    for (int it = 1; it <= o->iterations; it++) {
        /* 1. Try damped Gauss-Newton steps, raising the damping until one lowers the loss. */
        bool accepted = false;
        double trial = loss, trial_valid = valid;
        for (int tries = 0; tries < 30 && !accepted; tries++) {
            for (int i = 0; i < N; i++)
                for (int j = 0; j < N; j++) {
                    bool fixed =
                        o->frozen[i] || o->frozen[j] || h[i * N + i] == 0 || h[j * N + j] == 0;
                    a[i * N + j] = fixed ? 0 : h[i * N + j];
                }
            double rhs[N];
            for (int i = 0; i < N; i++) {
                bool fixed = o->frozen[i] || h[i * N + i] == 0;
                a[i * N + i] = fixed ? 1 : h[i * N + i] * (1 + mu);
                rhs[i] = fixed ? 0 : -g[i];
            }
            if (!cholesky_solve(a, rhs, d, N)) {
                mu *= 4;
                continue;
            }
            for (int i = 0; i < N; i++) {
                y[i] = x[i] + d[i];
                y[i] = y[i] > WEIGHT_LIMIT    ? WEIGHT_LIMIT
                       : y[i] < -WEIGHT_LIMIT ? -WEIGHT_LIMIT
                                              : y[i];
            }
            model_at(t, o, y, start, &trial_valid, NULL, NULL, &trial);
            if (trial < loss) {
                accepted = true;
                mu = mu / 3 > 1e-9 ? mu / 3 : 1e-9;
            } else
                mu *= 4;
        }
        if (!accepted)
            break; /* no step lowers the loss: the round has converged */
        double gain = loss - trial;
        memcpy(x, y, sizeof y);
        if (!model_at(t, o, x, start, &valid, g, h, &loss))
            goto oom;
        report_step(o, round, it, loss, valid, false);
        if (gain < 1e-9 * loss)
            break;
    }
    return true;
oom:
    snprintf(err, ERR_LEN, "out of memory for the Gauss-Newton matrices");
    return false;
}

/* ---- the public functions -------------------------------------------------------------------- */

void tune_default_options(TuneOptions *o)
{
    memset(o, 0, sizeof *o);
    o->rounds = 3;
    o->iterations = 30;
    o->lambda = 1.0;
    o->valid_fraction = 0.1;
    o->threads = 1;
}

double tune_fit_scale(const TrainRecord *recs, size_t n, const Weights *w, int threads)
{
    Tuner t;
    char err[ERR_LEN];
    if (n == 0 || !tuner_init(&t, recs, n, 0, threads, err))
        return 0;
    t.bases_only = true;
    double s = linearise(&t, w, err) ? fit_scale(&t, true) : 0;
    tuner_free(&t);
    return s;
}

bool tune_fit(const TrainRecord *recs, size_t n, const TuneOptions *o, Weights *w,
              TuneReport *report, char *err)
{
    double t0 = util_now();
    memset(report, 0, sizeof *report);
    if (n == 0) {
        snprintf(err, ERR_LEN, "no positions to tune on");
        return false;
    }
    if (o->rounds < 1 || o->iterations < 0 || o->lambda < 0 || o->lambda > 1 || o->scale < 0 ||
        o->l2 < 0 || o->valid_fraction < 0 || o->valid_fraction > 0.9) {
        snprintf(err, ERR_LEN, "tuning option out of range");
        return false;
    }
    Tuner t;
    if (!tuner_init(&t, recs, n, o->valid_fraction, o->threads, err))
        return false;
    if (t.ntrain == 0) {
        snprintf(err, ERR_LEN, "no training positions left after holding out %zu", t.nvalid);
        tuner_free(&t);
        return false;
    }
    t.frozen = o->frozen;
    t.lambda = o->lambda;
    report->train = t.ntrain;
    report->valid = t.nvalid;

    /* 1. Linearise at the starting weights, and fit the scale to the results there. */
    Weights start = *w;
    weights_refresh(&start); /* in case the caller changed values without it */
    if (!linearise(&t, &start, err)) {
        tuner_free(&t);
        return false;
    }
    t.s = t.s_target = o->scale > 0 ? o->scale : fit_scale(&t, true);
    report->scale_start = t.s;
    run_job(&t, job_target);

    double x[WEIGHT_NB];
    for (int i = 0; i < WEIGHT_NB; i++)
        x[i] = start.v[i];
    Weights point = start;
    bool ok = true;
    double lt, lv;
    total_loss(&t, &lt, &lv, NULL); /* at the point itself: the evaluation's own loss */
    report->before_train = lt;
    report->before_valid = lv;
    report_step(o, 0, 0, lt, lv, true);
    for (int round = 1; round <= o->rounds; round++) {
        /* 2. Each round linearises at the rounded weights it starts from (round 1 already
         * is). */
        if (round > 1 && !(ok = linearise(&t, &point, err)))
            break;

        /* With a fitted scale, refit it there: the scale of the model follows the weights, so
         * that man_mg, frozen, stays the unit and the others do not grow to make up for a
         * scale fitted to the old weights. (The target's scale, that of the search scores,
         * stays.) The loss at the point can only fall. */
        if (round > 1 && o->scale == 0) {
            t.s = fit_scale(&t, false);
            total_loss(&t, &lt, &lv, NULL);
        }

        /* 3. Levenberg-Marquardt steps on the linear model until they stop paying. */
        if (!(ok = levenberg_marquardt(&t, o, round, x, start.v, err)))
            break;

        /* 4. Back to the evaluation itself: the rounded step, halved until it lowers the
         * evaluation's own loss (the linear model is exact only for terms linear in their
         * weight; back_king_scale, which multiplies the back-rank patterns, is not). */
        Weights cand = point;
        double ct = lt, cv = lv;
        bool better = false;
        for (int halving = 0; halving < 6 && !better; halving++) {
            for (int i = 0; i < WEIGHT_NB; i++)
                cand.v[i] = (int)lround(point.v[i] + ldexp(x[i] - point.v[i], -halving));
            weights_refresh(&cand);
            if (memcmp(&cand, &point, sizeof cand) == 0)
                break;
            exact_loss(&t, &cand, &ct, &cv);
            better = ct < lt;
        }
        if (better) {
            point = cand;
            lt = ct;
            lv = cv;
        }
        for (int i = 0; i < WEIGHT_NB; i++)
            x[i] = point.v[i];
        report_step(o, round, 0, lt, lv, true);
        if (!better)
            break; /* no step helps the evaluation itself: converged */
    }
    report->scale = t.s;
    if (ok) {
        report->after_train = lt;
        report->after_valid = lv;
        *w = point;
    }
    report->seconds = util_now() - t0;
    tuner_free(&t);
    return ok;
}
