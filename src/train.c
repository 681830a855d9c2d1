/*
 * train.c - the float network of `ponder train': initialisation, forward and backward passes,
 * Adam, and epochs split over threads.
 *
 * A sample activates about 24 of the 128 features (about 40 of the mobility set's 288), so the
 * first layer is a sum of the active rows of W1 (forward) and only those rows receive a gradient
 * (backward); the dense layers are small (n2 = n3 = 32) and one bucket of them is used per sample.
 *
 * Repeatability: a minibatch is cut into TRAIN_SLICES fixed slices, each with its own gradient
 * buffer; threads take slices round-robin; then each thread takes a range of the parameters,
 * adds their slice gradients in slice order and makes their Adam step. The arithmetic is
 * therefore the same whatever the number of threads, and a run is identical bit for bit for a
 * given seed with 1, 2 or 16 threads (tests/unit/test_train.c checks it). No fused
 * multiply-adds, dot products in fixed partial sums, exp and pow of our own: the same bits
 * from any compiler on any processor. The epoch's shuffle is drawn from (seed, epoch), so a run
 * resumed from a checkpoint continues exactly as an uninterrupted one.
 */
#include "train.h"

#include "rng.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* No fused multiply-adds: clang fuses a * b + c by default where the CPU has FMA, gcc in C11 mode
 * does not, and the trained network would then depend on the compiler and the machine. */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

enum { EVAL_CHUNK = 4096, MAX_THREADS = 64 };

double train_exp(double x)
{
    /* e^x = 2^k e^r, k = round(x / ln 2), |r| <= ln 2 / 2, e^r by its Taylor series to r^14
     * (truncation below 1e-17), 2^k exactly by ldexp. ln 2 in two parts so that k ln 2 is
     * subtracted without rounding. */
    if (x > 700)
        x = 700;
    if (x < -700)
        x = -700;
    const double ln2_hi = 0.693147180369123816490, ln2_lo = 1.90821492927058770002e-10;
    double kf = x * 1.44269504088896338700;
    long k = (long)(kf < 0 ? kf - 0.5 : kf + 0.5);
    double r = (x - (double)k * ln2_hi) - (double)k * ln2_lo;
    double sum = 1, term = 1;
    for (int i = 1; i <= 14; i++) {
        term = term * r / i;
        sum += term;
    }
    return ldexp(sum, (int)k);
}

double train_pow(double b, uint64_t n)
{
    double r = 1;
    for (; n; n >>= 1, b *= b)
        if (n & 1)
            r *= b;
    return r;
}

size_t net_layout(const NetShape *sh, NetLayout *l)
{
    size_t n1 = (size_t)sh->n1, n2 = (size_t)sh->n2, n3 = (size_t)sh->n3;
    size_t sets = (size_t)sh->sets;
    l->w1 = 0;
    l->b1 = sets * (size_t)sh->features * n1;
    l->bucket0 = l->b1 + sets * n1;
    l->w2 = 0;
    l->b2 = n2 * (size_t)nnue_l2_inputs(sh->act, sh->n1);
    l->w3 = l->b2 + n2;
    l->b3 = l->w3 + n3 * n2;
    l->w4 = l->b3 + n3;
    l->b4 = l->w4 + n3;
    l->stride = l->b4 + 1;
    return l->bucket0 + (size_t)sh->buckets * l->stride;
}

bool net_shape_check(const NetShape *sh, char *err)
{
    return nnue_check_shape(sh->features, sh->n1, sh->n2, sh->n3, sh->buckets, sh->sets, sh->act, 1,
                            "", err);
}

/* Uniform in [-bound, bound]. */
static float uniform(uint64_t *x, double bound)
{
    return (float)(((double)(rng_splitmix64(x) >> 11) / 9007199254740992.0 * 2 - 1) * bound);
}

