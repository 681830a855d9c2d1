/*
 * book.c - the opening book's format: reading and checking, probing, choosing, writing, merging
 * (see book.h; the byte layout is in docs/book.md).
 *
 * The reader trusts nothing: every size is checked against the header before an array is read,
 * the checksum before any record, and each record's fields before the record is used, so a
 * damaged file is refused with the offset of its first fault. Moves are kept in the turned
 * frame of their position and matched against the legal moves of the real board when probed,
 * so even a book that passed the checks can never make the engine play an illegal move.
 */
#include "book.h"

#include "bitboard.h"
#include "rng.h"
#include "score.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char BOOK_MAGIC[8] = {'P', 'O', 'N', 'D', 'B', 'O', 'O', 'K'};

/* No book built in, unless the generated build/gen/book_default.c (mk/book.mk) is linked: its
 * definitions replace these weak ones. A program made without it (the HackerRank single file,
 * scripts/amalgamate.sh) then has none. */
__attribute__((weak)) const unsigned char book_default_data[1] = {0};
__attribute__((weak)) const size_t book_default_size = 0;

/* ---- keys -------------------------------------------------------------------------------- */

void book_key(const Board *b, BookKey *k)
{
    if (b->side == BLACK) {
        k->us = b->pieces[BLACK];
        k->them = b->pieces[WHITE];
        k->kings = b->kings;
    } else {
        k->us = bb_turn(b->pieces[WHITE]);
        k->them = bb_turn(b->pieces[BLACK]);
        k->kings = bb_turn(b->kings);
    }
}

void book_key_board(const BookKey *k, Board *b)
{
    board_clear(b, BLACK);
    for (int sq = 0; sq < SQUARE_NB; sq++) {
        uint32_t m = 1u << sq;
        if (k->us & m)
            board_set(b, sq, BLACK, (k->kings & m) != 0);
        else if (k->them & m)
            board_set(b, sq, WHITE, (k->kings & m) != 0);
    }
}

int book_key_cmp(const BookKey *a, const BookKey *b)
{
    if (a->us != b->us)
        return a->us < b->us ? -1 : 1;
    if (a->them != b->them)
        return a->them < b->them ? -1 : 1;
    if (a->kings != b->kings)
        return a->kings < b->kings ? -1 : 1;
    return 0;
}

/* ---- reading ----------------------------------------------------------------------------- */

static Book *fail(Book *bk, char *err, const char *source, size_t offset, const char *what)
{
    snprintf(err, ERR_LEN, "%.60s: offset %zu: %.70s", source, offset, what);
    book_free(bk);
    return NULL;
}

/* Whether K could be a position of English checkers with a move to make. */
static const char *key_problem(const BookKey *k)
{
    if (k->us & k->them)
        return "a square holds pieces of both sides";
    if (k->kings & ~(k->us | k->them))
        return "a king on an empty square";
    if (!k->us)
        return "the side to move has no pieces";
    if ((k->us & ~k->kings) & 0xF0000000u)
        return "a man of the side to move on its crowning row";
    if ((k->them & ~k->kings) & 0x0000000Fu)
        return "a man of the opponent on its crowning row";
    if (__builtin_popcount(k->us) > 12 || __builtin_popcount(k->them) > 12)
        return "more than 12 pieces a side";
    return NULL;
}

