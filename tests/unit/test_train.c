/*
 * test_train.c - `ponder train''s model, quantisation, file and training loop.
 *
 * Features and buckets follow the spec on known positions. The backward pass agrees with
 * central finite differences of a double-precision reference forward pass (both losses). The
 * exported file reads back, its integer forward pass equals the spec's arithmetic recomputed
 * here from the float weights, and it stays within a stated bound of the float model on random
 * positions; damaged files are refused with the spec's messages; once src/nnue.h exists, the
 * engine's reader takes the file and its inference gives the same score on every position. A
 * small network learns the material balance of random positions to a low loss; two threads
 * give the same weights as one, bit for bit, and every compiler the same bits (a pinned
 * fingerprint); a run stopped after an epoch and resumed from its checkpoint ends exactly where
 * an uninterrupted run does. Training files load with duplicates merged and games held out, a
 * damaged one is named with its byte offset, and endgame databases relabel what they cover.
 */
#include "bitboard.h"
#include "check.h"
#include "egdb_build.h"
#include "engine.h"
#include "nnue.h"
#include "train.h"

#include <math.h>
#include <stdint.h>
#include <unistd.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rng(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* A random position: up to 12 pieces a side, no man on its crowning row. */
static void random_board(Board *b)
{
    board_clear(b, (int)(rng() % 2));
    int count[2] = {0, 0}, want[2] = {1 + (int)(rng() % 12), 1 + (int)(rng() % 12)};
    for (int c = 0; c < 2; c++)
        while (count[c] < want[c]) {
            int sq = (int)(rng() % 32);
            bool king = rng() % 4 == 0;
            if (board_color_at(b, sq) >= 0 || (!king && board_crown_square(c, sq)))
                continue;
            board_set(b, sq, c, king);
            count[c]++;
        }
}

/* The feature set sample_of() uses (the tests of the mobility set switch it). */
static int sample_features = NNUE_FEATURES;

static void sample_of(const Board *b, int buckets, float target, TrainSample *s)
{
    memset(s, 0, sizeof *s);
    s->nfeat = (uint8_t)net_features(sample_features, b, s->feat);
    s->bucket = (uint8_t)nnue_bucket(b, buckets);
    s->target = target;
}

/* The machine-independent exp and pow agree with the C library's. */
static void test_exp(void)
{
    double worst = 0;
    for (double x = -40; x <= 40; x += 0.0137) {
        double e = fabs(train_exp(x) / exp(x) - 1);
        worst = e > worst ? e : worst;
    }
    printf("  train_exp: largest relative error %.2g\n", worst);
    CHECK(worst < 1e-15);
    CHECK(train_exp(0) == 1 && train_exp(-1000) > 0 && isfinite(train_exp(1000)));
    CHECK(fabs(train_pow(0.999, 12345) / pow(0.999, 12345) - 1) < 1e-12);
    CHECK(train_pow(0.9, 0) == 1 && train_pow(2, 10) == 1024);
}

static void test_features(void)
{
    Board b;
    board_start(&b);
    uint16_t f[NET_MAX_ACTIVE];
    CHECK(net_features(NNUE_FEATURES, &b, f) == 24);
    for (int i = 0; i < 12; i++) {
        CHECK(f[i] == i);           /* our men on 1-12 */
        CHECK(f[12 + i] == 84 + i); /* their men on 21-32: 64 + 20..31 */
    }
    /* White to move sees the same picture turned round. */
    b.side = WHITE;
    uint16_t g[NET_MAX_ACTIVE];
    CHECK(net_features(NNUE_FEATURES, &b, g) == 24 && memcmp(f, g, 24 * sizeof f[0]) == 0);
    /* A white king on square 1 (index 0), White to move: our king on o = 31. A black man on
     * index 5: their man on 64 + 26. */
    board_clear(&b, WHITE);
    board_set(&b, 0, WHITE, true);
    board_set(&b, 5, BLACK, false);
    CHECK(net_features(NNUE_FEATURES, &b, f) == 2 && f[0] == 32 + 31 && f[1] == 64 + 26);
    /* Buckets: 1-6 pieces -> 0, 7-12 -> 1, 13-18 -> 2, 19-24 -> 3. */
    CHECK(nnue_bucket(&b, 4) == 0);
    board_start(&b);
    CHECK(nnue_bucket(&b, 4) == 3 && nnue_bucket(&b, 1) == 0 && nnue_bucket(&b, 8) == 7);
    for (int sq = 0; sq < 12; sq++)
        board_set(&b, sq, -1, false);
    CHECK(nnue_bucket(&b, 4) == 1); /* 12 pieces */
    board_set(&b, 0, BLACK, false);
    CHECK(nnue_bucket(&b, 4) == 2); /* 13 */
}

/* A network with every parameter drawn at random around typical values, so units sit inside
 * and outside the clamps. */
static void random_net(TrainNet *net, const NetShape *sh, uint64_t seed)
{
    char err[ERR_LEN];
    CHECK(train_net_init(net, sh, seed, err));
    NetLayout l;
    net_layout(sh, &l);
    for (int j = 0; j < sh->sets * sh->n1; j++)
        net->p[l.b1 + j] = 0.5f;
    for (int k = 0; k < sh->buckets; k++) {
        float *b = net->p + l.bucket0 + (size_t)k * l.stride;
        for (int i = 0; i < sh->n2; i++)
            b[l.b2 + i] = (float)(rng() % 100) / 100.0f;
        for (int i = 0; i < sh->n3; i++)
            b[l.b3 + i] = (float)(rng() % 100) / 100.0f;
        b[l.b4] = 0.1f;
    }
}

