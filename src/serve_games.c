/*
 * serve_games.c - the web board's game store, and the requests that queue, stop and cancel its
 * searches (see serve.h; the workers that run them are serve_pool.c's).
 *
 * The store is a fixed array of game pointers, searched by id: with a few hundred games a scan
 * costs microseconds, far below one HTTP round trip, and needs no hash table. Each game is
 * reference counted (atomically, so holding a game's lock never needs the store lock): a game
 * deleted or evicted while a request, the queue, a worker or a WebSocket still holds it is freed
 * by the last of them. When the store is full a new game evicts the least recently used game
 * that nobody else holds.
 */
#include "serve.h"
#include "serve_store.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

/* ---- time helpers ---- */

static struct timespec deadline_after(double seconds)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (seconds < 0)
        seconds = 0;
    if (seconds > 1e6)
        seconds = 1e6;
    time_t whole = (time_t)seconds;
    long nsec = ts.tv_nsec + (long)((seconds - (double)whole) * 1e9);
    ts.tv_sec += whole + nsec / 1000000000L;
    ts.tv_nsec = nsec % 1000000000L;
    return ts;
}

/* ---- the store ---- */

ServeStore *serve_store_new(const ServeStoreOptions *opt, char *err)
{
    ServeStore *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, ERR_LEN, "out of memory");
        return NULL;
    }
    s->opt = *opt;
    if (s->opt.max_games < 1)
        s->opt.max_games = 1;
    if (s->opt.workers < 1)
        s->opt.workers = 1;
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->pool_lock, NULL);
    pthread_cond_init(&s->pool_cond, NULL);
    pthread_mutex_init(&s->notify_lock, NULL);
    pthread_cond_init(&s->notify_cond, NULL);
    s->table = calloc((size_t)s->opt.max_games, sizeof *s->table);
    s->queue = calloc((size_t)s->opt.max_games, sizeof *s->queue);
    s->workers = calloc((size_t)s->opt.workers, sizeof *s->workers);
    if (!s->table || !s->queue || !s->workers) {
        snprintf(err, ERR_LEN, "out of memory");
        serve_store_free(s);
        return NULL;
    }
    s->nballots = openings_ballots(true, &s->ballots, err);
    if (s->nballots < 0) {
        s->ballots = NULL;
        serve_store_free(s);
        return NULL;
    }
    for (int i = 0; i < s->opt.workers; i++) {
        ServeWorker *w = &s->workers[i];
        w->store = s;
        w->index = i;
        w->seed = (unsigned)time(NULL) ^ (unsigned)(i * 2654435761u);
        w->scratch = malloc(sizeof *w->scratch);
        if (!w->scratch) {
            snprintf(err, ERR_LEN, "out of memory");
            serve_store_free(s);
            return NULL;
        }
        char eerr[ERR_LEN] = "";
        w->engine = engine_new(&s->opt.engine, eerr);
        if (!w->engine) {
            snprintf(err, ERR_LEN, "engine: %.140s", eerr);
            serve_store_free(s);
            return NULL;
        }
    }
    for (int i = 0; i < s->opt.workers; i++) {
        ServeWorker *w = &s->workers[i];
        int rc = pthread_create(&w->thread, NULL, serve_worker_main, w);
        if (rc != 0) {
            snprintf(err, ERR_LEN, "cannot start a worker thread: %s", strerror(rc));
            serve_store_free(s);
            return NULL;
        }
        w->started = true;
    }
    return s;
}

const Opening *serve_store_ballots(const ServeStore *s, int *count)
{
    *count = s->nballots;
    return s->ballots;
}

const ServeStoreOptions *serve_store_options(const ServeStore *s)
{
    return &s->opt;
}

bool serve_store_stopping(ServeStore *s)
{
    pthread_mutex_lock(&s->pool_lock);
    bool stopping = s->stopping;
    pthread_mutex_unlock(&s->pool_lock);
    return stopping;
}

