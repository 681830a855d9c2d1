/*
 * engine.c - the engine facade (see engine.h): the objects a search needs, its jobs, and the
 * options by name set and read on an engine (their table is engine_options.c's).
 *
 * An Engine owns its transposition table, its weights, one SearchWorker per thread (allocated
 * once, reused by every search) and, when databases are available, their handle. A job hands all
 * of them to search_run() in a SearchJob kept in the Engine, with a copy of the game.
 *
 * Jobs. The mutex guards the job state (its number, whether it runs, whether a thread is to be
 * joined). engine_start arms the job's stop flag and assigns its number under the mutex before
 * the search thread exists; engine_stop and engine_ponderhit act only when the number they are
 * given is the running job's, under the same mutex, so a stop cannot be lost to a search that
 * has not begun, nor reach a later job. The search itself reads the flags without the mutex
 * (atomics). The threads start on first use and then live as long as the engine (thread.c):
 * threads[0] runs the jobs, threads[1..] the search's helpers, in engine_start's jobs and
 * engine_search alike; a single-threaded engine_search never starts one (the HackerRank build has
 * no threads at all).
 */
#include "engine.h"

#include "book.h"
#include "engine_options.h"
#include "eval.h"
#include "nnue_hook.h"
#include "ponder.h"
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Static_assert((int)ENGINE_THREADS_MAX <= (int)SEARCH_MAX_THREADS,
               "more threads than search can run");
_Static_assert((uint64_t)ENGINE_HASH_MB_MAX << 20 <= (uint64_t)TT_BUCKET * sizeof(uint64_t) << 32,
               "a table larger than tt.c can index");

struct Engine {
    TT tt;                              /* shared transposition table */
    size_t hash_mb;                     /* its size */
    Weights weights;                    /* evaluation weights */
    char weights_path[ENGINE_PATH_MAX]; /* their file ("" : built in) */
    SearchWorker *workers[SEARCH_MAX_THREADS];
    SearchThread *threads[SEARCH_MAX_THREADS]; /* threads[i] runs workers[i]; threads[0] runs
                                                  the jobs of engine_start */
    int nworkers;
    const EgdbDriver *egdb; /* databases in use, or NULL */
    void *egdb_handle;
    int egdb_pieces;
    char egdb_dir[ENGINE_PATH_MAX];  /* their directory ("": none) */
    Book *book;                      /* the opening book, or NULL */
    char book_path[ENGINE_PATH_MAX]; /* its file ("": none, or the built-in book) */
    bool book_builtin;               /* book is the built-in one */
    int book_variety;                /* EngineOptions.book_variety */
    int contempt;                    /* EngineOptions.contempt */
    uint64_t book_rng;               /* the book's random state (variety), guarded by lock */
    const NnueDriver *nnue;          /* the network's driver when net is set */
    void *net;                      /* the network evaluating, or NULL for the classic evaluation */
    int eval;                       /* the evaluation asked for (ENGINE_EVAL_*) */
    char net_path[ENGINE_PATH_MAX]; /* the network's file ("": the built-in one) */
    /* Jobs (guarded by lock, except what the search reads atomically). */
    pthread_mutex_t lock;
    EngineJob job;       /* the last job started (0: none yet) */
    bool running;        /* job is searching */
    bool pondering;      /* job was started pondering and has had no ponder-hit */
    bool unwaited;       /* job has been started and not waited for */
    bool threaded;       /* job runs on threads[0] (engine_start), to be waited for */
    bool joining;        /* a thread is in engine_wait for job */
    atomic_bool stop;    /* the running job's stop flag */
    SearchJob sj;        /* the running job */
    Game game;           /* its position, copied */
    SearchResult result; /* its result, once it has ended */
    SearchDoneCallback on_done;
    void *done_ctx;
};

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
    opt->eval = ENGINE_EVAL_DEFAULT;
    opt->net = NULL;
    opt->hash_mb = ENGINE_HASH_MB_DEFAULT;
    opt->threads = ENGINE_THREADS_DEFAULT;
    opt->weights = NULL;
    /* No databases unless the caller names a directory (front ends: cli_engine_egdb()). */
    opt->egdb_dir = NULL;
    /* No book unless asked for (front ends: cli_engine_book()). */
    opt->book = NULL;
    opt->book_builtin = false;
    opt->book_variety = ENGINE_BOOK_VARIETY_DEFAULT;
    opt->contempt = ENGINE_CONTEMPT_DEFAULT;
}

