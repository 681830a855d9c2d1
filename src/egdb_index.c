/*
 * egdb_index.c - combination ranks for the endgame database slices (see egdb_index.h).
 *
 * A set of k squares out of n candidates is ranked in the combinatorial number system:
 * rank = sum C(c_i, i+1) over the candidates' positions c_0 < c_1 < ... < c_(k-1). Kings are
 * ranked among the free squares only, by counting how many occupied squares lie below each king
 * (a popcount) and subtracting.
 */
#include "egdb_index.h"

#include "bitboard.h"

#include <pthread.h>

static uint64_t binom[33][33];

static void fill_binom(void)
{
    for (int n = 0; n <= 32; n++) {
        binom[n][0] = 1;
        for (int k = 1; k <= n; k++)
            binom[n][k] = binom[n - 1][k - 1] + (k <= n - 1 ? binom[n - 1][k] : 0);
    }
}

/* Every use of the table goes through a slice, made by egdb_slice_init(), or egdb_choose(): both
 * fill it first. */
static void binom_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fill_binom);
}

uint64_t egdb_choose(int n, int k)
{
    binom_init();
    if (k < 0 || n < 0 || k > n || n > 32)
        return 0;
    return binom[n][k];
}

void egdb_slice_init(EgdbSlice *s, int bm, int bk, int wm, int wk)
{
    s->bm = bm;
    s->bk = bk;
    s->wm = wm;
    s->wk = wk;
    s->r_wm = egdb_choose(28, wm);
    s->r_bk = egdb_choose(32 - bm - wm, bk);
    s->r_wk = egdb_choose(32 - bm - wm - bk, wk);
    s->size = egdb_choose(28, bm) * s->r_wm * s->r_bk * s->r_wk;
}

void egdb_slice_of(const Board *b, EgdbSlice *s)
{
    Bitboard k = b->kings;
    egdb_slice_init(s, bb_popcount(b->pieces[BLACK] & ~k), bb_popcount(b->pieces[BLACK] & k),
                    bb_popcount(b->pieces[WHITE] & ~k), bb_popcount(b->pieces[WHITE] & k));
}

/* Rank of the set M of positions 0..n-1. */
static inline uint64_t rank_set(Bitboard m)
{
    uint64_t r = 0;
    for (int i = 1; m; i++, m &= m - 1)
        r += binom[bb_lsb(m)][i];
    return r;
}

/* The k-set of rank R among positions 0..n-1 (the greedy inverse of rank_set): for each i
 * from k down, the largest c with C(c, i) <= r, found by binary search. */
static inline Bitboard unrank_set(uint64_t r, int n, int k)
{
    Bitboard m = 0;
    for (int i = k; i >= 1; i--) {
        int lo = i - 1, hi = n - 1; /* C(lo, i) = 0 <= r always; find the largest such c */
        while (lo < hi) {
            int mid = (lo + hi + 1) >> 1;
            if (binom[mid][i] <= r)
                lo = mid;
            else
                hi = mid - 1;
        }
        r -= binom[lo][i];
        m |= 1u << lo;
        n = lo;
    }
    return m;
}

/* Compresses the bits of M to the positions of the zero bits of OCC (M & OCC must be 0). */
static inline Bitboard squeeze(Bitboard m, Bitboard occ)
{
    Bitboard out = 0;
    for (; m; m &= m - 1) {
        int sq = bb_lsb(m);
        int below = bb_popcount(occ & ((1u << sq) - 1));
        out |= 1u << (sq - below);
    }
    return out;
}

/* The inverse: spreads bit positions of M over the zero bits of OCC. */
static inline Bitboard spread(Bitboard m, Bitboard occ)
{
    Bitboard out = 0, free_sq = ~occ;
    int pos = 0;
    for (; m; m &= m - 1) {
        int target = bb_lsb(m);
        while (pos < target) {
            free_sq &= free_sq - 1;
            pos++;
        }
        out |= free_sq & (0u - free_sq);
    }
    return out;
}

uint64_t egdb_index_encode(const EgdbSlice *s, const Board *b)
{
    Bitboard k = b->kings;
    Bitboard bm = b->pieces[BLACK] & ~k, wm = b->pieces[WHITE] & ~k;
    Bitboard bk = b->pieces[BLACK] & k, wk = b->pieces[WHITE] & k;
    uint64_t i = rank_set(bm);           /* black men on squares 0-27 */
    i = i * s->r_wm + rank_set(wm >> 4); /* white men on 4-31 */
    Bitboard men = bm | wm;
    i = i * s->r_bk + rank_set(squeeze(bk, men));
    i = i * s->r_wk + rank_set(squeeze(wk, men | bk));
    return i;
}