void serve_store_shutdown(ServeStore *s)
{
    /* 1. Refuse new searches, stop the running ones; the workers drop the queue and exit. */
    pthread_mutex_lock(&s->pool_lock);
    s->stopping = true;
    for (int i = 0; i < s->opt.workers; i++)
        if (s->workers[i].game && s->workers[i].engine)
            engine_stop(s->workers[i].engine, 0);
    pthread_cond_broadcast(&s->pool_cond);
    pthread_mutex_unlock(&s->pool_lock);

    /* 2. Wake every request waiting on a game, and the pusher. */
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < s->opt.max_games; i++) {
        ServeGame *g = s->table[i];
        if (g) {
            pthread_mutex_lock(&g->lock);
            pthread_cond_broadcast(&g->changed);
            pthread_mutex_unlock(&g->lock);
        }
    }
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_lock(&s->notify_lock);
    s->notify_tick++;
    pthread_cond_broadcast(&s->notify_cond);
    pthread_mutex_unlock(&s->notify_lock);
}

/* Games in memory, whatever their store: the count /api/status reports so that tests can see
 * that every game deleted is freed once its last holder lets go. */
static atomic_long games_allocated;

static void game_free(ServeGame *g)
{
    atomic_fetch_sub(&games_allocated, 1);
    pthread_mutex_destroy(&g->lock);
    pthread_cond_destroy(&g->changed);
    free(g->history);
    free(g->evals);
    free(g);
}

void serve_store_free(ServeStore *s)
{
    if (!s)
        return;
    serve_store_shutdown(s);
    for (int i = 0; s->workers && i < s->opt.workers; i++) {
        ServeWorker *w = &s->workers[i];
        if (w->started)
            pthread_join(w->thread, NULL);
        if (w->engine)
            engine_free(w->engine);
        free(w->scratch);
    }
    /* The workers released what they held; the queue was emptied by them. What is left in the
     * table goes now, whatever its count (the HTTP server has stopped). */
    for (int i = 0; s->table && i < s->opt.max_games; i++)
        if (s->table[i])
            game_free(s->table[i]);
    free(s->table);
    free(s->queue);
    free(s->workers);
    free(s->ballots);
    pthread_mutex_destroy(&s->lock);
    pthread_mutex_destroy(&s->pool_lock);
    pthread_cond_destroy(&s->pool_cond);
    pthread_mutex_destroy(&s->notify_lock);
    pthread_cond_destroy(&s->notify_cond);
    free(s);
}

/* 16 random hex digits from the kernel's generator (ids must not be guessable when the server
 * listens beyond loopback). */
static bool random_id(char out[SERVE_ID_LEN + 1])
{
    unsigned char raw[SERVE_ID_LEN / 2];
    size_t got = 0;
    while (got < sizeof raw) {
        ssize_t n = getrandom(raw + got, sizeof raw - got, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        got += (size_t)n;
    }
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < sizeof raw; i++) {
        out[2 * i] = hex[raw[i] >> 4];
        out[2 * i + 1] = hex[raw[i] & 15];
    }
    out[SERVE_ID_LEN] = '\0';
    return true;
}

static ServeGame *find_locked(ServeStore *s, const char *id, int *slot)
{
    for (int i = 0; i < s->opt.max_games; i++)
        if (s->table[i] && strcmp(s->table[i]->id, id) == 0) {
            if (slot)
                *slot = i;
            return s->table[i];
        }
    return NULL;
}

/* Drops the table's reference of the game in SLOT (store lock held); returns it if that was the
 * last reference, for the caller to free after unlocking. */
static ServeGame *unlist_locked(ServeStore *s, int slot)
{
    ServeGame *g = s->table[slot];
    s->table[slot] = NULL;
    s->count--;
    g->listed = false;
    return atomic_fetch_sub(&g->refs, 1) == 1 ? g : NULL;
}

