/*
 * trainfile.c - reading and writing training-position files (see trainfile.h for the format).
 *
 * Encoding is done byte by byte, so the files are the same on every machine. The reader is
 * strict: every block is checked, and the first fault ends the read with a message that names
 * the file, the block and its byte offset, so a damaged or foreign file is never half-used.
 * Sampling openings streams the file (it may hold millions of records), keeps the few bytes of
 * each candidate, and sorts them to keep each position once.
 */
#include "trainfile.h"

#include "bitboard.h"
#include "movegen.h"
#include "rng.h"
#include "score.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t MAGIC[8] = {'P', 'O', 'N', 'D', 'T', 'R', 'N', 0};

void trainfile_header(uint8_t out[TRAIN_BLOCK])
{
    memset(out, 0, TRAIN_BLOCK);
    memcpy(out, MAGIC, sizeof MAGIC);
    util_put_u16(out + 8, TRAIN_VERSION);
    util_put_u16(out + 10, TRAIN_BLOCK);
}

void trainfile_encode(const TrainRecord *r, uint8_t out[TRAIN_BLOCK])
{
    int score = r->score < -SCORE_WIN ? -SCORE_WIN : r->score > SCORE_WIN ? SCORE_WIN : r->score;
    int ply = r->ply < 0 ? 0 : r->ply > 255 ? 255 : r->ply;
    util_put_u32(out, r->board.pieces[BLACK]);
    util_put_u32(out + 4, r->board.pieces[WHITE]);
    util_put_u32(out + 8, r->board.kings);
    util_put_u16(out + 12, (uint16_t)(int16_t)score);
    out[14] = (uint8_t)((r->board.side & 1) | ((unsigned)r->result << 1));
    out[15] = (uint8_t)ply;
}

/* The reason a header block is unusable, or NULL. */
static const char *header_fault(const uint8_t *in, char *buf, size_t size)
{
    unsigned version = util_get_u16(in + 8), block = util_get_u16(in + 10);
    if (version != TRAIN_VERSION) {
        snprintf(buf, size, "format version %u, this program reads version %d", version,
                 TRAIN_VERSION);
        return buf;
    }
    if (block != TRAIN_BLOCK) {
        snprintf(buf, size, "block size %u in the header, expected %d", block, TRAIN_BLOCK);
        return buf;
    }
    if (util_get_u32(in + 12) != 0)
        return "reserved header bytes 12-15 are not zero";
    return NULL;
}

TrainBlockKind trainfile_decode(const uint8_t in[TRAIN_BLOCK], TrainRecord *r, char *err)
{
    char buf[ERR_LEN];
    if (memcmp(in, MAGIC, sizeof MAGIC) == 0) {
        const char *fault = header_fault(in, buf, sizeof buf);
        if (fault) {
            snprintf(err, ERR_LEN, "bad header: %.120s", fault);
            return TRAIN_BAD;
        }
        return TRAIN_HEADER;
    }
    Bitboard black = util_get_u32(in), white = util_get_u32(in + 4), kings = util_get_u32(in + 8);
    int score = (int16_t)util_get_u16(in + 12);
    unsigned flags = in[14];
    const char *fault = NULL;
    if (black & white)
        fault = "a square holds a piece of each colour";
    else if (kings & ~(black | white))
        fault = "a king on an empty square";
    else if (black & ~kings & BB_ROW(7))
        fault = "a Black man on White's back row";
    else if (white & ~kings & BB_ROW(0))
        fault = "a White man on Black's back row";
    else if (bb_popcount(black) > 12 || bb_popcount(white) > 12)
        fault = "more than 12 pieces of one colour";
    else if (black == 0 || white == 0)
        fault = "a side with no pieces (the game was over)";
    else if (score < -SCORE_WIN || score > SCORE_WIN) {
        snprintf(buf, sizeof buf, "score %d outside +-%d", score, SCORE_WIN);
        fault = buf;
    } else if (flags >> 3) {
        snprintf(buf, sizeof buf, "unknown flag bits 0x%02x in byte 14", flags & ~7u);
        fault = buf;
    } else if (((flags >> 1) & 3) == 3)
        fault = "result code 3 (0 White won, 1 draw, 2 Black won)";
    if (fault) {
        snprintf(err, ERR_LEN, "bad record: %.120s", fault);
        return TRAIN_BAD;
    }
    board_clear(&r->board, (int)(flags & 1));
    r->board.pieces[BLACK] = black;
    r->board.pieces[WHITE] = white;
    r->board.kings = kings;
    r->board.key = board_compute_key(&r->board);
    r->result = (TrainResult)((flags >> 1) & 3);
    r->score = score;
    r->ply = in[15];
    return TRAIN_RECORD;
}

