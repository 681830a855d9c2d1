/*
 * test_book.c - the opening book: canonical keys, the file's round trip and every check of the
 * reader, probing only legal moves, the choice of a move with and without variety, merging,
 * and the builder: the same book whatever the number of threads, and a resumed build equal to
 * one that was never stopped.
 */
#include "book_build.h"
#include "check.h"
#include "notation.h"

#include <stdio.h>
#include <unistd.h>

static void fen(const char *text, Board *b)
{
    ParseError e;
    if (!notation_parse_fen(text, b, &e)) {
        printf("  bad test FEN %s\n", text);
        exit(1);
    }
}

/* A small book by hand: the start position with three moves, and one White-to-move position. */
static Book *sample(void)
{
    Book *bk = calloc(1, sizeof *bk);
    bk->pos = calloc(2, sizeof *bk->pos);
    bk->moves = calloc(5, sizeof *bk->moves);
    snprintf(bk->name, sizeof bk->name, "test");
    Board start, after;
    board_start(&start);
    MoveList list;
    movegen_generate(&start, &RULES_ENGLISH, false, &list);
    after = start;
    board_apply(&after, &list.moves[0]);
    BookKey ks, ka;
    book_key(&start, &ks);
    book_key(&after, &ka);
    int first = book_key_cmp(&ks, &ka) < 0 ? 0 : 1;
    bk->pos[first].key = ks;
    bk->pos[1 - first].key = ka;
    bk->npos = 2;
    /* Moves of the start position: the first three legal ones, scores 5, 30, -10. */
    int scores[3] = {5, 30, -10};
    size_t m = 0;
    for (int p = 0; p < 2; p++) {
        bk->pos[p].first = (uint32_t)m;
        Board b;
        book_key_board(&bk->pos[p].key, &b);
        MoveList l;
        movegen_generate(&b, &RULES_ENGLISH, false, &l);
        int n = p == first ? 3 : 2;
        for (int i = 0; i < n; i++, m++) {
            bk->moves[m].from = l.moves[i].from;
            bk->moves[m].to = l.moves[i].to;
            bk->moves[m].captured = l.moves[i].captured;
            bk->moves[m].score = (int16_t)(p == first ? scores[i] : -i);
            bk->moves[m].depth = (uint8_t)(10 + i);
            bk->moves[m].count = (uint32_t)i;
        }
        bk->pos[p].n = (uint32_t)n;
    }
    bk->nmoves = m;
    return bk;
}

static void test_keys(void)
{
    Board a, b, back;
    fen("B:W18,K25,30:B5,9,K14", &a);
    /* The same position turned half round with colours swapped and White to move. */
    fen("W:B15,K8,3:W28,24,K19", &b);
    BookKey ka, kb;
    book_key(&a, &ka);
    book_key(&b, &kb);
    CHECK(book_key_cmp(&ka, &kb) == 0);
    book_key_board(&ka, &back);
    CHECK(board_equal(&back, &a));
    CHECK(back.key == board_compute_key(&back));
    fen("W:W18,K25,30:B5,9,K14", &b); /* same pieces, the other side to move */
    book_key(&b, &kb);
    CHECK(book_key_cmp(&ka, &kb) != 0);
}

static void test_round_trip(void)
{
    Book *bk = sample();
    size_t len;
    uint8_t *data = book_serialize(bk, &len);
    CHECK(len == BOOK_HEADER + 2 * BOOK_POS_BYTES + 5 * BOOK_MOVE_BYTES + 4);
    char err[ERR_LEN] = "";
    Book *back = book_parse(data, len, "mem", err);
    CHECK(back != NULL);
    if (back) {
        CHECK(back->npos == 2 && back->nmoves == 5);
        CHECK_STR(back->name, "test");
        size_t len2;
        uint8_t *again = book_serialize(back, &len2);
        CHECK(len2 == len && memcmp(again, data, len) == 0);
        free(again);
    }
    /* Through a file. */
    char path[64];
    snprintf(path, sizeof path, "/tmp/ponder-test-book-%ld.pbk", (long)getpid());
    CHECK(book_save(bk, path, err));
    Book *f = book_load(path, err);
    CHECK(f != NULL && f->nmoves == 5);
    book_free(f);
    remove(path);
    CHECK(book_load(path, err) == NULL && strstr(err, "cannot read") != NULL);
    book_free(back);
    book_free(bk);
    free(data);
}

/* Damages a copy of DATA at OFFSET (XOR with X), fixes the checksum unless told not to, and
 * checks the reader's message holds WANT. */
