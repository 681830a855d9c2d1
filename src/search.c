/*
 * search.c - iterative deepening principal variation search (see search.h).
 *
 * Each worker deepens one ply at a time from the root. An iteration is a principal variation
 * search (PVS): the first move gets the full window, the others a null window that is widened
 * only when a move beats the best so far. From depth ASP_MIN_DEPTH on, an iteration starts with a
 * narrow (aspiration) window around the last score and widens it on failure.
 *
 * Below the nominal depth, quiescence search follows forced captures (in checkers a capture must
 * be taken, so a position with one pending is never evaluated statically); a position where the
 * side to move has no capture is scored by eval.c.
 *
 * Moves are tried in this order: the table's move, captures (more pieces first), the two killer
 * moves of the ply, then quiet moves by history. Draws: a position that occurred before (in the
 * game since the last capture or man move, or on the search path) is a draw, and so is a
 * position 80 plies after the last capture or man move (the 40-move rule) or one the databases
 * call drawn. A draw scores 0 less the contempt for the side to move at the root (the contempt
 * more for the other side), and with a positive contempt every static score counts the pieces
 * on the board: each beyond SEARCH_TRADE_BASE (fewer: less) is worth a fifth of the contempt to
 * the root side, so it keeps pieces on and, with many on, declines a draw all the more. A side
 * with no move has lost: -(SCORE_WIN - ply), so a nearer win scores higher.
 *
 * Selectivity, each part kept only where a match showed a gain (docs/engine.md has the figures,
 * and those of late move pruning, ProbCut, a threat extension at the horizon and a forced-move
 * extension, which lost and were removed): late move reductions, internal iterative reduction,
 * futility pruning, reverse futility pruning and singular extensions.
 *
 * This file is the tree: a pass over the root moves (search_root), the nodes below, quiescence.
 * Iterative deepening, aspiration and the threads are search_iter.c's (search_tree());
 * search_run() (search_egdb.c) puts the database policy for the root in front of it.
 */
#include "search.h"

#include "bitboard.h"
#include "eval.h"
#include "movepick.h"
#include "search_worker.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum {
    IIR_DEPTH = 4, /* internal iterative reduction from this depth */
    HISTORY_MAX = 16384,
    KNOWN_WIN = 20000,       /* a database win, below every proven win by search */
    KNOWN_WIN_SPREAD = 4000, /* the evaluation's share in a database win's score */
    LMR_MIN_DEPTH = 3,       /* late move reductions: depth from which quiet moves are reduced */
    LMR_MIN_MOVES = 3,       /* moves searched before the first reduction */
    LMR_SCALE = 100,         /* reduction = log(depth) * log(moves) * LMR_SCALE / 100 */
    FUTILITY_DEPTH = 2,      /* futility pruning at depth 1-FUTILITY_DEPTH */
    FUTILITY_MARGIN = 60,    /* per ply of depth, hundredths of a man */
    RFP_DEPTH = 5,           /* reverse futility pruning at depth 1-RFP_DEPTH */
    RFP_MARGIN = 60,         /* per ply of depth, hundredths of a man */
    SE_DEPTH = 6,            /* singular extension: from this depth */
    SE_MARGIN = 2,           /* per ply of depth, below the table's score */
};

/* Move-ordering keys (higher first). */
enum {
    ORDER_TT = 1 << 22, /* keys stay within movepick_key()'s range */
    ORDER_CAPTURE = 1 << 20,
    ORDER_KILLER1 = 1 << 18,
    ORDER_KILLER2 = ORDER_KILLER1 - 1,
};

static void fill_log_table(void);

SearchWorker *search_worker_new(void)
{
    /* Every search runs on workers made here: the first one fills the reduction table. */
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fill_log_table);
    SearchWorker *w = calloc(1, sizeof *w);
    /* No ply leaves a move out; a singular test puts its ply back as it found it, even when
     * stopped, so this holds between searches. */
    for (int p = 0; w && p < MAX_PLY + 2; p++)
        w->excluded[p] = TT_NO_MOVE;
    return w;
}

void search_worker_free(SearchWorker *w)
{
    free(w);
}

void search_worker_clear(SearchWorker *w)
{
    memset(w->history, 0, sizeof w->history);
    memset(w->killers, 0, sizeof w->killers);
}