/* The float model recomputed in double precision, parameter I moved by D: the logit, and
 * through *MARGIN the smallest distance of a hidden pre-activation from a clamp's kink. */
static double ref_forward(const TrainNet *net, const TrainSample *s, size_t i, double d,
                          double *margin)
{
    const NetShape *sh = &net->shape;
    NetLayout l;
    net_layout(sh, &l);
#define P(k) ((double)net->p[k] + ((k) == i ? d : 0))
    size_t b = l.bucket0 + (size_t)s->bucket * l.stride;
    size_t set = sh->sets > 1 ? s->bucket : 0; /* the first layer of the sample's bucket */
    double h1[NNUE_N1_MAX], h2[NNUE_N23_MAX], y = P(b + l.b4), m = 1;
    for (int j = 0; j < sh->n1; j++) {
        double a = P(l.b1 + set * sh->n1 + j);
        for (int f = 0; f < s->nfeat; f++)
            a += P(l.w1 + (set * (size_t)sh->features + s->feat[f]) * sh->n1 + j);
        m = fmin(m, fmin(fabs(a), fabs(a - 1)));
        h1[j] = fmin(1, fmax(0, a));
    }
    int n2in = nnue_l2_inputs(sh->act, sh->n1); /* pairwise: lane j times lane j + n1/2 */
    if (sh->act == NNUE_ACT_PAIR)
        for (int j = 0; j < n2in; j++)
            h1[j] *= h1[j + n2in];
    for (int o = 0; o < sh->n2; o++) {
        double a = P(b + l.b2 + o);
        for (int j = 0; j < n2in; j++)
            a += P(b + l.w2 + (size_t)o * n2in + j) * h1[j];
        m = fmin(m, fmin(fabs(a), fabs(a - 1)));
        h2[o] = fmin(1, fmax(0, a));
    }
    for (int o = 0; o < sh->n3; o++) {
        double a = P(b + l.b3 + o);
        for (int j = 0; j < sh->n2; j++)
            a += P(b + l.w3 + (size_t)o * sh->n2 + j) * h2[j];
        m = fmin(m, fmin(fabs(a), fabs(a - 1)));
        y += P(b + l.w4 + o) * fmin(1, fmax(0, a));
    }
#undef P
    if (margin)
        *margin = m;
    return y;
}

/* The backward pass against central differences of the double-precision forward pass, for a
 * shared first layer (SETS 1) and one per bucket (SETS 2), with the feature set FEATURES. */
static void check_gradient(int sets, int features, int act)
{
    NetShape sh = {act == NNUE_ACT_PAIR ? 64 : 32, 32, 32, 2, sets, features, act};
    sample_features = features;
    TrainNet net;
    random_net(&net, &sh, 7);
    float *g = calloc(net.nparams, sizeof *g);
    int checked = 0, bad = 0, nonzero = 0, samples = 0;
    for (int kind = 0; kind < 2; kind++)
        for (int tries = 0; tries < 20000 && samples < 6 * (kind + 1); tries++) {
            /* A position whose hidden units all sit clear of the kinks, so that central
             * differences are derivatives. */
            Board b;
            random_board(&b);
            TrainSample s;
            sample_of(&b, sh.buckets, (float)(rng() % 1000) / 1000.0f, &s);
            double margin, y = ref_forward(&net, &s, SIZE_MAX, 0, &margin);
            CHECK(fabs(y - train_forward(&net, &s)) < 1e-4);
            if (margin < 1e-3)
                continue;
            samples++;
            memset(g, 0, net.nparams * sizeof *g);
            train_backward(&net, &s, (TrainLoss)kind, 1.0f, g);
            for (int t = 0; t < 300; t++) {
                size_t i = rng() % net.nparams;
                /* Most W1 rows are inactive: aim half the draws at an active one. */
                if (t % 2 == 0)
                    i = ((size_t)(sets > 1 ? s.bucket : 0) * (size_t)features +
                         s.feat[rng() % s.nfeat]) *
                            sh.n1 +
                        rng() % sh.n1;
                const double eps = 1e-6;
                double up = train_loss_of(train_sigmoid(ref_forward(&net, &s, i, eps, NULL)),
                                          s.target, (TrainLoss)kind);
                double down = train_loss_of(train_sigmoid(ref_forward(&net, &s, i, -eps, NULL)),
                                            s.target, (TrainLoss)kind);
                double num = (up - down) / (2 * eps), an = g[i];
                checked++;
                nonzero += an != 0;
                if (fabs(num - an) > 1e-6 + 1e-3 * fmax(fabs(num), fabs(an)) && ++bad <= 3)
                    printf("  param %zu: backward %.7g, finite difference %.7g\n", i, an, num);
            }
        }
    printf("  %s%s first layer%s: %d samples, %d partial derivatives, %d differ\n",
           sets > 1 ? "split" : "shared", act == NNUE_ACT_PAIR ? " pairwise" : "",
           features == NNUE_FEATURES            ? ""
           : features == NNUE_FEATURES_MOBILITY ? ", mobility features"
                                                : ", shot features",
           samples, checked, bad);
    sample_features = NNUE_FEATURES;
    CHECK(samples == 12 && bad == 0);
    CHECK(nonzero * 4 > checked); /* the check looked at real gradients */
    free(g);
    train_net_free(&net);
}

static void test_gradient(void)
{
    check_gradient(1, NNUE_FEATURES, NNUE_ACT_CLAMP);
    check_gradient(2, NNUE_FEATURES, NNUE_ACT_CLAMP);
    check_gradient(1, NNUE_FEATURES_MOBILITY, NNUE_ACT_CLAMP);
    check_gradient(1, NNUE_FEATURES_SHOTS, NNUE_ACT_CLAMP);
    check_gradient(1, NNUE_FEATURES, NNUE_ACT_PAIR);
    check_gradient(2, NNUE_FEATURES_MOBILITY, NNUE_ACT_PAIR);
}

