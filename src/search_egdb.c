/*
 * search_egdb.c - the search's policy for a root that is itself in the endgame databases (see
 * search.h).
 *
 * Probing inside the tree would end the search one ply down (every move leads to a database
 * position), so each move would be judged by the static evaluation alone and a won ending would
 * be shuffled instead of converted. Such a root is therefore searched without the databases, and
 * the databases vet the choice: the move must keep the root's value (a win stays a win, a draw at
 * least a draw). If it does not, the move that does and that the evaluation likes best is played
 * instead. Every other root is searched with the databases probed inside the tree (search.c).
 */
#include "search.h"

#include "bitboard.h"
#include "eval.h"

/* Whether a move to a position worth CHILD (for the opponent) keeps the root's value ROOT. */
static bool keeps_value(EgdbValue root, EgdbValue child)
{
    if (root == EGDB_WIN)
        return child == EGDB_LOSS;
    if (root == EGDB_DRAW)
        return child == EGDB_LOSS || child == EGDB_DRAW;
    return child != EGDB_UNKNOWN;
}

/* Whether the caller told the search to leave root move M out (SearchLimits.exclude). */
static bool excluded(const SearchLimits *limits, const Move *m)
{
    for (int k = 0; k < limits->exclude_len && k < SEARCH_MAX_EXCLUDE; k++)
        if (move_same(m, &limits->exclude[k], false))
            return true;
    return false;
}

static SearchResult search_in_databases(SearchJob *job, EgdbValue root)
{
    const Board *b = &job->game->board;
    const EgdbDriver *db = job->egdb;
    job->egdb = NULL;
    SearchResult r = search_tree(job);
    job->egdb = db;
    r.database = (int)root;
    if (!r.has_move)
        return r;
    Board c = *b;
    board_apply(&c, &r.best);
    if (keeps_value(root, db->probe(job->egdb_handle, &c)))
        return r;
    MoveList list;
    int n = movegen_generate(b, job->game->rules, false, &list), best = -1, best_eval = 0;
    for (int i = 0; i < n; i++) {
        c = *b;
        board_apply(&c, &list.moves[i]);
        if (!keeps_value(root, db->probe(job->egdb_handle, &c)) ||
            excluded(&job->limits, &list.moves[i]))
            continue;
        int ev = -(job->net ? job->net_eval(job->net, &c) : eval_board(job->weights, &c));
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

SearchResult search_run(SearchJob *job)
{
    /* The databases hold English-rules values only. */
    if (job->egdb && job->game->rules != &RULES_ENGLISH)
        job->egdb = NULL;
    const Board *b = &job->game->board;
    if (job->egdb && bb_popcount(b->pieces[0] | b->pieces[1]) <= job->egdb_pieces &&
        !movegen_jumpers(b)) {
        EgdbValue root = job->egdb->probe(job->egdb_handle, b);
        if (root != EGDB_UNKNOWN)
            return search_in_databases(job, root);
    }
    SearchResult r = search_tree(job);
    r.database = 0;
    return r;
}