Book *book_parse(const uint8_t *data, size_t len, const char *source, char *err)
{
    Book *bk = calloc(1, sizeof *bk);
    if (!bk) {
        snprintf(err, ERR_LEN, "%.60s: out of memory", source);
        return NULL;
    }
    if (len < BOOK_HEADER + 4)
        return fail(bk, err, source, 0, "too short for a book (no header)");
    if (memcmp(data, BOOK_MAGIC, sizeof BOOK_MAGIC) != 0)
        return fail(bk, err, source, 0, "not a Ponder book (bad magic)");
    uint32_t version = util_get_u32(data + 8);
    if (version != BOOK_VERSION) {
        char what[80];
        snprintf(what, sizeof what, "format version %u, this program reads %d", version,
                 BOOK_VERSION);
        return fail(bk, err, source, 8, what);
    }
    uint32_t npos = util_get_u32(data + 12), nmoves = util_get_u32(data + 16);
    if (util_get_u32(data + 20) != BOOK_POS_BYTES || util_get_u32(data + 24) != BOOK_MOVE_BYTES)
        return fail(bk, err, source, 20, "unexpected record sizes");
    if (util_get_u32(data + 28) != 0 || util_get_u32(data + 56) != 0 ||
        util_get_u32(data + 60) != 0)
        return fail(bk, err, source, 28, "reserved header bytes are not zero");
    const char *name = (const char *)data + 32;
    size_t nl = strnlen(name, BOOK_NAME_LEN);
    if (nl == BOOK_NAME_LEN)
        return fail(bk, err, source, 32, "the name is not NUL-terminated");
    for (size_t i = 0; i < nl; i++)
        if (name[i] < 32 || name[i] > 126)
            return fail(bk, err, source, 32 + i, "the name is not printable ASCII");
    memcpy(bk->name, name, nl + 1);
    uint64_t want = (uint64_t)BOOK_HEADER + (uint64_t)npos * BOOK_POS_BYTES +
                    (uint64_t)nmoves * BOOK_MOVE_BYTES + 4;
    if (want != len) {
        char what[120];
        snprintf(what, sizeof what, "%zu bytes, but %u positions and %u moves need %llu", len, npos,
                 nmoves, (unsigned long long)want);
        return fail(bk, err, source, 12, what);
    }
    if (util_fnv1a(data, len - 4, UTIL_FNV_BASIS) != util_get_u32(data + len - 4))
        return fail(bk, err, source, len - 4, "checksum mismatch (file damaged?)");
    bk->npos = npos;
    bk->nmoves = nmoves;
    bk->pos = malloc((npos ? npos : 1) * sizeof *bk->pos);
    bk->moves = malloc((nmoves ? nmoves : 1) * sizeof *bk->moves);
    if (!bk->pos || !bk->moves)
        return fail(bk, err, source, 0, "out of memory");

    const uint8_t *p = data + BOOK_HEADER;
    uint32_t next = 0;
    for (uint32_t i = 0; i < npos; i++, p += BOOK_POS_BYTES) {
        size_t off = (size_t)(p - data);
        BookPos *bp = &bk->pos[i];
        bp->key.us = util_get_u32(p);
        bp->key.them = util_get_u32(p + 4);
        bp->key.kings = util_get_u32(p + 8);
        bp->first = util_get_u32(p + 12);
        bp->n = util_get_u16(p + 16);
        const char *why = key_problem(&bp->key);
        if (why)
            return fail(bk, err, source, off, why);
        if (i > 0 && book_key_cmp(&bk->pos[i - 1].key, &bp->key) >= 0)
            return fail(bk, err, source, off, "positions out of order or repeated");
        if (util_get_u16(p + 18) != 0)
            return fail(bk, err, source, off + 18, "reserved bytes are not zero");
        if (bp->n < 1 || bp->n > BOOK_MAX_MOVES)
            return fail(bk, err, source, off + 16, "a position with no moves or too many");
        if (bp->first != next || bp->n > nmoves - next)
            return fail(bk, err, source, off + 12, "moves out of place");
        next += bp->n;
    }
    if (next != nmoves)
        return fail(bk, err, source, (size_t)(p - data), "moves that belong to no position");
    for (uint32_t i = 0; i < npos; i++) {
        const BookPos *bp = &bk->pos[i];
        for (uint32_t j = bp->first; j < bp->first + bp->n; j++, p += BOOK_MOVE_BYTES) {
            size_t off = (size_t)(p - data);
            BookMove *m = &bk->moves[j];
            m->from = p[0];
            m->to = p[1];
            m->depth = p[2];
            m->flags = p[3];
            m->captured = util_get_u32(p + 4);
            m->score = (int16_t)util_get_u16(p + 8);
            m->count = util_get_u32(p + 12);
            if (m->from >= SQUARE_NB || m->to >= SQUARE_NB || !(bp->key.us >> m->from & 1))
                return fail(bk, err, source, off, "a move from a square without a mover's piece");
            if (m->flags != 0 || util_get_u16(p + 10) != 0)
                return fail(bk, err, source, off + 3, "reserved bytes are not zero");
            if (m->captured & ~bp->key.them)
                return fail(bk, err, source, off + 4, "a move captures what is not there");
            if (m->score > SCORE_WIN || m->score < -SCORE_WIN)
                return fail(bk, err, source, off + 8, "a score out of range");
        }
    }
    return bk;
}

