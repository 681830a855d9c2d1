/*
 * tower.c - the tower variant of seed 004 (the COMP10002 2021 checkers assignment): its actions
 * in the assignment's order, board cost and searches (tower.h); its cells and action lines are
 * tower_format.c, the program `ponder tower' tower_cmd.c.
 *
 * Actions come from the one move generator under RULES_TOWER, put in the assignment's order.
 * The search is the assignment's: plain minimax over the whole tree; alpha-beta (`--depth N')
 * with its own table, which the unit tests prove returns the same action as plain minimax.
 */
#include "tower.h"

#include "bitboard.h"
#include "movegen.h"
#include "tt.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- Actions ---- */

/* NE, SE, SW, NW: north is towards row 1, which is "up" (higher rows) on the internal board, and
 * east (towards column H) is towards lower internal columns, so NE is DIR_UL. */
static const int tower_dirs[4] = {DIR_UL, DIR_DL, DIR_DR, DIR_UR};

int tower_generate(const Board *b, Move out[TOWER_MAX_ACTIONS])
{
    /* The one generator, under the tower rules, gives at most one action per piece and
     * direction (a step or a single jump); place each at its rank in the assignment's order:
     * reading order (row 1 to 8, column A to H) is descending square index (tower row 1 is
     * internal row 7 and columns run right to left), then the directions NE, SE, SW, NW. */
    MoveList list;
    int n = movegen_generate(b, &RULES_TOWER, false, &list);
    int8_t slot[SQUARE_NB * 4];
    memset(slot, -1, sizeof slot);
    for (int i = 0; i < n; i++) {
        const Move *m = &list.moves[i];
        for (int k = 0; k < 4; k++) {
            int d = tower_dirs[k];
            if (bb_step[m->from][d] == m->to || bb_jump[m->from][d] == m->to)
                slot[(31 - m->from) * 4 + k] = (int8_t)i;
        }
    }
    int count = 0;
    for (int i = 0; i < SQUARE_NB * 4; i++)
        if (slot[i] >= 0)
            out[count++] = list.moves[slot[i]];
    return count;
}

bool tower_has_action(const Board *b)
{
    return movegen_jumpers(b) || movegen_has_simple(b);
}

int tower_cost(const Board *b)
{
    Bitboard k = b->kings;
    return bb_popcount(b->pieces[BLACK] & ~k) + 3 * bb_popcount(b->pieces[BLACK] & k) -
           bb_popcount(b->pieces[WHITE] & ~k) - 3 * bb_popcount(b->pieces[WHITE] & k);
}

static inline int lost_value(int side)
{
    return side == BLACK ? INT_MIN : INT_MAX;
}

int tower_leaf_value(const Board *b)
{
    return tower_has_action(b) ? tower_cost(b) : lost_value(b->side);
}

/* ---- Plain minimax ---- */

static int minimax(const Board *b, int depth, uint64_t *nodes)
{
    (*nodes)++;
    if (depth == 0)
        return tower_leaf_value(b);
    Move list[TOWER_MAX_ACTIONS];
    int n = tower_generate(b, list);
    if (n == 0)
        return lost_value(b->side);
    int best = lost_value(b->side);
    for (int i = 0; i < n; i++) {
        Board child = *b;
        board_apply(&child, &list[i]);
        int v = minimax(&child, depth - 1, nodes);
        if (b->side == BLACK ? v > best : v < best)
            best = v;
    }
    return best;
}

int tower_minimax(const Board *b, int depth, int *value, uint64_t *nodes)
{
    uint64_t count = 1;
    Move list[TOWER_MAX_ACTIONS];
    int n = tower_generate(b, list), best_i = -1, best = lost_value(b->side);
    for (int i = 0; i < n; i++) {
        Board child = *b;
        board_apply(&child, &list[i]);
        int v = minimax(&child, depth - 1, &count);
        /* Strictly better only: the first generated of equal actions stays. */
        if (best_i < 0 || (b->side == BLACK ? v > best : v < best)) {
            best = v;
            best_i = i;
        }
    }
    *value = best;
    if (nodes)
        *nodes = count;
    return best_i;
}