bool trainfile_sniff(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    uint8_t head[sizeof MAGIC];
    bool yes =
        fread(head, 1, sizeof head, f) == sizeof head && memcmp(head, MAGIC, sizeof MAGIC) == 0;
    fclose(f);
    return yes;
}

bool trainfile_open(TrainReader *rd, const char *path, char *err)
{
    memset(rd, 0, sizeof *rd);
    snprintf(rd->path, sizeof rd->path, "%s", path);
    rd->f = fopen(path, "rb");
    if (!rd->f) {
        snprintf(err, ERR_LEN, "%.100s: %s", path, strerror(errno));
        return false;
    }
    return true;
}

int trainfile_next(TrainReader *rd, TrainRecord *r, char *err)
{
    for (;;) {
        uint8_t block[TRAIN_BLOCK];
        uint64_t offset = rd->block * TRAIN_BLOCK;
        size_t got = fread(block, 1, sizeof block, rd->f);
        if (got == 0 && !ferror(rd->f)) {
            if (rd->block == 0) {
                snprintf(err, ERR_LEN, "%.100s: empty file (not a training-position file)",
                         rd->path);
                return -1;
            }
            return 0;
        }
        if (ferror(rd->f)) {
            snprintf(err, ERR_LEN, "%.100s: read error at byte %llu: %s", rd->path,
                     (unsigned long long)offset, strerror(errno));
            return -1;
        }
        if (got < sizeof block && rd->block == 0 &&
            memcmp(block, MAGIC, got < sizeof MAGIC ? got : sizeof MAGIC) != 0) {
            snprintf(err, ERR_LEN,
                     "%.60s: not a training-position file (it does not start with the "
                     "header `ponder selfplay' writes)",
                     rd->path);
            return -1;
        }
        if (got < sizeof block) {
            snprintf(err, ERR_LEN,
                     "%.100s: truncated: the file ends %zu bytes into block %llu (byte %llu)",
                     rd->path, got, (unsigned long long)rd->block + 1, (unsigned long long)offset);
            return -1;
        }
        char msg[ERR_LEN];
        TrainBlockKind kind = trainfile_decode(block, r, msg);
        rd->block++;
        /* A first block without the magic: some other kind of file, whatever its bytes would
         * mean as a record. */
        bool foreign = rd->block == 1 && memcmp(block, MAGIC, sizeof MAGIC) != 0;
        if (foreign) {
            snprintf(err, ERR_LEN,
                     "%.60s: not a training-position file (it does not start with the "
                     "header `ponder selfplay' writes)",
                     rd->path);
            return -1;
        }
        if (kind == TRAIN_BAD) {
            char full[512];
            snprintf(full, sizeof full, "%.100s: block %llu (byte %llu): %s", rd->path,
                     (unsigned long long)rd->block, (unsigned long long)offset, msg);
            snprintf(err, ERR_LEN, "%.159s", full);
            return -1;
        }
        if (kind == TRAIN_RECORD) {
            rd->records++;
            return 1;
        }
    }
}

void trainfile_close(TrainReader *rd)
{
    if (rd->f)
        fclose(rd->f);
    rd->f = NULL;
}

bool trainfile_load(const char *path, TrainRecord **out, size_t *n, char *err)
{
    TrainReader rd;
    if (!trainfile_open(&rd, path, err))
        return false;
    size_t cap = *n;
    bool ok = true;
    for (;;) {
        TrainRecord r;
        int got = trainfile_next(&rd, &r, err);
        if (got <= 0) {
            ok = got == 0;
            break;
        }
        TrainRecord *v = util_grow(*out, &cap, *n + 1, sizeof *v, 4096);
        if (!v) {
            snprintf(err, ERR_LEN, "%.100s: out of memory after %zu records", path, *n);
            ok = false;
            break;
        }
        *out = v;
        (*out)[(*n)++] = r;
    }
    trainfile_close(&rd);
    return ok;
}