/* Writes PREFIX and then MSG into ERR, truncated to ERR_LEN bytes (MSG may be ERR's size). */
static void prefixed(char *err, const char *prefix, const char *msg)
{
    size_t at = 0;
    for (const char *p = prefix; *p && at + 1 < ERR_LEN; p++)
        err[at++] = *p;
    for (const char *p = msg; *p && at + 1 < ERR_LEN; p++)
        err[at++] = *p;
    err[at] = '\0';
}

/* ---- the parts, each replaceable while no job runs ---- */

static bool set_hash(Engine *e, long mb, char *err)
{
    if (mb < ENGINE_HASH_MB_MIN || mb > ENGINE_HASH_MB_MAX) {
        snprintf(err, ERR_LEN, "hash size %ld MB is outside %d-%d", mb, ENGINE_HASH_MB_MIN,
                 ENGINE_HASH_MB_MAX);
        return false;
    }
    if (e->hash_mb == (size_t)mb)
        return true;
    TT t;
    if (!tt_init(&t, (size_t)mb)) {
        snprintf(err, ERR_LEN, "cannot allocate a %ld MB hash table", mb);
        return false;
    }
    if (e->hash_mb)
        tt_free(&e->tt);
    e->tt = t;
    e->hash_mb = (size_t)mb;
    return true;
}

static bool set_threads(Engine *e, long n, char *err)
{
    if (n < ENGINE_THREADS_MIN || n > ENGINE_THREADS_MAX) {
        snprintf(err, ERR_LEN, "thread count %ld is outside %d-%d", n, ENGINE_THREADS_MIN,
                 ENGINE_THREADS_MAX);
        return false;
    }
    int old = e->nworkers;
    while (e->nworkers < n) {
        SearchWorker *w = search_worker_new();
        if (!w) {
            while (e->nworkers > old)
                search_worker_free(e->workers[--e->nworkers]);
            snprintf(err, ERR_LEN, "out of memory for %ld search threads", n);
            return false;
        }
        e->workers[e->nworkers++] = w;
    }
    while (e->nworkers > n) {
        e->nworkers--;
        thread_free(e->threads[e->nworkers]);
        e->threads[e->nworkers] = NULL;
        search_worker_free(e->workers[e->nworkers]);
    }
    return true;
}

/* Starts the threads FROM..nworkers-1 that do not run yet (threads are made on first use, so an
 * engine that only ever searches on its caller's thread, as a single-threaded program does, never
 * starts one). Returns the index of the first that could not be started (nworkers when all run),
 * with the reason in ERR. */
static int start_threads(Engine *e, int from, char *err)
{
    for (int i = from; i < e->nworkers; i++)
        if (!e->threads[i] && !(e->threads[i] = thread_new(err)))
            return i;
    return e->nworkers;
}

/* Whether VALUE means "no file": the built-in weights, no databases. */
static bool is_none(const char *value)
{
    return !value || !*value || strcmp(value, "none") == 0;
}

static bool set_weights(Engine *e, const char *path, char *err)
{
    if (!is_none(path) && strlen(path) >= ENGINE_PATH_MAX) {
        snprintf(err, ERR_LEN, "weights file name longer than %d bytes", ENGINE_PATH_MAX - 1);
        return false;
    }
    Weights w;
    weights_default(&w);
    if (!is_none(path) && !weights_load(&w, path, err))
        return false;
    e->weights = w;
    snprintf(e->weights_path, sizeof e->weights_path, "%s", is_none(path) ? "" : path);
    return true;
}

static void close_egdb(Engine *e)
{
    if (e->egdb)
        e->egdb->close(e->egdb_handle);
    e->egdb = NULL;
    e->egdb_handle = NULL;
    e->egdb_pieces = 0;
    e->egdb_dir[0] = '\0';
}

/* Opens the databases in DIR (none: close them). Without a driver built in, a directory is
 * accepted and ignored, as engine_new always did. */