static float log_table[MAX_MOVES + MAX_PLY];

static void fill_log_table(void)
{
    for (int i = 1; i < MAX_MOVES + MAX_PLY; i++)
        log_table[i] = logf((float)i);
}

/* Plies to take off a late quiet move: grows with both the depth and the move's rank. */
static inline int lmr_reduction(int depth, int rank)
{
    return (int)(log_table[depth] * log_table[rank] * (float)LMR_SCALE / 100.0f);
}

/* ---- small helpers --------------------------------------------------------------------------- */

/* The same through the worker's cache: a position met again (a transposition, the same leaf in
 * the next iteration) costs a lookup. An entry is the key's top 48 bits and the score (which
 * fits 16 bits: evaluations stay within +-SCORE_DECISIVE); the index takes the low bits, so a
 * wrong hit needs 64 equal key bits. The cache is emptied when a search starts, so it always
 * holds this search's evaluator's scores, and the tree is the same as without it. */
static inline int evaluate_cached(SearchWorker *w, const Board *b)
{
    uint64_t *e = &w->eval_cache[b->key & (EVAL_CACHE_SIZE - 1)];
    if (*e && (*e >> 16) == (b->key >> 16))
        return (int16_t)(uint16_t)(*e & 0xFFFF);
    int v = evaluate_uncached(w->job, b);
    *e = (b->key >> 16) << 16 | (uint16_t)(int16_t)v;
    return v;
}

/* The static score the search uses: the evaluation and the contempt's piece term. */
static inline int evaluate(SearchWorker *w, const Board *b)
{
    const SearchJob *job = w->job;
    int v = evaluate_cached(w, b);
    return job->trade ? v + search_trade_term(job, b) : v;
}

/* Counts a node; the main worker also enforces the node and time limits. */
static inline void count_node(SearchWorker *w)
{
    uint64_t n = worker_nodes(w) + 1;
    atomic_store_explicit(&w->nodes, n, memory_order_relaxed);
    if (w->index != 0)
        return;
    SearchJob *job = w->job;
    if (job->limits.nodes && !job->limits.ponder) {
        uint64_t seen = job->nworkers == 1 ? n : ((n & POLL_MASK) == 0 ? total_nodes(job) : 0);
        if (seen >= job->limits.nodes)
            atomic_store_explicit(job->stop, true, memory_order_relaxed);
    }
    if ((n & POLL_MASK) == 0) {
        search_check_ponderhit(job);
        if (timeman_hard_expired(&job->tm))
            atomic_store_explicit(job->stop, true, memory_order_relaxed);
    }
}

static inline void history_update(int *h, int bonus)
{
    *h += bonus - *h * (bonus < 0 ? -bonus : bonus) / HISTORY_MAX;
}

static void pv_update(SearchWorker *w, int ply, const Move *m)
{
    w->pv[ply][0] = *m;
    int n = w->pv_len[ply + 1];
    memcpy(&w->pv[ply][1], w->pv[ply + 1], (size_t)n * sizeof(Move));
    w->pv_len[ply] = n + 1;
}

/* Scores the N moves for ordering into KEYS. */
static void order_moves(const SearchWorker *w, const Board *b, const SearchMove *moves, int n,
                        const MoveList *caps, int tt_move, int ply, int *keys)
{
    uint16_t k1 = w->killers[ply][0], k2 = w->killers[ply][1];
    for (int i = 0; i < n; i++) {
        const SearchMove *m = &moves[i];
        int key;
        if (i == tt_move) {
            key = ORDER_TT;
        } else if (m->capture != MOVEPICK_NO_CAPTURE) {
            Bitboard c = caps->moves[m->capture].captured;
            key = ORDER_CAPTURE + 64 * bb_popcount(c) + 16 * bb_popcount(c & b->kings);
        } else {
            uint16_t id = movepick_id(m);
            key = id == k1   ? ORDER_KILLER1
                  : id == k2 ? ORDER_KILLER2
                             : w->history[b->side][m->from][m->to] + (m->crowns ? HISTORY_MAX : 0);
        }
        keys[i] = movepick_key(key, i);
    }
}