Book *book_load(const char *path, char *err)
{
    char msg[ERR_LEN];
    size_t len = 0;
    uint8_t *data = util_read_bytes(path, (size_t)1 << 31, &len, msg, sizeof msg);
    if (!data) {
        snprintf(err, ERR_LEN, "cannot read %.60s: %.80s", path, msg);
        return NULL;
    }
    Book *bk = book_parse(data, len, path, err);
    free(data);
    return bk;
}

void book_free(Book *bk)
{
    if (!bk)
        return;
    free(bk->pos);
    free(bk->moves);
    free(bk);
}

/* ---- writing ----------------------------------------------------------------------------- */

uint8_t *book_serialize(const Book *bk, size_t *len)
{
    size_t n = BOOK_HEADER + bk->npos * BOOK_POS_BYTES + bk->nmoves * BOOK_MOVE_BYTES + 4;
    uint8_t *out = calloc(1, n), *p;
    if (!out)
        return NULL;
    memcpy(out, BOOK_MAGIC, sizeof BOOK_MAGIC);
    util_put_u32(out + 8, BOOK_VERSION);
    util_put_u32(out + 12, (uint32_t)bk->npos);
    util_put_u32(out + 16, (uint32_t)bk->nmoves);
    util_put_u32(out + 20, BOOK_POS_BYTES);
    util_put_u32(out + 24, BOOK_MOVE_BYTES);
    size_t nl = strnlen(bk->name, BOOK_NAME_LEN - 1);
    memcpy(out + 32, bk->name, nl);
    p = out + BOOK_HEADER;
    for (size_t i = 0; i < bk->npos; i++, p += BOOK_POS_BYTES) {
        const BookPos *bp = &bk->pos[i];
        util_put_u32(p, bp->key.us);
        util_put_u32(p + 4, bp->key.them);
        util_put_u32(p + 8, bp->key.kings);
        util_put_u32(p + 12, bp->first);
        util_put_u16(p + 16, (uint16_t)bp->n);
    }
    for (size_t j = 0; j < bk->nmoves; j++, p += BOOK_MOVE_BYTES) {
        const BookMove *m = &bk->moves[j];
        p[0] = m->from;
        p[1] = m->to;
        p[2] = m->depth;
        p[3] = 0;
        util_put_u32(p + 4, m->captured);
        util_put_u16(p + 8, (uint16_t)m->score);
        util_put_u32(p + 12, m->count);
    }
    util_put_u32(p, util_fnv1a(out, n - 4, UTIL_FNV_BASIS));
    *len = n;
    return out;
}

bool book_save(const Book *bk, const char *path, char *err)
{
    size_t len;
    uint8_t *data = book_serialize(bk, &len);
    if (!data) {
        snprintf(err, ERR_LEN, "out of memory writing %.100s", path);
        return false;
    }
    bool ok = util_write_file(path, data, len, err, ERR_LEN);
    free(data);
    return ok;
}

/* ---- probing ----------------------------------------------------------------------------- */