static void damaged(const uint8_t *data, size_t len, size_t offset, uint8_t x, bool fix,
                    const char *want)
{
    uint8_t *d = malloc(len);
    memcpy(d, data, len);
    d[offset] ^= x;
    if (fix) {
        uint32_t h = 2166136261u;
        for (size_t i = 0; i < len - 4; i++)
            h = (h ^ d[i]) * 16777619u;
        d[len - 4] = (uint8_t)h;
        d[len - 3] = (uint8_t)(h >> 8);
        d[len - 2] = (uint8_t)(h >> 16);
        d[len - 1] = (uint8_t)(h >> 24);
    }
    char err[ERR_LEN] = "";
    Book *bk = book_parse(d, len, "b.pbk", err);
    CHECK(bk == NULL);
    if (!strstr(err, want)) {
        printf("  offset %zu: got \"%s\", expected \"%s\"\n", offset, err, want);
        check_failed++;
    }
    book_free(bk);
    free(d);
}

static void test_damage(void)
{
    Book *bk = sample();
    size_t len;
    uint8_t *data = book_serialize(bk, &len);
    char err[ERR_LEN];
    CHECK(book_parse(data, 10, "b.pbk", err) == NULL && strstr(err, "too short"));
    CHECK(book_parse(data, len - 1, "b.pbk", err) == NULL && strstr(err, "b.pbk: offset 12:"));
    damaged(data, len, 0, 1, false, "offset 0: not a Ponder book");
    damaged(data, len, 8, 2, false, "format version 3");
    damaged(data, len, 100, 1, false, "checksum mismatch");
    damaged(data, len, 20, 1, true, "record sizes");
    damaged(data, len, 33, 0x80, true, "printable");
    size_t p0 = BOOK_HEADER, m0 = BOOK_HEADER + 2 * BOOK_POS_BYTES;
    /* Put one of the mover's men on the opponent's pieces too. */
    uint8_t *d = malloc(len);
    memcpy(d, data, len);
    damaged(data, len, p0 + 4, d[p0] & 0xF ? d[p0] & 0xF : 1, true, "");
    free(d);
    damaged(data, len, p0 + 16, 0xFF, true, "offset 76: moves out of place"); /* move count */
    damaged(data, len, p0 + 18, 1, true, "offset 82: reserved");
    damaged(data, len, m0 + 3, 1, true, "reserved bytes");
    damaged(data, len, m0 + 0, 31, true, "without a mover's piece");
    damaged(data, len, m0 + 9, 0x7F, true, "score out of range");
    damaged(data, len, BOOK_HEADER + BOOK_POS_BYTES + 2, 0xFF, true, ""); /* order or pieces */
    book_free(bk);
    free(data);
}

static void test_probe_and_choose(void)
{
    Book *bk = sample();
    Board b;
    board_start(&b);
    BookHit hits[BOOK_MAX_MOVES];
    int n = book_probe(bk, &b, hits, BOOK_MAX_MOVES);
    CHECK(n == 3);
    CHECK(hits[0].score == 30 && hits[1].score == 5 && hits[2].score == -10);
    MoveList list;
    movegen_generate(&b, &RULES_ENGLISH, false, &list);
    for (int i = 0; i < n; i++) {
        bool legal = false;
        for (int k = 0; k < list.count; k++)
            legal |= move_same(&hits[i].move, &list.moves[k], false);
        CHECK(legal);
    }
    /* The White-to-move position: its moves come back in White's real squares. */
    Board w = b;
    board_apply(&w, &list.moves[0]);
    n = book_probe(bk, &w, hits, BOOK_MAX_MOVES);
    CHECK(n == 2);
    MoveList wl;
    movegen_generate(&w, &RULES_ENGLISH, false, &wl);
    for (int i = 0; i < n; i++) {
        bool legal = false;
        for (int k = 0; k < wl.count; k++)
            legal |= move_same(&hits[i].move, &wl.moves[k], false);
        CHECK(legal && hits[i].move.from >= 20);
    }
    BookHit h;
    BookChoice best = {0, NULL};
    CHECK(book_choose(bk, &b, &best, &h) && h.score == 30);
    uint64_t rng = 7;
    BookChoice wide = {39, &rng};
    int seen[3] = {0, 0, 0};
    for (int i = 0; i < 2000; i++) {
        CHECK(book_choose(bk, &b, &wide, &h));
        seen[h.score == 30 ? 0 : h.score == 5 ? 1 : 2]++;
    }
    /* Weights 40 and 15 for the moves within 39 of the best; the one 40 below never. */
    CHECK(seen[2] == 0 && seen[1] > 300 && seen[0] > seen[1] * 2);
    Board other;
    fen("B:W18:B5", &other);
    CHECK(!book_choose(bk, &other, &best, &h));
    book_free(bk);
}

