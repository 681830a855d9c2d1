/*
 * train_net.c - the network file of `ponder train' and its checkpoints.
 *
 * net_export hands the float weights to the engine's network module, which quantises them as
 * the contract (docs/nnue.md) says and writes the file (nnue_quantise, nnue_write): the one
 * quantiser and the one writer. The trainer reads the file back with the engine's reader
 * (nnue_read) and scores it with the engine's inference (nnue_evaluate_features), so it measures
 * the loss of the very bytes it writes as the engine will run them.
 *
 * A checkpoint is the float state of a run: magic "PONDCKP\0", u32 version (1: the first layer
 * shared by the buckets, 2: one first layer per bucket; nothing else differs; see CKPT_ for the
 * feature sets and the pairwise activation), the shape, the
 * epoch, Adam's step, the seed, the sample counts and a fingerprint of the samples, then the
 * parameters and Adam's two moments as little-endian IEEE floats, then an FNV-1a checksum of
 * everything before it. It is written with util_write_file (a temporary file renamed), so a run
 * killed at any moment leaves either the previous checkpoint or the new one.
 */
#include "train.h"

#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Versions: 1 shared first layer, 2 split; 5 and 6 the same with the mobility features, 7 and 8
 * with the shot features (3 and 4 were the mobility set of 224 inputs, which is no longer read);
 * 9-16 the same with a pairwise first layer. */
enum {
    CKPT_SHARED = 1,
    CKPT_SPLIT = 2,
    CKPT_MOBILITY_224 = 2, /* added to 1 or 2: refused */
    CKPT_MOBILITY = 4,     /* added to 1 or 2 */
    CKPT_SHOTS = 6,        /* added to 1 or 2 */
    CKPT_PAIR = 8,         /* added to the above */
    CKPT_LAST = 16,
    CKPT_HEADER = 80
};

bool net_export(const TrainNet *net, int scale, const char *name, uint8_t **out, size_t *len,
                char *err)
{
    const NetShape *sh = &net->shape;
    size_t nl = strlen(name);
    if (nl >= NNUE_NAME_LEN) {
        snprintf(err, ERR_LEN, "network name `%.40s' is longer than %d characters", name,
                 NNUE_NAME_LEN - 1);
        return false;
    }
    NnueFloat f;
    if (!nnue_float_alloc(&f, sh->features, sh->n1, sh->n2, sh->n3, sh->buckets, sh->sets, sh->act,
                          err))
        return false;
    f.scale = scale;
    memcpy(f.name, name, nl + 1);
    /* From the trainer's layout (one array, bucket by bucket) to the engine's (one array a
     * parameter, the buckets in a row). */
    NetLayout l;
    net_layout(sh, &l);
    size_t n1 = (size_t)sh->n1, n2 = (size_t)sh->n2, n3 = (size_t)sh->n3;
    size_t m = (size_t)nnue_l2_inputs(sh->act, sh->n1);
    const float *w = net->p;
    size_t sets = (size_t)sh->sets;
    memcpy(f.w1, w + l.w1, sets * (size_t)sh->features * n1 * sizeof *w);
    memcpy(f.b1, w + l.b1, sets * n1 * sizeof *w);
    for (size_t k = 0; k < (size_t)sh->buckets; k++) {
        const float *b = w + l.bucket0 + k * l.stride;
        memcpy(f.w2 + k * n2 * m, b + l.w2, n2 * m * sizeof *w);
        memcpy(f.b2 + k * n2, b + l.b2, n2 * sizeof *w);
        memcpy(f.w3 + k * n3 * n2, b + l.w3, n3 * n2 * sizeof *w);
        memcpy(f.b3 + k * n3, b + l.b3, n3 * sizeof *w);
        memcpy(f.w4 + k * n3, b + l.w4, n3 * sizeof *w);
        f.b4[k] = b[l.b4];
    }
    NnueNet *q = nnue_quantise(&f, err);
    nnue_float_free(&f);
    if (!q)
        return false;
    size_t size = nnue_write(q, NULL, 0);
    uint8_t *buf = malloc(size);
    if (!buf) {
        nnue_free(q);
        snprintf(err, ERR_LEN, "out of memory");
        return false;
    }
    nnue_write(q, buf, size);
    nnue_free(q);
    *out = buf;
    *len = size;
    return true;
}

