/*
 * search.h - iterative deepening alpha-beta, run by one or more threads (Lazy SMP).
 *
 * engine.c owns the pieces (table, weights, workers, stop flag) and hands them to search_run()
 * in a SearchJob for each search. Every worker runs the same iterative deepening on the same
 * root; they share only the transposition table and the stop flag, so helpers speed the main
 * thread up by filling the table with results it is about to need. Only the main worker (index
 * 0) watches the clock and the node limit, reports iterations and decides the move.
 */
#pragma once

#include "egdb_hook.h"
#include "engine.h"
#include "timeman.h"
#include "tt.h"
#include "weights.h"

#include <stdatomic.h>

typedef struct SearchWorker SearchWorker;

enum { SEARCH_MAX_THREADS = 256 };

typedef struct {
    TT *tt;                      /* shared table */
    const Weights *weights;      /* evaluation weights */
    const void *net;             /* the network evaluating instead of weights, or NULL */
    int (*net_eval)(const void *net, const Board *b); /* its evaluation (nnue_hook.h) */
    const Game *game;            /* the game whose current position is searched */
    SearchLimits limits;         /* what the caller allowed */
    TimeManager tm;              /* deadlines from limits.time */
    atomic_bool *stop;           /* set to end the search (by engine_stop or by the main worker) */
    SearchCallback cb;           /* iteration reports, or NULL */
    void *cb_ctx;
    SearchWorker **workers;      /* workers[0] is the main one */
    int nworkers;
    const EgdbDriver *egdb;      /* databases, or NULL */
    void *egdb_handle;
    int egdb_pieces;             /* probe positions with at most this many pieces */
} SearchJob;

/* Switches and sizes of the search's selective parts. They are plain data so that a test tool
 * can compare two settings in one process (set before a search, never during one); the
 * defaults are the measured best (docs/engine.md). */
typedef struct {
    int forced_extension; /* a node with one legal move costs no depth */
    int lmr;              /* late move reductions */
    int lmr_min_depth;    /* depth from which quiet moves are reduced */
    int lmr_min_moves;    /* moves searched before the first reduction */
    int lmr_scale;        /* reduction = log(depth) * log(moves) * lmr_scale / 100 */
    int futility;         /* at depth 1-FUTILITY_DEPTH, skip quiet moves far below alpha */
    int futility_margin;  /* per ply of depth, hundredths of a man */
    int probcut;          /* prune when a reduced search beats beta by a margin */
    int probcut_margin;
    int threat_extension; /* at the horizon, search one more ply when the opponent threatens */
    int iir;              /* a node with no table move at depth IIR_DEPTH+ is searched 1 ply less */
    int lmp;              /* at depth <= 3 (non-PV), quiet moves after LMP_BASE + depth² are skipped */
    int lmp_base;
    int asp_delta;        /* first half-width of the aspiration window */
} SearchParams;

extern SearchParams search_params;

/* A worker's private state (history, killers, path, PV). Returns NULL when out of memory. */
SearchWorker *search_worker_new(void);
void search_worker_free(SearchWorker *w);

/* Forgets the move-ordering statistics (new game). */
void search_worker_clear(SearchWorker *w);

/* Runs the search described by JOB on JOB->nworkers threads (the caller's thread is the main
 * worker) and returns its result. *JOB->stop is left set. */
SearchResult search_run(SearchJob *job);
