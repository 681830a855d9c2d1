/*
 * nnue.c - network files and models (see nnue.h): reading with full validation, writing,
 * quantising a float model and back, and the floating-point reference forward pass.
 *
 * A file is read as a whole into memory and checked in the order a reader would notice problems:
 * size of the header, magic, version, each header field, the total size the fields imply, then
 * the FNV-1a checksum of every byte before the last four. Only then are the numbers copied (from
 * little-endian, byte by byte, so the reader needs no alignment and works on any host) into one
 * 32-byte aligned allocation. The first problem is named with the file name; nothing a file holds
 * can make the reader read out of bounds or allocate more than the largest legal net needs
 * (7.9 MB for 1024-256-256 with 8 buckets, a first layer for each and the shot features;
 * files over 8 MB are refused unread). The inference
 * itself is in nnue_eval.c.
 */
#include "nnue.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#ifdef _WIN32
#include <malloc.h>
#endif
#include <string.h>

static const char NNUE_MAGIC[8] = {'P', 'O', 'N', 'D', 'N', 'E', 'T', '\0'};

enum { NNUE_ALIGN = 32, NNUE_FILE_MAX = 8 << 20 };

/* ---- sizes and layout ------------------------------------------------------------------------ */

size_t nnue_file_size(int features, int n1, int n2, int n3, int buckets, int sets, int act)
{
    size_t per_bucket = (size_t)n2 * (size_t)nnue_l2_inputs(act, n1) + 4 * (size_t)n2 +
                        (size_t)n3 * (size_t)n2 + 4 * (size_t)n3 + 2 * (size_t)n3 + 4;
    return NNUE_HEADER_SIZE + (size_t)sets * (2 * (size_t)features * (size_t)n1 + 2 * (size_t)n1) +
           (size_t)buckets * per_bucket + 4;
}

static size_t align_up(size_t n)
{
    return (n + NNUE_ALIGN - 1) & ~(size_t)(NNUE_ALIGN - 1);
}

/* One zeroed block holding every array of a net of N's shape, each 32-byte aligned; sets the
 * pointers. False (ERR) when out of memory. */
static bool net_alloc(NnueNet *n, char *err)
{
    size_t b = (size_t)n->buckets, sets = (size_t)n->l1_sets,
           sz[8] = {
               2 * sets * (size_t)n->features * (size_t)n->n1,
               2 * sets * (size_t)n->n1,
               b * (size_t)n->n2 * (size_t)nnue_l2_inputs(n->act, n->n1),
               4 * b * (size_t)n->n2,
               b * (size_t)n->n3 * (size_t)n->n2,
               4 * b * (size_t)n->n3,
               2 * b * (size_t)n->n3,
               4 * b,
           };
    size_t total = 0, off[8];
    for (int i = 0; i < 8; i++) {
        off[i] = total;
        total += align_up(sz[i]);
    }
#ifdef _WIN32
    char *mem = _aligned_malloc(total, NNUE_ALIGN); /* Windows (the CheckerBoard DLL) */
#else
    char *mem = aligned_alloc(NNUE_ALIGN, total);
#endif
    if (!mem) {
        snprintf(err, ERR_LEN, "out of memory for the network");
        return false;
    }
    memset(mem, 0, total);
    n->mem = mem;
    n->w1 = (int16_t *)(mem + off[0]);
    n->b1 = (int16_t *)(mem + off[1]);
    n->w2 = (int8_t *)(mem + off[2]);
    n->b2 = (int32_t *)(mem + off[3]);
    n->w3 = (int8_t *)(mem + off[4]);
    n->b3 = (int32_t *)(mem + off[5]);
    n->w4 = (int16_t *)(mem + off[6]);
    n->b4 = (int32_t *)(mem + off[7]);
    return true;
}

void nnue_free(NnueNet *net)
{
    if (!net)
        return;
#ifdef _WIN32
    _aligned_free(net->mem);
#else
    free(net->mem);
#endif
    free(net);
}

/* ---- validation ------------------------------------------------------------------------------ */