/* The spec's integer forward pass, computed here from the float weights. */
static int spec_score(const TrainNet *net, int scale, const TrainSample *s)
{
    const NetShape *sh = &net->shape;
    NetLayout l;
    net_layout(sh, &l);
    const float *p = net->p, *b = p + l.bucket0 + (size_t)s->bucket * l.stride;
    size_t set = sh->sets > 1 ? s->bucket : 0;
    int acc[NNUE_N1_MAX], h1[NNUE_N1_MAX], h2[NNUE_N23_MAX], h3[NNUE_N23_MAX];
    for (int j = 0; j < sh->n1; j++) {
        acc[j] = (int)lround(p[l.b1 + set * sh->n1 + j] * 127.0);
        for (int f = 0; f < s->nfeat; f++)
            acc[j] += (int)lround(p[l.w1 + (set * (size_t)sh->features + s->feat[f]) * sh->n1 + j] *
                                  127.0);
        CHECK(acc[j] >= -32768 && acc[j] <= 32767);
        h1[j] = acc[j] < 0 ? 0 : acc[j] > 127 ? 127 : acc[j];
    }
    /* Pairwise: round(c0 c1 * 258 / 2^15), lane j with lane j + n1/2. */
    int n2in = nnue_l2_inputs(sh->act, sh->n1);
    if (sh->act == NNUE_ACT_PAIR)
        for (int j = 0; j < n2in; j++)
            h1[j] = (h1[j] * h1[j + n2in] * 258 + 16384) >> 15;
    for (int i = 0; i < sh->n2; i++) {
        long s2 = lround(b[l.b2 + i] * 127.0 * 64.0);
        for (int j = 0; j < n2in; j++)
            s2 += h1[j] * lround(b[l.w2 + (size_t)i * n2in + j] * 64.0);
        h2[i] = s2 <= 0 ? 0 : (s2 >> 6) > 127 ? 127 : (int)(s2 >> 6);
    }
    for (int i = 0; i < sh->n3; i++) {
        long s3 = lround(b[l.b3 + i] * 127.0 * 64.0);
        for (int j = 0; j < sh->n2; j++)
            s3 += h2[j] * lround(b[l.w3 + (size_t)i * sh->n2 + j] * 64.0);
        h3[i] = s3 <= 0 ? 0 : (s3 >> 6) > 127 ? 127 : (int)(s3 >> 6);
    }
    long out = lround(b[l.b4] * 127.0 * 256.0);
    for (int i = 0; i < sh->n3; i++)
        out += h3[i] * lround(b[l.w4 + i] * 256.0);
    int score = (int)((int64_t)out * scale / 32512);
    int lim = SCORE_DECISIVE - 1;
    return score > lim ? lim : score < -lim ? -lim : score;
}

static void test_quantised(void)
{
    NetShape sh = {64, 32, 32, 4, 1, NNUE_FEATURES, NNUE_ACT_CLAMP};
    TrainNet net;
    random_net(&net, &sh, 11);
    char err[ERR_LEN];
    uint8_t *buf;
    size_t len;
    CHECK(net_export(&net, 80, "test-net", &buf, &len, err));
    CHECK(len == nnue_file_size(sh.features, sh.n1, sh.n2, sh.n3, sh.buckets, 1, NNUE_ACT_CLAMP));
    /* Header fields at the spec's offsets. */
    CHECK(memcmp(buf, "PONDNET", 8) == 0 && buf[8] == 1 && buf[12] == 128 && buf[16] == 64 &&
          buf[20] == 32 && buf[24] == 32 && buf[28] == 4 && buf[32] == 80 &&
          strcmp((char *)buf + 40, "test-net") == 0);
    NnueNet *q = nnue_read(buf, len, "t.pnet", err);
    CHECK(q != NULL && q->scale == 80 && strcmp(q->name, "test-net") == 0);
    double sum = 0, worst = 0;
    int n = 2000, same = 0;
    for (int i = 0; i < n; i++) {
        Board b;
        random_board(&b);
        TrainSample s;
        sample_of(&b, sh.buckets, 0, &s);
        int qs = q ? nnue_evaluate_features(q, s.feat, s.nfeat, s.bucket) : 0;
        same += qs == spec_score(&net, 80, &s);
        double d = fabs(qs - train_forward(&net, &s) * 80.0);
        sum += d;
        worst = d > worst ? d : worst;
    }
    CHECK(same == n);
    /* The stated bound: within 10 hundredths of a man of the float model on every position,
     * 2.5 on average (truncations by >> 6 and the division drift the score down a little). */
    printf("  quantised vs float: mean %.2f max %.1f hundredths\n", sum / n, worst);
    CHECK(worst <= 10 && sum / n <= 2.5);
    nnue_free(q);

    /* Damage is named. */
    uint8_t *bad = malloc(len);
    memcpy(bad, buf, len);
    bad[100] ^= 1;
    CHECK(!nnue_read(bad, len, "t.pnet", err) && strstr(err, "checksum mismatch"));
    memcpy(bad, buf, len);
    bad[16] = 33;
    CHECK(!nnue_read(bad, len, "t.pnet", err) && strstr(err, "n1 = 33 is not a multiple"));
    CHECK(!nnue_read(buf, len - 1, "t.pnet", err) && strstr(err, "expected"));
    memcpy(bad, buf, len);
    bad[0] = 'X';
    CHECK(!nnue_read(bad, len, "t.pnet", err) && strstr(err, "magic"));
    CHECK(!net_export(&net, 80, "a\tb", &buf, &len, err));
    free(bad);
    free(buf);
    train_net_free(&net);
}

