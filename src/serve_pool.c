/*
 * serve_pool.c - the web board's engine workers: each takes a search off the store's queue,
 * runs it without a lock held, publishes its lines and plays its move (see serve_store.h).
 *
 * The pool has one Engine per worker thread, each with its own transposition table: no search
 * ever waits for another's lock. A worker keeps its table from one game to the next: entries
 * are keyed by position, so what one game's search stored is as valid in another; clearing the
 * table (engine_new_game) at every change of game cost 43% of the server's time under the load
 * test (a 16 MB memset per search) for no gain in play. The queue holds at most one entry per game
 * (a game with a search queued or running cannot ask for another, and cancelling takes a queued
 * entry out), so a ring of max_games entries never overflows. A search is identified by the game's
 * job counter: cancelling bumps it, and a running search whose job is stale is stopped at its next
 * iteration and its move discarded.
 */
#include "serve_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    ServeWorker *worker;
    ServeGame *game;
    uint64_t job;
    int line; /* the line being searched (0: the best) */
} SearchContext;

/* Each finished iteration: publish it as the game's live search line, or stop a search whose
 * job was cancelled meanwhile. */
static void on_iteration(const SearchInfo *info, void *arg)
{
    SearchContext *c = arg;
    ServeStore *s = c->worker->store;
    ServeGame *g = c->game;
    pthread_mutex_lock(&g->lock);
    if (g->job == c->job) {
        if (c->line == 0)
            g->info = *info;
        else
            g->more[c->line - 1] = *info;
        if (g->info_lines < c->line + 1)
            g->info_lines = c->line + 1;
        g->has_info = true;
        serve_game_changed(s, g);
        if (g->stop_requested || serve_store_stopping(s))
            engine_stop(c->worker->engine, 0);
    } else
        engine_stop(c->worker->engine, 0);
    pthread_mutex_unlock(&g->lock);
}

/* Takes the next game off the queue (with the queue's reference), or NULL at shutdown. */
static ServeGame *next_job(ServeStore *s)
{
    pthread_mutex_lock(&s->pool_lock);
    while (!s->stopping && s->qlen == 0)
        pthread_cond_wait(&s->pool_cond, &s->pool_lock);
    ServeGame *g = NULL;
    if (!s->stopping) {
        g = s->queue[s->qhead];
        s->qhead = (s->qhead + 1) % s->opt.max_games;
        s->qlen--;
        s->thinking++; /* counted from here, so a status never sees the job in neither place */
    }
    pthread_mutex_unlock(&s->pool_lock);
    return g;
}

/* Whether search JOB of G still stands and may go on to its next line or position (a "move
 * now" ends a multi-line search after the line it stopped). */
static bool job_goes_on(ServeStore *s, ServeGame *g, uint64_t job)
{
    pthread_mutex_lock(&g->lock);
    bool on = g->job == job && !g->stop_requested && !serve_store_stopping(s);
    pthread_mutex_unlock(&g->lock);
    return on;
}

/* Searches up to JOB->lines lines of the worker's scratch game, each leaving out the best moves
 * of the lines before it (multi-PV), into RES; returns the lines found. The time is shared. */
static int search_lines(ServeWorker *w, ServeGame *g, uint64_t job_id, const ServeJob *job,
                        SearchResult res[SERVE_MAX_LINES])
{
    SearchLimits limits = job->limits;
    int lines = job->lines < 1 ? 1 : job->lines > SERVE_MAX_LINES ? SERVE_MAX_LINES : job->lines;
    if (limits.time > 0)
        limits.time /= lines;
    if (limits.clock > 0) /* each line searches as if the clock were its share */
        limits.clock /= lines, limits.inc /= lines;
    int found = 0;
    for (int k = 0; k < lines; k++) {
        if (k > 0 && !job_goes_on(w->store, g, job_id))
            break;
        limits.exclude_len = k;
        if (k > 0)
            limits.exclude[k - 1] = res[k - 1].best;
        SearchContext ctx = {w, g, job_id, k};
        res[k] = engine_search(w->engine, w->scratch, &limits, on_iteration, &ctx);
        if (!res[k].has_move)
            break;
        found++;
    }
    return found;
}

/* The move to play of the lines found: the best, or at a weak level any line within the margin
 * of the best (chosen at random). */
static int pick_line(const ServeJob *job, const SearchResult *res, int found, unsigned *seed)
{
    if (job->margin <= 0 || found < 2)
        return 0;
    int within = 1;
    while (within < found && res[within].info.score >= res[0].info.score - job->margin)
        within++;
    return (int)(rand_r(seed) % (unsigned)within);
}

/* A graph job: evaluates every position of the scratch game from the last to the start,
 * publishing each evaluation as it is found. */
static void run_graph(ServeWorker *w, ServeGame *g, uint64_t job_id, const ServeJob *job)
{
    ServeStore *s = w->store;
    for (;;) {
        int ply = w->scratch->ply;
        SearchContext ctx = {w, g, job_id, 0};
        SearchLimits limits = job->limits;
        SearchResult r = engine_search(w->engine, w->scratch, &limits, NULL, &ctx);
        pthread_mutex_lock(&g->lock);
        bool on = g->job == job_id && !g->stop_requested && !serve_store_stopping(s);
        if (on) {
            int side = w->scratch->board.side;
            int score = r.has_move ? r.info.score : -SCORE_WIN; /* no move: lost */
            if (game_result(w->scratch) != RESULT_NONE && r.has_move)
                score = 0; /* drawn by the rules */
            serve_game_set_eval(g, ply, side == BLACK ? score : -score);
            g->graph_ply = ply;
            serve_game_changed(s, g);
        }
        pthread_mutex_unlock(&g->lock);
        if (!on || !game_undo(w->scratch))
            break;
    }
}