static bool name_ok(const char *name, size_t len, char *err)
{
    size_t i = 0;
    while (i < len && name[i] != '\0') {
        if (name[i] < 0x20 || name[i] > 0x7e) {
            snprintf(err, ERR_LEN, "name has a byte 0x%02x that is not printable ASCII",
                     (unsigned char)name[i]);
            return false;
        }
        i++;
    }
    if (i == len) {
        snprintf(err, ERR_LEN, "name is not NUL-terminated within %zu bytes", len);
        return false;
    }
    for (; i < len; i++)
        if (name[i] != '\0') {
            snprintf(err, ERR_LEN, "name is not NUL-padded (byte %zu after its end)", i);
            return false;
        }
    return true;
}

static bool layer_ok(const char *what, long v, long min, long max, char *err)
{
    if (v < min || v > max) {
        snprintf(err, ERR_LEN, "%s = %ld is outside %ld..%ld", what, v, min, max);
        return false;
    }
    if (v % 32 != 0) {
        snprintf(err, ERR_LEN, "%s = %ld is not a multiple of 32", what, v);
        return false;
    }
    return true;
}

bool nnue_check_shape(int features, int n1, int n2, int n3, int buckets, int sets, int act,
                      int scale, const char *name, char *err)
{
    if (!nnue_feature_set_ok(features)) {
        snprintf(err, ERR_LEN, "features = %d: not a feature set (%d, %d or %d)", features,
                 NNUE_FEATURES, NNUE_FEATURES_MOBILITY, NNUE_FEATURES_SHOTS);
        return false;
    }
    if (!layer_ok("n1", n1, NNUE_N1_MIN, NNUE_N1_MAX, err) ||
        !layer_ok("n2", n2, NNUE_N23_MIN, NNUE_N23_MAX, err) ||
        !layer_ok("n3", n3, NNUE_N23_MIN, NNUE_N23_MAX, err))
        return false;
    if (buckets < 1 || buckets > NNUE_MAX_BUCKETS) {
        snprintf(err, ERR_LEN, "buckets = %d is outside 1..%d", buckets, NNUE_MAX_BUCKETS);
        return false;
    }
    if (sets != 1 && sets != buckets) {
        snprintf(err, ERR_LEN, "%d first layers: must be 1 (shared) or one per bucket (%d)", sets,
                 buckets);
        return false;
    }
    if (act != NNUE_ACT_CLAMP && act != NNUE_ACT_PAIR) {
        snprintf(err, ERR_LEN, "activation %d: must be 0 (clamp) or 1 (pairwise)", act);
        return false;
    }
    if (act == NNUE_ACT_PAIR && n1 % 64 != 0) {
        snprintf(err, ERR_LEN, "n1 = %d: a pairwise first layer needs a multiple of 64", n1);
        return false;
    }
    if (scale < 1 || scale > NNUE_SCALE_MAX) {
        snprintf(err, ERR_LEN, "score_scale = %d is outside 1..%d", scale, NNUE_SCALE_MAX);
        return false;
    }
    char padded[NNUE_NAME_LEN];
    memset(padded, 0, sizeof padded);
    size_t len = strnlen(name, NNUE_NAME_LEN);
    memcpy(padded, name, len < NNUE_NAME_LEN ? len : NNUE_NAME_LEN);
    return name_ok(padded, NNUE_NAME_LEN, err);
}

/* ---- reading ----------------------------------------------------------------------------------
 */

/* The problem MSG prefixed with "WHAT: " into ERR. */
static void prefixed(char *err, const char *what, const char *msg)
{
    if (what)
        snprintf(err, ERR_LEN, "%.60s: %s", what, msg);
    else
        snprintf(err, ERR_LEN, "%s", msg);
}

