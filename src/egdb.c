/*
 * egdb.c - endgame database files: the slice file format, writing, checking, and probing
 * through read-only memory maps (see egdb.h).
 *
 * File layout (all integers little-endian as the machine writes them; the header records the
 * byte order through its magic):
 *   header   magic "PONDEREG", version, counts bm bk wm wk, slice size, block size, block count,
 *            data bytes, value counts, checksum
 *   offsets  (blocks + 1) uint32: start of each block in the data
 *   data     the blocks, each a sequence of runs: a byte v<<6 | n, value v (0-3) repeated n+1
 *            times for n < 63, or 64 + a LEB128 varint times for n = 63.
 * Values: 1 win, 2 loss, 3 draw, for Black to move. Indices that are no position, and positions
 * where Black must capture, are "don't care": the writer gives them whatever value lengthens the
 * run they fall in (this makes the files about four times smaller), and egdb_probe() never reads
 * them: it answers a capture position by probing the positions after its captures, which have
 * fewer pieces. The header's counts are the true values of the slice, don't-cares included.
 */
#define _POSIX_C_SOURCE 200809L
#include "egdb.h"

#include "bitboard.h"
#include "movegen.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define EGDB_MAGIC "PONDEREG"
enum { EGDB_VERSION = 2 };

typedef struct {
    char magic[8];
    uint32_t version;
    uint8_t bm, bk, wm, wk;
    uint64_t size;
    uint32_t block;
    uint32_t nblocks;
    uint64_t data_bytes;
    uint64_t counts[4];
    uint64_t checksum;
} FileHeader;

void egdb_file_name(const EgdbSlice *s, char *buf, size_t size)
{
    snprintf(buf, size, "db-%d-%d-%d-%d.egdb", s->bm, s->bk, s->wm, s->wk);
}

/* ---- coding ---- */

static size_t put_run(uint8_t *out, int v, uint64_t n)
{
    size_t k = 0;
    if (n <= 63) {
        out[k++] = (uint8_t)(v << 6 | (n - 1));
        return k;
    }
    out[k++] = (uint8_t)(v << 6 | 63);
    n -= 64;
    do {
        uint8_t byte = n & 0x7F;
        n >>= 7;
        out[k++] = byte | (n ? 0x80 : 0);
    } while (n);
    return k;
}

/* Reads the run at DATA[*P] (of the block DATA[0..LEN)), the one reader of put_run's coding:
 * *VALUE gets its value, *N its length, and *P moves past it. Returns false if the block ends
 * inside the run or its length is out of range. */
static inline bool next_run(const uint8_t *data, size_t len, size_t *p, int *value, uint64_t *n)
{
    if (*p >= len)
        return false;
    uint8_t byte = data[(*p)++];
    *value = byte >> 6;
    *n = (byte & 63u) + 1;
    if ((byte & 63u) != 63)
        return true;
    uint64_t extra = 0;
    for (int shift = 0;; shift += 7) {
        if (*p >= len || shift > 35)
            return false;
        uint8_t c = data[(*p)++];
        extra |= (uint64_t)(c & 0x7F) << shift;
        if (!(c & 0x80))
            break;
    }
    *n = 64 + extra;
    return true;
}

/* Decodes the block at DATA[0..LEN) into OUT (COUNT values). Returns false if it is malformed. */
static bool decode_block(const uint8_t *data, size_t len, uint8_t *out, uint32_t count)
{
    size_t p = 0;
    uint32_t filled = 0;
    while (filled < count) {
        int v;
        uint64_t n;
        if (!next_run(data, len, &p, &v, &n) || n > count - filled)
            return false;
        memset(out + filled, v, (size_t)n);
        filled += (uint32_t)n;
    }
    return p == len;
}

/* The value at position I of the block, without decoding the rest. -1 if malformed. */
static int block_value(const uint8_t *data, size_t len, uint32_t i)
{
    size_t p = 0;
    uint64_t pos = 0;
    while (p < len) {
        int v;
        uint64_t n;
        if (!next_run(data, len, &p, &v, &n))
            return -1;
        pos += n;
        if (i < pos)
            return v;
    }
    return -1;
}