static long find_key(const Book *bk, const BookKey *k)
{
    size_t lo = 0, hi = bk->npos;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = book_key_cmp(&bk->pos[mid].key, k);
        if (c == 0)
            return (long)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

long book_find(const Book *bk, const Board *b)
{
    BookKey k;
    book_key(b, &k);
    return find_key(bk, &k);
}

int book_probe(const Book *bk, const Board *b, BookHit *out, int max)
{
    long i = bk ? book_find(bk, b) : -1;
    if (i < 0 || max <= 0)
        return 0;
    MoveList list;
    movegen_generate(b, &RULES_ENGLISH, false, &list);
    bool white = b->side == WHITE;
    int n = 0;
    const BookPos *bp = &bk->pos[i];
    for (uint32_t j = bp->first; j < bp->first + bp->n && n < max; j++) {
        const BookMove *bm = &bk->moves[j];
        for (int k = 0; k < list.count; k++) {
            const Move *m = &list.moves[k];
            int from = white ? 31 - m->from : m->from, to = white ? 31 - m->to : m->to;
            uint32_t cap = white ? bb_turn(m->captured) : m->captured;
            if (from == bm->from && to == bm->to && cap == bm->captured) {
                BookHit *h = &out[n++];
                h->move = *m;
                h->score = bm->score;
                h->depth = bm->depth;
                h->count = bm->count;
                break;
            }
        }
    }
    /* Best first (insertion sort: a handful of moves). */
    for (int a = 1; a < n; a++) {
        BookHit h = out[a];
        int c = a;
        while (c > 0 && out[c - 1].score < h.score) {
            out[c] = out[c - 1];
            c--;
        }
        out[c] = h;
    }
    return n;
}

bool book_choose(const Book *bk, const Board *b, const BookChoice *c, BookHit *out)
{
    BookHit hits[BOOK_MAX_MOVES];
    int n = book_probe(bk, b, hits, BOOK_MAX_MOVES);
    if (n == 0)
        return false;
    int pick = 0;
    if (c && c->margin > 0 && c->rng && !score_is_decisive(hits[0].score)) {
        /* Weight margin + 1 - (best - score) for every move within the margin: the best move
         * weighs most, a move at the margin's edge least. */
        uint64_t total = 0, w[BOOK_MAX_MOVES];
        for (int i = 0; i < n; i++) {
            int drop = hits[0].score - hits[i].score;
            w[i] = drop <= c->margin ? (uint64_t)(c->margin + 1 - drop) : 0;
            total += w[i];
        }
        uint64_t r = rng_splitmix64(c->rng) % total;
        while (r >= w[pick]) {
            r -= w[pick];
            pick++;
        }
    }
    *out = hits[pick];
    return true;
}

/* ---- merging ----------------------------------------------------------------------------- */

bool book_merge(Book *a, const Book *b, char *err)
{
    size_t maxpos = a->npos + b->npos, maxmoves = a->nmoves + b->nmoves;
    BookPos *pos = malloc((maxpos ? maxpos : 1) * sizeof *pos);
    BookMove *moves = malloc((maxmoves ? maxmoves : 1) * sizeof *moves);
    if (!pos || !moves) {
        free(pos);
        free(moves);
        snprintf(err, ERR_LEN, "out of memory merging books");
        return false;
    }
    size_t i = 0, j = 0, np = 0, nm = 0;
    while (i < a->npos || j < b->npos) {
        int c = i == a->npos ? 1 : j == b->npos ? -1 : book_key_cmp(&a->pos[i].key, &b->pos[j].key);
        BookPos *out = &pos[np++];
        out->first = (uint32_t)nm;
        if (c < 0 || c > 0) {
            const Book *src = c < 0 ? a : b;
            const BookPos *sp = c < 0 ? &a->pos[i++] : &b->pos[j++];
            out->key = sp->key;
            out->n = sp->n;
            memcpy(&moves[nm], &src->moves[sp->first], sp->n * sizeof *moves);
            nm += sp->n;
            continue;
        }
        const BookPos *pa = &a->pos[i++], *pb = &b->pos[j++];
        out->key = pa->key;
        memcpy(&moves[nm], &a->moves[pa->first], pa->n * sizeof *moves);
        uint32_t n = pa->n;
        for (uint32_t k = pb->first; k < pb->first + pb->n; k++) {
            const BookMove *mb = &b->moves[k];
            uint32_t t = 0;
            while (t < n && !(moves[nm + t].from == mb->from && moves[nm + t].to == mb->to &&
                              moves[nm + t].captured == mb->captured))
                t++;
            if (t < n) {
                BookMove *ma = &moves[nm + t];
                if (mb->depth > ma->depth)
                    *ma = *mb;
                else if (mb->depth == ma->depth && mb->count > ma->count)
                    ma->count = mb->count;
            } else if (n == BOOK_MAX_MOVES) {
                free(pos);
                free(moves);
                snprintf(err, ERR_LEN, "a position would hold more than %d moves", BOOK_MAX_MOVES);
                return false;
            } else {
                moves[nm + n++] = *mb;
            }
        }
        out->n = n;
        nm += n;
    }
    free(a->pos);
    free(a->moves);
    a->pos = pos;
    a->moves = moves;
    a->npos = np;
    a->nmoves = nm;
    return true;
}