bool train_net_init(TrainNet *net, const NetShape *sh, uint64_t seed, char *err)
{
    memset(net, 0, sizeof *net);
    if (!net_shape_check(sh, err))
        return false;
    NetLayout l;
    net->shape = *sh;
    net->nparams = net_layout(sh, &l);
    net->p = calloc(net->nparams, sizeof *net->p);
    if (!net->p) {
        snprintf(err, ERR_LEN, "out of memory (%zu parameters)", net->nparams);
        return false;
    }
    /* He (Kaiming) uniform: bound sqrt(6 / fan_in) over each layer's inputs; biases zero. */
    uint64_t x = seed ^ 0x6E6E7565ull;
    for (size_t i = 0; i < (size_t)sh->sets * (size_t)sh->features * (size_t)sh->n1; i++)
        net->p[l.w1 + i] = uniform(&x, sqrt(6.0 / sh->features));
    for (int k = 0; k < sh->buckets; k++) {
        float *b = net->p + l.bucket0 + (size_t)k * l.stride;
        int m = nnue_l2_inputs(sh->act, sh->n1);
        for (size_t i = 0; i < (size_t)sh->n2 * (size_t)m; i++)
            b[l.w2 + i] = uniform(&x, sqrt(6.0 / m));
        for (size_t i = 0; i < (size_t)sh->n3 * sh->n2; i++)
            b[l.w3 + i] = uniform(&x, sqrt(6.0 / sh->n2));
        for (int i = 0; i < sh->n3; i++)
            b[l.w4 + i] = uniform(&x, sqrt(6.0 / sh->n3));
    }
    train_net_clip(net);
    return true;
}

void train_net_free(TrainNet *net)
{
    free(net->p);
    net->p = NULL;
}

static void clip(float *p, size_t n, float bound)
{
    for (size_t i = 0; i < n; i++)
        p[i] = p[i] > bound ? bound : p[i] < -bound ? -bound : p[i];
}

void train_net_clip(TrainNet *net)
{
    NetLayout l;
    const NetShape *sh = &net->shape;
    net_layout(sh, &l);
    clip(net->p + l.w1, (size_t)sh->sets * (size_t)(sh->features + 1) * (size_t)sh->n1,
         sh->features == NNUE_FEATURES            ? NET_CLIP_W1
         : sh->features == NNUE_FEATURES_MOBILITY ? NET_CLIP_W1_MOBILITY
                                                  : NET_CLIP_W1_SHOTS); /* W1, b1 */
    for (int k = 0; k < sh->buckets; k++) {
        float *b = net->p + l.bucket0 + (size_t)k * l.stride;
        clip(b + l.w2, (size_t)sh->n2 * (size_t)nnue_l2_inputs(sh->act, sh->n1), NET_CLIP_HIDDEN);
        clip(b + l.w3, (size_t)sh->n3 * sh->n2, NET_CLIP_HIDDEN);
        clip(b + l.w4, (size_t)sh->n3, NET_CLIP_OUT);
    }
}

static inline float clamp01(float x)
{
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

/* The second layer's inputs H1 from the accumulator A1 (N1 lanes) under ACT; returns their
 * number: the clamped lanes, or for a pairwise layer the products of lane j and j + n1/2. */
static inline int act_forward(int act, const float *a1, int n1, float *h1)
{
    if (act == NNUE_ACT_PAIR) {
        int m = n1 / 2;
        for (int j = 0; j < m; j++)
            h1[j] = clamp01(a1[j]) * clamp01(a1[j + m]);
        return m;
    }
    for (int j = 0; j < n1; j++)
        h1[j] = clamp01(a1[j]);
    return n1;
}

/* D1, the gradient at act_forward()'s outputs, taken back to the accumulator's N1 lanes into
 * OUT (zero where the clamp is flat). */
static inline void act_backward(int act, const float *a1, int n1, const float *d1, float *out)
{
    if (act == NNUE_ACT_PAIR) {
        int m = n1 / 2;
        for (int j = 0; j < m; j++) {
            float c0 = clamp01(a1[j]), c1 = clamp01(a1[j + m]);
            out[j] = (a1[j] > 0 && a1[j] < 1) ? d1[j] * c1 : 0;
            out[j + m] = (a1[j + m] > 0 && a1[j + m] < 1) ? d1[j] * c0 : 0;
        }
        return;
    }
    for (int j = 0; j < n1; j++)
        out[j] = (a1[j] > 0 && a1[j] < 1) ? d1[j] : 0;
}

/* The dot product of N floats (N a multiple of 8) in eight partial sums, so that the compiler
 * can vectorise it without reordering float additions on its own; fixed order, fixed result. */
static inline float dot(const float *a, const float *b, int n)
{
    float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int j = 0; j < n; j += 8)
        for (int k = 0; k < 8; k++)
            acc[k] += a[j + k] * b[j + k];
    return ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
}

/* The forward pass of S, keeping what the backward pass needs: the pre-activations of the
 * three hidden layers (A1, A2, A3). Returns the logit. */