/* net_import is net_export's inverse on the quantised grid: a network read back and exported
 * again is the same file, for a shared and a split first layer; and the imported model scores
 * like the file it came from (within the quantisation's bound). */
static void test_import(void)
{
    for (int split = 0; split < 3; split++) {
        /* 2: a pairwise net, split. */
        NetShape sh = {64,
                       32,
                       32,
                       4,
                       split ? 4 : 1,
                       NNUE_FEATURES,
                       split == 2 ? NNUE_ACT_PAIR : NNUE_ACT_CLAMP};
        TrainNet net, back;
        random_net(&net, &sh, 21 + (uint64_t)split);
        char err[ERR_LEN];
        uint8_t *buf = NULL, *buf2 = NULL;
        size_t len = 0, len2 = 0;
        CHECK(net_export(&net, 80, "imp", &buf, &len, err));
        NnueNet *q = buf ? nnue_read(buf, len, "imp.pnet", err) : NULL;
        CHECK(q != NULL);
        if (!q) {
            free(buf);
            train_net_free(&net);
            continue;
        }
        CHECK(net_import(&back, q, NNUE_FEATURES, err));
        CHECK(memcmp(&back.shape, &sh, sizeof sh) == 0 && back.nparams == net.nparams);
        CHECK(net_export(&back, 80, "imp", &buf2, &len2, err));
        CHECK(len2 == len && buf2 && memcmp(buf, buf2, len) == 0);
        int close = 0, n = 500;
        for (int i = 0; i < n; i++) {
            Board b;
            random_board(&b);
            TrainSample s;
            sample_of(&b, sh.buckets, 0, &s);
            int qs = nnue_evaluate_features(q, s.feat, s.nfeat, s.bucket);
            close += fabs(qs - train_forward(&back, &s) * 80.0) <= 10;
        }
        CHECK(close == n);
        nnue_free(q);
        free(buf);
        free(buf2);
        train_net_free(&net);
        train_net_free(&back);
    }
}

/* A network grown into a larger set (`ponder train --init NET --features mobility', a piece
 * network; or `--features shots', a piece or mobility network) keeps its rows and gets zero rows
 * for the new inputs, so its file scores every position exactly as the original does, whatever
 * the new inputs say; and a network cannot be shrunk back. */
static void test_import_grow(void)
{
    static const int from[3] = {NNUE_FEATURES, NNUE_FEATURES, NNUE_FEATURES_MOBILITY};
    static const int to[3] = {NNUE_FEATURES_MOBILITY, NNUE_FEATURES_SHOTS, NNUE_FEATURES_SHOTS};
    for (int run = 0; run < 6; run++) {
        int split = run % 2, f0 = from[run / 2], f1 = to[run / 2];
        NetShape sh = {64, 32, 32, 4, split ? 4 : 1, f0, NNUE_ACT_CLAMP};
        TrainNet net, grown;
        random_net(&net, &sh, 31 + (uint64_t)split);
        char err[ERR_LEN];
        uint8_t *buf = NULL, *buf2 = NULL;
        size_t len = 0, len2 = 0;
        CHECK(net_export(&net, 80, "grow", &buf, &len, err));
        NnueNet *q = buf ? nnue_read(buf, len, "grow.pnet", err) : NULL;
        CHECK(q != NULL);
        if (!q) {
            free(buf);
            train_net_free(&net);
            continue;
        }
        CHECK(net_import(&grown, q, f1, err));
        CHECK(grown.shape.features == f1 && grown.shape.n1 == 64 && grown.shape.sets == sh.sets);
        CHECK(net_export(&grown, 80, "grow", &buf2, &len2, err));
        NnueNet *g = buf2 ? nnue_read(buf2, len2, "grown.pnet", err) : NULL;
        CHECK(g != NULL && g->features == f1);
        int same = 0, moving = 0, n = 500;
        for (int i = 0; g && i < n; i++) {
            Board b;
            random_board(&b);
            TrainSample p, m;
            sample_features = f0;
            sample_of(&b, sh.buckets, 0, &p);
            sample_features = f1;
            sample_of(&b, sh.buckets, 0, &m);
            moving += m.nfeat > p.nfeat;
            same += nnue_evaluate_features(q, p.feat, p.nfeat, p.bucket) ==
                    nnue_evaluate_features(g, m.feat, m.nfeat, m.bucket);
        }
        sample_features = NNUE_FEATURES;
        CHECK(same == n);
        /* the new inputs were set, and scored nothing (a shot is rarer than a stuck piece) */
        CHECK(moving > (f0 == NNUE_FEATURES ? n / 2 : n / 100));
        TrainNet back;
        CHECK(g && !net_import(&back, g, f0, err) &&
              strstr(err, f1 == NNUE_FEATURES_SHOTS ? "320 inputs" : "288 inputs"));
        nnue_free(g);
        nnue_free(q);
        free(buf);
        free(buf2);
        train_net_free(&net);
        train_net_free(&grown);
    }
}

/* The other half of the contract: the engine's reader takes the trainer's file, and its
 * inference (AVX2 where compiled in, and portable) gives this test's integer score (spec_score,
 * written from docs/nnue.md) on every position. */