/* Checks the header of a SIZE-byte image; the shape into N. */
static bool check_header(const unsigned char *p, size_t size, NnueNet *n, char *msg)
{
    if (size < NNUE_HEADER_SIZE) {
        snprintf(msg, ERR_LEN, "%zu bytes, too short for the %d-byte header", size,
                 NNUE_HEADER_SIZE);
        return false;
    }
    if (memcmp(p, NNUE_MAGIC, sizeof NNUE_MAGIC) != 0) {
        snprintf(msg, ERR_LEN, "not a Ponder network (no PONDNET magic)");
        return false;
    }
    uint32_t version = util_get_u32(p + 8);
    if (version < 1 || version > NNUE_VERSION) {
        snprintf(msg, ERR_LEN, "version %u is not supported (this program reads versions 1-%d)",
                 version, NNUE_VERSION);
        return false;
    }
    uint32_t features = util_get_u32(p + 12);
    if (features > NNUE_FEATURES_SHOTS || !nnue_feature_set_ok((int)features)) {
        snprintf(msg, ERR_LEN, "features = %u, expected %d (pieces), %d (mobility) or %d (shots)",
                 features, NNUE_FEATURES, NNUE_FEATURES_MOBILITY, NNUE_FEATURES_SHOTS);
        return false;
    }
    /* Fields as u32 and i32, compared before narrowing to int. */
    uint32_t n1 = util_get_u32(p + 16), n2 = util_get_u32(p + 20), n3 = util_get_u32(p + 24);
    uint32_t buckets = util_get_u32(p + 28);
    int32_t scale = (int32_t)util_get_u32(p + 32);
    if (!layer_ok("n1", n1 > 1u << 30 ? 1L << 30 : (long)n1, NNUE_N1_MIN, NNUE_N1_MAX, msg) ||
        !layer_ok("n2", n2 > 1u << 30 ? 1L << 30 : (long)n2, NNUE_N23_MIN, NNUE_N23_MAX, msg) ||
        !layer_ok("n3", n3 > 1u << 30 ? 1L << 30 : (long)n3, NNUE_N23_MIN, NNUE_N23_MAX, msg))
        return false;
    if (buckets < 1 || buckets > NNUE_MAX_BUCKETS) {
        snprintf(msg, ERR_LEN, "buckets = %u is outside 1..%d", buckets, NNUE_MAX_BUCKETS);
        return false;
    }
    if (scale < 1 || scale > NNUE_SCALE_MAX) {
        snprintf(msg, ERR_LEN, "score_scale = %d is outside 1..%d", (int)scale, NNUE_SCALE_MAX);
        return false;
    }
    /* Bytes 36-39: reserved (0) in version 1; the number of first layers in version 2, which
     * has one per bucket (a shared one is written as version 1); in version 3 the number of
     * first layers (1, or one per bucket) in the low 16 bits and the activation in the high
     * 16. */
    uint32_t sets = util_get_u32(p + 36), act = NNUE_ACT_CLAMP;
    if (version == 1 && sets != 0) {
        snprintf(msg, ERR_LEN, "reserved field is %u, not 0", sets);
        return false;
    }
    if (version == 3) {
        act = sets >> 16;
        sets &= 0xFFFF;
        if (act != NNUE_ACT_CLAMP && act != NNUE_ACT_PAIR) {
            snprintf(msg, ERR_LEN, "activation = %u: expected 0 (clamp) or 1 (pairwise)", act);
            return false;
        }
        if (act == NNUE_ACT_PAIR && n1 % 64 != 0) {
            snprintf(msg, ERR_LEN, "n1 = %u: a pairwise first layer needs a multiple of 64", n1);
            return false;
        }
    }
    if (version == 1)
        sets = 1;
    else if (version == 3 && sets == 1)
        ;
    else if (sets != buckets || buckets < 2) {
        snprintf(msg, ERR_LEN,
                 "first layers = %u: a version %u net has %sone per bucket (%u, at least 2)", sets,
                 version, version == 3 ? "1 or " : "", buckets);
        return false;
    }
    if (!name_ok((const char *)p + 40, NNUE_NAME_LEN, msg))
        return false;
    n->features = (int)features;
    n->n1 = (int)n1;
    n->n2 = (int)n2;
    n->n3 = (int)n3;
    n->buckets = (int)buckets;
    n->l1_sets = (int)sets;
    n->act = (int)act;
    n->scale = (int)scale;
    memcpy(n->name, p + 40, NNUE_NAME_LEN);
    size_t want = nnue_file_size(n->features, n->n1, n->n2, n->n3, n->buckets, n->l1_sets, n->act);
    if (size != want) {
        snprintf(msg, ERR_LEN,
                 "%zu bytes, expected %zu for n1 = %d, n2 = %d, n3 = %d, %d buckets%s%s%s", size,
                 want, n->n1, n->n2, n->n3, n->buckets, n->l1_sets > 1 ? ", split" : "",
                 n->act == NNUE_ACT_PAIR ? ", pairwise" : "",
                 n->features == NNUE_FEATURES_MOBILITY ? ", mobility features"
                 : n->features == NNUE_FEATURES_SHOTS  ? ", shot features"
                                                       : "");
        return false;
    }
    uint32_t stored = util_get_u32(p + size - 4),
             computed = util_fnv1a(p, size - 4, UTIL_FNV_BASIS);
    if (stored != computed) {
        snprintf(msg, ERR_LEN, "checksum mismatch (file damaged?): stored %08x, computed %08x",
                 stored, computed);
        return false;
    }
    return true;
}