bool egdb_write_slice(const char *dir, const EgdbSlice *s, const uint8_t *values, char *err)
{
    uint32_t nblocks = (uint32_t)((s->size + EGDB_BLOCK - 1) / EGDB_BLOCK);
    uint32_t *offsets = malloc(((size_t)nblocks + 1) * sizeof *offsets);
    /* Worst case: one run per value, two bytes each at most (runs < 64 take one). */
    size_t cap = (size_t)s->size * 2 + 16;
    uint8_t *data = malloc(cap);
    if (!offsets || !data) {
        free(offsets);
        free(data);
        snprintf(err, ERR_LEN, "out of memory coding a slice of %llu positions",
                 (unsigned long long)s->size);
        return false;
    }
    FileHeader h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, EGDB_MAGIC, 8);
    h.version = EGDB_VERSION;
    h.bm = (uint8_t)s->bm;
    h.bk = (uint8_t)s->bk;
    h.wm = (uint8_t)s->wm;
    h.wk = (uint8_t)s->wk;
    h.size = s->size;
    h.block = EGDB_BLOCK;
    h.nblocks = nblocks;
    /* Mark the don't-cares: no position, or Black must capture. */
    uint8_t *care = malloc(s->size ? (size_t)s->size : 1);
    if (!care) {
        free(offsets);
        free(data);
        snprintf(err, ERR_LEN, "out of memory coding a slice");
        return false;
    }
    EgdbCursor cur;
    egdb_cursor_start(&cur, s, 0);
    for (uint64_t i = 0; i < s->size; i++, egdb_cursor_next(&cur)) {
        care[i] = cur.valid && !movegen_jumpers(&cur.b);
        if (cur.valid)
            h.counts[values[i] & 3]++;
        else
            h.counts[0]++;
    }
    size_t len = 0;
    for (uint32_t blk = 0; blk < nblocks; blk++) {
        offsets[blk] = (uint32_t)len;
        uint64_t start = (uint64_t)blk * EGDB_BLOCK;
        uint64_t end = start + EGDB_BLOCK < s->size ? start + EGDB_BLOCK : s->size;
        uint64_t i = start;
        while (i < end) {
            /* A run takes the value of its first cared-for position and swallows every
             * don't-care until a position with another value. */
            int v = -1;
            uint64_t j = i;
            for (; j < end; j++) {
                if (!care[j])
                    continue;
                if (v < 0)
                    v = values[j] & 3;
                else if ((values[j] & 3) != v)
                    break;
            }
            len += put_run(data + len, v < 0 ? EGDB_DRAW : v, j - i);
            i = j;
        }
    }
    free(care);
    offsets[nblocks] = (uint32_t)len;
    h.data_bytes = len;
    uint64_t sum = util_fnv1a64(offsets, ((size_t)nblocks + 1) * sizeof *offsets, UTIL_FNV64_BASIS);
    h.checksum = util_fnv1a64(data, len, sum);

    char name[64], path[4096], tmp[4200];
    egdb_file_name(s, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    bool ok = false;
    FILE *f = fopen(tmp, "wb");
    if (!f)
        snprintf(err, ERR_LEN, "cannot create %.120s: %s", tmp, strerror(errno));
    else {
        ok = fwrite(&h, sizeof h, 1, f) == 1 &&
             fwrite(offsets, sizeof *offsets, (size_t)nblocks + 1, f) == (size_t)nblocks + 1 &&
             fwrite(data, 1, len, f) == len && fflush(f) == 0 && fsync(fileno(f)) == 0;
        if (fclose(f) != 0)
            ok = false;
        if (!ok)
            snprintf(err, ERR_LEN, "cannot write %.120s: %s", tmp, strerror(errno));
        else if (rename(tmp, path) != 0) {
            snprintf(err, ERR_LEN, "cannot rename %.120s: %s", tmp, strerror(errno));
            ok = false;
        }
        if (!ok)
            unlink(tmp);
    }
    free(offsets);
    free(data);
    return ok;
}

/* Checks the header H of a file of FILE_BYTES bytes. */
static bool header_ok(const FileHeader *h, uint64_t file_bytes, char *err)
{
    if (file_bytes < sizeof *h || memcmp(h->magic, EGDB_MAGIC, 8) != 0) {
        snprintf(err, ERR_LEN, "not a Ponder endgame database file");
        return false;
    }
    if (h->version != EGDB_VERSION) {
        snprintf(err, ERR_LEN, "file version %u, this program reads %d", h->version, EGDB_VERSION);
        return false;
    }
    if (h->bm + h->bk + h->wm + h->wk > EGDB_MAX_PIECES || h->bm > 12 || h->wm > 12) {
        snprintf(err, ERR_LEN, "impossible piece counts in the header");
        return false;
    }
    EgdbSlice s;
    egdb_slice_init(&s, h->bm, h->bk, h->wm, h->wk);
    uint64_t nblocks = (s.size + EGDB_BLOCK - 1) / EGDB_BLOCK;
    if (h->size != s.size || h->block != EGDB_BLOCK || h->nblocks != nblocks ||
        file_bytes != sizeof *h + (nblocks + 1) * 4 + h->data_bytes) {
        snprintf(err, ERR_LEN, "header sizes do not match the file (truncated or damaged)");
        return false;
    }
    return true;
}