ServeGame *serve_store_create(ServeStore *s, const Rules *r, const Board *start)
{
    ServeGame *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->evals = malloc((GAME_MAX_PLIES + 1) * sizeof *g->evals);
    if (!g->evals || !random_id(g->id)) {
        free(g->evals);
        free(g);
        return NULL;
    }
    for (int i = 0; i <= GAME_MAX_PLIES; i++)
        g->evals[i] = SERVE_NO_EVAL;
    atomic_fetch_add(&games_allocated, 1);
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->changed, NULL);
    game_init(&g->game, r, start);
    g->version = 1;
    g->human = SERVE_HUMAN_BLACK;
    g->think_time = 1.0;
    g->level = serve_level_count - 1; /* full strength */
    g->info_lines = 1;

    ServeGame *evicted = NULL;
    pthread_mutex_lock(&s->lock);
    int slot = -1;
    for (int i = 0; i < s->opt.max_games && slot < 0; i++)
        if (!s->table[i])
            slot = i;
    if (slot < 0) {
        /* Full: the least recently used game that only the table holds (no request, search,
         * or open WebSocket) makes room. */
        int victim = -1;
        for (int i = 0; i < s->opt.max_games; i++)
            if (atomic_load(&s->table[i]->refs) == 1 &&
                (victim < 0 || s->table[i]->last_used < s->table[victim]->last_used))
                victim = i;
        if (victim >= 0) {
            evicted = unlist_locked(s, victim);
            s->evicted++;
            slot = victim;
        }
    }
    if (slot >= 0 && find_locked(s, g->id, NULL))
        slot = -1; /* a 64-bit collision: refuse rather than alias two games */
    if (slot < 0) {
        pthread_mutex_unlock(&s->lock);
        game_free(g);
        if (evicted)
            game_free(evicted);
        return NULL;
    }
    atomic_store(&g->refs, 2); /* the table and the caller */
    g->listed = true;
    g->last_used = ++s->tick;
    s->table[slot] = g;
    s->count++;
    pthread_mutex_unlock(&s->lock);
    if (evicted)
        game_free(evicted);
    return g;
}

ServeGame *serve_store_get(ServeStore *s, const char *id)
{
    pthread_mutex_lock(&s->lock);
    ServeGame *g = find_locked(s, id, NULL);
    if (g) {
        atomic_fetch_add(&g->refs, 1);
        g->last_used = ++s->tick;
    }
    pthread_mutex_unlock(&s->lock);
    return g;
}

void serve_store_retain(ServeStore *s, ServeGame *g)
{
    (void)s;
    atomic_fetch_add(&g->refs, 1);
}

void serve_store_release(ServeStore *s, ServeGame *g)
{
    (void)s;
    if (atomic_fetch_sub(&g->refs, 1) == 1)
        game_free(g);
}

bool serve_store_delete(ServeStore *s, const char *id)
{
    pthread_mutex_lock(&s->lock);
    int slot;
    ServeGame *g = find_locked(s, id, &slot);
    if (!g) {
        pthread_mutex_unlock(&s->lock);
        return false;
    }
    atomic_fetch_add(&g->refs, 1); /* keep it alive while cancelling */
    unlist_locked(s, slot);
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_lock(&g->lock);
    serve_game_cancel_search(s, g);
    serve_game_changed(s, g);
    pthread_mutex_unlock(&g->lock);
    serve_store_release(s, g);
    return true;
}

void serve_store_stats(ServeStore *s, ServeStoreStats *st)
{
    memset(st, 0, sizeof *st);
    pthread_mutex_lock(&s->lock);
    st->games = s->count;
    st->evicted = s->evicted;
    st->allocated = atomic_load(&games_allocated);
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_lock(&s->pool_lock);
    st->queued = s->qlen;
    st->thinking = s->thinking;
    st->searches = s->searches;
    pthread_mutex_unlock(&s->pool_lock);
}

/* ---- change notification ---- */

void serve_game_changed(ServeStore *s, ServeGame *g)
{
    g->version++;
    pthread_cond_broadcast(&g->changed);
    pthread_mutex_lock(&s->notify_lock);
    s->notify_tick++;
    pthread_cond_broadcast(&s->notify_cond);
    pthread_mutex_unlock(&s->notify_lock);
}

uint64_t serve_store_wait_change(ServeStore *s, uint64_t seen, double timeout)
{
    struct timespec until = deadline_after(timeout);
    pthread_mutex_lock(&s->notify_lock);
    while (s->notify_tick == seen) {
        if (pthread_cond_timedwait(&s->notify_cond, &s->notify_lock, &until) == ETIMEDOUT)
            break;
    }
    uint64_t tick = s->notify_tick;
    pthread_mutex_unlock(&s->notify_lock);
    return tick;
}