static float forward(const TrainNet *net, const NetLayout *l, const TrainSample *s, float *a1,
                     float *a2, float *a3)
{
    const NetShape *sh = &net->shape;
    int n1 = sh->n1, n2 = sh->n2, n3 = sh->n3;
    const float *p = net->p;
    size_t set = (size_t)nnue_l1_set(sh->sets, s->bucket);
    memcpy(a1, p + l->b1 + set * n1, (size_t)n1 * sizeof *a1);
    for (int f = 0; f < s->nfeat; f++) {
        const float *row = p + l->w1 + (set * (size_t)sh->features + s->feat[f]) * n1;
        for (int j = 0; j < n1; j++)
            a1[j] += row[j];
    }
    const float *b = p + l->bucket0 + (size_t)s->bucket * l->stride;
    float h1[NNUE_N1_MAX], h2[NNUE_N23_MAX];
    int m = act_forward(sh->act, a1, n1, h1);
    for (int i = 0; i < n2; i++) {
        a2[i] = dot(b + l->w2 + (size_t)i * m, h1, m) + b[l->b2 + i];
        h2[i] = clamp01(a2[i]);
    }
    float y = b[l->b4];
    for (int i = 0; i < n3; i++) {
        a3[i] = dot(b + l->w3 + (size_t)i * n2, h2, n2) + b[l->b3 + i];
        y += b[l->w4 + i] * clamp01(a3[i]);
    }
    return y;
}

float train_forward(const TrainNet *net, const TrainSample *s)
{
    NetLayout l;
    net_layout(&net->shape, &l);
    float a1[NNUE_N1_MAX], a2[NNUE_N23_MAX], a3[NNUE_N23_MAX];
    return forward(net, &l, s, a1, a2, a3);
}

double train_loss_of(double p, double t, TrainLoss kind)
{
    if (kind == TRAIN_LOSS_MSE)
        return (p - t) * (p - t);
    const double eps = 1e-12; /* cross-entropy, kept finite at p = 0 or 1 */
    return -(t * log(p + eps) + (1 - t) * log(1 - p + eps));
}

/* Gradient of WEIGHT * loss(S) added to G; returns the loss. */
static double backward(const TrainNet *net, const NetLayout *l, const TrainSample *s,
                       TrainLoss kind, float weight, float *g)
{
    const NetShape *sh = &net->shape;
    int n1 = sh->n1, n2 = sh->n2, n3 = sh->n3;
    float a1[NNUE_N1_MAX], a2[NNUE_N23_MAX], a3[NNUE_N23_MAX];
    float y = forward(net, l, s, a1, a2, a3);
    double p = train_sigmoid(y), t = s->target;
    /* dL/dy: MSE 2 (p - t) p (1 - p); cross-entropy p - t. */
    float dy = (float)(weight * (kind == TRAIN_LOSS_MSE ? 2 * (p - t) * p * (1 - p) : p - t));
    size_t boff = l->bucket0 + (size_t)s->bucket * l->stride;
    const float *b = net->p + boff;
    float *gb = g + boff;

    /* Output layer and layer 3. */
    gb[l->b4] += dy;
    float d3[NNUE_N23_MAX], d2[NNUE_N23_MAX], h2[NNUE_N23_MAX];
    for (int j = 0; j < n2; j++)
        h2[j] = clamp01(a2[j]);
    for (int i = 0; i < n3; i++) {
        float h3 = clamp01(a3[i]);
        gb[l->w4 + i] += dy * h3;
        d3[i] = (a3[i] > 0 && a3[i] < 1) ? dy * b[l->w4 + i] : 0;
    }
    memset(d2, 0, (size_t)n2 * sizeof *d2);
    for (int i = 0; i < n3; i++) {
        if (d3[i] == 0)
            continue;
        const float *w = b + l->w3 + (size_t)i * n2;
        float *gw = gb + l->w3 + (size_t)i * n2;
        gb[l->b3 + i] += d3[i];
        for (int j = 0; j < n2; j++) {
            gw[j] += d3[i] * h2[j];
            d2[j] += d3[i] * w[j];
        }
    }
    /* Layer 2. */
    float h1[NNUE_N1_MAX], dh[NNUE_N1_MAX], d1[NNUE_N1_MAX];
    int m = act_forward(sh->act, a1, n1, h1);
    memset(dh, 0, (size_t)m * sizeof *dh);
    for (int i = 0; i < n2; i++) {
        float d = (a2[i] > 0 && a2[i] < 1) ? d2[i] : 0;
        if (d == 0)
            continue;
        const float *w = b + l->w2 + (size_t)i * m;
        float *gw = gb + l->w2 + (size_t)i * m;
        gb[l->b2 + i] += d;
        for (int j = 0; j < m; j++) {
            gw[j] += d * h1[j];
            dh[j] += d * w[j];
        }
    }
    /* Layer 1: only the rows of the active features. */
    act_backward(sh->act, a1, n1, dh, d1);
    size_t set = (size_t)nnue_l1_set(sh->sets, s->bucket);
    float *gb1 = g + l->b1 + set * n1;
    for (int j = 0; j < n1; j++)
        gb1[j] += d1[j];
    for (int f = 0; f < s->nfeat; f++) {
        float *row = g + l->w1 + (set * (size_t)sh->features + s->feat[f]) * n1;
        for (int j = 0; j < n1; j++)
            row[j] += d1[j];
    }
    return train_loss_of(p, t, kind);
}