NnueNet *nnue_read(const void *data, size_t size, const char *what, char *err)
{
    const unsigned char *p = data;
    char msg[ERR_LEN];
    NnueNet *n = calloc(1, sizeof *n);
    if (!n) {
        prefixed(err, what, "out of memory");
        return NULL;
    }
    if (!check_header(p, size, n, msg) || !net_alloc(n, msg)) {
        prefixed(err, what, msg);
        free(n);
        return NULL;
    }
    size_t b = (size_t)n->buckets, n1 = (size_t)n->n1, n2 = (size_t)n->n2, n3 = (size_t)n->n3;
    size_t sets = (size_t)n->l1_sets, m = (size_t)nnue_l2_inputs(n->act, n->n1);
    p += NNUE_HEADER_SIZE;
    for (size_t i = 0; i < sets * (size_t)n->features * n1; i++, p += 2)
        n->w1[i] = (int16_t)util_get_u16(p);
    for (size_t i = 0; i < sets * n1; i++, p += 2)
        n->b1[i] = (int16_t)util_get_u16(p);
    for (size_t k = 0; k < b; k++) {
        memcpy(n->w2 + k * n2 * m, p, n2 * m);
        p += n2 * m;
        for (size_t i = 0; i < n2; i++, p += 4)
            n->b2[k * n2 + i] = (int32_t)util_get_u32(p);
        memcpy(n->w3 + k * n3 * n2, p, n3 * n2);
        p += n3 * n2;
        for (size_t i = 0; i < n3; i++, p += 4)
            n->b3[k * n3 + i] = (int32_t)util_get_u32(p);
        for (size_t i = 0; i < n3; i++, p += 2)
            n->w4[k * n3 + i] = (int16_t)util_get_u16(p);
        n->b4[k] = (int32_t)util_get_u32(p);
        p += 4;
    }
    return n;
}

NnueNet *nnue_load(const char *path, char *err)
{
    char msg[ERR_LEN];
    size_t len = 0;
    unsigned char *buf = util_read_bytes(path, NNUE_FILE_MAX, &len, msg, sizeof msg);
    if (!buf) {
        prefixed(err, path, msg);
        return NULL;
    }
    NnueNet *n = nnue_read(buf, len, path, err);
    free(buf);
    return n;
}

/* ---- the compiled-in network (build/gen/nnue_default.c) ---------------------------------------
 */

extern const unsigned char nnue_default_data[];
extern const size_t nnue_default_size;

bool nnue_has_default(void)
{
    return nnue_default_size > 0;
}

NnueNet *nnue_load_default(char *err)
{
    if (!nnue_has_default()) {
        snprintf(err, ERR_LEN, "no network is built in (data/nets/default.pnet was absent)");
        return NULL;
    }
    return nnue_read(nnue_default_data, nnue_default_size, "built-in network", err);
}

void nnue_describe(const NnueNet *net, char *out, size_t n)
{
    char sets[40] = "";
    if (net->l1_sets > 1)
        snprintf(sets, sizeof sets, ", %d first-layer sets", net->l1_sets);
    snprintf(out, n, "%s (%d inputs, %d-%d-%d%s, %d output bucket%s%s)",
             net->name[0] ? net->name : "unnamed", net->features, net->n1, net->n2, net->n3,
             net->act == NNUE_ACT_PAIR ? " pairwise" : "", net->buckets,
             net->buckets == 1 ? "" : "s", sets);
}