/* A draw at PLY for the side to move there: the contempt is the root side's cost of a draw, so
 * the other side (odd plies) gains it. */
static inline int draw_score(const SearchWorker *w, int ply)
{
    return (ply & 1) ? w->job->contempt : -w->job->contempt;
}

/* Whether the position at PLY occurred before since the last irreversible move. */
static inline bool is_repetition(const SearchWorker *w, int ply, uint64_t key)
{
    int q = w->quiet[ply];
    for (int i = 4; i <= q; i += 2)
        if (w->keys[w->base + ply - i] == key)
            return true;
    return false;
}

/* ---- quiescence ------------------------------------------------------------------------------ */

/* Follows captures until the side to move has none, then evaluates. */
static int qsearch(SearchWorker *w, const Board *b, int alpha, int beta, int ply)
{
    count_node(w);
    if (stopped(w))
        return 0;
    if (ply > w->seldepth)
        w->seldepth = ply;
    const SearchJob *job = w->job;
    const Rules *r = job->game->rules;

    /* 1. No capture: the position is quiet; a side with no move at all has lost. */
    Bitboard jumpers = movegen_jumpers(b);
    if (!jumpers) {
        if (!movegen_has_simple(b))
            return loss_score(ply);
        w->leaves++;
        w->leaf_plies += (uint64_t)ply;
        return evaluate(w, b);
    }
    if (ply >= MAX_PLY)
        return evaluate(w, b);

    /* 2. Optional captures (tower rules): the side may decline them, so the static score is a
     * lower bound (stand pat). With mandatory captures there is no such choice. */
    int best = -SCORE_INFINITE;
    if (!r->capture_mandatory) {
        best = evaluate(w, b);
        if (best >= beta)
            return best;
        if (best > alpha)
            alpha = best;
    }

    /* 3. The captures, biggest first. */
    MoveList list;
    list.count = 0;
    int n = movegen_captures_of(b, r, false, &list, jumpers);
    int keys[MAX_MOVES];
    for (int i = 0; i < n; i++)
        keys[i] = movepick_key(list.moves[i].captured
                                   ? 64 * bb_popcount(list.moves[i].captured) +
                                         16 * bb_popcount(list.moves[i].captured & b->kings)
                                   : -1,
                               i);
    for (int k = 0; k < n; k++) {
        int i = movepick_next(keys, n);
        const Move *m = &list.moves[i];
        if (!m->captured)
            break;
        Board child = *b;
        board_apply(&child, m);
        int score = -qsearch(w, &child, -beta, -alpha, ply + 1);
        if (stopped(w))
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                if (score >= beta)
                    break;
            }
        }
    }
    return best;
}

/* ---- main search ----------------------------------------------------------------------------- */

static int search_node(SearchWorker *w, const Board *b, int alpha, int beta, int depth, int ply,
                       bool pv_node);

/* A node of the main search: the draws by rule, then the horizon (quiescence) or the full node.
 * Inlined into its callers, so the horizon's many leaves never set up search_node()'s large
 * frame. */
static inline __attribute__((always_inline)) int search(SearchWorker *w, const Board *b, int alpha,
                                                        int beta, int depth, int ply, bool pv_node)
{
    w->pv_len[ply] = 0;

    /* Step 1. Draws by the game's rules: the 40-move rule (unless the side to move has no move,
     * which is a loss first), and a repetition of an earlier position. */
    w->keys[w->base + ply] = b->key;
    if (w->quiet[ply] >= DRAW_QUIET_PLIES) {
        count_node(w);
        return (movegen_jumpers(b) || movegen_has_simple(b)) ? draw_score(w, ply) : loss_score(ply);
    }
    if (w->quiet[ply] >= 4 && is_repetition(w, ply, b->key)) {
        count_node(w);
        return draw_score(w, ply);
    }

    /* Step 2. At the horizon, resolve captures and evaluate. */
    if (depth <= 0)
        return qsearch(w, b, alpha, beta, ply);

    return search_node(w, b, alpha, beta, depth, ply, pv_node);
}