bool egdb_read_slice(const char *path, EgdbFileInfo *info, uint8_t *values, char *err)
{
    char inner[ERR_LEN];
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, ERR_LEN, "cannot open %.120s: %s", path, strerror(errno));
        return false;
    }
    struct stat st;
    FileHeader h;
    uint32_t *offsets = NULL;
    uint8_t *data = NULL, *block = NULL;
    bool ok = false;
    if (fstat(fileno(f), &st) != 0 || fread(&h, sizeof h, 1, f) != 1) {
        snprintf(err, ERR_LEN, "%.120s: too short for a database file", path);
        goto out;
    }
    if (!header_ok(&h, (uint64_t)st.st_size, inner)) {
        snprintf(err, ERR_LEN, "%.100s: %.50s", path, inner);
        goto out;
    }
    offsets = malloc(((size_t)h.nblocks + 1) * 4);
    data = malloc(h.data_bytes ? (size_t)h.data_bytes : 1);
    block = malloc(EGDB_BLOCK);
    if (!offsets || !data || !block) {
        snprintf(err, ERR_LEN, "%.120s: out of memory", path);
        goto out;
    }
    if (fread(offsets, 4, (size_t)h.nblocks + 1, f) != (size_t)h.nblocks + 1 ||
        fread(data, 1, (size_t)h.data_bytes, f) != (size_t)h.data_bytes) {
        snprintf(err, ERR_LEN, "%.120s: read error", path);
        goto out;
    }
    uint64_t sum = util_fnv1a64(offsets, ((size_t)h.nblocks + 1) * 4, UTIL_FNV64_BASIS);
    if (util_fnv1a64(data, (size_t)h.data_bytes, sum) != h.checksum) {
        snprintf(err, ERR_LEN, "%.100s: checksum mismatch (damaged file)", path);
        goto out;
    }
    for (uint32_t b = 0; b < h.nblocks; b++) {
        uint64_t start = (uint64_t)b * EGDB_BLOCK;
        uint32_t count = (uint32_t)(h.size - start < EGDB_BLOCK ? h.size - start : EGDB_BLOCK);
        if (offsets[b] > offsets[b + 1] || offsets[b + 1] > h.data_bytes ||
            !decode_block(data + offsets[b], offsets[b + 1] - offsets[b], block, count)) {
            snprintf(err, ERR_LEN, "%.100s: block %u does not decode", path, b);
            goto out;
        }
        if (values)
            memcpy(values + start, block, count);
    }
    if (h.counts[0] + h.counts[1] + h.counts[2] + h.counts[3] != h.size) {
        snprintf(err, ERR_LEN, "%.100s: value counts do not add up to the slice size", path);
        goto out;
    }
    egdb_slice_init(&info->slice, h.bm, h.bk, h.wm, h.wk);
    info->nblocks = h.nblocks;
    info->data_bytes = h.data_bytes;
    memcpy(info->counts, h.counts, sizeof h.counts);
    info->checksum = h.checksum;
    info->file_bytes = (uint64_t)st.st_size;
    ok = true;
out:
    free(offsets);
    free(data);
    free(block);
    fclose(f);
    return ok;
}

/* ---- the open set ---- */

typedef struct {
    const uint8_t *map; /* the mapped file */
    size_t map_bytes;
    const uint32_t *offsets;
    const uint8_t *data;
    uint64_t data_bytes; /* bytes at data: the block offsets read from the file must stay within */
    EgdbSlice slice;
} MappedSlice;

enum { SLOT_DIM = EGDB_MAX_PIECES + 1 };

struct EgdbSet {
    MappedSlice *slot[SLOT_DIM][SLOT_DIM][SLOT_DIM][SLOT_DIM]; /* by bm, bk, wm, wk */
    int complete;        /* every slice up to this many pieces is present */
    char warnings[1024]; /* damaged files, for the front end to report once */
};

