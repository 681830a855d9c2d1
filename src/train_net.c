/*
 * train_net.c - the network file of `ponder train' and its checkpoints.
 *
 * net_export quantises the float network exactly as the contract (docs/nnue.md) says: round half
 * away from zero (lround) at the scales QA = 127, QW = 64, QO = 256, little-endian, and an
 * FNV-1a checksum at the end. The trainer reads such a file back with the engine's reader
 * (nnue_read) and scores it with the engine's inference (nnue_evaluate_features), so it measures
 * the loss of the very bytes it writes as the engine will run them.
 *
 * A checkpoint is the float state of a run: magic "PONDCKP\0", u32 version, the shape, the
 * epoch, Adam's step, the seed, the sample counts and a fingerprint of the samples, then the parameters and Adam's two
 * moments as little-endian IEEE floats, then an FNV-1a checksum of everything before it. It is
 * written through a temporary file and renamed, so a run killed at any moment leaves either the
 * previous checkpoint or the new one.
 */
#include "train.h"

#include "engine.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { CKPT_VERSION = 1, CKPT_HEADER = 80 };

static uint32_t fnv1a(const uint8_t *p, size_t n, uint32_t h)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}
#define FNV_BASIS 2166136261u

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get_u64(const uint8_t *p) { return get_u32(p) | (uint64_t)get_u32(p + 4) << 32; }

/* round(X * SCALE) half away from zero, saturated to [LO, HI]. */
static long quant(float x, double scale, long lo, long hi)
{
    double v = (double)x * scale;
    if (v >= (double)hi)
        return hi;
    if (v <= (double)lo)
        return lo;
    return lround(v);
}

size_t net_file_size(const NetShape *sh)
{
    size_t n1 = (size_t)sh->n1, n2 = (size_t)sh->n2, n3 = (size_t)sh->n3;
    size_t bucket = n2 * n1 + 4 * n2 + n3 * n2 + 4 * n3 + 2 * n3 + 4;
    return NET_HEADER + 2 * NET_FEATURES * n1 + 2 * n1 + (size_t)sh->buckets * bucket + 4;
}

bool net_export(const TrainNet *net, int scale, const char *name, uint8_t **out, size_t *len,
                char *err)
{
    const NetShape *sh = &net->shape;
    if (!net_shape_check(sh, err))
        return false;
    if (scale < 1 || scale > 10000) {
        snprintf(err, ERR_LEN, "score scale %d: must be in 1..10000", scale);
        return false;
    }
    size_t nl = strlen(name);
    if (nl >= NET_NAME_LEN) {
        snprintf(err, ERR_LEN, "network name `%.40s' is longer than %d characters", name,
                 NET_NAME_LEN - 1);
        return false;
    }
    for (size_t i = 0; i < nl; i++)
        if (name[i] < 0x20 || name[i] > 0x7e) {
            snprintf(err, ERR_LEN, "network name: character %zu is not printable ASCII", i + 1);
            return false;
        }
    size_t size = net_file_size(sh);
    uint8_t *buf = calloc(size, 1), *p = buf;
    if (!buf) {
        snprintf(err, ERR_LEN, "out of memory");
        return false;
    }
    memcpy(p, "PONDNET", 8);
    put_u32(p + 8, NET_FILE_VERSION);
    put_u32(p + 12, NET_FEATURES);
    put_u32(p + 16, (uint32_t)sh->n1);
    put_u32(p + 20, (uint32_t)sh->n2);
    put_u32(p + 24, (uint32_t)sh->n3);
    put_u32(p + 28, (uint32_t)sh->buckets);
    put_u32(p + 32, (uint32_t)scale);
    put_u32(p + 36, 0);
    memcpy(p + 40, name, nl);
    p += NET_HEADER;

    NetLayout l;
    net_layout(sh, &l);
    const float *w = net->p;
    const long I32 = 2147483647L;
    for (size_t i = 0; i < (size_t)(NET_FEATURES + 1) * sh->n1; i++, p += 2) { /* W1, b1 */
        long v = quant(w[l.w1 + i], NET_QA, -32767, 32767);
        p[0] = (uint8_t)(v & 0xff);
        p[1] = (uint8_t)((v >> 8) & 0xff);
    }
    for (int k = 0; k < sh->buckets; k++) {
        const float *b = w + l.bucket0 + (size_t)k * l.stride;
        for (size_t i = 0; i < (size_t)sh->n2 * sh->n1; i++)
            *p++ = (uint8_t)(int8_t)quant(b[l.w2 + i], NET_QW, -127, 127);
        for (int i = 0; i < sh->n2; i++, p += 4)
            put_u32(p, (uint32_t)(int32_t)quant(b[l.b2 + i], NET_QA * NET_QW, -I32, I32));
        for (size_t i = 0; i < (size_t)sh->n3 * sh->n2; i++)
            *p++ = (uint8_t)(int8_t)quant(b[l.w3 + i], NET_QW, -127, 127);
        for (int i = 0; i < sh->n3; i++, p += 4)
            put_u32(p, (uint32_t)(int32_t)quant(b[l.b3 + i], NET_QA * NET_QW, -I32, I32));
        for (int i = 0; i < sh->n3; i++, p += 2) {
            long v = quant(b[l.w4 + i], NET_QO, -32767, 32767);
            p[0] = (uint8_t)(v & 0xff);
            p[1] = (uint8_t)((v >> 8) & 0xff);
        }
        put_u32(p, (uint32_t)(int32_t)quant(b[l.b4], NET_QA * NET_QO, -I32, I32));
        p += 4;
    }
    put_u32(p, fnv1a(buf, size - 4, FNV_BASIS));
    *out = buf;
    *len = size;
    return true;
}