/* The four digits of index I of S, unranked: black men (squares 0-27), white men (squares
 * 4-31, shifted down by 4), black kings and white kings (each among the squares still free,
 * squeezed). The one reading of the index's mixed radix. */
static inline void index_sets(const EgdbSlice *s, uint64_t i, Bitboard sets[4])
{
    uint64_t wk_r = i % s->r_wk;
    i /= s->r_wk;
    uint64_t bk_r = i % s->r_bk;
    i /= s->r_bk;
    uint64_t wm_r = i % s->r_wm;
    uint64_t bm_r = i / s->r_wm;
    sets[0] = unrank_set(bm_r, 28, s->bm);
    sets[1] = unrank_set(wm_r, 28, s->wm);
    sets[2] = unrank_set(bk_r, 32 - s->bm - s->wm, s->bk);
    sets[3] = unrank_set(wk_r, 32 - s->bm - s->wm - s->bk, s->wk);
}

/* The board (Black to move, no key) of the sets index_sets gives. Returns false, B untouched,
 * if the men overlap (an index no position has). */
static inline bool board_of_sets(Bitboard bm, Bitboard wm, Bitboard bk, Bitboard wk, Board *b)
{
    wm <<= 4;
    if (bm & wm)
        return false;
    Bitboard men = bm | wm;
    bk = spread(bk, men);
    wk = spread(wk, men | bk);
    b->pieces[BLACK] = bm | bk;
    b->pieces[WHITE] = wm | wk;
    b->kings = bk | wk;
    b->side = BLACK;
    b->key = 0; /* the databases never need it: callers that do use board_compute_key() */
    return true;
}

bool egdb_index_decode(const EgdbSlice *s, uint64_t i, Board *b)
{
    Bitboard sets[4];
    index_sets(s, i, sets);
    return board_of_sets(sets[0], sets[1], sets[2], sets[3], b);
}

uint64_t egdb_slice_positions(int bm, int bk, int wm, int wk)
{
    /* Black men: j on row 0 (4 squares only they can use), the rest on the 24 shared squares;
     * white men: l on row 7, the rest on the shared squares Black left free. */
    uint64_t men = 0;
    for (int j = 0; j <= bm && j <= 4; j++)
        for (int l = 0; l <= wm && l <= 4; l++)
            men += egdb_choose(4, j) * egdb_choose(24, bm - j) * egdb_choose(4, l) *
                   egdb_choose(24 - (bm - j), wm - l);
    return men * egdb_choose(32 - bm - wm, bk) * egdb_choose(32 - bm - wm - bk, wk);
}

uint64_t egdb_count_positions(int n)
{
    uint64_t total = 0;
    for (int bm = 0; bm <= n; bm++)
        for (int bk = 0; bm + bk <= n; bk++)
            for (int wm = 0; bm + bk + wm <= n; wm++)
                total += egdb_slice_positions(bm, bk, wm, n - bm - bk - wm);
    return total;
}

/* The next k-subset of an n-set in colex order (the next larger integer with the same number of
 * bits), or 0 when X was the last one or k is 0. */
static inline uint64_t next_subset(uint64_t x, int n)
{
    if (x == 0)
        return 0;
    uint64_t u = x & (0 - x), v = x + u;
    uint64_t y = v + (((v ^ x) / u) >> 2);
    return y >> n ? 0 : y;
}

static inline uint64_t first_subset(int k)
{
    return k ? (1ull << k) - 1 : 0;
}

static void cursor_rebuild(EgdbCursor *c)
{
    c->valid =
        board_of_sets((Bitboard)c->bm, (Bitboard)c->wm, (Bitboard)c->bk, (Bitboard)c->wk, &c->b);
}

void egdb_cursor_start(EgdbCursor *c, const EgdbSlice *s, uint64_t i)
{
    c->s = s;
    c->i = i;
    if (i >= s->size)
        return;
    Bitboard sets[4];
    index_sets(s, i, sets);
    c->bm = sets[0];
    c->wm = sets[1];
    c->bk = sets[2];
    c->wk = sets[3];
    cursor_rebuild(c);
}

void egdb_cursor_next(EgdbCursor *c)
{
    const EgdbSlice *s = c->s;
    if (++c->i >= s->size)
        return;
    int free_k = 32 - s->bm - s->wm;
    /* The lowest digit first; a digit that wraps starts again at its first subset and carries. */
    if ((c->wk = next_subset(c->wk, free_k - s->bk)) == 0) {
        c->wk = first_subset(s->wk);
        if ((c->bk = next_subset(c->bk, free_k)) == 0) {
            c->bk = first_subset(s->bk);
            if ((c->wm = next_subset(c->wm, 28)) == 0) {
                c->wm = first_subset(s->wm);
                c->bm = next_subset(c->bm, 28);
            }
        }
    }
    cursor_rebuild(c);
}