static bool set_egdb(Engine *e, const char *dir, char *err)
{
    const EgdbDriver *d = egdb_hook_driver();
    if (is_none(dir) || !d) {
        close_egdb(e);
        return true;
    }
    if (strlen(dir) >= ENGINE_PATH_MAX) {
        snprintf(err, ERR_LEN, "database directory name longer than %d bytes", ENGINE_PATH_MAX - 1);
        return false;
    }
    char msg[ERR_LEN], prefix[96];
    void *h = d->open(dir, msg);
    if (!h) {
        snprintf(prefix, sizeof prefix, "endgame databases in %.60s: ", dir);
        prefixed(err, prefix, msg);
        return false;
    }
    close_egdb(e);
    e->egdb = d;
    e->egdb_handle = h;
    e->egdb_pieces = d->max_pieces(h);
    snprintf(e->egdb_dir, sizeof e->egdb_dir, "%s", dir);
    return true;
}

/* Chooses the evaluation EVAL (ENGINE_EVAL_*) with the network file PATH (none: the built-in
 * network), as engine_new always did: the network when asked for, or by default when a file is
 * given or one is built in; else the classic formula. A file given is read even when the formula
 * is chosen, so that a bad one is refused now rather than when the network is chosen later. */
static bool set_eval(Engine *e, int eval, const char *path, char *err)
{
    const NnueDriver *drv = nnue_hook_driver();
    bool file = !is_none(path);
    if (file && strlen(path) >= ENGINE_PATH_MAX) {
        snprintf(err, ERR_LEN, "network file name longer than %d bytes", ENGINE_PATH_MAX - 1);
        return false;
    }
    bool want = eval == ENGINE_EVAL_NET ||
                (eval == ENGINE_EVAL_DEFAULT && (file || (drv && drv->has_default())));
    if (want && !drv) {
        snprintf(err, ERR_LEN, "the network evaluation is not built into this program");
        return false;
    }
    void *net = NULL;
    if ((want || file) && drv && !(net = drv->load(file ? path : NULL, err)))
        return false;
    if (net && !want) {
        drv->free(net);
        net = NULL;
    }
    if (e->net)
        e->nnue->free(e->net);
    e->net = net;
    e->nnue = net ? drv : NULL;
    e->eval = eval;
    snprintf(e->net_path, sizeof e->net_path, "%s", file ? path : "");
    return true;
}

/* Whether VALUE names the book compiled into the program. */
static bool is_builtin(const char *value)
{
    return value && strcmp(value, "builtin") == 0;
}

/* Plays from the book file PATH, from the built-in book when BUILTIN (none when the program has
 * none, unless STRICT), or from no book (PATH none, BUILTIN false). The file is read now. */
static bool set_book(Engine *e, const char *path, bool builtin, bool strict, char *err)
{
    bool file = !builtin && !is_none(path);
    if (file && strlen(path) >= ENGINE_PATH_MAX) {
        snprintf(err, ERR_LEN, "book file name longer than %d bytes", ENGINE_PATH_MAX - 1);
        return false;
    }
    if (builtin && strict && book_default_size == 0) {
        snprintf(err, ERR_LEN, "no book is built into this program");
        return false;
    }
    Book *bk = NULL;
    if (file)
        bk = book_load(path, err);
    else if (builtin && book_default_size > 0)
        bk = book_parse(book_default_data, book_default_size, "the built-in book", err);
    if ((file || (builtin && book_default_size > 0)) && !bk)
        return false;
    book_free(e->book);
    e->book = bk;
    e->book_builtin = builtin && bk;
    snprintf(e->book_path, sizeof e->book_path, "%s", file ? path : "");
    return true;
}

static bool set_book_variety(Engine *e, long n, char *err)
{
    if (n < ENGINE_BOOK_VARIETY_MIN || n > ENGINE_BOOK_VARIETY_MAX) {
        snprintf(err, ERR_LEN, "book variety %ld is outside %d-%d", n, ENGINE_BOOK_VARIETY_MIN,
                 ENGINE_BOOK_VARIETY_MAX);
        return false;
    }
    e->book_variety = (int)n;
    return true;
}

static bool set_contempt(Engine *e, long n, char *err)
{
    if (n < ENGINE_CONTEMPT_MIN || n > ENGINE_CONTEMPT_MAX) {
        snprintf(err, ERR_LEN, "contempt %ld is outside %d-%d", n, ENGINE_CONTEMPT_MIN,
                 ENGINE_CONTEMPT_MAX);
        return false;
    }
    e->contempt = (int)n;
    return true;
}

