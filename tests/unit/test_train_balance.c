/*
 * test_train_balance.c - `ponder train --balance': the bucket weights and what they do.
 *
 * The weights follow their formula on known bucket counts (every exponent, an empty bucket, one
 * bucket alone) and keep the mean weight at 1. A network trained with them on positions where
 * one bucket is rare learns that bucket better (lower held-out loss there) than one trained
 * with every weight 1, and weights that are all 1 train bit for bit as the default does.
 */
#include "check.h"
#include "nnue.h"
#include "train.h"

#include <math.h>
#include <string.h>

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint32_t rng(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* N samples, the first N_RARE of them in bucket 1 and the rest in bucket 0, each with 8 distinct
 * random features of the 128; their target is sigmoid of a sum over the features: in bucket 0
 * +1 for each of the first 64 and -1 for the others, in bucket 1 +1 for an even index and -1
 * for an odd one (another rule, which the rare bucket must learn from its few positions). */
static TrainSample *two_rules(size_t n, size_t n_rare)
{
    TrainSample *s = calloc(n, sizeof *s);
    for (size_t i = 0; s && i < n; i++) {
        bool used[128] = {false};
        int k = 0, sum = 0;
        s[i].bucket = i < n_rare ? 1 : 0;
        while (k < 8) {
            int f = (int)(rng() % 128);
            if (used[f])
                continue;
            used[f] = true;
            k++;
            sum += s[i].bucket ? (f % 2 ? -1 : 1) : (f < 64 ? 1 : -1);
        }
        for (int f = 0; f < 128; f++)
            if (used[f])
                s[i].feat[s[i].nfeat++] = (uint16_t)f;
        s[i].target = (float)train_sigmoid(sum * 0.5);
    }
    return s;
}

static TrainSample *with_buckets(const size_t *count, int buckets, size_t *n)
{
    *n = 0;
    for (int k = 0; k < buckets; k++)
        *n += count[k];
    TrainSample *s = calloc(*n + 1, sizeof *s);
    size_t at = 0;
    for (int k = 0; s && k < buckets; k++)
        for (size_t i = 0; i < count[k]; i++)
            s[at++].bucket = (uint8_t)k;
    return s;
}

static void test_weights(void)
{
    size_t count[4] = {800, 150, 50, 0}, n;
    TrainSample *s = with_buckets(count, 4, &n);
    CHECK(s != NULL);
    for (int q = 0; q <= 4; q++) {
        float w[4];
        train_balance_weights(s, n, 4, q, w);
        /* (n_k / mean)^-A, the mean over the three buckets that hold any, scaled to mean 1. */
        double raw[3], total = 0, sum = 0;
        for (int k = 0; k < 3; k++) {
            raw[k] = pow((double)count[k] / (1000.0 / 3), -q / 4.0);
            total += raw[k] * (double)count[k];
        }
        for (int k = 0; k < 3; k++) {
            double want = raw[k] * 1000 / total;
            CHECK(fabs(w[k] - want) < 1e-5 * want);
            sum += w[k] * (double)count[k];
        }
        CHECK(w[3] == 1.0f);
        CHECK(fabs(sum - 1000) < 1e-3);
        if (q == 0)
            CHECK(w[0] == 1.0f && w[1] == 1.0f && w[2] == 1.0f);
        if (q == 4) /* every bucket the same in all */
            CHECK(fabs(w[0] * 800 - w[2] * 50) < 1e-2 && fabs(w[1] * 150 - w[2] * 50) < 1e-2);
        if (q > 0)
            CHECK(w[0] < w[1] && w[1] < w[2]);
        printf("  counts 800 150 50 0, balance %.2f: weights %.4f %.4f %.4f %.4f\n", q / 4.0,
               (double)w[0], (double)w[1], (double)w[2], (double)w[3]);
    }
    free(s);
    /* One bucket alone: nothing to even out. */
    size_t one[2] = {0, 300};
    s = with_buckets(one, 2, &n);
    float w[2];
    train_balance_weights(s, n, 2, 4, w);
    CHECK(w[0] == 1.0f && w[1] == 1.0f);
    free(s);
}

/* Held-out cross-entropy of bucket K after EPOCHS epochs with bucket weights W (NULL: the
 * defaults); *FINGERPRINT gets the weights' FNV-1a hash. */
static double train_run(const TrainSample *s, size_t n, const TrainSample *v, size_t nv,
                        const float *w, int k, uint64_t *fingerprint)
{
    NetShape sh = {32, 32, 32, 2, 1, NNUE_FEATURES, NNUE_ACT_CLAMP};
    TrainState st;
    char err[ERR_LEN];
    CHECK(train_state_init(&st, &sh, 7, err));
    TrainOptions o;
    train_default_options(&o);
    o.epochs = 3;
    o.batch = 256;
    o.lr = 3e-3;
    if (w)
        memcpy(o.bucket_weight, w, 2 * sizeof *w);
    double loss, ce = 0;
    for (int e = 0; e < o.epochs; e++)
        CHECK(train_epoch(&st, s, n, &o, &loss, err));
    size_t m = 0;
    for (size_t i = 0; i < nv; i++)
        if (v[i].bucket == k) {
            double c;
            train_eval(&st.net, &v[i], 1, 1, NULL, &c);
            ce += c;
            m++;
        }
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < st.net.nparams * sizeof(float); i++)
        h = (h ^ ((const uint8_t *)st.net.p)[i]) * 1099511628211ull;
    *fingerprint = h;
    train_state_free(&st);
    return ce / (double)m;
}

static void test_rare_bucket(void)
{
    size_t n = 8000, nv = 2000;
    TrainSample *s = two_rules(n, 200), *v = two_rules(nv, 1000);
    CHECK(s && v);
    float ones[2] = {1.0f, 1.0f}, w[2];
    train_balance_weights(s, n, 2, 4, w);
    CHECK(w[1] > 10 * w[0]); /* 200 of 8,000: bucket 1 weighs 39 times as much */
    uint64_t h0, h1, hw;
    double plain = train_run(s, n, v, nv, NULL, 1, &h0);
    double same = train_run(s, n, v, nv, ones, 1, &h1);
    double balanced = train_run(s, n, v, nv, w, 1, &hw);
    uint64_t h2, h3;
    double plain0 = train_run(s, n, v, nv, NULL, 0, &h2);
    double balanced0 = train_run(s, n, v, nv, w, 0, &h3);
    printf("  rare bucket's held-out ce: %.5f with every weight 1, %.5f balanced (the common "
           "bucket's %.5f and %.5f)\n",
           plain, balanced, plain0, balanced0);
    CHECK(h0 == h1 && plain == same && h0 == h2); /* weights of 1: the default, bit for bit */
    CHECK(h0 != hw && hw == h3);                  /* other weights train another network */
    CHECK(balanced < plain - 0.002);              /* and the rare bucket is learnt better */
    free(s);
    free(v);
}

int main(void)
{
    RUN("train_balance", test_weights);
    RUN("train_balance", test_rare_bucket);
    return check_total_failed ? 1 : 0;
}