void nnue_describe_default(char *out, size_t n)
{
    if (!nnue_has_default()) {
        snprintf(out, n, "none");
        return;
    }
    char err[ERR_LEN];
    NnueNet *net = nnue_load_default(err);
    if (!net) {
        snprintf(out, n, "unusable: %s", err);
        return;
    }
    nnue_describe(net, out, n);
    nnue_free(net);
}

/* ---- writing ----------------------------------------------------------------------------------
 */

size_t nnue_write(const NnueNet *n, void *buf, size_t cap)
{
    size_t size = nnue_file_size(n->features, n->n1, n->n2, n->n3, n->buckets, n->l1_sets, n->act);
    if (!buf || cap < size)
        return size;
    unsigned char *p = buf, *start = buf;
    size_t b = (size_t)n->buckets, n1 = (size_t)n->n1, n2 = (size_t)n->n2, n3 = (size_t)n->n3;
    size_t sets = (size_t)n->l1_sets, m = (size_t)nnue_l2_inputs(n->act, n->n1);
    bool v3 = n->act != NNUE_ACT_CLAMP;
    memcpy(p, NNUE_MAGIC, sizeof NNUE_MAGIC);
    util_put_u32(p + 8, v3 ? 3 : sets > 1 ? 2 : 1);
    util_put_u32(p + 12, (uint32_t)n->features);
    util_put_u32(p + 16, (uint32_t)n->n1);
    util_put_u32(p + 20, (uint32_t)n->n2);
    util_put_u32(p + 24, (uint32_t)n->n3);
    util_put_u32(p + 28, (uint32_t)n->buckets);
    util_put_u32(p + 32, (uint32_t)n->scale);
    util_put_u32(p + 36, v3         ? (uint32_t)sets | (uint32_t)n->act << 16
                         : sets > 1 ? (uint32_t)sets
                                    : 0);
    memset(p + 40, 0, NNUE_NAME_LEN);
    memcpy(p + 40, n->name, strnlen(n->name, NNUE_NAME_LEN - 1));
    p += NNUE_HEADER_SIZE;
    for (size_t i = 0; i < sets * (size_t)n->features * n1; i++, p += 2)
        util_put_u16(p, (uint16_t)n->w1[i]);
    for (size_t i = 0; i < sets * n1; i++, p += 2)
        util_put_u16(p, (uint16_t)n->b1[i]);
    for (size_t k = 0; k < b; k++) {
        memcpy(p, n->w2 + k * n2 * m, n2 * m);
        p += n2 * m;
        for (size_t i = 0; i < n2; i++, p += 4)
            util_put_u32(p, (uint32_t)n->b2[k * n2 + i]);
        memcpy(p, n->w3 + k * n3 * n2, n3 * n2);
        p += n3 * n2;
        for (size_t i = 0; i < n3; i++, p += 4)
            util_put_u32(p, (uint32_t)n->b3[k * n3 + i]);
        for (size_t i = 0; i < n3; i++, p += 2)
            util_put_u16(p, (uint16_t)n->w4[k * n3 + i]);
        util_put_u32(p, (uint32_t)n->b4[k]);
        p += 4;
    }
    util_put_u32(p, util_fnv1a(start, size - 4, UTIL_FNV_BASIS));
    return size;
}

bool nnue_save(const NnueNet *n, const char *path, char *err)
{
    size_t size = nnue_write(n, NULL, 0);
    unsigned char *buf = malloc(size);
    if (!buf) {
        snprintf(err, ERR_LEN, "%.60s: out of memory", path);
        return false;
    }
    nnue_write(n, buf, size);
    bool ok = util_write_file(path, buf, size, err, ERR_LEN);
    free(buf);
    return ok;
}

/* ---- float models -----------------------------------------------------------------------------
 */