double train_backward(const TrainNet *net, const TrainSample *s, TrainLoss kind, float weight,
                      float *grad)
{
    NetLayout l;
    net_layout(&net->shape, &l);
    return backward(net, &l, s, kind, weight, grad);
}

/* ---- threads ---------------------------------------------------------------------------- */

/* Runs FN(ctx, t, threads) for t = 0..threads-1, t = 0 on the calling thread. False when a
 * thread cannot start (the work of those that did is then done all the same). */
static bool run_threads(void *(*fn)(void *), void **ctx, int threads)
{
    pthread_t tid[MAX_THREADS];
    int started = 0;
    bool ok = true;
    for (int t = 1; t < threads; t++) {
        if (pthread_create(&tid[t], NULL, fn, ctx[t]) != 0) {
            ok = false;
            break;
        }
        started = t;
    }
    fn(ctx[0]);
    for (int t = 1; t <= started; t++)
        pthread_join(tid[t], NULL);
    return ok;
}

typedef struct {
    const TrainNet *net;
    const NetLayout *l;
    const TrainSample *s;
    const uint32_t *order; /* sample indices (NULL: 0..n-1) */
    size_t begin, end;     /* the batch (or the evaluated range) */
    int tid, threads;
    TrainLoss kind;
    float weight;               /* 1 / batch size */
    const float *bucket_weight; /* TrainOptions.bucket_weight */
    float **grad;               /* [TRAIN_SLICES] buffers */
    double *loss;               /* [TRAIN_SLICES] (batch) or [chunks] (eval) */
    double *loss2;              /* eval: cross-entropy per chunk */
    TrainState *st;             /* the Adam step: the state updated */
    float rate;                 /* ... its bias-corrected learning rate */
} Job;

static void *batch_worker(void *arg)
{
    Job *j = arg;
    size_t n = j->end - j->begin;
    for (int sl = j->tid; sl < TRAIN_SLICES; sl += j->threads) {
        size_t a = j->begin + n * (size_t)sl / TRAIN_SLICES;
        size_t b = j->begin + n * (size_t)(sl + 1) / TRAIN_SLICES;
        memset(j->grad[sl], 0, j->net->nparams * sizeof(float));
        double loss = 0;
        for (size_t i = a; i < b; i++) {
            const TrainSample *x = &j->s[j->order[i]];
            loss += backward(j->net, j->l, x, j->kind, j->weight * j->bucket_weight[x->bucket],
                             j->grad[sl]);
        }
        j->loss[sl] = loss;
    }
    return NULL;
}

static void *eval_worker(void *arg)
{
    Job *j = arg;
    size_t chunks = (j->end + EVAL_CHUNK - 1) / EVAL_CHUNK;
    float a1[NNUE_N1_MAX], a2[NNUE_N23_MAX], a3[NNUE_N23_MAX];
    for (size_t c = (size_t)j->tid; c < chunks; c += (size_t)j->threads) {
        double mse = 0, ce = 0;
        size_t end = (c + 1) * EVAL_CHUNK < j->end ? (c + 1) * EVAL_CHUNK : j->end;
        for (size_t i = c * EVAL_CHUNK; i < end; i++) {
            double p = train_sigmoid(forward(j->net, j->l, &j->s[i], a1, a2, a3));
            mse += train_loss_of(p, j->s[i].target, TRAIN_LOSS_MSE);
            ce += train_loss_of(p, j->s[i].target, TRAIN_LOSS_CE);
        }
        j->loss[c] = mse;
        j->loss2[c] = ce;
    }
    return NULL;
}

static int clamp_threads(int threads, int most)
{
    if (threads > most)
        threads = most;
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    return threads < 1 ? 1 : threads;
}