bool net_import(TrainNet *net, const NnueNet *q, int features, char *err)
{
    /* Each set begins with the one before it, so a network grows into a larger set. */
    if (features < q->features || !nnue_feature_set_ok(features)) {
        snprintf(err, ERR_LEN, "a network of %d inputs cannot start a run of %d", q->features,
                 features);
        return false;
    }
    NnueFloat f;
    if (!nnue_dequantise(q, &f, err))
        return false;
    NetShape sh = {q->n1, q->n2, q->n3, q->buckets, q->l1_sets, features, q->act};
    if (!train_net_init(net, &sh, 0, err)) {
        nnue_float_free(&f);
        return false;
    }
    /* net_export()'s copies the other way round. Q's inputs are the first of the larger set,
     * so a grown network's rows for them are the old ones and the new rows are zero: it scores
     * every position exactly as Q does until training moves them. */
    NetLayout l;
    net_layout(&sh, &l);
    size_t n1 = (size_t)sh.n1, n2 = (size_t)sh.n2, n3 = (size_t)sh.n3;
    size_t m = (size_t)nnue_l2_inputs(sh.act, sh.n1);
    float *w = net->p;
    size_t sets = (size_t)sh.sets, rows = (size_t)q->features;
    memset(w + l.w1, 0, sets * (size_t)features * n1 * sizeof *w);
    for (size_t s = 0; s < sets; s++)
        memcpy(w + l.w1 + s * (size_t)features * n1, f.w1 + s * rows * n1, rows * n1 * sizeof *w);
    memcpy(w + l.b1, f.b1, sets * n1 * sizeof *w);
    for (size_t k = 0; k < (size_t)sh.buckets; k++) {
        float *b = w + l.bucket0 + k * l.stride;
        memcpy(b + l.w2, f.w2 + k * n2 * m, n2 * m * sizeof *w);
        memcpy(b + l.b2, f.b2 + k * n2, n2 * sizeof *w);
        memcpy(b + l.w3, f.w3 + k * n3 * n2, n3 * n2 * sizeof *w);
        memcpy(b + l.b3, f.b3 + k * n3, n3 * sizeof *w);
        memcpy(b + l.w4, f.w4 + k * n3, n3 * sizeof *w);
        b[l.b4] = f.b4[k];
    }
    nnue_float_free(&f);
    return true;
}

static void put_floats(uint8_t *p, const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &v[i], 4);
        util_put_u32(p + 4 * i, u);
    }
}

static void get_floats(const uint8_t *p, float *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t u = util_get_u32(p + 4 * i);
        memcpy(&v[i], &u, 4);
    }
}

bool train_checkpoint_save(const TrainState *st, const char *path, char *err)
{
    size_t np = st->net.nparams, len = CKPT_HEADER + 12 * np + 4;
    uint8_t *buf = calloc(len, 1);
    if (!buf) {
        snprintf(err, ERR_LEN, "out of memory");
        return false;
    }
    const NetShape *sh = &st->net.shape;
    memcpy(buf, "PONDCKP", 8);
    util_put_u32(buf + 8, (sh->sets > 1 ? CKPT_SPLIT : CKPT_SHARED) +
                              (sh->features == NNUE_FEATURES            ? 0
                               : sh->features == NNUE_FEATURES_MOBILITY ? CKPT_MOBILITY
                                                                        : CKPT_SHOTS) +
                              (sh->act == NNUE_ACT_PAIR ? CKPT_PAIR : 0));
    util_put_u32(buf + 12, (uint32_t)sh->n1);
    util_put_u32(buf + 16, (uint32_t)sh->n2);
    util_put_u32(buf + 20, (uint32_t)sh->n3);
    util_put_u32(buf + 24, (uint32_t)sh->buckets);
    util_put_u32(buf + 28, (uint32_t)st->epoch);
    util_put_u64(buf + 32, st->step);
    util_put_u64(buf + 40, st->seed);
    util_put_u64(buf + 48, st->ntrain);
    util_put_u64(buf + 56, st->nvalid);
    util_put_u64(buf + 64, np);
    util_put_u64(buf + 72, st->data_hash);
    put_floats(buf + CKPT_HEADER, st->net.p, np);
    put_floats(buf + CKPT_HEADER + 4 * np, st->m, np);
    put_floats(buf + CKPT_HEADER + 8 * np, st->v, np);
    util_put_u32(buf + len - 4, util_fnv1a(buf, len - 4, UTIL_FNV_BASIS));
    bool ok = util_write_file(path, buf, len, err, ERR_LEN);
    free(buf);
    return ok;
}