static void add_warning(EgdbSet *set, const char *msg)
{
    size_t n = strlen(set->warnings);
    snprintf(set->warnings + n, sizeof set->warnings - n, "%s%s", n ? "\n" : "", msg);
}

static MappedSlice *map_slice(const char *path, char *err)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(err, ERR_LEN, "cannot open %.120s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(FileHeader)) {
        snprintf(err, ERR_LEN, "%.120s: too short for a database file", path);
        close(fd);
        return NULL;
    }
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        snprintf(err, ERR_LEN, "cannot map %.120s: %s", path, strerror(errno));
        return NULL;
    }
    FileHeader h;
    memcpy(&h, m, sizeof h);
    char inner[ERR_LEN];
    if (!header_ok(&h, (uint64_t)st.st_size, inner)) {
        snprintf(err, ERR_LEN, "%.100s: %.50s", path, inner);
        munmap(m, (size_t)st.st_size);
        return NULL;
    }
    MappedSlice *ms = malloc(sizeof *ms);
    if (!ms) {
        munmap(m, (size_t)st.st_size);
        snprintf(err, ERR_LEN, "out of memory");
        return NULL;
    }
    ms->map = m;
    ms->map_bytes = (size_t)st.st_size;
    ms->offsets = (const uint32_t *)((const uint8_t *)m + sizeof h);
    ms->data = (const uint8_t *)m + sizeof h + ((size_t)h.nblocks + 1) * 4;
    ms->data_bytes = h.data_bytes;
    egdb_slice_init(&ms->slice, h.bm, h.bk, h.wm, h.wk);
    return ms;
}

EgdbSet *egdb_open(const char *dir, char *err)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, ERR_LEN, "cannot read directory %.100s: %s", dir, strerror(errno));
        return NULL;
    }
    EgdbSet *set = calloc(1, sizeof *set);
    if (!set) {
        closedir(d);
        snprintf(err, ERR_LEN, "out of memory");
        return NULL;
    }
    int found = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        int bm, bk, wm, wk, end = 0;
        if (sscanf(ent->d_name, "db-%d-%d-%d-%d.egdb%n", &bm, &bk, &wm, &wk, &end) != 4 ||
            ent->d_name[end] != '\0')
            continue;
        if (bm < 0 || bk < 0 || wm < 0 || wk < 0 || bm + bk + wm + wk > EGDB_MAX_PIECES)
            continue;
        char path[4096], msg[ERR_LEN];
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
        MappedSlice *ms = map_slice(path, msg);
        if (!ms) {
            add_warning(set, msg);
            continue;
        }
        if (ms->slice.bm != bm || ms->slice.bk != bk || ms->slice.wm != wm || ms->slice.wk != wk) {
            snprintf(msg, sizeof msg, "%.100s: header does not match the file name", path);
            add_warning(set, msg);
            munmap((void *)ms->map, ms->map_bytes);
            free(ms);
            continue;
        }
        set->slot[bm][bk][wm][wk] = ms;
        found++;
    }
    closedir(d);
    if (found == 0) {
        snprintf(err, ERR_LEN, "no database files in %.60s%s%.70s", dir,
                 set->warnings[0] ? ": " : "", set->warnings);
        free(set);
        return NULL;
    }
    /* The complete piece count: every slice with both sides present and n pieces exists. */
    set->complete = 1;
    for (int n = 2; n <= EGDB_MAX_PIECES; n++) {
        bool all = true;
        for (int bm = 0; bm <= n && all; bm++)
            for (int bk = 0; bm + bk <= n && all; bk++)
                for (int wm = 0; bm + bk + wm <= n && all; wm++) {
                    int wk = n - bm - bk - wm;
                    if (bm + bk > 0 && wm + wk > 0 && !set->slot[bm][bk][wm][wk])
                        all = false;
                }
        if (!all)
            break;
        set->complete = n;
    }
    return set;
}

void egdb_close(EgdbSet *set)
{
    if (!set)
        return;
    MappedSlice **all = &set->slot[0][0][0][0];
    for (int i = 0; i < SLOT_DIM * SLOT_DIM * SLOT_DIM * SLOT_DIM; i++)
        if (all[i]) {
            munmap((void *)all[i]->map, all[i]->map_bytes);
            free(all[i]);
        }
    free(set);
}