static void test_engine_reads_export(void)
{
    NetShape shapes[7] = {{256, 32, 32, 4, 1, NNUE_FEATURES, NNUE_ACT_CLAMP},
                          {64, 32, 64, 3, 1, NNUE_FEATURES, NNUE_ACT_CLAMP},
                          {128, 32, 32, 4, 4, NNUE_FEATURES, NNUE_ACT_CLAMP},
                          {128, 32, 32, 4, 1, NNUE_FEATURES_MOBILITY, NNUE_ACT_CLAMP},
                          {96, 32, 32, 4, 1, NNUE_FEATURES_SHOTS, NNUE_ACT_CLAMP},
                          {512, 32, 32, 4, 1, NNUE_FEATURES_MOBILITY, NNUE_ACT_PAIR},
                          {128, 64, 32, 3, 3, NNUE_FEATURES, NNUE_ACT_PAIR}};
    for (int k = 0; k < 7; k++) {
        sample_features = shapes[k].features;
        TrainNet net;
        random_net(&net, &shapes[k], 21 + (uint64_t)k);
        char err[ERR_LEN];
        uint8_t *buf;
        size_t len;
        CHECK(net_export(&net, 80 + 7 * k, "contract", &buf, &len, err));
        NnueNet *e = nnue_read(buf, len, "contract", err);
        CHECK(e != NULL);
        if (!e) {
            printf("  nnue_read: %s\n", err);
            continue;
        }
        int same = 0, n = 3000;
        for (int i = 0; i < n; i++) {
            Board b;
            random_board(&b);
            TrainSample s;
            sample_of(&b, shapes[k].buckets, 0, &s);
            int mine = spec_score(&net, 80 + 7 * k, &s);
            same += mine == nnue_evaluate_features(e, s.feat, s.nfeat, s.bucket) &&
                    mine == nnue_evaluate(e, &b) && mine == nnue_evaluate_portable(e, &b);
        }
        CHECK(same == n);
        CHECK(e->features == shapes[k].features);
        nnue_free(e);
        free(buf);
        train_net_free(&net);
    }
    sample_features = NNUE_FEATURES;
}

/* N random positions whose target is the material balance for the side to move. */
static TrainSample *material_set(size_t n, int buckets)
{
    TrainSample *s = malloc(n * sizeof *s);
    for (size_t i = 0; i < n; i++) {
        Board b;
        random_board(&b);
        int us = b.side, them = !us;
        int mat = bb_popcount(b.pieces[us] & ~b.kings) - bb_popcount(b.pieces[them] & ~b.kings) +
                  2 * (bb_popcount(b.pieces[us] & b.kings) - bb_popcount(b.pieces[them] & b.kings));
        sample_of(&b, buckets, (float)train_sigmoid(mat / 3.0), &s[i]);
    }
    return s;
}

static void test_learns_material(void)
{
    size_t n = 6000, nv = 1000;
    TrainSample *s = material_set(n + nv, 2);
    NetShape sh = {32, 32, 32, 2, 1, NNUE_FEATURES, NNUE_ACT_CLAMP};
    TrainState st;
    char err[ERR_LEN];
    CHECK(train_state_init(&st, &sh, 3, err));
    TrainOptions o;
    train_default_options(&o);
    o.epochs = 30;
    o.batch = 128;
    o.lr = 3e-3;
    o.threads = 2;
    double before, after, loss;
    train_eval(&st.net, s + n, nv, 1, &before, NULL);
    for (int e = 0; e < o.epochs; e++)
        CHECK(train_epoch(&st, s, n, &o, &loss, err));
    train_eval(&st.net, s + n, nv, 1, &after, NULL);
    printf("  material: held-out mse %.5f before, %.5f after\n", before, after);
    CHECK(after < 0.004 && after < before / 10);
    /* The quantised file keeps it. */
    uint8_t *buf;
    size_t len;
    NnueNet *q = NULL;
    CHECK(net_export(&st.net, 80, "m", &buf, &len, err) && (q = nnue_read(buf, len, "m", err)));
    double qm = 0;
    for (size_t i = n; i < n + nv; i++) {
        int qs = q ? nnue_evaluate_features(q, s[i].feat, s[i].nfeat, s[i].bucket) : 0;
        double p = train_sigmoid(qs / 80.0) - s[i].target;
        qm += p * p;
    }
    CHECK(qm / (double)nv < 0.005);
    nnue_free(q);
    free(buf);
    train_state_free(&st);
    free(s);
}

/* Two epochs on THREADS threads from seed 5; the state goes to *ST. */
static void two_epochs(TrainState *st, const TrainSample *s, size_t n, int threads,
                       const char *ckpt)
{
    NetShape sh = {32, 32, 32, 2, 1, NNUE_FEATURES, NNUE_ACT_CLAMP};
    char err[ERR_LEN];
    CHECK(train_state_init(st, &sh, 5, err));
    TrainOptions o;
    train_default_options(&o);
    o.epochs = 2;
    o.batch = 256;
    o.threads = threads;
    double loss;
    CHECK(train_epoch(st, s, n, &o, &loss, err));
    if (ckpt) { /* stop here and start again from the checkpoint */
        CHECK(train_checkpoint_save(st, ckpt, err));
        train_state_free(st);
        CHECK(train_checkpoint_load(st, ckpt, err) == 1);
        CHECK(st->epoch == 1 && st->seed == 5);
    }
    CHECK(train_epoch(st, s, n, &o, &loss, err));
}

/* A split net's checkpoint (version 2), and those of the mobility set (versions 5 and 6) and the
 * shot set (7 and 8), come back with their shape and every parameter. */
