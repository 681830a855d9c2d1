/*
 * engine.h - the engine facade every front end calls (console, player, play, hackerrank,
 * serve, match tests, selfplay, and the protocols). Front ends never reach into search, eval or
 * tt directly; the types a search is described with (SearchLimits, SearchInfo, SearchResult)
 * come from search.h, and scores from score.h.
 *
 * An Engine owns a transposition table, its search workers, its evaluation weights and its
 * databases. A search is a job: engine_start() copies the Game (so repetitions in its history
 * count as draws) and the SearchLimits, starts the search on the engine's job thread and returns
 * the job's number at once (the engine's threads live as long as it does: thread.h); each finished
 * iteration is reported through a callback; engine_wait() gives the result. engine_stop() and
 * engine_ponderhit() name the job they are meant for, so a stop is never lost (the job's stop flag
 * is armed before engine_start returns) and never reaches the next job. engine_search() is the
 * blocking form, for front ends that have nothing else to do meanwhile. One job at a time per
 * engine; engines are independent of each other.
 *
 * Time: a front end fills the limits with what the protocol gives (the game clock, increment and
 * moves to go, or an exact time per move, a depth, nodes) and timeman.c decides how long to think.
 *
 * Options can also be read and set by name (engine_option_*), from one table of names, types,
 * defaults and limits, so that every protocol lists and sets them the same way.
 */
#pragma once

#include "game.h"
#include "score.h"
#include "search.h"

enum {
    ENGINE_HASH_MB_DEFAULT = 64,             /* table size when none is given (MB) */
    ENGINE_PATH_MAX = 1024,                  /* longest path an option holds, with its NUL */
    ENGINE_MAX_EXCLUDE = SEARCH_MAX_EXCLUDE, /* root moves a search can leave out (multi-PV) */
    ENGINE_MOVES_LEFT_GUESS = TIME_MOVES_LEFT_GUESS, /* the moves a clock with no moves to go is
                                                        shared over (timeman.c) */
};

/* The limits of EngineOptions that engine_new() accepts; every front end checks its --hash and
 * --threads against them (opts.c), and the options by name too, so all take the same values.
 * - The table is indexed by the low 32 bits of the key times the bucket count (tt.c), so it can
 *   address at most 2^32 buckets of 32 bytes, 128 GB; 64 GB leaves that margin and is more than
 *   any machine this runs on has to give.
 * - Search threads are the workers search_run() starts from a fixed array (SEARCH_MAX_THREADS).
 * - The book variety is in hundredths of a man: 10000, a hundred men, already takes every book
 *   move.
 * - The contempt is in hundredths of a man too: ten men either way is past any evaluation. */
enum {
    ENGINE_HASH_MB_MIN = 1,
    ENGINE_HASH_MB_MAX = 65536,
    ENGINE_THREADS_MIN = 1,
    ENGINE_THREADS_MAX = SEARCH_MAX_THREADS,
    ENGINE_THREADS_DEFAULT = 1,
    ENGINE_BOOK_VARIETY_MIN = 0,
    ENGINE_BOOK_VARIETY_MAX = 10000,
    ENGINE_BOOK_VARIETY_DEFAULT = 0, /* the book's best move */
    ENGINE_CONTEMPT_MIN = -1000,
    ENGINE_CONTEMPT_MAX = 1000,
    ENGINE_CONTEMPT_DEFAULT = 20, /* a fifth of a man: docs/engine.md, "Contempt" */
};

typedef struct Engine Engine;

/* A search job's number: 1, 2, ... in the order of engine_start on one engine; 0 is no job, and
 * as an argument of engine_stop/engine_ponderhit it means "whichever job is running". */
typedef uint64_t EngineJob;

/* The evaluation a search uses (EngineOptions.eval). */
enum {
    ENGINE_EVAL_DEFAULT = 0, /* the network when one is given or built in, else classic */
    ENGINE_EVAL_CLASSIC,     /* the hand-written formula of eval.c */
    ENGINE_EVAL_NET,         /* the network (nnue.c): EngineOptions.net, or the built-in one */
};