int egdb_complete_pieces(const EgdbSet *s)
{
    return s->complete;
}

const char *egdb_warnings(const EgdbSet *s)
{
    return s->warnings;
}

static EgdbValue probe_stored(const EgdbSet *set, const Board *b);

EgdbValue egdb_resolve(const Board *b, EgdbValue (*stored)(const void *ctx, const Board *b),
                       const void *ctx)
{
    if (!b->pieces[b->side])
        return EGDB_LOSS;
    if (!b->pieces[b->side ^ 1])
        return EGDB_WIN;
    if (!movegen_jumpers(b))
        return stored(ctx, b);
    /* A capture position: the best of its captures, each leading to fewer pieces. */
    MoveList list;
    int n = movegen_generate(b, &RULES_ENGLISH, false, &list);
    bool draw = false, unknown = false;
    for (int i = 0; i < n; i++) {
        Board c = *b;
        board_apply(&c, &list.moves[i]);
        EgdbValue v = egdb_resolve(&c, stored, ctx);
        if (v == EGDB_LOSS)
            return EGDB_WIN;
        draw = draw || v == EGDB_DRAW;
        unknown = unknown || v == EGDB_UNKNOWN;
    }
    return unknown ? EGDB_UNKNOWN : draw ? EGDB_DRAW : EGDB_LOSS;
}

static EgdbValue stored_from_set(const void *ctx, const Board *b)
{
    return probe_stored(ctx, b);
}

EgdbValue egdb_probe(const EgdbSet *set, const Board *b)
{
    return egdb_resolve(b, stored_from_set, set);
}

/* The stored value of B, which has no capture pending. */
static EgdbValue probe_stored(const EgdbSet *set, const Board *b)
{
    Board bb;
    if (b->side == WHITE)
        board_turn_nokey(b, &bb);
    else
        bb = *b;
    if (!bb.pieces[BLACK])
        return EGDB_LOSS;
    if (!bb.pieces[WHITE])
        return EGDB_WIN;
    Bitboard k = bb.kings;
    int bm = bb_popcount(bb.pieces[BLACK] & ~k), bk = bb_popcount(bb.pieces[BLACK] & k);
    int wm = bb_popcount(bb.pieces[WHITE] & ~k), wk = bb_popcount(bb.pieces[WHITE] & k);
    if (bm + bk + wm + wk > EGDB_MAX_PIECES)
        return EGDB_UNKNOWN;
    /* Men on their own crowning row cannot occur in a game; they are not indexed. */
    if ((bb.pieces[BLACK] & ~k & BB_ROW(7)) || (bb.pieces[WHITE] & ~k & BB_ROW(0)))
        return EGDB_UNKNOWN;
    const MappedSlice *ms = set->slot[bm][bk][wm][wk];
    if (!ms)
        return EGDB_UNKNOWN;
    uint64_t i = egdb_index_encode(&ms->slice, &bb);
    uint64_t blk = i / EGDB_BLOCK;
    uint32_t lo = ms->offsets[blk], hi = ms->offsets[blk + 1];
    /* The offsets come from the file, which only had its header checked when it was mapped: a
     * damaged table must not send the probe outside the mapping. */
    if (hi < lo || hi > ms->data_bytes)
        return EGDB_UNKNOWN;
    int v = block_value(ms->data + lo, hi - lo, (uint32_t)(i % EGDB_BLOCK));
    return v < 0 ? EGDB_UNKNOWN : (EgdbValue)v;
}

/* ---- the engine hook ---- */

static void *drv_open(const char *dir, char *err)
{
    return egdb_open(dir, err);
}
static void drv_close(void *h)
{
    egdb_close(h);
}
static int drv_max_pieces(void *h)
{
    return egdb_complete_pieces(h);
}
static EgdbValue drv_probe(void *h, const Board *b)
{
    return egdb_probe(h, b);
}

static const char *drv_warnings(void *h)
{
    return egdb_warnings(h);
}

const EgdbDriver egdb_driver = {drv_open,  drv_close,    drv_max_pieces,
                                drv_probe, drv_warnings, egdb_holds};

bool egdb_holds(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool found = false;
    struct dirent *ent;
    while (!found && (ent = readdir(d)) != NULL)
        found = strncmp(ent->d_name, "db-", 3) == 0 && strstr(ent->d_name, ".egdb") != NULL;
    closedir(d);
    return found;
}