Engine *engine_new(const EngineOptions *opt, char *err)
{
    ponder_init();
    if (opt->hash_mb < ENGINE_HASH_MB_MIN || opt->hash_mb > ENGINE_HASH_MB_MAX) {
        snprintf(err, ERR_LEN, "hash size %zu MB is outside %d-%d", opt->hash_mb,
                 ENGINE_HASH_MB_MIN, ENGINE_HASH_MB_MAX);
        return NULL;
    }
    if (opt->threads < ENGINE_THREADS_MIN || opt->threads > ENGINE_THREADS_MAX) {
        snprintf(err, ERR_LEN, "thread count %d is outside %d-%d", opt->threads, ENGINE_THREADS_MIN,
                 ENGINE_THREADS_MAX);
        return NULL;
    }
    Engine *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, ERR_LEN, "out of memory");
        return NULL;
    }
    if (pthread_mutex_init(&e->lock, NULL) != 0) {
        snprintf(err, ERR_LEN, "cannot create a lock");
        free(e);
        return NULL;
    }
    atomic_init(&e->stop, false);
    weights_default(&e->weights);
    /* The parts, set as the options by name set them; the book is a file, or with book_builtin
     * the one built in (book_default.c, from data/book/) when there is one. */
    if (!set_threads(e, opt->threads, err) || !set_weights(e, opt->weights, err) ||
        !set_eval(e, opt->eval, opt->net, err) || !set_hash(e, (long)opt->hash_mb, err) ||
        !set_egdb(e, opt->egdb_dir, err) ||
        !set_book(e, opt->book, !opt->book && opt->book_builtin, false, err) ||
        !set_book_variety(e, opt->book_variety, err) || !set_contempt(e, opt->contempt, err)) {
        engine_free(e);
        return NULL;
    }
    e->book_rng = (uint64_t)(uintptr_t)e ^ (uint64_t)(timeman_now() * 1e9);
    return e;
}

/* The book's move for the running job, when it has one and the job is a game move (not an
 * analysis, a ponder search or a search for further lines). */
static bool book_answer(Engine *e, SearchResult *r)
{
    const SearchLimits *l = &e->sj.limits;
    if (!e->book || l->infinite || l->ponder || l->analysis || l->exclude_len > 0)
        return false;
    BookHit h;
    pthread_mutex_lock(&e->lock);
    BookChoice c = {e->book_variety, &e->book_rng};
    bool hit = book_choose(e->book, &e->game.board, &c, &h);
    pthread_mutex_unlock(&e->lock);
    if (!hit)
        return false;
    memset(r, 0, sizeof *r);
    r->has_move = true;
    r->best = h.move;
    r->book = true;
    r->info.depth = h.depth;
    r->info.score = h.score;
    r->info.pv_len = 1;
    r->info.pv[0] = h.move;
    return true;
}

void engine_free(Engine *e)
{
    if (!e)
        return;
    SearchResult r;
    engine_stop(e, 0);
    pthread_mutex_lock(&e->lock);
    EngineJob job = e->unwaited ? e->job : 0;
    pthread_mutex_unlock(&e->lock);
    if (job)
        engine_wait(e, job, &r);
    close_egdb(e);
    for (int i = 0; i < e->nworkers; i++) {
        thread_free(e->threads[i]);
        search_worker_free(e->workers[i]);
    }
    if (e->hash_mb)
        tt_free(&e->tt);
    if (e->net)
        e->nnue->free(e->net);
    book_free(e->book);
    pthread_mutex_destroy(&e->lock);
    free(e);
}

void engine_new_game(Engine *e)
{
    tt_clear(&e->tt);
    for (int i = 0; i < e->nworkers; i++)
        search_worker_clear(e->workers[i]);
}

/* ---- jobs ---- */

/* Describes a job on G within LIMITS in e->sj and claims the engine for it (lock held). Returns
 * the job's number, or 0 with ERR filled when the engine is busy. */
