/*
 * tt.h - the transposition table, shared by every search thread.
 *
 * An entry is one 64-bit word read and written atomically (relaxed), so threads of a Lazy SMP
 * search share the table without locks and a torn entry cannot happen. Entries sit in buckets of
 * four; a bucket is chosen by the low half of the key and an entry checked against 24 bits of the
 * high half. Replacement keeps what is worth most: the same position is always overwritten,
 * otherwise the entry with the least depth, counting entries from older searches as shallower.
 *
 * Win and loss scores are stored relative to the node (plies to the end from here), not to the
 * root, so a stored "win in 5" stays right wherever the position comes up again: tt_score_to()
 * and tt_score_from() convert.
 */
#pragma once

#include "types.h"

#include <stdatomic.h>

enum { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };
enum { TT_NO_MOVE = 0xFF }; /* move field of an entry without a best move */

typedef struct {
    int score; /* relative to the node: convert with tt_score_from() */
    int depth; /* draft the score was searched to */
    int bound; /* BOUND_UPPER, BOUND_LOWER or BOUND_EXACT */
    int move;  /* index of the best move in movegen order, or TT_NO_MOVE */
} TTHit;

typedef struct {
    _Atomic uint64_t *entries; /* bucket_count * TT_BUCKET words */
    uint64_t buckets;          /* number of buckets */
    unsigned generation;       /* age of the current search, 0-63 */
} TT;

enum { TT_BUCKET = 4 };

/* Allocates about MB megabytes (at least one bucket). Returns false when the memory cannot be
 * had. */
bool tt_init(TT *t, size_t mb);
void tt_free(TT *t);

/* Empties the table. */
void tt_clear(TT *t);

/* Starts a new search: older entries become cheaper to replace. */
void tt_new_search(TT *t);

/* Looks KEY up; returns false when it is not in the table. */
bool tt_probe(const TT *t, uint64_t key, TTHit *hit);

/* Stores a result for KEY (SCORE already converted by tt_score_to). MOVE may be TT_NO_MOVE; then a
 * move stored earlier for the same key is kept. */
void tt_store(TT *t, uint64_t key, int score, int depth, int bound, int move);

/* Prefetches KEY's bucket. */
static inline void tt_prefetch(const TT *t, uint64_t key)
{
    __builtin_prefetch(&t->entries[(((uint64_t)(uint32_t)key * t->buckets) >> 32) * TT_BUCKET]);
}

/* Win/loss scores between the node and the table (PLY: the node's distance from the root).
 * DECISIVE is the bound above which a score counts as a win. */
static inline int tt_score_to(int score, int ply, int decisive)
{
    return score > decisive ? score + ply : score < -decisive ? score - ply : score;
}
static inline int tt_score_from(int score, int ply, int decisive)
{
    return score > decisive ? score - ply : score < -decisive ? score + ply : score;
}