/* ---- Alpha-beta ---- */

/* The alpha-beta search must return the same action and value as plain minimax, so everything
 * it adds is either move ordering (which cannot change a minimax value) or a transposition
 * table whose stored values are only reused for a search of exactly the same remaining depth:
 * a value from a deeper search is a different minimax value here, since a win counts the same
 * at every distance and the leaves are cut at a fixed depth. */

typedef struct {
    uint64_t key;  /* Board.key of the position */
    int32_t value; /* value, or bound, of the search of DEPTH plies below it */
    int8_t depth;  /* remaining depth of that search */
    uint8_t bound; /* BOUND_* (the engine table's, tt.h): what VALUE is */
    uint8_t best;  /* the action that was best or cut off, as its index in generation order */
} TowerEntry;

typedef struct {
    TowerEntry *tt;              /* transposition table, or NULL if it could not be had */
    uint64_t mask;               /* table entries - 1 */
    uint16_t killer[MAX_PLY][2]; /* per ply, two quiet actions that cut off (from << 8 | to) */
    uint32_t history[COLOR_NB][SQUARE_NB][SQUARE_NB]; /* cut-off counts of quiet actions */
    uint64_t nodes;                                   /* boards visited */
} TowerSearch;

static inline uint16_t action_id(const Move *m)
{
    return (uint16_t)(m->from << 8 | m->to);
}

/* Sorts the actions of an inner node into ORDER: the table's best action, captures of towers,
 * captures of men, crownings, killers, then quiet actions by history. */
static void order_actions(const TowerSearch *s, const Board *b, const Move *list, int n,
                          int tt_best, int ply, uint8_t *order)
{
    uint32_t score[TOWER_MAX_ACTIONS];
    for (int i = 0; i < n; i++) {
        const Move *m = &list[i];
        uint16_t id = action_id(m);
        if (i == tt_best)
            score[i] = 0xFFFFFFFFu;
        else if (m->captured)
            score[i] = (b->kings & m->captured) ? 0xFFFFFFF0u : 0xFFFFFFE0u;
        else if (m->flags & MOVE_CROWNS)
            score[i] = 0xFFFFFFD0u;
        else if (id == s->killer[ply][0])
            score[i] = 0xFFFFFFC1u;
        else if (id == s->killer[ply][1])
            score[i] = 0xFFFFFFC0u;
        else
            score[i] = s->history[b->side][m->from][m->to]; /* below 0xFFFF0000 */
        order[i] = (uint8_t)i;
    }
    for (int i = 1; i < n; i++) { /* insertion sort, stable: ties keep generation order */
        uint8_t x = order[i];
        int j = i;
        for (; j > 0 && score[order[j - 1]] < score[x]; j--)
            order[j] = order[j - 1];
        order[j] = x;
    }
}

/* Fail-soft alpha-beta: the exact minimax value when it lies strictly between ALPHA and BETA,
 * otherwise a bound on the same side of the window as the value. Black maximises. */