static EngineJob claim(Engine *e, const Game *g, const SearchLimits *limits, SearchCallback cb,
                       void *ctx, char *err)
{
    if (e->unwaited) {
        snprintf(err, ERR_LEN, "a search is already under way (job %llu)",
                 (unsigned long long)e->job);
        return 0;
    }
    if (g != &e->game)
        e->game = *g;
    SearchJob *j = &e->sj;
    memset(j, 0, sizeof *j);
    j->tt = &e->tt;
    j->weights = &e->weights;
    j->net = e->net;
    j->net_eval = e->net ? e->nnue->evaluate : NULL;
    j->game = &e->game;
    j->limits = *limits;
    /* No limit at all would never end: treat it as an infinite search. */
    if (j->limits.depth <= 0 && j->limits.time <= 0 && j->limits.clock <= 0 &&
        j->limits.nodes == 0 && !j->limits.ponder)
        j->limits.infinite = true;
    atomic_store(&e->stop, false);
    atomic_init(&j->ponderhit, false);
    atomic_init(&j->ponderhit_at, 0.0);
    j->stop = &e->stop;
    j->cb = cb;
    j->cb_ctx = ctx;
    j->workers = e->workers;
    j->threads = e->threads;
    /* Helpers that cannot get a thread are left out: fewer threads, same search. */
    j->nworkers = start_threads(e, 1, err);
    if (j->nworkers < 1)
        j->nworkers = 1;
    j->egdb = e->egdb;
    j->egdb_handle = e->egdb_handle;
    j->egdb_pieces = e->egdb_pieces;
    j->contempt = limits->analysis ? 0 : e->contempt; /* a value to show: a draw is 0 */
    j->trade = j->contempt > 0 ? j->contempt / 5 : 0; /* measured at 20 only: docs/engine.md */
    tt_new_search(&e->tt);
    e->job++;
    e->running = true;
    e->pondering = limits->ponder;
    e->unwaited = true;
    e->threaded = false;
    e->joining = false;
    memset(&e->result, 0, sizeof e->result);
    return e->job;
}

/* The job has ended with R. */
static void finish(Engine *e, const SearchResult *r)
{
    pthread_mutex_lock(&e->lock);
    e->result = *r;
    e->running = false;
    e->pondering = false;
    pthread_mutex_unlock(&e->lock);
}

static void job_main(void *arg)
{
    Engine *e = arg;
    SearchResult r;
    if (!book_answer(e, &r))
        r = search_run(&e->sj);
    finish(e, &r);
    if (e->on_done)
        e->on_done(e->job, &r, e->done_ctx);
}

EngineJob engine_start(Engine *e, const Game *g, const SearchLimits *limits,
                       SearchCallback on_iteration, SearchDoneCallback on_done, void *ctx,
                       char *err)
{
    pthread_mutex_lock(&e->lock);
    if (start_threads(e, 0, err) == 0) {
        pthread_mutex_unlock(&e->lock);
        return 0;
    }
    EngineJob job = claim(e, g, limits, on_iteration, ctx, err);
    if (!job) {
        pthread_mutex_unlock(&e->lock);
        return 0;
    }
    e->on_done = on_done;
    e->done_ctx = ctx;
    e->threaded = true;
    thread_run(e->threads[0], job_main, e);
    pthread_mutex_unlock(&e->lock);
    return job;
}

bool engine_wait(Engine *e, EngineJob job, SearchResult *out)
{
    pthread_mutex_lock(&e->lock);
    if (job == 0 || job != e->job || !e->unwaited || !e->threaded || e->joining) {
        pthread_mutex_unlock(&e->lock);
        return false;
    }
    e->joining = true;
    pthread_mutex_unlock(&e->lock);
    thread_wait(e->threads[0]);
    pthread_mutex_lock(&e->lock);
    *out = e->result;
    e->unwaited = e->threaded = e->joining = false;
    pthread_mutex_unlock(&e->lock);
    return true;
}

bool engine_stop(Engine *e, EngineJob job)
{
    pthread_mutex_lock(&e->lock);
    bool hit = e->running && (job == 0 || job == e->job);
    if (hit)
        atomic_store(&e->stop, true);
    pthread_mutex_unlock(&e->lock);
    return hit;
}

bool engine_ponderhit(Engine *e, EngineJob job)
{
    pthread_mutex_lock(&e->lock);
    bool hit = e->running && e->pondering && (job == 0 || job == e->job);
    if (hit) {
        e->pondering = false;
        atomic_store(&e->sj.ponderhit_at, timeman_now());
        atomic_store_explicit(&e->sj.ponderhit, true, memory_order_release);
    }
    pthread_mutex_unlock(&e->lock);
    return hit;
}

bool engine_busy(Engine *e)
{
    pthread_mutex_lock(&e->lock);
    bool busy = e->unwaited;
    pthread_mutex_unlock(&e->lock);
    return busy;
}

