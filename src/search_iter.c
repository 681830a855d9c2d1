/*
 * search_iter.c - the job of one search (search_tree, see search.h): the root moves, the
 * workers set up and started on their threads (Lazy SMP), iterative deepening with aspiration
 * windows on each, the stop rules of a timed search, and the move of the last finished
 * iteration. Each iteration's pass over the root moves and the tree below them are search.c's.
 */
#include "search.h"

#include "search_worker.h"

#include <string.h>
#include <time.h>

/* A ponder search whose move was played (engine_ponderhit): from now on the limits apply, with
 * the clock counted from the hit. Main worker only. */
void search_check_ponderhit(SearchJob *job)
{
    if (!job->limits.ponder || !atomic_load_explicit(&job->ponderhit, memory_order_acquire))
        return;
    job->limits.ponder = false;
    timeman_start(&job->tm, &job->limits, atomic_load(&job->ponderhit_at));
    /* One legal move and a clock: nothing to think about any more (as at the start of a search
     * on a clock). */
    if (job->workers[0]->root.count == 1 && job->limits.clock > 0 && !job->limits.infinite)
        atomic_store_explicit(job->stop, true, memory_order_relaxed);
}

/* The iteration's report. Its score leaves out the root's own piece term (search.c), so a quiet
 * root reads as its evaluation and a line reads less what its exchanges cost. */
static void fill_info(SearchWorker *w, int depth, int score)
{
    const SearchJob *job = w->job;
    if (job->trade && !score_is_decisive(score))
        score -= search_trade_term(job, &job->game->board);
    SearchInfo *info = &w->info;
    info->depth = depth;
    info->seldepth = w->seldepth;
    info->mean_depth = w->leaves ? (double)w->leaf_plies / (double)w->leaves : 0.0;
    info->score = score;
    info->nodes = total_nodes(w->job);
    info->time = timeman_now() - w->job->started;
    info->pv_len = w->pv_len[0];
    memcpy(info->pv, w->pv[0], (size_t)info->pv_len * sizeof(Move));
}

/* Iterative deepening on one worker. Helpers (index > 0) start one ply deeper on odd indices so
 * the threads spread over two depths. */
static void iterate(SearchWorker *w)
{
    SearchJob *job = w->job;
    memset(w->eval_cache, 0, sizeof w->eval_cache);
    int max_depth =
        job->limits.depth > 0 && job->limits.depth < MAX_PLY ? job->limits.depth : MAX_PLY - 1;
    int score = 0;
    for (int depth = 1 + (w->index & 1); depth <= max_depth; depth++) {
        w->seldepth = 0;
        w->leaves = w->leaf_plies = 0;
        w->aborted = false;

        /* Aspiration: a window around the last score, widened on the failing side. */
        int delta = ASP_DELTA, alpha = -SCORE_INFINITE, beta = SCORE_INFINITE;
        if (depth >= ASP_MIN_DEPTH && !score_is_decisive(score)) {
            alpha = score - delta;
            beta = score + delta;
        }
        int s;
        for (;;) {
            s = search_root(w, alpha, beta, depth);
            if (w->aborted)
                break;
            if (s <= alpha) {
                beta = (alpha + beta) / 2;
                alpha = s - delta > -SCORE_INFINITE ? s - delta : -SCORE_INFINITE;
            } else if (s >= beta) {
                beta = s + delta < SCORE_INFINITE ? s + delta : SCORE_INFINITE;
            } else {
                break;
            }
            delta += delta / 2;
        }

        /* An aborted iteration still counts its best move if it beat the previous one (it was
         * searched to the full depth); its score is that move's. */
        if (w->aborted) {
            if (w->index == 0 && w->pv_len[0] > 0 && s > -SCORE_INFINITE &&
                !move_same(&w->pv[0][0], &w->info.pv[0], true)) {
                fill_info(w, depth, s);
                w->info.depth = w->completed;
            }
            break;
        }
        score = s;
        w->completed = depth;
        if (w->index != 0)
            continue;

        bool changed = depth > 1 && w->info.pv_len > 0 && w->pv_len[0] > 0 &&
                       !move_same(&w->pv[0][0], &w->info.pv[0], true);
        fill_info(w, depth, score);
        if (job->cb)
            job->cb(&w->info, job->cb_ctx);

        /* Stop early when more depth cannot help: a proven result seen with depth to spare, or a
         * soft deadline (later when the best move changed or the score fell) that leaves too
         * little time for another iteration. */
        search_check_ponderhit(job);
        timeman_iteration(&job->tm, score, changed);
        if (!job->limits.infinite && timeman_timed(&job->tm)) {
            if (score_is_decisive(score) && depth >= score_plies_to_end(score) + 2)
                break;
            if (timeman_soft_expired(&job->tm))
                break;
        }
    }
}