/* Worker W is done with the job it took off the queue (SEARCHED: a search ran). */
static void pool_done(ServeWorker *w, bool searched)
{
    ServeStore *s = w->store;
    pthread_mutex_lock(&s->pool_lock);
    w->game = NULL;
    s->thinking--;
    s->searches += searched;
    pthread_mutex_unlock(&s->pool_lock);
}

static void run_job(ServeWorker *w, ServeGame *g)
{
    ServeStore *s = w->store;

    /* 1. Claim the job, unless it was cancelled while queued, and copy the game (an analysis
     * of an earlier position takes the moves after it back). */
    pthread_mutex_lock(&g->lock);
    if (g->engine != SERVE_ENGINE_QUEUED) {
        pthread_mutex_unlock(&g->lock);
        pool_done(w, false);
        return;
    }
    uint64_t job_id = g->job;
    ServeJob job = g->request;
    job.limits.analysis = job.kind != SERVE_JOB_MOVE; /* analysis, graph: values, not moves */
    if (g->stop_requested)
        job.limits.depth = 1;
    *w->scratch = g->game;
    if (job.kind == SERVE_JOB_ANALYSE)
        while (w->scratch->ply > job.ply && game_undo(w->scratch))
            ;
    g->engine = SERVE_ENGINE_THINKING;
    g->info_ply = w->scratch->ply;
    g->info_side = w->scratch->board.side;
    g->info_lines = 1;
    g->info_analysis = job.kind != SERVE_JOB_MOVE;
    g->info_book = false;
    g->database = 0;
    g->graph_ply = w->scratch->ply;
    pthread_mutex_lock(&s->pool_lock);
    if (s->stopping) {
        s->thinking--;
        pthread_mutex_unlock(&s->pool_lock);
        g->engine = SERVE_ENGINE_IDLE;
        g->job++;
        serve_game_changed(s, g);
        pthread_mutex_unlock(&g->lock);
        return;
    }
    w->game = g;
    w->job = job_id;
    pthread_mutex_unlock(&s->pool_lock);
    serve_game_changed(s, g);
    pthread_mutex_unlock(&g->lock);

    /* 2. Search without any lock held. */
    SearchResult res[SERVE_MAX_LINES];
    int found = 0;
    if (job.kind == SERVE_JOB_GRAPH)
        run_graph(w, g, job_id, &job);
    else
        found = search_lines(w, g, job_id, &job, res);

    pool_done(w, true);

    /* 3. Publish the lines and play the move, if the job still stands and the move is legal. */
    pthread_mutex_lock(&g->lock);
    if (g->job == job_id) {
        g->engine = SERVE_ENGINE_IDLE;
        g->stop_requested = false;
        if (job.kind == SERVE_JOB_GRAPH) {
            /* Nothing to play: the evaluations are in. */
        } else if (found > 0) {
            g->info = res[0].info;
            for (int k = 1; k < found; k++)
                g->more[k - 1] = res[k].info;
            g->info_lines = found;
            g->has_info = true;
            g->database = res[0].database;
            g->info_book = res[0].book;
            int score = res[0].info.score;
            serve_game_set_eval(g, g->info_ply, g->info_side == BLACK ? score : -score);
            if (job.kind == SERVE_JOB_MOVE && !serve_clock_check(s, g)) {
                const Move *best = &res[pick_line(&job, res, found, &w->seed)].best;
                MoveList legal;
                int n = movegen_generate(&g->game.board, g->game.rules, true, &legal);
                bool ok = false;
                for (int i = 0; i < n && !ok; i++)
                    ok = move_same(&legal.moves[i], best, true);
                if (!ok)
                    snprintf(g->engine_error, sizeof g->engine_error,
                             "the engine returned an illegal move");
                else if (!serve_game_play(g, best))
                    snprintf(g->engine_error, sizeof g->engine_error,
                             "the game is too long to record another move");
            }
        } else if (job.kind == SERVE_JOB_MOVE)
            snprintf(g->engine_error, sizeof g->engine_error, "no legal move");
        serve_game_changed(s, g);
    }
    pthread_mutex_unlock(&g->lock);
}

void *serve_worker_main(void *arg)
{
    ServeWorker *w = arg;
    ServeStore *s = w->store;
    ServeGame *g;
    while ((g = next_job(s)) != NULL) {
        run_job(w, g);
        serve_store_release(s, g);
    }
    /* Shutdown: release the references of whatever is still queued (each worker empties what
     * it can; the pool lock makes that safe). */
    for (;;) {
        pthread_mutex_lock(&s->pool_lock);
        if (s->qlen == 0) {
            pthread_mutex_unlock(&s->pool_lock);
            break;
        }
        g = s->queue[s->qhead];
        s->qhead = (s->qhead + 1) % s->opt.max_games;
        s->qlen--;
        pthread_mutex_unlock(&s->pool_lock);
        pthread_mutex_lock(&g->lock);
        if (g->engine == SERVE_ENGINE_QUEUED) {
            g->engine = SERVE_ENGINE_IDLE;
            g->job++;
            serve_game_changed(s, g);
        }
        pthread_mutex_unlock(&g->lock);
        serve_store_release(s, g);
    }
    return NULL;
}