SearchResult engine_search(Engine *e, const Game *g, const SearchLimits *limits, SearchCallback cb,
                           void *ctx)
{
    SearchResult r;
    memset(&r, 0, sizeof r);
    char err[ERR_LEN];
    pthread_mutex_lock(&e->lock);
    EngineJob job = claim(e, g, limits, cb, ctx, err);
    pthread_mutex_unlock(&e->lock);
    if (!job)
        return r;
    if (!book_answer(e, &r))
        r = search_run(&e->sj);
    finish(e, &r);
    pthread_mutex_lock(&e->lock);
    e->unwaited = false;
    pthread_mutex_unlock(&e->lock);
    return r;
}

const char *engine_database_warnings(const Engine *e)
{
    if (!e->egdb || !e->egdb->warnings)
        return "";
    return e->egdb->warnings(e->egdb_handle);
}

/* ---- options by name (the table: engine_options.c) ---- */

bool engine_option_set(Engine *e, const char *name, const char *value, char *err)
{
    int id = engine_option_find(name, err);
    if (id < 0)
        return false;
    const EngineOptionInfo *o = &engine_option_table[id];
    char msg[ERR_LEN], prefix[32];
    snprintf(prefix, sizeof prefix, "option %s: ", o->name);
    long n;
    if (!engine_option_parse_info(o, value, &n, msg)) {
        prefixed(err, prefix, msg);
        return false;
    }
    pthread_mutex_lock(&e->lock);
    bool ok;
    if (e->unwaited) {
        snprintf(err, ERR_LEN, "option %s cannot change during a search", o->name);
        ok = false;
    } else {
        switch (id) {
        case OPT_HASH: ok = set_hash(e, n, msg); break;
        case OPT_THREADS: ok = set_threads(e, n, msg); break;
        case OPT_WEIGHTS: ok = set_weights(e, value, msg); break;
        case OPT_EVAL:
            ok = set_eval(e, n == 0 ? ENGINE_EVAL_CLASSIC : ENGINE_EVAL_NET, e->net_path, msg);
            break;
        case OPT_NET: ok = set_eval(e, e->eval, value, msg); break;
        case OPT_EGDB: ok = set_egdb(e, value, msg); break;
        case OPT_BOOK: ok = set_book(e, value, is_builtin(value), true, msg); break;
        case OPT_BOOK_VARIETY: ok = set_book_variety(e, n, msg); break;
        default: ok = set_contempt(e, n, msg); break;
        }
        if (!ok)
            prefixed(err, prefix, msg);
    }
    pthread_mutex_unlock(&e->lock);
    return ok;
}

bool engine_option_get(const Engine *e, const char *name, char *out, size_t size, char *err)
{
    int id = engine_option_find(name, err);
    if (id < 0)
        return false;
    /* A file or directory, or "none" when there is none. */
    const char *path = NULL;
    int n = 0;
    switch (id) {
    case OPT_HASH: n = snprintf(out, size, "%zu", e->hash_mb); break;
    case OPT_THREADS: n = snprintf(out, size, "%d", e->nworkers); break;
    case OPT_WEIGHTS: path = e->weights_path; break;
    case OPT_EVAL: n = snprintf(out, size, "%s", e->net ? "net" : "classic"); break;
    case OPT_NET: path = e->net_path; break;
    case OPT_EGDB: path = e->egdb_dir; break;
    case OPT_BOOK: path = e->book_builtin ? "builtin" : e->book_path; break;
    case OPT_BOOK_VARIETY: n = snprintf(out, size, "%d", e->book_variety); break;
    default: n = snprintf(out, size, "%d", e->contempt); break;
    }
    if (path)
        n = snprintf(out, size, "%s", path[0] ? path : "none");
    if (n < 0 || (size_t)n >= size) {
        snprintf(err, ERR_LEN, "option %s: its value does not fit in %zu bytes", name, size);
        return false;
    }
    return true;
}

int engine_database_pieces(const Engine *e)
{
    return e->egdb ? e->egdb_pieces : 0;
}

bool engine_uses_net(const Engine *e)
{
    return e->net != NULL;
}

int engine_evaluate(const Engine *e, const Board *b)
{
    return e->net ? e->nnue->evaluate(e->net, b) : eval_board(&e->weights, b);
}
