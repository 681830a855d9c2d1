/*
 * search_worker.h - what search.c (the tree) and search_iter.c (iterative deepening and the
 * threads) share: the worker of one search thread and a few inline helpers. Private to the
 * search; the rest of the engine sees SearchWorker only as an opaque type (search.h).
 */
#pragma once

#include "eval.h"
#include "search.h"

enum {
    POLL_MASK = 1023,          /* the main worker looks at the clock every 1024 nodes */
    ASP_MIN_DEPTH = 4,         /* first depth searched with an aspiration window */
    ASP_DELTA = 20,            /* first half-width of the aspiration window */
    EVAL_CACHE_SIZE = 1 << 15, /* entries of a worker's evaluation cache (256 KB) */
};

struct SearchWorker {
    int index; /* 0: main worker */
    SearchJob *job;
    _Atomic uint64_t nodes; /* nodes searched in this search (written by the owner only) */
    int seldepth;
    uint64_t leaves;     /* quiet positions evaluated in this iteration */
    uint64_t leaf_plies; /* the sum of their plies (mean depth = leaf_plies / leaves) */
    bool aborted;        /* the current iteration was cut short */
    int history[COLOR_NB][SQUARE_NB][SQUARE_NB];
    uint16_t killers[MAX_PLY + 2][2];
    int excluded[MAX_PLY + 2]; /* a move this ply leaves out (singular test), or TT_NO_MOVE */
    int base;                  /* index of the root position in keys[] */
    uint64_t keys[GAME_MAX_PLIES + MAX_PLY + 4]; /* position keys: game since reset, then path */
    int quiet[MAX_PLY + 2];                      /* plies since a capture or man move, per ply */
    int pv_len[MAX_PLY + 2];
    Move pv[MAX_PLY + 2][MAX_PLY + 2];
    /* Root */
    MoveList root;                        /* legal root moves, best first after each iteration */
    uint8_t root_index[MAX_MOVES];        /* their indices in movegen order */
    int completed;                        /* last finished depth */
    SearchInfo info;                      /* the last finished iteration (main worker) */
    uint64_t eval_cache[EVAL_CACHE_SIZE]; /* static evaluations by key: key >> 16 | eval */
};

/* The static evaluation: the network when the engine has one, else the classic formula. */
static inline int evaluate_uncached(const SearchJob *job, const Board *b)
{
    return job->net ? job->net_eval(job->net, b) : eval_board(job->weights, b);
}

static inline uint64_t worker_nodes(const SearchWorker *w)
{
    return atomic_load_explicit(&w->nodes, memory_order_relaxed);
}

static inline uint64_t total_nodes(const SearchJob *job)
{
    uint64_t n = 0;
    for (int i = 0; i < job->nworkers; i++)
        n += worker_nodes(job->workers[i]);
    return n;
}

static inline bool stopped(const SearchWorker *w)
{
    return atomic_load_explicit(w->job->stop, memory_order_relaxed);
}

static inline int loss_score(int ply)
{
    return -SCORE_WIN + ply;
}

/* One pass over the root moves with window (ALPHA, BETA) at DEPTH (search.c). Moves the best
 * move to the front. Returns the score (meaningless if the iteration was aborted). */
int search_root(SearchWorker *w, int alpha, int beta, int depth);

/* A ponder search whose move was played (engine_ponderhit): from now on the limits apply, with
 * the clock counted from the hit. Main worker only. */
void search_check_ponderhit(SearchJob *job);
