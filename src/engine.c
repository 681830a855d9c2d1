/*
 * engine.c - the engine facade (see engine.h): options, the objects a search needs, and the
 * stop flag.
 *
 * An Engine owns its transposition table, its weights, one SearchWorker per thread (allocated
 * once, reused by every search) and, when databases are available, their handle. A search hands
 * all of them to search_run() in a SearchJob. The stop flag is atomic: engine_stop() may set it
 * from any thread while engine_search() runs on another.
 */
#include "engine.h"

#include "eval.h"
#include "nnue_hook.h"
#include "search.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert((int)ENGINE_THREADS_MAX <= (int)SEARCH_MAX_THREADS,
               "more threads than search can run");
_Static_assert((uint64_t)ENGINE_HASH_MB_MAX << 20 <= (uint64_t)TT_BUCKET * sizeof(uint64_t) << 32,
               "a table larger than tt.c can index");

struct Engine {
    EngineOptions opt;           /* the options it was made with (strings not kept) */
    TT tt;                       /* shared transposition table */
    Weights weights;             /* evaluation weights */
    SearchWorker *workers[SEARCH_MAX_THREADS];
    int nworkers;
    atomic_bool stop;            /* set by engine_stop() or by the search itself */
    const EgdbDriver *egdb;      /* databases in use, or NULL */
    void *egdb_handle;
    int egdb_pieces;
    const NnueDriver *nnue;      /* the network's driver when net is set */
    void *net;                   /* the network evaluating, or NULL for the classic evaluation */
};

static const EgdbDriver *registered_driver;

void egdb_hook_register(const EgdbDriver *d) { registered_driver = d; }

const EgdbDriver *egdb_hook_driver(void) { return registered_driver; }

static const NnueDriver *nnue_driver;

void nnue_hook_register(const NnueDriver *d) { nnue_driver = d; }

bool engine_eval_parse(const char *text, int *eval)
{
    if (strcmp(text, "classic") == 0)
        *eval = ENGINE_EVAL_CLASSIC;
    else if (strcmp(text, "net") == 0)
        *eval = ENGINE_EVAL_NET;
    else
        return false;
    return true;
}

void engine_default_options(EngineOptions *opt)
{
    opt->hash_mb = 64;
    opt->threads = 1;
    opt->weights = NULL;
    opt->eval = ENGINE_EVAL_DEFAULT;
    opt->net = NULL;
    /* The default database directory, when it holds databases (egdb.c registers the driver). */
    opt->egdb_dir = registered_driver && registered_driver->default_dir
                        ? registered_driver->default_dir()
                        : NULL;
}

Engine *engine_new(const EngineOptions *opt, char *err)
{
    if (opt->hash_mb < ENGINE_HASH_MB_MIN || opt->hash_mb > ENGINE_HASH_MB_MAX) {
        snprintf(err, ERR_LEN, "hash size %zu MB is outside %d-%d", opt->hash_mb,
                 ENGINE_HASH_MB_MIN, ENGINE_HASH_MB_MAX);
        return NULL;
    }
    if (opt->threads < ENGINE_THREADS_MIN || opt->threads > ENGINE_THREADS_MAX) {
        snprintf(err, ERR_LEN, "thread count %d is outside %d-%d", opt->threads,
                 ENGINE_THREADS_MIN, ENGINE_THREADS_MAX);
        return NULL;
    }
    Engine *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, ERR_LEN, "out of memory");
        return NULL;
    }
    e->opt = *opt;
    e->opt.weights = NULL;
    e->opt.net = NULL;
    e->opt.egdb_dir = NULL;
    atomic_init(&e->stop, false);

    /* 1. Weights: built in, then the file over them. */
    weights_default(&e->weights);
    if (opt->weights && !weights_load(&e->weights, opt->weights, err)) {
        free(e);
        return NULL;
    }

    /* 2. The network: asked for, given as a file, or built in (then it is the default). */
    bool net = opt->eval == ENGINE_EVAL_NET ||
               (opt->eval == ENGINE_EVAL_DEFAULT &&
                (opt->net || (nnue_driver && nnue_driver->has_default())));
    if (net) {
        if (!nnue_driver) {
            snprintf(err, ERR_LEN, "the network evaluation is not built into this program");
            free(e);
            return NULL;
        }
        if (!(e->net = nnue_driver->load(opt->net, err))) {
            free(e);
            return NULL;
        }
        e->nnue = nnue_driver;
    }

    /* 3. Table and workers. */
    if (!tt_init(&e->tt, opt->hash_mb)) {
        snprintf(err, ERR_LEN, "cannot allocate a %zu MB hash table", opt->hash_mb);
        engine_free(e);
        return NULL;
    }
    for (int i = 0; i < opt->threads; i++) {
        e->workers[i] = search_worker_new();
        if (!e->workers[i]) {
            snprintf(err, ERR_LEN, "out of memory for %d search threads", opt->threads);
            engine_free(e);
            return NULL;
        }
        e->nworkers = i + 1;
    }

    /* 4. Databases, when a driver is built in and a directory given. */
    if (opt->egdb_dir && registered_driver) {
        char msg[ERR_LEN];
        e->egdb_handle = registered_driver->open(opt->egdb_dir, msg);
        if (!e->egdb_handle) {
            int n = snprintf(err, ERR_LEN, "endgame databases in %.60s: ", opt->egdb_dir);
            size_t at = n < 0 ? 0 : (size_t)n;
            for (const char *p = msg; *p && at + 1 < ERR_LEN; p++)
                err[at++] = *p;
            err[at] = '\0';
            engine_free(e);
            return NULL;
        }
        e->egdb = registered_driver;
        e->egdb_pieces = registered_driver->max_pieces(e->egdb_handle);
    }
    return e;
}