static void check_checkpoint(int sets, int features, int act)
{
    rng_state = 777;
    size_t n = 1000;
    sample_features = features;
    TrainSample *s = material_set(n, 4);
    sample_features = NNUE_FEATURES;
    NetShape sh = {act == NNUE_ACT_PAIR ? 64 : 32, 32, 32, 4, sets, features, act};
    char err[ERR_LEN], path[64];
    TrainState a, b;
    CHECK(train_state_init(&a, &sh, 9, err));
    TrainOptions o;
    train_default_options(&o);
    o.epochs = 1;
    o.batch = 128;
    double loss;
    CHECK(train_epoch(&a, s, n, &o, &loss, err));
    snprintf(path, sizeof path, "/tmp/test_train_split_%ld.ckpt", (long)getpid());
    CHECK(train_checkpoint_save(&a, path, err));
    CHECK(train_checkpoint_load(&b, path, err) == 1);
    CHECK(memcmp(&b.net.shape, &sh, sizeof sh) == 0 && b.net.nparams == a.net.nparams);
    CHECK(memcmp(a.net.p, b.net.p, a.net.nparams * sizeof(float)) == 0);
    /* Each bucket's first layer learned from its own positions: they differ. */
    NetLayout l;
    net_layout(&sh, &l);
    if (sets > 1)
        CHECK(memcmp(a.net.p + l.w1, a.net.p + l.w1 + (size_t)features * (size_t)sh.n1,
                     (size_t)features * (size_t)sh.n1 * sizeof(float)) != 0);
    remove(path);
    train_state_free(&a);
    train_state_free(&b);
    free(s);
}

static void test_split_checkpoint(void)
{
    check_checkpoint(4, NNUE_FEATURES, NNUE_ACT_CLAMP);
    check_checkpoint(1, NNUE_FEATURES_MOBILITY, NNUE_ACT_CLAMP);
    check_checkpoint(4, NNUE_FEATURES_MOBILITY, NNUE_ACT_CLAMP);
    check_checkpoint(1, NNUE_FEATURES_SHOTS, NNUE_ACT_CLAMP);
    check_checkpoint(4, NNUE_FEATURES_SHOTS, NNUE_ACT_CLAMP);
    check_checkpoint(1, NNUE_FEATURES_MOBILITY, NNUE_ACT_PAIR);
    check_checkpoint(4, NNUE_FEATURES_SHOTS, NNUE_ACT_PAIR);
}

static void test_threads_and_resume(void)
{
    rng_state = 12345; /* the same positions whichever tests ran before */
    size_t n = 3000;
    TrainSample *s = material_set(n, 2);
    TrainState a, b, c;
    two_epochs(&a, s, n, 1, NULL);
    two_epochs(&b, s, n, 3, NULL);
    size_t bytes = a.net.nparams * sizeof(float);
    CHECK(memcmp(a.net.p, b.net.p, bytes) == 0);
    /* The same weights from every compiler and machine (no fused multiply-adds, dot products in
     * a fixed order): the release build (clang) and the sanitizer build (gcc) must both find
     * this fingerprint. Update it only for a deliberate change of the training arithmetic. */
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < bytes; i++)
        h = (h ^ ((const uint8_t *)a.net.p)[i]) * 1099511628211ull;
    printf("  weights after two epochs: fingerprint %016llx\n", (unsigned long long)h);
    CHECK(h == 0x7069bdc2a91bae2cull);
    char path[64];
    snprintf(path, sizeof path, "/tmp/test_train_%ld.ckpt", (long)getpid());
    two_epochs(&c, s, n, 2, path);
    CHECK(memcmp(a.net.p, c.net.p, bytes) == 0);
    CHECK(memcmp(a.m, c.m, bytes) == 0 && memcmp(a.v, c.v, bytes) == 0 && a.step == c.step);
    /* A damaged checkpoint is refused. */
    FILE *f = fopen(path, "r+b");
    fseek(f, 200, SEEK_SET);
    fputc(0x55, f);
    fclose(f);
    char err[ERR_LEN];
    TrainState d;
    CHECK(train_checkpoint_load(&d, path, err) == -1 && strstr(err, "checksum"));
    remove(path);
    CHECK(train_checkpoint_load(&d, path, err) == 0);
    train_state_free(&a);
    train_state_free(&b);
    train_state_free(&c);
    free(s);
}