static void helper_main(void *arg)
{
    iterate(arg);
}

SearchResult search_tree(SearchJob *job)
{
    SearchResult res;
    memset(&res, 0, sizeof res);
    const Game *g = job->game;
    SearchWorker *main_w = job->workers[0];

    /* 1. The root moves. With none, the side to move has lost; with one and a clock running,
     * there is nothing to think about: the move is returned at once and its time saved for
     * later moves (in a timed analysis too: the web board names it the only legal move). With
     * an exact time a move and one legal move in play, nothing can be saved, so the
     * move is searched as any other: the answer is the same, but the table holds the opponent's
     * replies when the next search starts (docs/engine.md, "Time"). */
    MoveList *root = &main_w->root;
    movegen_generate(&g->board, g->rules, false, root);
    int kept = 0;
    for (int i = 0; i < root->count; i++) {
        bool excluded = false;
        for (int k = 0; k < job->limits.exclude_len && k < SEARCH_MAX_EXCLUDE; k++)
            excluded |= move_same(&root->moves[i], &job->limits.exclude[k], false);
        if (!excluded)
            root->moves[kept++] = root->moves[i];
    }
    root->count = kept; /* every move excluded: as if there were none (the caller's doing) */
    if (root->count == 0) {
        res.info.score = loss_score(0);
        return res;
    }
    res.has_move = true;
    res.best = root->moves[0];
    job->started = timeman_now();
    if (job->limits.ponder)
        timeman_start_untimed(&job->tm, job->started);
    else
        timeman_start(&job->tm, &job->limits, job->started);
    bool at_once = job->limits.clock > 0 || (job->limits.analysis && job->limits.time > 0);
    if (root->count == 1 && at_once && !job->limits.infinite && !job->limits.ponder) {
        res.info.pv_len = 1;
        res.info.pv[0] = root->moves[0];
        res.info.score = evaluate_uncached(job, &g->board);
        return res;
    }

    /* 2. Every worker starts from the same root, with the game's recent keys for repetitions. */
    int q = g->quiet[g->ply];
    if (q > g->ply)
        q = g->ply;
    if (q > GAME_MAX_PLIES)
        q = GAME_MAX_PLIES;
    for (int t = 0; t < job->nworkers; t++) {
        SearchWorker *w = job->workers[t];
        w->index = t;
        w->job = job;
        atomic_store_explicit(&w->nodes, 0, memory_order_relaxed);
        w->completed = 0;
        memset(&w->info, 0, sizeof w->info);
        memcpy(w->keys, &g->keys[g->ply - q], (size_t)(q + 1) * sizeof(uint64_t));
        w->base = q;
        w->quiet[0] = g->quiet[g->ply];
        if (t > 0)
            w->root = *root;
        for (int i = 0; i < root->count; i++)
            w->root_index[i] = (uint8_t)i;
        memset(w->killers, 0, sizeof w->killers);
    }
    main_w->info.pv_len = 1;
    main_w->info.pv[0] = root->moves[0];

    /* 3. Start the helpers on their threads, search, then stop them and wait for them. */
    for (int t = 1; t < job->nworkers; t++)
        thread_run(job->threads[t], helper_main, job->workers[t]);
    iterate(main_w);

    /* An infinite search waits for a stop even when it has nothing left to search, and a ponder
     * search for its stop or its ponder-hit. */
    for (;;) {
        search_check_ponderhit(job);
        if (atomic_load(job->stop) || !(job->limits.infinite || job->limits.ponder))
            break;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    atomic_store(job->stop, true);
    for (int t = 1; t < job->nworkers; t++)
        thread_wait(job->threads[t]);

    /* 4. The move of the last finished iteration (or the better move of an unfinished one). */
    res.info = main_w->info;
    res.info.nodes = total_nodes(job);
    res.info.time = timeman_now() - job->started;
    if (res.info.pv_len > 0)
        res.best = res.info.pv[0];
    if (res.info.pv_len > 1) {
        res.has_ponder = true;
        res.ponder = res.info.pv[1];
    }
    return res;
}