void engine_free(Engine *e)
{
    if (!e)
        return;
    if (e->egdb)
        e->egdb->close(e->egdb_handle);
    for (int i = 0; i < e->nworkers; i++)
        search_worker_free(e->workers[i]);
    tt_free(&e->tt);
    if (e->net)
        e->nnue->free(e->net);
    free(e);
}

void engine_new_game(Engine *e)
{
    tt_clear(&e->tt);
    for (int i = 0; i < e->nworkers; i++)
        search_worker_clear(e->workers[i]);
}

/* Whether a move to a position worth CHILD (for the opponent) keeps the root's value ROOT. */
static bool keeps_value(EgdbValue root, EgdbValue child)
{
    if (root == EGDB_WIN)
        return child == EGDB_LOSS;
    if (root == EGDB_DRAW)
        return child == EGDB_LOSS || child == EGDB_DRAW;
    return child != EGDB_UNKNOWN;
}

/* The search of a root that is itself in the endgame databases. Probing inside the tree would
 * end the search one ply down (every move leads to a database position), so each move would be
 * judged by the static evaluation alone and a won ending would be shuffled instead of converted.
 * The search therefore runs without the databases, and the databases vet its choice: the move
 * must keep the root's value (a win stays a win, a draw at least a draw). If it does not, the
 * move that does and that the evaluation likes best is played instead. */
static SearchResult search_in_databases(Engine *e, SearchJob *job, EgdbValue root)
{
    const Board *b = &job->game->board;
    job->egdb = NULL;
    SearchResult r = search_run(job);
    r.database = (int)root;
    if (!r.has_move)
        return r;
    Board c = *b;
    board_apply(&c, &r.best);
    if (keeps_value(root, e->egdb->probe(e->egdb_handle, &c)))
        return r;
    MoveList list;
    int n = movegen_generate(b, job->game->rules, false, &list), best = -1, best_eval = 0;
    for (int i = 0; i < n; i++) {
        c = *b;
        board_apply(&c, &list.moves[i]);
        if (!keeps_value(root, e->egdb->probe(e->egdb_handle, &c)))
            continue;
        int ev = -engine_evaluate(e, &c);
        if (best < 0 || ev > best_eval) {
            best = i;
            best_eval = ev;
        }
    }
    if (best >= 0) {
        r.best = list.moves[best];
        r.has_ponder = false;
        r.info.pv[0] = r.best;
        r.info.pv_len = 1;
    }
    return r;
}

SearchResult engine_search(Engine *e, const Game *g, const SearchLimits *limits,
                           SearchCallback cb, void *ctx)
{
    SearchJob job;
    memset(&job, 0, sizeof job);
    job.tt = &e->tt;
    job.weights = &e->weights;
    job.net = e->net;
    job.net_eval = e->net ? e->nnue->evaluate : NULL;
    job.game = g;
    job.limits = *limits;
    /* No limit at all would never end: treat it as an infinite search. */
    if (job.limits.depth <= 0 && job.limits.time <= 0 && job.limits.nodes == 0)
        job.limits.infinite = true;
    timeman_start(&job.tm, job.limits.infinite ? 0 : job.limits.time);
    atomic_store(&e->stop, false);
    job.stop = &e->stop;
    job.cb = cb;
    job.cb_ctx = ctx;
    job.workers = e->workers;
    job.nworkers = e->nworkers;
    /* The databases hold English-rules values only. */
    bool english = g->rules == &RULES_ENGLISH;
    job.egdb = english ? e->egdb : NULL;
    job.egdb_handle = e->egdb_handle;
    job.egdb_pieces = e->egdb_pieces;
    tt_new_search(&e->tt);
    const Board *b = &g->board;
    if (job.egdb && __builtin_popcount(b->pieces[0] | b->pieces[1]) <= e->egdb_pieces &&
        !movegen_jumpers(b)) {
        EgdbValue root = e->egdb->probe(e->egdb_handle, b);
        if (root != EGDB_UNKNOWN)
            return search_in_databases(e, &job, root);
    }
    SearchResult r = search_run(&job);
    r.database = 0;
    return r;
}

void engine_stop(Engine *e) { atomic_store(&e->stop, true); }

const char *engine_database_warnings(const Engine *e)
{
    if (!e->egdb || !e->egdb->warnings)
        return "";
    return e->egdb->warnings(e->egdb_handle);
}

int engine_database_pieces(const Engine *e) { return e->egdb ? e->egdb_pieces : 0; }

bool engine_uses_net(const Engine *e) { return e->net != NULL; }

int engine_evaluate(const Engine *e, const Board *b)
{
    return e->net ? e->nnue->evaluate(e->net, b) : eval_board(&e->weights, b);
}