static void test_data(void)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/test_train_%ld.trn", (long)getpid());
    FILE *f = fopen(path, "wb");
    uint8_t blk[TRAIN_BLOCK];
    trainfile_header(blk);
    fwrite(blk, 1, sizeof blk, f);
    /* 40 games of 10 plies; each game starts from the start position (a duplicate). */
    for (int g = 0; g < 40; g++)
        for (int ply = 0; ply < 10; ply++) {
            TrainRecord r = {0};
            if (ply == 0)
                board_start(&r.board);
            else
                random_board(&r.board);
            r.board.key = board_compute_key(&r.board);
            r.result = g % 2 ? TRAIN_BLACK_WON : TRAIN_WHITE_WON;
            r.score = 0;
            r.ply = ply;
            trainfile_encode(&r, blk);
            fwrite(blk, 1, sizeof blk, f);
        }
    fclose(f);
    TrainDataOptions o;
    train_data_default_options(&o);
    o.valid_fraction = 0.25;
    o.lambda = 1;
    TrainSample *tr, *va;
    TrainDataReport rep;
    char err[ERR_LEN];
    const char *paths[1] = {path};
    CHECK(train_data_load(paths, 1, &o, &tr, &va, &rep, err));
    CHECK(rep.records == 400 && rep.games == 40);
    CHECK(rep.nvalid > 0 && rep.ntrain > rep.nvalid);
    /* The start position appears in both sets at most once each, its targets averaged. */
    CHECK(rep.merged >= 38 && rep.ntrain + rep.nvalid + rep.merged == 400);
    int starts = 0;
    for (size_t i = 0; i < rep.ntrain; i++)
        if (tr[i].nfeat == 24 && tr[i].feat[0] == 0 && tr[i].feat[12] == 84) {
            starts++;
            CHECK(tr[i].target > 0.2f && tr[i].target < 0.8f);
        }
    CHECK(starts == 1);
    free(tr);
    /* Another seed holds out other games. */
    TrainSample *va1 = va;
    o.seed = 2;
    TrainDataReport rep2;
    CHECK(train_data_load(paths, 1, &o, &tr, &va, &rep2, err));
    CHECK(rep2.nvalid != rep.nvalid || memcmp(va, va1, rep.nvalid * sizeof *va) != 0);
    free(va1);
    free(tr);
    free(va);
    /* Damage: a block with a square of both colours. */
    f = fopen(path, "r+b");
    fseek(f, 16 * 5, SEEK_SET);
    uint8_t junk[8] = {1, 0, 0, 0, 1, 0, 0, 0};
    fwrite(junk, 1, 8, f);
    fclose(f);
    CHECK(!train_data_load(paths, 1, &o, &tr, &va, &rep, err));
    CHECK(strstr(err, path) && strstr(err, "byte 80"));
    remove(path);
    CHECK(!train_data_load(paths, 1, &o, &tr, &va, &rep, err) && strstr(err, path));

    /* Three games, the second longer than 255 plies: its records past 255 all store 255 and
     * still belong to it. */
    f = fopen(path, "wb");
    trainfile_header(blk);
    fwrite(blk, 1, sizeof blk, f);
    static const int plies[] = {3, 4, 5, 2, 254, 255, 255, 255, 3, 4};
    for (size_t i = 0; i < sizeof plies / sizeof plies[0]; i++) {
        TrainRecord r = {0};
        random_board(&r.board);
        r.board.key = board_compute_key(&r.board);
        r.result = TRAIN_DRAW;
        r.ply = plies[i];
        trainfile_encode(&r, blk);
        fwrite(blk, 1, sizeof blk, f);
    }
    fclose(f);
    CHECK(train_data_load(paths, 1, &o, &tr, &va, &rep, err));
    CHECK(rep.records == 10 && rep.games == 3);
    free(tr);
    free(va);
    remove(path);
}