bool nnue_float_alloc(NnueFloat *f, int features, int n1, int n2, int n3, int buckets, int sets,
                      int act, char *err)
{
    memset(f, 0, sizeof *f);
    if (!nnue_check_shape(features, n1, n2, n3, buckets, sets, act, 1, "", err))
        return false;
    size_t b = (size_t)buckets, sz[8] = {
                                    (size_t)sets * (size_t)features * (size_t)n1,
                                    (size_t)sets * (size_t)n1,
                                    b * (size_t)n2 * (size_t)nnue_l2_inputs(act, n1),
                                    b * (size_t)n2,
                                    b * (size_t)n3 * (size_t)n2,
                                    b * (size_t)n3,
                                    b * (size_t)n3,
                                    b,
                                };
    size_t total = 0;
    for (int i = 0; i < 8; i++)
        total += sz[i];
    float *mem = calloc(total, sizeof *mem);
    if (!mem) {
        snprintf(err, ERR_LEN, "out of memory for the float network");
        return false;
    }
    f->features = features;
    f->n1 = n1;
    f->n2 = n2;
    f->n3 = n3;
    f->buckets = buckets;
    f->l1_sets = sets;
    f->act = act;
    f->scale = 1;
    f->mem = mem;
    float **ptr[8] = {&f->w1, &f->b1, &f->w2, &f->b2, &f->w3, &f->b3, &f->w4, &f->b4};
    for (int i = 0; i < 8; i++) {
        *ptr[i] = mem;
        mem += sz[i];
    }
    return true;
}

void nnue_float_free(NnueFloat *f)
{
    free(f->mem);
    memset(f, 0, sizeof *f);
}

/* round(X * Q) saturated to [LO, HI]. */
static long quant(float x, double q, long lo, long hi)
{
    double v = (double)x * q;
    if (!(v == v))
        return 0;
    if (v <= (double)lo)
        return lo;
    if (v >= (double)hi)
        return hi;
    return lround(v);
}

NnueNet *nnue_quantise(const NnueFloat *f, char *err)
{
    if (!nnue_check_shape(f->features, f->n1, f->n2, f->n3, f->buckets, f->l1_sets, f->act,
                          f->scale, f->name, err))
        return NULL;
    NnueNet *n = calloc(1, sizeof *n);
    if (!n) {
        snprintf(err, ERR_LEN, "out of memory for the network");
        return NULL;
    }
    n->features = f->features;
    n->n1 = f->n1;
    n->n2 = f->n2;
    n->n3 = f->n3;
    n->buckets = f->buckets;
    n->l1_sets = f->l1_sets;
    n->act = f->act;
    n->scale = f->scale;
    memset(n->name, 0, sizeof n->name);
    memcpy(n->name, f->name, strnlen(f->name, NNUE_NAME_LEN - 1));
    if (!net_alloc(n, err)) {
        free(n);
        return NULL;
    }
    size_t b = (size_t)n->buckets, n1 = (size_t)n->n1, n2 = (size_t)n->n2, n3 = (size_t)n->n3;
    size_t sets = (size_t)n->l1_sets;
    const double qa = NNUE_QA, qw = NNUE_QW, qo = NNUE_QO;
    for (size_t i = 0; i < sets * (size_t)n->features * n1; i++)
        n->w1[i] = (int16_t)quant(f->w1[i], qa, INT16_MIN, INT16_MAX);
    for (size_t i = 0; i < sets * n1; i++)
        n->b1[i] = (int16_t)quant(f->b1[i], qa, INT16_MIN, INT16_MAX);
    for (size_t i = 0; i < b * n2 * (size_t)nnue_l2_inputs(n->act, n->n1); i++)
        n->w2[i] = (int8_t)quant(f->w2[i], qw, INT8_MIN, INT8_MAX);
    for (size_t i = 0; i < b * n2; i++)
        n->b2[i] = (int32_t)quant(f->b2[i], qa * qw, INT32_MIN, INT32_MAX);
    for (size_t i = 0; i < b * n3 * n2; i++)
        n->w3[i] = (int8_t)quant(f->w3[i], qw, INT8_MIN, INT8_MAX);
    for (size_t i = 0; i < b * n3; i++) {
        n->b3[i] = (int32_t)quant(f->b3[i], qa * qw, INT32_MIN, INT32_MAX);
        n->w4[i] = (int16_t)quant(f->w4[i], qo, INT16_MIN, INT16_MAX);
    }
    for (size_t i = 0; i < b; i++)
        n->b4[i] = (int32_t)quant(f->b4[i], qa * qo, INT32_MIN, INT32_MAX);
    return n;
}