typedef struct {
    size_t hash_mb;       /* transposition table size in MB (ENGINE_HASH_MB_*) */
    int threads;          /* search threads, Lazy SMP (ENGINE_THREADS_*) */
    const char *weights;  /* evaluation weights file, or NULL for the built-in weights */
    int eval;             /* ENGINE_EVAL_*: which evaluation the search uses */
    const char *net;      /* network file, or NULL for the built-in network */
    const char *egdb_dir; /* endgame database directory, or NULL for none (the default;
                             front ends compute theirs with cli_engine_egdb()) */
    const char *book;     /* opening book file (docs/book.md), or NULL: see book_builtin */
    bool book_builtin;    /* with book NULL: play from the book compiled into the binary,
                             if there is one (front ends: cli_engine_book()); the default
                             is no book */
    int book_variety;     /* 0: the book's best move; N: at random among the moves within
                             N hundredths of a man of the best, the better more often
                             (ENGINE_BOOK_VARIETY_*) */
    int contempt;         /* what a draw costs the engine, in hundredths of a man: it avoids a
                             draw for a position up to this much worse (ENGINE_CONTEMPT_*;
                             negative: it seeks a draw) */
} EngineOptions;

/* Called once when a job started by engine_start() has ended, from the search thread, with its
 * result. It must not call engine_wait or engine_start on the same engine (the thread that
 * would have to be joined is the caller's); it may wake the thread that will. */
typedef void (*SearchDoneCallback)(EngineJob job, const SearchResult *result, void *ctx);

/* Parses an --eval value, "classic" or "net", into *EVAL. False (nothing set) otherwise. */
bool engine_eval_parse(const char *text, int *eval);

/* Default options (64 MB, 1 thread, built-in weights, default evaluation, no databases: front
 * ends compute the default directory with cli_engine_egdb()). */
void engine_default_options(EngineOptions *opt);

/* A new engine, or NULL with the reason in ERR (ERR_LEN bytes): a size, thread count or book
 * variety outside its limits, no memory for the table, an unreadable or malformed weights or
 * network file, a network asked for when none is built in, unreadable databases. Fills the
 * library's tables first (ponder_init), so it needs no other set-up. */
Engine *engine_new(const EngineOptions *opt, char *err);

/* Frees E; a job still running is stopped and waited for first. NULL is allowed. */
void engine_free(Engine *e);

/* Forgets everything learned (table, history): call between unrelated games, not during a job. */
void engine_new_game(Engine *e);

/* Starts searching the current position of G within LIMITS and returns at once with the job's
 * number. G and LIMITS are copied. ON_ITERATION (may be NULL) hears of every finished iteration
 * and ON_DONE (may be NULL) of the end, both from the search thread, with CTX. Returns 0 with the
 * reason in ERR (ERR_LEN bytes) when the previous job has not been waited for or the engine's job
 * thread cannot be started (threads start on first use and then live as long as the engine; a
 * helper thread that cannot be started is left out of the search). Every job must be waited for
 * with engine_wait. Limits as in SearchLimits: with no
 * limit at all (and not pondering) the search runs until engine_stop. */
EngineJob engine_start(Engine *e, const Game *g, const SearchLimits *limits,
                       SearchCallback on_iteration, SearchDoneCallback on_done, void *ctx,
                       char *err);

/* Waits for JOB to end and puts its result in *OUT (result.has_move is false when the side to
 * move had no legal move). Returns false, leaving *OUT alone, when JOB is not the engine's
 * un-waited job (already waited for, never started, or another thread is waiting for it). */
bool engine_wait(Engine *e, EngineJob job, SearchResult *out);

/* Ends JOB (0: whichever job is running) as soon as possible; its result is the best move of the
 * last finished iteration. Returns whether the job was running. Safe from any thread, including
 * the callbacks; a stop for a job that has ended does nothing (in particular to the next job). */
bool engine_stop(Engine *e, EngineJob job);

/* The opponent played the move JOB (0: the running job), started with limits.ponder, was
 * pondering on: from now on JOB searches within its limits, its clock counted from this call.
 * Returns whether JOB is running and was pondering. Safe from any thread. */
bool engine_ponderhit(Engine *e, EngineJob job);

/* Whether a job has been started and not yet waited for (it may have ended). */
bool engine_busy(Engine *e);

