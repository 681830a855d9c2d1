/*
 * tower.h - the tower variant of seed 004: its action order, board cost, and minimax and
 * alpha-beta searches. This is the variant's engine, in the core library; its cells and action
 * lines, which only the program `ponder tower` speaks, are tower_format.h, the program
 * tower_cmd.c.
 *
 * Positions are ordinary Boards under RULES_TOWER (optional capture, one jump per turn, men
 * forward only, kings - "towers" - both ways). Black starts on rows 6-8 of the assignment's
 * cells (tower_format.h) and moves north, towards row 1.
 * What the assignment's output depends on is fixed here and nowhere else:
 *  - actions come in the order of their source cell read row 1 to 8, column A to H, and for each
 *    source in the directions NE, SE, SW, NW (north = towards row 1);
 *  - a board whose side to move has no action is worth INT_MIN when Black is to move and INT_MAX
 *    when White is, at every depth including the leaves; any other leaf is worth its cost
 *    b + 3B - w - 3W; Black maximises, White minimises;
 *  - among root actions of equal value the first generated is chosen.
 */
#pragma once

#include "board.h"

enum {
    TOWER_MAX_ACTIONS = 4 * SQUARE_NB, /* at most one action per piece and direction */
    TOWER_MAX_DEPTH = 40,              /* deepest search tower_alphabeta accepts */
};

/* The actions of the side to move in B, in the order above, as Moves that board_apply() plays
 * (a jump has len 2 and one captured piece). Returns their number; 0 means the side has lost. */
int tower_generate(const Board *b, Move out[TOWER_MAX_ACTIONS]);

/* Whether the side to move in B has at least one action (tower_generate(b) > 0, faster). */
bool tower_has_action(const Board *b);

/* b + 3B - w - 3W: men count 1, towers 3, Black positive. */
int tower_cost(const Board *b);

/* The value of a leaf: INT_MIN / INT_MAX if the side to move has no action, else the cost. */
int tower_leaf_value(const Board *b);

/* Plain minimax of DEPTH >= 1 plies from B, the whole tree with no pruning: the assignment's
 * decision rule. Returns the index (in tower_generate order) of the chosen root action, or -1
 * when the side to move has none. *VALUE gets the root's minimax value and *NODES (if not NULL)
 * the number of boards visited. */
int tower_minimax(const Board *b, int depth, int *value, uint64_t *nodes);

/* The same decision by alpha-beta: the same action and value as tower_minimax() for every
 * position and depth (1 to TOWER_MAX_DEPTH), in far fewer nodes. Iterative deepening, a
 * transposition table (its values reused only at the same remaining depth; up to 16 MB,
 * allocated and freed by each call, the search goes on without it if memory is short), killer
 * and history ordering below the root; the root in generation order. */
int tower_alphabeta(const Board *b, int depth, int *value, uint64_t *nodes);