/* Results relabelled by the databases where they cover the position, and only there. */
static void test_egdb_relabel(void)
{
    char dir[64], path[96], err[ERR_LEN];
    snprintf(dir, sizeof dir, "/tmp/test_train_egdb_%ld", (long)getpid());
    snprintf(path, sizeof path, "%s.trn", dir);
    EgdbBuildOptions bo = {dir, 3, 1, true};
    CHECK(egdb_build(&bo, NULL, NULL, err));
    EgdbSet *set = egdb_open(dir, err);
    CHECK(set != NULL);
    if (!set)
        return;
    FILE *f = fopen(path, "wb");
    uint8_t blk[TRAIN_BLOCK];
    trainfile_header(blk);
    fwrite(blk, 1, sizeof blk, f);
    Board boards[200];
    for (int i = 0; i < 200; i++) {
        TrainRecord r = {0};
        do
            random_board(&r.board);
        while (i % 2 == 0 && bb_popcount(r.board.pieces[0] | r.board.pieces[1]) > 3);
        r.board.key = board_compute_key(&r.board);
        r.result = TRAIN_DRAW;
        r.ply = i; /* one game */
        boards[i] = r.board;
        trainfile_encode(&r, blk);
        fwrite(blk, 1, sizeof blk, f);
    }
    fclose(f);
    TrainDataOptions o;
    train_data_default_options(&o);
    o.lambda = 1;
    o.valid_fraction = 0;
    o.dedup = false;
    o.egdb = set;
    TrainSample *tr, *va;
    TrainDataReport rep;
    const char *paths[1] = {path};
    CHECK(train_data_load(paths, 1, &o, &tr, &va, &rep, err));
    CHECK(rep.ntrain == 200);
    size_t covered = 0, decisive = 0;
    for (int i = 0; i < 200; i++) {
        int pieces = bb_popcount(boards[i].pieces[0] | boards[i].pieces[1]);
        EgdbValue v = pieces <= 3 ? egdb_probe(set, &boards[i]) : EGDB_UNKNOWN;
        float want = v == EGDB_WIN ? 1.0f : v == EGDB_LOSS ? 0.0f : 0.5f;
        CHECK(tr[i].target == want);
        covered += v != EGDB_UNKNOWN;
        decisive += v == EGDB_WIN || v == EGDB_LOSS;
    }
    CHECK(covered >= 100 && rep.relabelled == covered && rep.disagreed == decisive);
    CHECK(decisive > 0 && rep.rescored == 0);
    free(tr);
    free(va);
    /* With egdb_score the search score follows the databases too: at least +150 when won (a
     * record's own +300 is kept), at most -150 when lost, 0 when drawn; unknown positions keep
     * theirs. Every record here says +40, or +300 for every third. */
    f = fopen(path, "wb");
    trainfile_header(blk);
    fwrite(blk, 1, sizeof blk, f);
    for (int i = 0; i < 200; i++) {
        TrainRecord r = {0};
        r.board = boards[i];
        r.result = TRAIN_DRAW;
        r.score = i % 3 == 0 ? 300 : 40;
        r.ply = i;
        trainfile_encode(&r, blk);
        fwrite(blk, 1, sizeof blk, f);
    }
    fclose(f);
    o.lambda = 0;
    o.egdb_score = 150;
    CHECK(train_data_load(paths, 1, &o, &tr, &va, &rep, err));
    CHECK(rep.ntrain == 200);
    size_t changed = 0;
    int bad = 0;
    for (int i = 0; i < 200; i++) {
        int pieces = bb_popcount(boards[i].pieces[0] | boards[i].pieces[1]);
        EgdbValue v = pieces <= 3 ? egdb_probe(set, &boards[i]) : EGDB_UNKNOWN;
        double own = i % 3 == 0 ? 300 : 40;
        double want = v == EGDB_WIN    ? (own > 150 ? own : 150)
                      : v == EGDB_LOSS ? -150
                      : v == EGDB_DRAW ? 0
                                       : own;
        bad += tr[i].target != (float)train_sigmoid(want / o.scale);
        changed += want != own;
    }
    CHECK(bad == 0 && rep.rescored == changed && changed > 50);
    free(tr);
    free(va);
    egdb_close(set);
    remove(path);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

/* --td: each record's score term looks ahead along its game (the next record's, seen from this
 * side, the result after the last), never across games or files; --td 0 is the plain target. */
static void test_td_targets(void)
{
    char path[2][64], err[ERR_LEN];
    /* File 0: two games (plies 10, 11, 13, 14, then 2, 3); file 1: one game of two records. */
    static const int plies[2][6] = {{10, 11, 13, 14, 2, 3}, {5, 6}};
    static const int nrec[2] = {6, 2};
    static const int sides[2][6] = {{0, 1, 1, 0, 1, 0}, {0, 1}};
    static const int scores[2][6] = {{40, -60, 100, -20, 300, -250}, {0, 10}};
    static const int results[2] = {TRAIN_BLACK_WON, TRAIN_WHITE_WON};
    TrainRecord recs[2][6];
    for (int fi = 0; fi < 2; fi++) {
        snprintf(path[fi], sizeof path[fi], "/tmp/test_train_td_%ld_%d.trn", (long)getpid(), fi);
        FILE *f = fopen(path[fi], "wb");
        uint8_t blk[TRAIN_BLOCK];
        trainfile_header(blk);
        fwrite(blk, 1, sizeof blk, f);
        for (int i = 0; i < nrec[fi]; i++) {
            TrainRecord *r = &recs[fi][i];
            memset(r, 0, sizeof *r);
            random_board(&r->board);
            r->board.side = sides[fi][i];
            r->board.key = board_compute_key(&r->board);
            r->result = fi == 0 && i < 4 ? results[0] : fi == 0 ? TRAIN_DRAW : results[1];
            r->score = scores[fi][i];
            r->ply = plies[fi][i];
            trainfile_encode(r, blk);
            fwrite(blk, 1, sizeof blk, f);
        }
        fclose(f);
    }
    TrainDataOptions o;
    train_data_default_options(&o);
    o.valid_fraction = 0;
    o.dedup = false;
    const char *paths[2] = {path[0], path[1]};
    TrainSample *plain, *tr, *va;
    TrainDataReport rep;
    CHECK(train_data_load(paths, 2, &o, &plain, &va, &rep, err));
    free(va);
    o.td = 0.5;
    CHECK(train_data_load(paths, 2, &o, &tr, &va, &rep, err));
    free(va);
    CHECK(rep.games == 3 && rep.ntrain == 8);
    /* The return summed forwards: sum_k (1 - mu) mu^k v_(t+k) + mu^K r, each seen from t. */
    static const int game_of[8] = {0, 0, 0, 0, 1, 1, 2, 2}, end_of[3] = {4, 6, 8};
    int bad = 0, plain_bad = 0;
    for (int t = 0; t < 8; t++) {
        const TrainRecord *rt = t < 6 ? &recs[0][t] : &recs[1][t - 6];
        double g = 0, w = 1;
        int e = end_of[game_of[t]];
        for (int k = t; k < e; k++) {
            const TrainRecord *rk = k < 6 ? &recs[0][k] : &recs[1][k - 6];
            double v = train_sigmoid(rk->score / o.scale);
            g += (1 - o.td) * w * (rk->board.side == rt->board.side ? v : 1 - v);
            w *= o.td;
        }
        const TrainRecord *last = e - 1 < 6 ? &recs[0][e - 1] : &recs[1][e - 7];
        double r_last = train_result(last);
        g += w * (last->board.side == rt->board.side ? r_last : 1 - r_last);
        double want = o.lambda * train_result(rt) + (1 - o.lambda) * g;
        bad += fabs(tr[t].target - want) > 1e-6;
        double own =
            o.lambda * train_result(rt) + (1 - o.lambda) * train_sigmoid(rt->score / o.scale);
        plain_bad += plain[t].target != (float)own;
    }
    CHECK(bad == 0);
    CHECK(plain_bad == 0);
    /* Every target moved: no record's score says what its look-ahead says. */
    int moved = 0;
    for (int t = 0; t < 8; t++)
        moved += tr[t].target != plain[t].target;
    CHECK(moved == 8);
    free(tr);
    free(plain);
    remove(path[0]);
    remove(path[1]);
}

int main(void)
{
    RUN("train", test_exp);
    RUN("train", test_features);
    RUN("train", test_gradient);
    RUN("train", test_split_checkpoint);
    RUN("train", test_quantised);
    RUN("train", test_import);
    RUN("train", test_import_grow);
    RUN("train", test_engine_reads_export);
    RUN("train", test_learns_material);
    RUN("train", test_threads_and_resume);
    RUN("train", test_data);
    RUN("train", test_egdb_relabel);
    RUN("train", test_td_targets);
    return check_total_failed ? 1 : 0;
}