static int alphabeta(TowerSearch *s, const Board *b, int depth, int ply, int alpha, int beta)
{
    s->nodes++;
    if (depth == 0)
        return tower_leaf_value(b);

    /* 1. The table: a stored result of a search to the same depth may answer at once; any
     *    entry for this position names an action to try first. */
    TowerEntry *e = s->tt ? &s->tt[b->key & s->mask] : NULL;
    int tt_best = -1;
    if (e && e->key == b->key) {
        if (e->depth == depth &&
            (e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && e->value >= beta) ||
             (e->bound == BOUND_UPPER && e->value <= alpha)))
            return e->value;
        tt_best = e->best;
    }

    /* 2. A side with no action has lost, whatever the depth. */
    Move list[TOWER_MAX_ACTIONS];
    uint8_t order[TOWER_MAX_ACTIONS];
    int n = tower_generate(b, list);
    if (n == 0)
        return lost_value(b->side);
    if (tt_best >= n)
        tt_best = -1;
    order_actions(s, b, list, n, tt_best, ply, order);

    /* 3. The children, best first, until one refutes the window. */
    int alpha0 = alpha, beta0 = beta, best = lost_value(b->side), best_i = 0;
    bool black = b->side == BLACK;
    for (int k = 0; k < n; k++) {
        const Move *m = &list[order[k]];
        Board child = *b;
        board_apply(&child, m);
        int v = alphabeta(s, &child, depth - 1, ply + 1, alpha, beta);
        if (k == 0 || (black ? v > best : v < best)) {
            best = v;
            best_i = order[k];
        }
        if (black && best > alpha)
            alpha = best;
        if (!black && best < beta)
            beta = best;
        if (alpha >= beta) {
            /* 4. A quiet action that cut off is remembered for the siblings of this node. */
            if (!m->captured) {
                uint16_t id = action_id(m);
                if (s->killer[ply][0] != id) {
                    s->killer[ply][1] = s->killer[ply][0];
                    s->killer[ply][0] = id;
                }
                uint32_t *h = &s->history[b->side][m->from][m->to];
                if (*h < 0xFFFF0000u)
                    *h += (uint32_t)(depth * depth);
            }
            break;
        }
    }

    /* 5. Store what the search proved, as exact value or bound against the window it had. */
    if (e) {
        e->key = b->key;
        e->value = best;
        e->depth = (int8_t)depth;
        e->bound = best <= alpha0 ? BOUND_UPPER : best >= beta0 ? BOUND_LOWER : BOUND_EXACT;
        e->best = (uint8_t)best_i;
    }
    return best;
}

/* The root at DEPTH, in generation order. The first action gets the full window; each later
 * one only has to show whether it is strictly better than the best so far (the first of equal
 * actions wins), so its window starts at that value. */
static int search_root(TowerSearch *s, const Board *b, const Move *list, int n, int depth,
                       int *value)
{
    int best_i = -1, best = lost_value(b->side);
    bool black = b->side == BLACK;
    for (int i = 0; i < n; i++) {
        Board child = *b;
        board_apply(&child, &list[i]);
        int v;
        if (best_i < 0)
            v = alphabeta(s, &child, depth - 1, 1, INT_MIN, INT_MAX);
        else if (black)
            v = alphabeta(s, &child, depth - 1, 1, best, INT_MAX);
        else
            v = alphabeta(s, &child, depth - 1, 1, INT_MIN, best);
        if (best_i < 0 || (black ? v > best : v < best)) {
            best = v;
            best_i = i;
        }
        if (best == (black ? INT_MAX : INT_MIN))
            break; /* nothing can be strictly better */
    }
    *value = best;
    return best_i;
}

int tower_alphabeta(const Board *b, int depth, int *value, uint64_t *nodes)
{
    TowerSearch s = {0};
    Move list[TOWER_MAX_ACTIONS];
    int n = tower_generate(b, list), best_i = -1;
    /* A table of 2^(depth + 6) entries, at most 2^20 (16 MB), so that the shallow searches the
     * tests run by the thousand stay cheap. Without the memory the search runs without it. */
    int bits = depth + 6 < 20 ? depth + 6 : 20;
    s.tt = calloc((size_t)1 << bits, sizeof(TowerEntry));
    s.mask = s.tt ? ((uint64_t)1 << bits) - 1 : 0;
    s.nodes = 1;
    *value = lost_value(b->side);
    /* Iterative deepening: each depth fills the table and the history that order the next;
     * only the last decides. */
    for (int d = 1; d <= depth && n > 0; d++)
        best_i = search_root(&s, b, list, n, d, value);
    free(s.tt);
    if (nodes)
        *nodes = s.nodes;
    return best_i;
}