void train_eval(const TrainNet *net, const TrainSample *s, size_t n, int threads, double *mse,
                double *ce)
{
    double m = 0, c = 0;
    size_t chunks = (n + EVAL_CHUNK - 1) / EVAL_CHUNK;
    double *l1 = calloc(chunks + 1, sizeof *l1), *l2 = calloc(chunks + 1, sizeof *l2);
    NetLayout l;
    net_layout(&net->shape, &l);
    threads = clamp_threads(threads, (int)(chunks < MAX_THREADS ? chunks : MAX_THREADS));
    Job jobs[MAX_THREADS];
    void *ctx[MAX_THREADS];
    if (l1 && l2) {
        for (int t = 0; t < threads; t++) {
            jobs[t] = (Job){.net = net,
                            .l = &l,
                            .s = s,
                            .end = n,
                            .tid = t,
                            .threads = threads,
                            .loss = l1,
                            .loss2 = l2};
            ctx[t] = &jobs[t];
        }
        if (!run_threads(eval_worker, ctx, threads)) {
            jobs[0].threads = 1; /* a thread failed to start: do it all here */
            eval_worker(&jobs[0]);
        }
    } else { /* no memory for the per-chunk sums: one pass in order */
        float a1[NNUE_N1_MAX], a2[NNUE_N23_MAX], a3[NNUE_N23_MAX];
        for (size_t i = 0; i < n; i++) {
            double p = train_sigmoid(forward(net, &l, &s[i], a1, a2, a3));
            m += train_loss_of(p, s[i].target, TRAIN_LOSS_MSE);
            c += train_loss_of(p, s[i].target, TRAIN_LOSS_CE);
        }
        chunks = 0;
    }
    for (size_t i = 0; i < chunks; i++) {
        m += l1[i];
        c += l2[i];
    }
    free(l1);
    free(l2);
    if (mse)
        *mse = n ? m / (double)n : 0;
    if (ce)
        *ce = n ? c / (double)n : 0;
}

/* ---- Adam and epochs -------------------------------------------------------------------- */

bool train_state_init(TrainState *st, const NetShape *sh, uint64_t seed, char *err)
{
    memset(st, 0, sizeof *st);
    if (!train_net_init(&st->net, sh, seed, err))
        return false;
    st->m = calloc(st->net.nparams, sizeof *st->m);
    st->v = calloc(st->net.nparams, sizeof *st->v);
    if (!st->m || !st->v) {
        train_state_free(st);
        snprintf(err, ERR_LEN, "out of memory");
        return false;
    }
    st->seed = seed;
    return true;
}

void train_state_free(TrainState *st)
{
    train_net_free(&st->net);
    free(st->m);
    free(st->v);
    st->m = st->v = NULL;
}

void train_default_options(TrainOptions *o)
{
    o->epochs = 10;
    o->batch = 4096;
    o->lr = 1e-3;
    o->loss = TRAIN_LOSS_CE;
    o->threads = 1;
    for (int k = 0; k < NNUE_MAX_BUCKETS; k++)
        o->bucket_weight[k] = 1.0f;
}

/* X^(-Q/4) for Q = 0..4 from square roots, products and a quotient only, each rounded as IEEE
 * 754 says, so the same bits on every processor (as train_exp()). */
static double pow_quarters(double x, int q)
{
    double r2 = sqrt(x), r4 = sqrt(r2), p = 1;
    for (int i = 0; i < q / 2; i++)
        p *= r2;
    if (q % 2)
        p *= r4;
    return 1.0 / p;
}

void train_balance_weights(const TrainSample *s, size_t n, int buckets, int quarters, float *w)
{
    size_t count[NNUE_MAX_BUCKETS] = {0};
    for (size_t i = 0; i < n; i++)
        count[s[i].bucket]++;
    int used = 0;
    for (int k = 0; k < buckets; k++)
        used += count[k] > 0;
    double raw[NNUE_MAX_BUCKETS], total = 0;
    for (int k = 0; k < buckets; k++) {
        raw[k] = count[k] > 0 ? pow_quarters((double)count[k] * used / (double)n, quarters) : 1;
        total += raw[k] * (double)count[k];
    }
    for (int k = 0; k < buckets; k++)
        w[k] = quarters > 0 && count[k] > 0 ? (float)(raw[k] * (double)n / total) : 1.0f;
}

double train_lr(double base, int e, int epochs)
{
    double r = base;
    if (e >= 0.6 * epochs)
        r *= 0.3;
    if (e >= 0.85 * epochs)
        r *= 0.3;
    return r;
}