/* A candidate for trainfile_openings: a record's position, its ply and where it was. */
typedef struct {
    uint32_t black, white, kings; /* the pieces (bit i = square i+1) */
    uint8_t side, ply;            /* side to move, plies from the start */
    uint64_t block;               /* its block in the file (1-based) */
} Candidate;

/* By position, then by place in the file: the first record of a position sorts first. */
static int candidate_cmp(const void *pa, const void *pb)
{
    const Candidate *a = pa, *b = pb;
    if (a->black != b->black)
        return a->black < b->black ? -1 : 1;
    if (a->white != b->white)
        return a->white < b->white ? -1 : 1;
    if (a->kings != b->kings)
        return a->kings < b->kings ? -1 : 1;
    if (a->side != b->side)
        return a->side < b->side ? -1 : 1;
    return a->block < b->block ? -1 : a->block > b->block;
}

int trainfile_openings(const char *path, int lo, int hi, int max_score, uint64_t seed, int limit,
                       Opening **out, char *err)
{
    TrainReader rd;
    if (!trainfile_open(&rd, path, err))
        return -1;
    Candidate *v = NULL;
    size_t n = 0, cap = 0;
    TrainRecord r;
    int got;
    while ((got = trainfile_next(&rd, &r, err)) == 1) {
        if (r.ply < lo || r.ply > hi || r.score < -max_score || r.score > max_score)
            continue;
        Candidate *nv = util_grow(v, &cap, n + 1, sizeof *v, 1 << 16);
        if (!nv) {
            snprintf(err, ERR_LEN, "%.100s: out of memory after %zu positions", path, n);
            got = -1;
            break;
        }
        v = nv;
        v[n++] = (Candidate){(uint32_t)r.board.pieces[BLACK],
                             (uint32_t)r.board.pieces[WHITE],
                             (uint32_t)r.board.kings,
                             (uint8_t)r.board.side,
                             (uint8_t)r.ply,
                             rd.block};
    }
    trainfile_close(&rd);
    if (got < 0) {
        free(v);
        return -1;
    }

    /* Each position once, then a shuffle (Fisher-Yates) that depends on SEED alone. */
    size_t m = 0;
    if (n > 0) {
        qsort(v, n, sizeof *v, candidate_cmp);
        for (size_t i = 1; i < n; i++)
            if (v[i].black != v[m].black || v[i].white != v[m].white || v[i].kings != v[m].kings ||
                v[i].side != v[m].side)
                v[++m] = v[i];
        m++;
    }
    uint64_t rng = rng_mix64(seed);
    for (size_t i = m; i > 1; i--) {
        size_t j = (size_t)(rng_splitmix64(&rng) % i);
        Candidate t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }

    Opening *list = NULL;
    int count = 0;
    size_t cap_list = 0;
    const char *slash = strrchr(path, '/');
    const char *file = slash ? slash + 1 : path;
    bool ok = true;
    for (size_t i = 0; i < m && count < limit; i++) {
        Board b;
        board_clear(&b, v[i].side);
        b.pieces[BLACK] = v[i].black;
        b.pieces[WHITE] = v[i].white;
        b.kings = v[i].kings;
        b.key = board_compute_key(&b);
        MoveList moves;
        if (movegen_generate(&b, &RULES_ENGLISH, false, &moves) == 0)
            continue; /* a record of a lost position: nothing to play from */
        Opening *nl = util_grow(list, &cap_list, (size_t)count + 1, sizeof *list, 1024);
        if (!nl) {
            snprintf(err, ERR_LEN, "%.100s: out of memory after %d positions", path, count);
            ok = false;
            break;
        }
        list = nl;
        Opening *o = &list[count++];
        memset(o, 0, sizeof *o);
        snprintf(o->name, sizeof o->name, "%.32s block %llu", file, (unsigned long long)v[i].block);
        o->start = b;
        o->earlier_plies = v[i].ply;
    }
    free(v);
    if (ok && count == 0) {
        snprintf(err, ERR_LEN,
                 "%.60s: no position from plies %d-%d with a search score within %d of even", path,
                 lo, hi, max_score);
        ok = false;
    }
    if (!ok) {
        free(list);
        return -1;
    }
    *out = list;
    return count;
}