int train_checkpoint_load(TrainState *st, const char *path, char *err)
{
    memset(st, 0, sizeof *st);
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, ERR_LEN, "%.100s: %s", path, strerror(errno));
        return -1;
    }
    uint8_t head[CKPT_HEADER];
    uint32_t version = 0;
    if (fread(head, 1, sizeof head, f) != sizeof head || memcmp(head, "PONDCKP", 8) != 0 ||
        (version = util_get_u32(head + 8)) < CKPT_SHARED || version > CKPT_LAST) {
        fclose(f);
        snprintf(err, ERR_LEN, "%.100s: not a checkpoint of this version (no PONDCKP header)",
                 path);
        return -1;
    }
    int act = NNUE_ACT_CLAMP;
    if (version > CKPT_PAIR) {
        act = NNUE_ACT_PAIR;
        version -= CKPT_PAIR;
    }
    if (version == CKPT_SHARED + CKPT_MOBILITY_224 || version == CKPT_SPLIT + CKPT_MOBILITY_224) {
        fclose(f);
        snprintf(err, ERR_LEN,
                 "%.60s: a checkpoint of the 224-input mobility set (now 288 inputs): start "
                 "again without it",
                 path);
        return -1;
    }
    NetShape sh = {(int)util_get_u32(head + 12),
                   (int)util_get_u32(head + 16),
                   (int)util_get_u32(head + 20),
                   (int)util_get_u32(head + 24),
                   1,
                   version > CKPT_SPLIT + CKPT_MOBILITY       ? NNUE_FEATURES_SHOTS
                   : version > CKPT_SPLIT + CKPT_MOBILITY_224 ? NNUE_FEATURES_MOBILITY
                                                              : NNUE_FEATURES,
                   act};
    if (version % 2 == 0)
        sh.sets = sh.buckets;
    char why[ERR_LEN];
    NetLayout l;
    if (!net_shape_check(&sh, why) || util_get_u64(head + 64) != net_layout(&sh, &l)) {
        fclose(f);
        snprintf(err, ERR_LEN, "%.100s: damaged checkpoint header", path);
        return -1;
    }
    size_t np = net_layout(&sh, &l), len = CKPT_HEADER + 12 * np + 4;
    uint8_t *buf = malloc(len);
    if (!buf) {
        fclose(f);
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    memcpy(buf, head, CKPT_HEADER);
    size_t got = fread(buf + CKPT_HEADER, 1, len - CKPT_HEADER, f);
    int extra = fgetc(f);
    fclose(f);
    if (got != len - CKPT_HEADER || extra != EOF) {
        free(buf);
        snprintf(err, ERR_LEN, "%.100s: checkpoint has the wrong size (truncated?)", path);
        return -1;
    }
    if (util_fnv1a(buf, len - 4, UTIL_FNV_BASIS) != util_get_u32(buf + len - 4)) {
        free(buf);
        snprintf(err, ERR_LEN, "%.100s: checkpoint checksum mismatch (file damaged?)", path);
        return -1;
    }
    if (!train_state_init(st, &sh, 0, err)) {
        free(buf);
        return -1;
    }
    st->epoch = (int)util_get_u32(buf + 28);
    st->step = util_get_u64(buf + 32);
    st->seed = util_get_u64(buf + 40);
    st->ntrain = util_get_u64(buf + 48);
    st->nvalid = util_get_u64(buf + 56);
    st->data_hash = util_get_u64(buf + 72);
    get_floats(buf + CKPT_HEADER, st->net.p, np);
    get_floats(buf + CKPT_HEADER + 4 * np, st->m, np);
    get_floats(buf + CKPT_HEADER + 8 * np, st->v, np);
    free(buf);
    return 1;
}