static void test_merge(void)
{
    Book *a = sample(), *b = sample();
    /* B: the start position's second move searched deeper with another score, one move less
     * in the other position, and a new position. */
    Board start;
    board_start(&start);
    long i = book_find(b, &start);
    CHECK(i >= 0);
    BookMove *m = &b->moves[b->pos[i].first + 1];
    m->depth = 40;
    m->score = -3;
    char err[ERR_LEN];
    CHECK(book_merge(a, b, err));
    CHECK(a->npos == 2 && a->nmoves == 5);
    BookHit hits[BOOK_MAX_MOVES];
    int n = book_probe(a, &start, hits, BOOK_MAX_MOVES);
    CHECK(n == 3);
    bool found = false;
    for (int k = 0; k < n; k++)
        found |= hits[k].depth == 40 && hits[k].score == -3;
    CHECK(found);
    /* Merging an empty book changes nothing; the result still serialises and reads back. */
    Book empty = {0};
    CHECK(book_merge(a, &empty, err));
    size_t len;
    uint8_t *data = book_serialize(a, &len);
    Book *back = book_parse(data, len, "merged", err);
    CHECK(back != NULL);
    book_free(back);
    free(data);
    book_free(a);
    book_free(b);
}

static bool same_file(const char *a, const char *b)
{
    char err[ERR_LEN];
    Book *x = book_load(a, err), *y = book_load(b, err);
    bool same = x && y;
    if (same) {
        size_t lx, ly;
        uint8_t *dx = book_serialize(x, &lx), *dy = book_serialize(y, &ly);
        same = lx == ly && memcmp(dx, dy, lx) == 0;
        free(dx);
        free(dy);
    }
    book_free(x);
    book_free(y);
    return same;
}

static void test_build(void)
{
    char p1[64], p2[64], p3[64], err[ERR_LEN];
    snprintf(p1, sizeof p1, "/tmp/ponder-test-book1-%ld.pbk", (long)getpid());
    snprintf(p2, sizeof p2, "/tmp/ponder-test-book2-%ld.pbk", (long)getpid());
    snprintf(p3, sizeof p3, "/tmp/ponder-test-book3-%ld.pbk", (long)getpid());
    remove(p1);
    remove(p2);
    remove(p3);
    BookBuildOptions o = {0};
    engine_default_options(&o.engine);
    o.engine.hash_mb = 1;
    o.threads = 1;
    o.nodes = 800;
    o.positions = 12;
    o.batch = 4;
    o.drop = 10;
    o.shards = 1;
    o.save_every = 1e9;
    BookBuildStatus st;
    CHECK(book_build(p1, "t", &o, NULL, NULL, &st, err));
    CHECK(st.positions == 12);
    o.threads = 2;
    CHECK(book_build(p2, "t", &o, NULL, NULL, &st, err));
    CHECK(same_file(p1, p2));
    /* Stopped after two rounds and resumed: the same book. A round expands the root alone, the
     * next 4 (the batch), so 5 positions end a round, as a stop (Ctrl-C) always does. A
     * --positions limit inside a round cuts that round's batch short, and the rounds that
     * follow may then choose differently. */
    o.positions = 5;
    CHECK(book_build(p3, "t", &o, NULL, NULL, &st, err));
    o.positions = 12;
    CHECK(book_build(p3, "t", &o, NULL, NULL, &st, err));
    CHECK(st.positions == 12);
    CHECK(same_file(p1, p3));
    /* The book's root: the start position, with every legal move. */
    Book *bk = book_load(p1, err);
    CHECK(bk != NULL);
    if (bk) {
        Board start;
        board_start(&start);
        BookHit hits[BOOK_MAX_MOVES];
        CHECK(book_probe(bk, &start, hits, BOOK_MAX_MOVES) == 7);
        book_free(bk);
    }
    /* A damaged file is not overwritten: the build refuses it. */
    FILE *f = fopen(p3, "r+b");
    int byte = EOF;
    CHECK(f && fseek(f, 70, SEEK_SET) == 0 && (byte = fgetc(f)) != EOF);
    CHECK(f && fseek(f, 70, SEEK_SET) == 0 && fputc(byte ^ 0xFF, f) != EOF && fclose(f) == 0);
    CHECK(!book_build(p3, "t", &o, NULL, NULL, &st, err) && strstr(err, "checksum"));
    remove(p1);
    remove(p2);
    remove(p3);
}

int main(void)
{
    RUN("book", test_keys);
    RUN("book", test_round_trip);
    RUN("book", test_damage);
    RUN("book", test_probe_and_choose);
    RUN("book", test_merge);
    RUN("book", test_build);
    return check_total_failed ? 1 : 0;
}
