/*
 * serve_store.h - what the web board's game store (serve_games.c) and its pool of workers
 * (serve_pool.c) share: the store itself and a worker. Private to those two files; everything
 * else goes through serve.h.
 */
#pragma once

#include "serve.h"

#include <pthread.h>

typedef struct {
    ServeStore *store; /* the owner */
    int index;         /* position in the pool */
    pthread_t thread;
    bool started;   /* thread was created (to join) */
    Engine *engine; /* this worker's engine; only this thread searches with it */
    Game *scratch;  /* the copy of the game being searched */
    /* Guarded by the pool lock. */
    ServeGame *game; /* the game being searched, or NULL */
    uint64_t job;    /* and its job id */
    unsigned seed;   /* for the weak levels' choice among near-best moves (rand_r) */
} ServeWorker;

struct ServeStore {
    ServeStoreOptions opt; /* as given (max_games, workers clamped) */

    pthread_mutex_t lock; /* the store lock: table, references, tick */
    ServeGame **table;    /* max_games slots, NULL when free */
    int count;            /* listed games */
    uint64_t tick;        /* grows with every lookup (LRU clock) */
    uint64_t evicted;     /* games evicted */

    pthread_mutex_t pool_lock; /* the pool lock: queue, workers' current jobs, stopping */
    pthread_cond_t pool_cond;  /* signalled when the queue grows or on shutdown */
    ServeGame **queue;         /* ring of max_games entries */
    int qhead, qlen;           /* first entry and length */
    bool stopping;             /* shutdown has begun */
    int thinking;              /* workers with a job taken off the queue */
    uint64_t searches;         /* searches finished */
    ServeWorker *workers;      /* opt.workers of them */

    Opening *ballots; /* the 174 ballots, for games started from one */
    int nballots;

    pthread_mutex_t notify_lock; /* leaf lock for change notification */
    pthread_cond_t notify_cond;
    uint64_t notify_tick; /* grows with every change of any game */
};

/* A worker thread's body: takes jobs off the store's queue until shutdown (serve_pool.c). */
void *serve_worker_main(void *arg);