/* The rest of a node with DEPTH > 0: table, databases, moves. */
static __attribute__((noinline)) int search_node(SearchWorker *w, const Board *b, int alpha,
                                                 int beta, int depth, int ply, bool pv_node)
{
    const SearchJob *job = w->job;
    const Rules *r = job->game->rules;
    count_node(w);
    if (stopped(w))
        return 0;
    if (ply > w->seldepth)
        w->seldepth = ply;
    if (ply >= MAX_PLY)
        return evaluate(w, b);

    /* Step 3. Mate distance pruning: a win found at this ply cannot beat one found nearer the
     * root, so the window shrinks to what is still reachable. */
    int mate_alpha = loss_score(ply), mate_beta = SCORE_WIN - ply - 1;
    if (alpha < mate_alpha)
        alpha = mate_alpha;
    if (beta > mate_beta)
        beta = mate_beta;
    if (alpha >= beta)
        return alpha;

    /* Step 4. The transposition table: a deep enough bound ends a non-PV node here. */
    TTHit hit;
    int tt_move = TT_NO_MOVE, tt_score = 0;
    int excluded = w->excluded[ply];
    bool tt_hit = tt_probe(job->tt, b->key, &hit);
    if (tt_hit) {
        tt_move = hit.move;
        int s = tt_score = tt_score_from(hit.score, ply, SCORE_DECISIVE);
        if (!pv_node && excluded == TT_NO_MOVE && hit.depth >= depth &&
            (hit.bound == BOUND_EXACT || (hit.bound == BOUND_LOWER && s >= beta) ||
             (hit.bound == BOUND_UPPER && s <= alpha)))
            return s;
    }

    /* Step 5. Endgame databases: a known result ends the search of this position. */
    Bitboard jumpers = movegen_jumpers(b);
    if (job->egdb && !jumpers && bb_popcount(b->pieces[0] | b->pieces[1]) <= job->egdb_pieces) {
        EgdbValue v = job->egdb->probe(job->egdb_handle, b);
        if (v == EGDB_DRAW)
            return draw_score(w, ply);
        /* Won positions rank by the evaluation (the databases know the result, not how far it
         * is), so the winner still makes progress; nearer ones a little higher. */
        if (v == EGDB_WIN || v == EGDB_LOSS) {
            int e = evaluate(w, b);
            if (e > KNOWN_WIN_SPREAD || e < -KNOWN_WIN_SPREAD)
                e = e > 0 ? KNOWN_WIN_SPREAD : -KNOWN_WIN_SPREAD;
            return v == EGDB_WIN ? KNOWN_WIN + e - ply : -KNOWN_WIN + e + ply;
        }
    }

    /* Step 6. The moves; none means the side to move has lost. Without a capture (the common
     * case) they come straight from the bitboards. */
    SearchMove moves[MAX_MOVES];
    MoveList caps;
    int n;
    if (jumpers || !r->capture_mandatory) {
        if (r->capture_mandatory) {
            caps.count = 0;
            n = movegen_captures_of(b, r, false, &caps, jumpers);
        } else {
            n = movegen_generate(b, r, false, &caps);
        }
        for (int i = 0; i < n; i++) {
            const Move *m = &caps.moves[i];
            moves[i].from = m->from;
            moves[i].to = m->to;
            moves[i].crowns = (m->flags & MOVE_CROWNS) != 0;
            moves[i].capture = (uint8_t)i;
        }
    } else {
        caps.count = 0;
        n = movegen_quiet(b, moves);
        /* The children are full nodes that begin with a table probe, a likely cache miss: ask
         * for all their entries now, so the memory works while this node evaluates, orders and
         * searches its first moves (`ponder bench`: 9% more nodes a second, docs/engine.md). */
        if (depth >= 2)
            for (int i = 0; i < n; i++)
                tt_prefetch(job->tt, movepick_quiet_key(b, &moves[i]));
    }
    if (n == 0)
        return loss_score(ply);
    if (tt_move >= n)
        tt_move = TT_NO_MOVE;

    /* Step 6b. Reverse futility: near the horizon, a quiet position of a non-PV node whose
     * static score beats beta by a margin per ply is not searched further (the side to move
     * has a move, so the score is not a lost position's). */
    int static_eval = 0;
    bool have_eval = !pv_node && depth <= RFP_DEPTH && !jumpers && excluded == TT_NO_MOVE;
    if (have_eval) {
        static_eval = evaluate(w, b);
        if (!score_is_decisive(beta) && static_eval - RFP_MARGIN * depth >= beta)
            return static_eval;
    }

    /* Step 7. Internal iterative reduction: a node the table knows nothing about at this depth
     * is probably not important enough for the full depth. */
    if (depth >= IIR_DEPTH && tt_move == TT_NO_MOVE)
        depth--;
    int new_depth = depth - 1;

    /* Step 7b. Singular extension: when the table's move holds a lower bound and every other
     * move, searched to half the depth, stays below that bound less a margin, the table's move
     * is the only good one and gets one ply more. When the others beat beta too, the node cuts
     * (several moves refute); when they reach the bound but not beta, while the table's score is
     * at or above beta, the table's move is one of several good ones and gets one ply less. */
    int extension = 0;
    if (depth >= SE_DEPTH && excluded == TT_NO_MOVE && tt_hit && tt_move != TT_NO_MOVE && n > 1 &&
        hit.depth >= depth - 3 && (hit.bound & BOUND_LOWER) && !score_is_decisive(tt_score) &&
        ply < 2 * (w->completed + 1)) {
        int sbeta = tt_score - SE_MARGIN * depth;
        w->excluded[ply] = tt_move;
        int v = search_node(w, b, sbeta - 1, sbeta, (depth - 1) / 2, ply, false);
        w->excluded[ply] = TT_NO_MOVE;
        if (stopped(w))
            return 0;
        if (v < sbeta)
            extension = 1;
        else if (sbeta >= beta && !pv_node)
            return sbeta;
        else if (tt_score >= beta)
            extension = -1;
    }

    /* Step 8. Futility: near the horizon, quiet moves of a position far below alpha will not
     * bring it back (captures are forced in checkers, so a position without one has none). */
    _Static_assert(FUTILITY_DEPTH < RFP_DEPTH,
                   "futility reuses step 6b's evaluation, taken before IIR can lower the depth");
    bool futile = false;
    if (have_eval && depth <= FUTILITY_DEPTH && !score_is_decisive(alpha))
        futile = static_eval + FUTILITY_MARGIN * depth <= alpha;

    /* Step 9. Search every move: the first with the full window, the rest with a null window
     * first (reduced when they come late and are quiet), again with the full one only when they
     * beat the best so far. */
    int best = -SCORE_INFINITE, best_index = TT_NO_MOVE, old_alpha = alpha;
    int quiets_tried[MAX_MOVES], nquiets = 0;
    uint16_t k1 = w->killers[ply][0], k2 = w->killers[ply][1];
    int keys[MAX_MOVES];
    bool ordered = false;
    for (int k = 0; k < n; k++) {
        /* The table's move goes first, before the others are even scored: it often refutes. */
        int i;
        if (k == 0 && tt_move != TT_NO_MOVE) {
            i = tt_move;
        } else {
            if (!ordered) {
                order_moves(w, b, moves, n, &caps, tt_move, ply, keys);
                if (tt_move != TT_NO_MOVE)
                    keys[tt_move] = MOVEPICK_TRIED;
                ordered = true;
            }
            i = movepick_next(keys, n);
        }
        /* The singular test's move is left out wherever it comes (another thread may have
         * replaced the table's move since the test began). */
        if (i == excluded)
            continue;
        const SearchMove *m = &moves[i];
        bool quiet = m->capture == MOVEPICK_NO_CAPTURE || !caps.moves[m->capture].captured;
        if (futile && k > 0 && quiet && !m->crowns) {
            if (static_eval > best)
                best = static_eval;
            continue;
        }
        Board child = *b;
        bool irreversible = !quiet || !board_is_king(b, m->from);
        if (m->capture == MOVEPICK_NO_CAPTURE)
            movepick_apply_quiet(&child, m);
        else
            board_apply(&child, &caps.moves[m->capture]);
        w->quiet[ply + 1] = irreversible ? 0 : w->quiet[ply] + 1;
        if (new_depth > 0 && m->capture != MOVEPICK_NO_CAPTURE)
            tt_prefetch(job->tt, child.key); /* quiet children's were asked for in step 6 */

        int score;
        if (k == 0) {
            score = -search(w, &child, -beta, -alpha, new_depth + (i == tt_move ? extension : 0),
                            ply + 1, pv_node);
        } else {
            int reduction = 0;
            if (quiet && depth >= LMR_MIN_DEPTH && k >= LMR_MIN_MOVES && !m->crowns &&
                i != tt_move) {
                uint16_t id = movepick_id(m);
                if (id != k1 && id != k2) {
                    reduction = lmr_reduction(depth, k) - (pv_node ? 1 : 0);
                    if (reduction < 0)
                        reduction = 0;
                    if (reduction > new_depth - 1)
                        reduction = new_depth - 1 > 0 ? new_depth - 1 : 0;
                }
            }
            score = -search(w, &child, -alpha - 1, -alpha, new_depth - reduction, ply + 1, false);
            if (reduction > 0 && score > alpha)
                score = -search(w, &child, -alpha - 1, -alpha, new_depth, ply + 1, false);
            if (score > alpha && score < beta)
                score = -search(w, &child, -beta, -alpha, new_depth, ply + 1, true);
        }
        if (stopped(w))
            return 0;

        if (score > best) {
            best = score;
            if (score > alpha) {
                best_index = i;
                alpha = score;
                if (pv_node) {
                    Move full = movepick_full_move(m, &caps);
                    pv_update(w, ply, &full);
                }
                if (score >= beta) {
                    /* A quiet move that refutes: remember it as a killer and credit its history,
                     * debiting the quiet moves tried before it. */
                    if (quiet) {
                        uint16_t id = movepick_id(m);
                        if (w->killers[ply][0] != id) {
                            w->killers[ply][1] = w->killers[ply][0];
                            w->killers[ply][0] = id;
                        }
                        int bonus = depth * depth;
                        history_update(&w->history[b->side][m->from][m->to], bonus);
                        for (int q = 0; q < nquiets; q++) {
                            const SearchMove *o = &moves[quiets_tried[q]];
                            history_update(&w->history[b->side][o->from][o->to], -bonus);
                        }
                    }
                    break;
                }
            }
        }
        if (quiet)
            quiets_tried[nquiets++] = i;
    }

    /* Step 10. Remember the result (not that of a singular test, which left a move out). */
    if (excluded != TT_NO_MOVE)
        return best == -SCORE_INFINITE ? alpha : best;
    int bound = best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(job->tt, b->key, tt_score_to(best, ply, SCORE_DECISIVE), depth, bound, best_index);
    return best;
}

