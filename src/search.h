/*
 * search.h - iterative deepening alpha-beta, run by one or more threads (Lazy SMP), and the
 * types a search is described and reported with.
 *
 * The engine facade (engine.c) owns the pieces (table, weights, workers, stop flag) and hands
 * them to search_run() in a SearchJob for each search. Every worker runs the same iterative
 * deepening on the same root; they share only the transposition table and the stop flag, so
 * helpers speed the main thread up by filling the table with results it is about to need. Only
 * the main worker (index 0) watches the clock and the node limit, reports iterations and decides
 * the move. A root that is itself in the endgame databases is searched without them and the
 * databases vet the move (search_egdb.c).
 */
#pragma once

#include "egdb_hook.h"
#include "game.h"
#include "score.h"
#include "thread.h"
#include "timeman.h"
#include "tt.h"
#include "weights.h"

#include <stdatomic.h>

enum { SEARCH_MAX_EXCLUDE = 4 }; /* root moves a search can be told to leave out */

/* What a search may spend. Every limit given applies; the first reached ends the search. With
 * none at all (and not pondering) the search is infinite. */
typedef struct SearchLimits {
    int depth;       /* stop after this many plies (0: no depth limit) */
    uint64_t nodes;  /* stop after about this many nodes (0: none); deterministic */
    double time;     /* exact seconds for this move (0: none): used up to a safety margin */
    double clock;    /* seconds left on the side to move's clock (0: no clock); timeman.c
                        decides the share of it this move gets, never all of it */
    double inc;      /* seconds added to that clock after each move (with clock) */
    int moves_to_go; /* moves until the clock gets more time (0: all remaining moves) */
    bool infinite;   /* search until stopped (analysis) */
    bool ponder;     /* think on the opponent's time: the time, clock and node limits
                        apply only from engine_ponderhit(), which starts the clock; a depth
                        reached before it waits for it (or a stop) */
    bool analysis;   /* the position's value, not a move to play (analysis, evaluations): the
                        book is not asked and a draw scores 0, without the contempt */
    int exclude_len; /* root moves in exclude[] (0: none) */
    Move exclude[SEARCH_MAX_EXCLUDE]; /* root moves not to search: the lines already found, so
                                         a caller asks for the 2nd, 3rd best (multi-PV) */
} SearchLimits;

typedef struct {
    int depth;         /* the iteration just finished */
    int seldepth;      /* the deepest ply reached in it */
    double mean_depth; /* the mean ply of the quiet positions it evaluated (its leaves),
                          main worker (Hub's mean-depth) */
    int score;         /* from the side to move's point of view (score.h) */
    uint64_t nodes;    /* nodes searched so far in this search */
    double time;       /* seconds since the search started */
    int pv_len;        /* moves in pv */
    Move pv[MAX_PLY];  /* the principal variation, starting with the best move */
} SearchInfo;

typedef struct {
    bool has_move;   /* false when the side to move has no legal move */
    Move best;       /* the move to play */
    bool has_ponder; /* whether ponder holds the expected reply */
    Move ponder;     /* the reply the engine expects (for thinking on its time) */
    SearchInfo info; /* the last finished iteration */
    bool book;       /* the move came from the opening book (info: the book's score
                        and depth, no search) */
    int database;    /* the root's endgame-database value for the side to move:
                        0 not in the databases, 1 win, 2 loss, 3 draw (EgdbValue) */
} SearchResult;

/* Called after each finished iteration (from the searching thread). */
typedef void (*SearchCallback)(const SearchInfo *info, void *ctx);

typedef struct SearchWorker SearchWorker;

enum { SEARCH_MAX_THREADS = 256 };

typedef struct {
    TT *tt;                 /* shared table */
    const Weights *weights; /* evaluation weights */
    const void *net;        /* the network evaluating instead of weights, or NULL */
    int (*net_eval)(const void *net, const Board *b); /* its evaluation (nnue_hook.h) */
    const Game *game;            /* the game whose current position is searched */
    SearchLimits limits;         /* what the caller allowed */
    TimeManager tm;              /* deadlines (main worker only, set up by search_run) */
    double started;              /* timeman_now() when the search began (reports count from it;
                                    a ponder search's deadlines count from the ponder-hit) */
    atomic_bool *stop;           /* set to end the search (by the facade or the main worker) */
    atomic_bool ponderhit;       /* set (with ponderhit_at) when a ponder search becomes timed */
    _Atomic double ponderhit_at; /* when: the clock counts from then (timeman_now() seconds) */
    SearchCallback cb;           /* iteration reports, or NULL */
    void *cb_ctx;
    SearchWorker **workers; /* workers[0] is the main one */
    SearchThread **threads; /* threads[t] runs helper t (t >= 1; threads[0] is not used) */
    int nworkers;
    const EgdbDriver *egdb; /* databases, or NULL */
    void *egdb_handle;
    int egdb_pieces; /* probe positions with at most this many pieces */
    int contempt;    /* what a draw costs the side to move at the root, hundredths of a man
                        (negative: a draw is welcome) */
    int trade;       /* what each piece on the board beyond SEARCH_TRADE_BASE is worth to the
                        side to move at the root, hundredths of a man (a fifth of a positive
                        contempt: it keeps pieces on and a draw further off) */
} SearchJob;

/* The piece count at which the contempt's piece term (SearchJob.trade) is zero. */
enum { SEARCH_TRADE_BASE = 8 };

/* The piece term of JOB for board B, from B's side to move: the side to move at the root (of
 * JOB's game) gains it, the other side loses it. */
static inline int search_trade_term(const SearchJob *job, const Board *b)
{
    int n = bb_popcount(b->pieces[BLACK] | b->pieces[WHITE]) - SEARCH_TRADE_BASE;
    return b->side == job->game->board.side ? job->trade * n : -job->trade * n;
}

/* A worker's private state (history, killers, path, PV). Returns NULL when out of memory. */
SearchWorker *search_worker_new(void);
void search_worker_free(SearchWorker *w);

/* Forgets the move-ordering statistics (new game). */
void search_worker_clear(SearchWorker *w);

/* Runs the search described by JOB on JOB->nworkers threads (the caller's thread is the main
 * worker) and returns its result. Consults the databases at the root (search_egdb.c). The
 * caller sets up every field but tm; *JOB->stop is left set. */
SearchResult search_run(SearchJob *job);

/* search_run() without the root database policy: the plain tree search (search.c). */
SearchResult search_tree(SearchJob *job);