/* ---- searches ---- */

void serve_game_set_eval(ServeGame *g, int ply, int black_view)
{
    if (ply < 0 || ply > g->game.ply || ply > GAME_MAX_PLIES)
        return;
    if (black_view > SCORE_WIN)
        black_view = SCORE_WIN;
    if (black_view < -SCORE_WIN)
        black_view = -SCORE_WIN;
    g->evals[ply] = (int16_t)black_view;
}

bool serve_game_over(const ServeGame *g)
{
    return g->outcome[0] || game_result(&g->game) != RESULT_NONE;
}

bool serve_game_play(ServeGame *g, const Move *m)
{
    int mover = g->game.board.side;
    if (!game_play(&g->game, m))
        return false;
    if (g->clock.on) {
        double now = serve_now();
        g->clock.left[mover] += g->clock.increment - (now - g->clock.since);
        g->clock.since = now;
    }
    g->evals[g->game.ply] = SERVE_NO_EVAL; /* a new position (an earlier one may have been
                                              evaluated before an undo) */
    g->notice[0] = '\0';
    g->engine_error[0] = '\0';
    return true;
}

int serve_game_start_search(ServeStore *s, ServeGame *g, const ServeJob *job)
{
    pthread_mutex_lock(&s->pool_lock);
    if (s->stopping || s->qlen >= s->opt.max_games) {
        pthread_mutex_unlock(&s->pool_lock);
        return 503;
    }
    g->job++;
    g->request = *job;
    g->engine = SERVE_ENGINE_QUEUED;
    g->stop_requested = false;
    g->has_info = false;
    g->engine_error[0] = '\0';
    s->queue[(s->qhead + s->qlen) % s->opt.max_games] = g;
    s->qlen++;
    serve_store_retain(s, g); /* the queue's reference */
    pthread_cond_signal(&s->pool_cond);
    pthread_mutex_unlock(&s->pool_lock);
    serve_game_changed(s, g);
    return 0;
}

void serve_game_cancel_search(ServeStore *s, ServeGame *g)
{
    if (g->engine == SERVE_ENGINE_IDLE)
        return;
    pthread_mutex_lock(&s->pool_lock);
    /* A queued entry leaves the ring (with its reference: not the last, the caller holds one);
     * a running search is stopped. */
    int kept = 0;
    for (int i = 0; i < s->qlen; i++) {
        ServeGame *q = s->queue[(s->qhead + i) % s->opt.max_games];
        if (q == g)
            atomic_fetch_sub(&g->refs, 1);
        else
            s->queue[(s->qhead + kept++) % s->opt.max_games] = q;
    }
    s->qlen = kept;
    for (int i = 0; i < s->opt.workers; i++)
        if (s->workers[i].game == g && s->workers[i].job == g->job)
            engine_stop(s->workers[i].engine, 0);
    pthread_mutex_unlock(&s->pool_lock);
    g->job++;
    g->engine = SERVE_ENGINE_IDLE;
    g->stop_requested = false;
    serve_game_changed(s, g);
}

bool serve_game_stop_search(ServeStore *s, ServeGame *g)
{
    if (g->engine == SERVE_ENGINE_IDLE)
        return false;
    if (g->engine == SERVE_ENGINE_QUEUED) {
        g->stop_requested = true;
        return true;
    }
    pthread_mutex_lock(&s->pool_lock);
    for (int i = 0; i < s->opt.workers; i++)
        if (s->workers[i].game == g && s->workers[i].job == g->job)
            engine_stop(s->workers[i].engine, 0);
    pthread_mutex_unlock(&s->pool_lock);
    return true;
}

bool serve_game_wait_search(ServeStore *s, ServeGame *g, uint64_t job, double timeout)
{
    struct timespec until = deadline_after(timeout);
    while (g->job == job && g->engine != SERVE_ENGINE_IDLE && !serve_store_stopping(s)) {
        if (pthread_cond_timedwait(&g->changed, &g->lock, &until) == ETIMEDOUT)
            break;
    }
    return g->job != job || g->engine == SERVE_ENGINE_IDLE;
}