/* Searches the current position of G within LIMITS on the calling thread and returns the
 * result: engine_start + engine_wait without a thread of its own. CB (may be NULL) hears of
 * every finished iteration. With one legal move and a time limit, it returns that move at once.
 * Never exceeds LIMITS->time. Must not be called while a job is un-waited (the result then has no
 * move). */
SearchResult engine_search(Engine *e, const Game *g, const SearchLimits *limits, SearchCallback cb,
                           void *ctx);

/* Endgame database files that were left out when the engine opened its databases (damaged,
 * unreadable): "" when there are none or no databases. Front ends report it once. */
const char *engine_database_warnings(const Engine *e);

/* The piece count up to which the engine's databases are complete (0: none in use). */
int engine_database_pieces(const Engine *e);

/* Whether the engine evaluates with a network (else with the classic formula). */
bool engine_uses_net(const Engine *e);

/* The static evaluation of B from the side to move's point of view (for tests and tools). */
int engine_evaluate(const Engine *e, const Board *b);

/* ---- options by name ----
 *
 * The table (engine_option_list) holds every option of EngineOptions a protocol may set, with
 * the limits above: hash, threads (INT), weights (STRING), eval (CHOICE: classic, net), net,
 * egdb, book (STRING), book-variety, contempt (INT). A STRING names a file or directory; "none" (or
 * "") is none: the built-in weights, the built-in network, no databases, no book; book also takes
 * "builtin", the book compiled into the program. A protocol whose own names differ (Hub's
 * book-margin, CheckerBoard's hashsize) reads its values with engine_option_parse under the
 * engine's name, so every front end takes the same values and words a bad one alike. */

typedef enum {
    ENGINE_OPTION_INT,    /* a whole number from min to max, in decimal */
    ENGINE_OPTION_STRING, /* a file or directory name, or a keyword (see above) */
    ENGINE_OPTION_CHOICE, /* one of choices */
} EngineOptionType;

typedef struct {
    const char *name; /* "hash", "threads", "weights", "eval", ... */
    EngineOptionType type;
    long def, min, max;         /* INT: the default and the accepted range */
    const char *const *choices; /* CHOICE: the values, NULL after the last */
    const char *help;           /* one line for a protocol's option list */
} EngineOptionInfo;

/* The options engine_option_set knows, in a fixed order; *COUNT gets their number. */
const EngineOptionInfo *engine_option_list(int *count);

/* The option called NAME, or NULL when there is none. */
const EngineOptionInfo *engine_option_info(const char *name);

/* Writes option O's default (what engine_default_options gives) as text into OUT (SIZE bytes,
 * truncated): an INT's number, "none" for a STRING, for eval "net" when the program has a
 * network built in (nnue_hook.h) and "classic" otherwise. */
void engine_option_default(const EngineOptionInfo *o, char *out, size_t size);

/* Reads VALUE as option NAME's value, as engine_option_set does before it applies one, but
 * without an engine: for a protocol that keeps its settings until it makes the engine. An INT
 * must be all decimal digits (a leading '-' allowed), within its limits; a CHOICE one of its
 * values; a STRING shorter than ENGINE_PATH_MAX. *NUMBER (may be NULL) gets an INT's value or a
 * CHOICE's index. Returns false with the reason in ERR (ERR_LEN bytes): for a known NAME the
 * reason alone ("`16.7' is not a whole number from 1 to 65536"), for the caller to put after
 * the name it knows the option by; for an unknown one "unknown engine option `NAME' (known:
 * ...)", the table's names. */
bool engine_option_parse(const char *name, const char *value, long *number, char *err);

/* Sets option NAME of E to VALUE (text, as a protocol sends it). Returns false with the reason in
 * ERR (ERR_LEN bytes; "option NAME: " and engine_option_parse's reason, or what applying it
 * met), E unchanged, when NAME is unknown, VALUE is not valid for it, a file cannot be read or
 * is damaged, there is no memory for the table, the network or the book asked for is not built
 * in, or a job is un-waited. */
bool engine_option_set(Engine *e, const char *name, const char *value, char *err);

/* Writes option NAME's current value of E as text into OUT (SIZE bytes): what engine_option_set
 * takes back to the same effect (eval: the evaluation in use, "classic" or "net"). Returns false
 * with the reason in ERR when NAME is unknown or the value does not fit. */
bool engine_option_get(const Engine *e, const char *name, char *out, size_t size, char *err);
