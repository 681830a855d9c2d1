/*
 * engine.h - the engine facade every front end calls (console, player, play, hackerrank,
 * serve, match tests, selfplay). Front ends never reach into search, eval or tt directly.
 *
 * An Engine owns a transposition table, its helper threads and its evaluation weights. A search
 * is one blocking call, engine_search(), that runs iterative deepening on a Game (so repetitions
 * in the game's history count as draws) within SearchLimits, reports each finished iteration
 * through a callback, and returns the best move. engine_stop() may be called from any other
 * thread (an input reader, a timer, a signal-safe flag watcher) to end a running search at once;
 * the search then returns the best move of the last finished iteration.
 *
 * Scores are from the side to move's point of view, in hundredths of a man (a man is worth
 * about SCORE_MAN). A won position scores SCORE_WIN - plies-to-win, a lost one -(SCORE_WIN -
 * plies); score_is_decisive() tells them apart from ordinary evaluations.
 */
#pragma once

#include "game.h"

enum {
    SCORE_MAN = 100,      /* the value of one man, the unit of the evaluation */
    SCORE_WIN = 30000,    /* a win now; a win in N plies is SCORE_WIN - N */
    SCORE_DECISIVE = SCORE_WIN - 2 * MAX_PLY, /* |score| above this: a proven win or loss */
    SCORE_INFINITE = 32000,
};

/* The limits of EngineOptions that engine_new() accepts; every front end checks its --hash and
 * --threads against them (opts.c), so all programs take the same values.
 * - The table is indexed by the low 32 bits of the key times the bucket count (tt.c), so it can
 *   address at most 2^32 buckets of 32 bytes, 128 GB; 64 GB leaves that margin and is more than
 *   any machine this runs on has to give.
 * - Search threads are the workers search_run() starts from a fixed array (SEARCH_MAX_THREADS);
 *   engine.c checks that the two agree. */
enum {
    ENGINE_HASH_MB_MIN = 1,
    ENGINE_HASH_MB_MAX = 65536,
    ENGINE_THREADS_MIN = 1,
    ENGINE_THREADS_MAX = 256,
};

typedef struct Engine Engine;

/* The evaluation a search uses (EngineOptions.eval). */
enum {
    ENGINE_EVAL_DEFAULT = 0, /* the network when one is given or built in, else classic */
    ENGINE_EVAL_CLASSIC,     /* the hand-written formula of eval.c */
    ENGINE_EVAL_NET,         /* the network (nnue.c): EngineOptions.net, or the built-in one */
};

typedef struct {
    size_t hash_mb;          /* transposition table size in MB (default 64) */
    int threads;             /* search threads, Lazy SMP (default 1) */
    const char *weights;     /* evaluation weights file, or NULL for the built-in weights */
    int eval;                /* ENGINE_EVAL_*: which evaluation the search uses */
    const char *net;         /* network file, or NULL for the built-in network */
    const char *egdb_dir;    /* endgame database directory, or NULL; the default is the
                                directory egdb_default_dir() names when it holds databases */
} EngineOptions;

typedef struct {
    int depth;               /* stop after this many plies (0: no depth limit) */
    double time;             /* seconds for this move, a hard limit (0: no time limit) */
    uint64_t nodes;          /* stop after about this many nodes (0: none); deterministic */
    bool infinite;           /* search until engine_stop() (analyze, pondering) */
} SearchLimits;

typedef struct {
    int depth;               /* the iteration just finished */
    int seldepth;            /* the deepest ply reached in it */
    int score;               /* from the side to move's point of view */
    uint64_t nodes;          /* nodes searched so far in this search */
    double time;             /* seconds since the search started */
    int pv_len;              /* moves in pv */
    Move pv[MAX_PLY];        /* the principal variation, starting with the best move */
} SearchInfo;

typedef struct {
    bool has_move;           /* false when the side to move has no legal move */
    Move best;               /* the move to play */
    bool has_ponder;         /* whether ponder holds the expected reply */
    Move ponder;             /* the reply the engine expects (for thinking on its time) */
    SearchInfo info;         /* the last finished iteration */
    int database;            /* the root's endgame-database value for the side to move:
                                0 not in the databases, 1 win, 2 loss, 3 draw (EgdbValue) */
} SearchResult;

/* Called after each finished iteration (from the searching thread). */
typedef void (*SearchCallback)(const SearchInfo *info, void *ctx);

/* Parses an --eval value, "classic" or "net", into *EVAL. False (nothing set) otherwise. */
bool engine_eval_parse(const char *text, int *eval);

/* Default options (64 MB, 1 thread, built-in weights, default evaluation, no databases). */
void engine_default_options(EngineOptions *opt);

/* A new engine, or NULL with the reason in ERR (ERR_LEN bytes): no memory for the table, an
 * unreadable or malformed weights or network file, a network asked for when none is built in. */
Engine *engine_new(const EngineOptions *opt, char *err);
void engine_free(Engine *e);

/* Forgets everything learned (table, history): call between unrelated games. */
void engine_new_game(Engine *e);

/* Searches the current position of G within LIMITS. CB (may be NULL) hears of every finished
 * iteration. Returns the result; result.has_move is false when there is no legal move. With one
 * legal move and a time limit, it returns that move at once. Never exceeds LIMITS->time. */
SearchResult engine_search(Engine *e, const Game *g, const SearchLimits *limits,
                           SearchCallback cb, void *ctx);

/* Ends the running search (if any) as soon as possible. Safe from any thread. */
void engine_stop(Engine *e);

/* Endgame database files that were left out when the engine opened its databases (damaged,
 * unreadable): "" when there are none or no databases. Front ends report it once. */
const char *engine_database_warnings(const Engine *e);

/* The piece count up to which the engine's databases are complete (0: none in use). */
int engine_database_pieces(const Engine *e);

/* Whether the engine evaluates with a network (else with the classic formula). */
bool engine_uses_net(const Engine *e);

/* The static evaluation of B from the side to move's point of view (for tests and tools). */
int engine_evaluate(const Engine *e, const Board *b);

/* Whether SCORE is a proven win or loss, and in how many plies. */
static inline bool score_is_decisive(int score)
{
    return score > SCORE_DECISIVE || score < -SCORE_DECISIVE;
}
static inline int score_plies_to_end(int score)
{
    return score > 0 ? SCORE_WIN - score : SCORE_WIN + score;
}