/* ---- root ------------------------------------------------------------------------------------ */

int search_root(SearchWorker *w, int alpha, int beta, int depth)
{
    const SearchJob *job = w->job;
    const Board *b = &job->game->board;
    MoveList *list = &w->root;
    int best = -SCORE_INFINITE, old_alpha = alpha;
    int new_depth = list->count == 1 ? depth : depth - 1;
    w->pv_len[0] = 0;
    w->keys[w->base] = b->key;
    count_node(w);
    for (int i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        Board child = *b;
        board_apply(&child, &m);
        bool irreversible = m.captured || !board_is_king(b, m.from);
        w->quiet[1] = irreversible ? 0 : w->quiet[0] + 1;
        int score;
        if (i == 0) {
            score = -search(w, &child, -beta, -alpha, new_depth, 1, true);
        } else {
            score = -search(w, &child, -alpha - 1, -alpha, new_depth, 1, false);
            if (score > alpha && score < beta)
                score = -search(w, &child, -beta, -alpha, new_depth, 1, true);
        }
        if (stopped(w)) {
            w->aborted = true;
            break;
        }
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                pv_update(w, 0, &m);
                /* Bring the new best move to the front, keeping the others in order. */
                uint8_t idx = w->root_index[i];
                memmove(&list->moves[1], &list->moves[0], (size_t)i * sizeof(Move));
                memmove(&w->root_index[1], &w->root_index[0], (size_t)i);
                list->moves[0] = m;
                w->root_index[0] = idx;
                if (score >= beta)
                    break;
            }
        }
    }
    if (!w->aborted) {
        int bound = best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
        tt_store(job->tt, b->key, tt_score_to(best, 0, SCORE_DECISIVE), depth, bound,
                 bound == BOUND_UPPER ? TT_NO_MOVE : w->root_index[0]);
    }
    return best;
}