bool nnue_dequantise(const NnueNet *n, NnueFloat *f, char *err)
{
    if (!nnue_float_alloc(f, n->features, n->n1, n->n2, n->n3, n->buckets, n->l1_sets, n->act, err))
        return false;
    f->scale = n->scale;
    memcpy(f->name, n->name, sizeof f->name);
    size_t b = (size_t)n->buckets, n1 = (size_t)n->n1, n2 = (size_t)n->n2, n3 = (size_t)n->n3;
    size_t sets = (size_t)n->l1_sets;
    const float qa = NNUE_QA, qw = NNUE_QW, qo = NNUE_QO;
    for (size_t i = 0; i < sets * (size_t)n->features * n1; i++)
        f->w1[i] = (float)n->w1[i] / qa;
    for (size_t i = 0; i < sets * n1; i++)
        f->b1[i] = (float)n->b1[i] / qa;
    for (size_t i = 0; i < b * n2 * (size_t)nnue_l2_inputs(n->act, n->n1); i++)
        f->w2[i] = (float)n->w2[i] / qw;
    for (size_t i = 0; i < b * n2; i++)
        f->b2[i] = (float)((double)n->b2[i] / (qa * qw));
    for (size_t i = 0; i < b * n3 * n2; i++)
        f->w3[i] = (float)n->w3[i] / qw;
    for (size_t i = 0; i < b * n3; i++) {
        f->b3[i] = (float)((double)n->b3[i] / (qa * qw));
        f->w4[i] = (float)n->w4[i] / qo;
    }
    for (size_t i = 0; i < b; i++)
        f->b4[i] = (float)((double)n->b4[i] / (qa * qo));
    return true;
}

static double clamp01(double x)
{
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

double nnue_float_forward(const NnueFloat *f, const Board *b)
{
    double h1[NNUE_N1_MAX], h2[NNUE_N23_MAX], h3[NNUE_N23_MAX];
    uint16_t feat[NNUE_MAX_ACTIVE];
    int nf = nnue_features_of(f->features, b, feat), k = nnue_bucket(b, f->buckets);
    size_t n1 = (size_t)f->n1, n2 = (size_t)f->n2, n3 = (size_t)f->n3;
    size_t set = (size_t)nnue_l1_set(f->l1_sets, k);
    const float *w1 = f->w1 + set * (size_t)f->features * n1, *b1 = f->b1 + set * n1;
    for (size_t j = 0; j < n1; j++) {
        double a = b1[j];
        for (int i = 0; i < nf; i++)
            a += w1[feat[i] * n1 + j];
        h1[j] = clamp01(a);
    }
    size_t m = (size_t)nnue_l2_inputs(f->act, f->n1);
    if (f->act == NNUE_ACT_PAIR)
        for (size_t j = 0; j < m; j++)
            h1[j] *= h1[j + m];
    const float *w2 = f->w2 + (size_t)k * n2 * m, *w3 = f->w3 + (size_t)k * n3 * n2;
    for (size_t i = 0; i < n2; i++) {
        double s = f->b2[(size_t)k * n2 + i];
        for (size_t j = 0; j < m; j++)
            s += (double)w2[i * m + j] * h1[j];
        h2[i] = clamp01(s);
    }
    for (size_t i = 0; i < n3; i++) {
        double s = f->b3[(size_t)k * n3 + i];
        for (size_t j = 0; j < n2; j++)
            s += (double)w3[i * n2 + j] * h2[j];
        h3[i] = clamp01(s);
    }
    double y = f->b4[k];
    for (size_t i = 0; i < n3; i++)
        y += (double)f->w4[(size_t)k * n3 + i] * h3[i];
    return y;
}
