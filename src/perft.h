/*
 * perft.h - counting the leaf nodes of the legal move tree, the standard check of a move
 * generator (SPEC: `ponder perft`), with an optional hash table of subtree counts.
 */
#pragma once

#include "movegen.h"

typedef struct PerftHash PerftHash;

/* A table of about MB megabytes (rounded down to a power of two entries), or NULL when MB is 0 or
 * the memory cannot be had. */
PerftHash *perft_hash_new(size_t mb);
void perft_hash_free(PerftHash *h);

/* Leaf nodes at DEPTH plies below B (1 for depth 0). Duplicate capture routes count once unless
 * ALL_PATHS. H may be NULL. */
uint64_t perft_count(const Board *b, const Rules *r, int depth, bool all_paths, PerftHash *h);
