/*
 * tt.c - the transposition table (see tt.h).
 *
 * Entry word, from the low bits: score (16, two's complement), depth (8), bound (2),
 * generation (6), move index (8), key check (24: bits 40-63 of the key). A zero word is empty
 * (its bound is BOUND_NONE).
 */
#include "tt.h"

#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <sys/mman.h>
#endif

enum { GEN_MASK = 63 };

static inline uint64_t pack(uint64_t key, int score, int depth, int bound, unsigned gen, int move)
{
    return (uint64_t)(uint16_t)(int16_t)score | (uint64_t)(uint8_t)depth << 16 |
           (uint64_t)(bound & 3) << 24 | (uint64_t)(gen & GEN_MASK) << 26 |
           (uint64_t)(uint8_t)move << 32 | (key >> 40) << 40;
}

static inline bool same_key(uint64_t word, uint64_t key)
{
    return (word >> 40) == (key >> 40);
}
static inline int word_depth(uint64_t w)
{
    return (int)((w >> 16) & 0xFF);
}
static inline int word_bound(uint64_t w)
{
    return (int)((w >> 24) & 3);
}
static inline unsigned word_gen(uint64_t w)
{
    return (unsigned)((w >> 26) & GEN_MASK);
}
static inline int word_move(uint64_t w)
{
    return (int)((w >> 32) & 0xFF);
}

static inline _Atomic uint64_t *bucket(const TT *t, uint64_t key)
{
    return &t->entries[(((uint64_t)(uint32_t)key * t->buckets) >> 32) * TT_BUCKET];
}

enum { HUGE_PAGE = 2 << 20 };

bool tt_init(TT *t, size_t mb)
{
    uint64_t bytes = (uint64_t)mb << 20;
    uint64_t n = bytes / (TT_BUCKET * sizeof(uint64_t));
    if (n < 1)
        n = 1;
    bytes = n * TT_BUCKET * sizeof(uint64_t);
    /* Probes land anywhere in the table: with 4 KB pages nearly every one misses the TLB too.
     * Aligned to 2 MB and advised, the kernel can back the table with huge pages. */
    void *p = NULL;
    size_t align = bytes >= HUGE_PAGE ? HUGE_PAGE : 64;
#ifdef _WIN32
    p = _aligned_malloc((size_t)bytes, align); /* Windows has no posix_memalign (ponder64.dll) */
    if (!p)
        return false;
#else
    if (posix_memalign(&p, align, (size_t)bytes) != 0)
        return false;
#endif
#ifdef MADV_HUGEPAGE
    if (bytes >= HUGE_PAGE)
        madvise(p, (size_t)bytes, MADV_HUGEPAGE);
#endif
    t->entries = p;
    t->buckets = n;
    tt_clear(t); /* also touches every page now rather than during the first search */
    return true;
}

void tt_free(TT *t)
{
#ifdef _WIN32
    _aligned_free(t->entries);
#else
    free(t->entries);
#endif
    t->entries = NULL;
}

void tt_clear(TT *t)
{
    /* Nothing else touches the table while it is cleared (between searches). */
    memset((void *)t->entries, 0, (size_t)(t->buckets * TT_BUCKET * sizeof(uint64_t)));
    t->generation = 0;
}

void tt_new_search(TT *t)
{
    t->generation = (t->generation + 1) & GEN_MASK;
}

bool tt_probe(const TT *t, uint64_t key, TTHit *hit)
{
    _Atomic uint64_t *b = bucket(t, key);
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t w = atomic_load_explicit(&b[i], memory_order_relaxed);
        if (word_bound(w) != BOUND_NONE && same_key(w, key)) {
            hit->score = (int16_t)(uint16_t)(w & 0xFFFF);
            hit->depth = word_depth(w);
            hit->bound = word_bound(w);
            hit->move = word_move(w);
            return true;
        }
    }
    return false;
}

void tt_store(TT *t, uint64_t key, int score, int depth, int bound, int move)
{
    _Atomic uint64_t *b = bucket(t, key);
    unsigned gen = t->generation;
    if (depth < 0)
        depth = 0;
    if (depth > 255)
        depth = 255;
    int victim = 0, worst = 1 << 30;
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t w = atomic_load_explicit(&b[i], memory_order_relaxed);
        if (word_bound(w) == BOUND_NONE) {
            victim = i;
            break;
        }
        if (same_key(w, key)) {
            /* The same position: keep its move if this result has none, and keep a deeper exact
             * result of this search over a shallower bound. */
            if (move == TT_NO_MOVE)
                move = word_move(w);
            if (bound != BOUND_EXACT && word_gen(w) == gen && word_depth(w) > depth + 2)
                return;
            victim = i;
            break;
        }
        /* Worth: depth, less 8 plies per search of age. */
        int age = (int)((gen - word_gen(w)) & GEN_MASK);
        int value = word_depth(w) - 8 * age;
        if (value < worst) {
            worst = value;
            victim = i;
        }
    }
    atomic_store_explicit(&b[victim], pack(key, score, depth, bound, gen, move),
                          memory_order_relaxed);
}