bool train_write_file(const char *path, const uint8_t *buf, size_t len, char *err)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid()) >= (int)sizeof tmp) {
        snprintf(err, ERR_LEN, "path too long: %.100s", path);
        return false;
    }
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        snprintf(err, ERR_LEN, "cannot create %.100s: %s", tmp, strerror(errno));
        return false;
    }
    bool ok = fwrite(buf, 1, len, f) == len;
    ok = fflush(f) == 0 && ok;
    ok = fsync(fileno(f)) == 0 && ok;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, ERR_LEN, "cannot write %.100s: %s", path, strerror(errno));
        remove(tmp);
        return false;
    }
    return true;
}

static void put_floats(uint8_t *p, const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &v[i], 4);
        put_u32(p + 4 * i, u);
    }
}

static void get_floats(const uint8_t *p, float *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t u = get_u32(p + 4 * i);
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
    put_u32(buf + 8, CKPT_VERSION);
    put_u32(buf + 12, (uint32_t)sh->n1);
    put_u32(buf + 16, (uint32_t)sh->n2);
    put_u32(buf + 20, (uint32_t)sh->n3);
    put_u32(buf + 24, (uint32_t)sh->buckets);
    put_u32(buf + 28, (uint32_t)st->epoch);
    put_u64(buf + 32, st->step);
    put_u64(buf + 40, st->seed);
    put_u64(buf + 48, st->ntrain);
    put_u64(buf + 56, st->nvalid);
    put_u64(buf + 64, np);
    put_u64(buf + 72, st->data_hash);
    put_floats(buf + CKPT_HEADER, st->net.p, np);
    put_floats(buf + CKPT_HEADER + 4 * np, st->m, np);
    put_floats(buf + CKPT_HEADER + 8 * np, st->v, np);
    put_u32(buf + len - 4, fnv1a(buf, len - 4, FNV_BASIS));
    bool ok = train_write_file(path, buf, len, err);
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
    if (fread(head, 1, sizeof head, f) != sizeof head || memcmp(head, "PONDCKP", 8) != 0 ||
        get_u32(head + 8) != CKPT_VERSION) {
        fclose(f);
        snprintf(err, ERR_LEN, "%.100s: not a checkpoint of this version (no PONDCKP header)",
                 path);
        return -1;
    }
    NetShape sh = {(int)get_u32(head + 12), (int)get_u32(head + 16), (int)get_u32(head + 20),
                   (int)get_u32(head + 24)};
    char why[ERR_LEN];
    NetLayout l;
    if (!net_shape_check(&sh, why) || get_u64(head + 64) != net_layout(&sh, &l)) {
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
    if (fnv1a(buf, len - 4, FNV_BASIS) != get_u32(buf + len - 4)) {
        free(buf);
        snprintf(err, ERR_LEN, "%.100s: checkpoint checksum mismatch (file damaged?)", path);
        return -1;
    }
    if (!train_state_init(st, &sh, 0, err)) {
        free(buf);
        return -1;
    }
    st->epoch = (int)get_u32(buf + 28);
    st->step = get_u64(buf + 32);
    st->seed = get_u64(buf + 40);
    st->ntrain = get_u64(buf + 48);
    st->nvalid = get_u64(buf + 56);
    st->data_hash = get_u64(buf + 72);
    get_floats(buf + CKPT_HEADER, st->net.p, np);
    get_floats(buf + CKPT_HEADER + 4 * np, st->m, np);
    get_floats(buf + CKPT_HEADER + 8 * np, st->v, np);
    free(buf);
    return 1;
}