/* One Adam step (betas 0.9, 0.999, eps 1e-8) for this thread's share of the parameters: the
 * gradient is the sum of the slices' buffers, added in slice order, so every parameter gets
 * the same value whatever the number of threads. */
static void *adam_worker(void *arg)
{
    Job *j = arg;
    TrainState *st = j->st;
    const float b1 = 0.9f, b2 = 0.999f, eps = 1e-8f;
    size_t np = st->net.nparams;
    size_t a = np * (size_t)j->tid / (size_t)j->threads;
    size_t b = np * (size_t)(j->tid + 1) / (size_t)j->threads;
    float *p = st->net.p, *m = st->m, *v = st->v;
    for (size_t i = a; i < b; i++) {
        float g = j->grad[0][i];
        for (int sl = 1; sl < TRAIN_SLICES; sl++)
            g += j->grad[sl][i];
        m[i] = b1 * m[i] + (1 - b1) * g;
        v[i] = b2 * v[i] + (1 - b2) * g * g;
        p[i] -= j->rate * m[i] / (sqrtf(v[i]) + eps);
    }
    return NULL;
}

bool train_epoch(TrainState *st, const TrainSample *s, size_t n, const TrainOptions *o,
                 double *loss, char *err)
{
    if (n == 0 || n > UINT32_MAX) {
        snprintf(err, ERR_LEN, "%zu training samples (must be 1..%u)", n, UINT32_MAX);
        return false;
    }
    uint32_t *order = malloc(n * sizeof *order);
    float *grad[TRAIN_SLICES] = {0};
    bool ok = order != NULL;
    for (int i = 0; i < TRAIN_SLICES && ok; i++)
        ok = (grad[i] = malloc(st->net.nparams * sizeof(float))) != NULL;
    if (!ok) {
        snprintf(err, ERR_LEN, "out of memory");
        goto done;
    }
    /* The shuffle of this epoch: Fisher-Yates drawn from (seed, epoch). */
    uint64_t x = st->seed * 0x9E3779B97F4A7C15ull + (uint64_t)st->epoch + 1;
    for (size_t i = 0; i < n; i++)
        order[i] = (uint32_t)i;
    for (size_t i = n - 1; i > 0; i--) {
        size_t k = (size_t)(rng_splitmix64(&x) % (i + 1));
        uint32_t t = order[i];
        order[i] = order[k];
        order[k] = t;
    }
    NetLayout l;
    net_layout(&st->net.shape, &l);
    double lr = train_lr(o->lr, st->epoch, o->epochs), total = 0;
    int threads = clamp_threads(o->threads, TRAIN_SLICES);
    size_t batch = o->batch > 0 ? (size_t)o->batch : 4096;
    for (size_t at = 0; at < n; at += batch) {
        size_t end = at + batch < n ? at + batch : n;
        double sl_loss[TRAIN_SLICES] = {0};
        Job jobs[MAX_THREADS];
        void *ctx[MAX_THREADS];
        for (int t = 0; t < threads; t++) {
            jobs[t] = (Job){.net = &st->net,
                            .l = &l,
                            .s = s,
                            .order = order,
                            .begin = at,
                            .end = end,
                            .tid = t,
                            .threads = threads,
                            .kind = o->loss,
                            .weight = 1.0f / (float)(end - at),
                            .bucket_weight = o->bucket_weight,
                            .grad = grad,
                            .loss = sl_loss};
            ctx[t] = &jobs[t];
        }
        if (!run_threads(batch_worker, ctx, threads)) {
            snprintf(err, ERR_LEN, "cannot start a thread");
            ok = false;
            goto done;
        }
        for (int sl = 0; sl < TRAIN_SLICES; sl++)
            total += sl_loss[sl];
        /* The Adam step over the parameters split between the threads, then the clips. */
        st->step++;
        double c1 = 1 - train_pow(0.9, st->step), c2 = 1 - train_pow(0.999, st->step);
        for (int t = 0; t < threads; t++) {
            jobs[t].st = st;
            jobs[t].rate = (float)(lr * sqrt(c2) / c1);
        }
        if (!run_threads(adam_worker, ctx, threads)) {
            snprintf(err, ERR_LEN, "cannot start a thread");
            ok = false;
            goto done;
        }
        train_net_clip(&st->net);
    }
    st->epoch++;
    *loss = total / (double)n;
done:
    for (int i = 0; i < TRAIN_SLICES; i++)
        free(grad[i]);
    free(order);
    return ok;
}
