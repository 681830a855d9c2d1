/*
 * tower.h - the tower variant of seed 004: its action order, board cost, minimax and alpha-beta
 * searches, and the reading of action lines, as used by `ponder tower` (tower.c).
 *
 * Positions are ordinary Boards under RULES_TOWER (optional capture, one jump per turn, men
 * forward only, kings - "towers" - both ways). The cell G6 of the assignment is the square
 * tower_square('G' - 'A', 6): Black starts on rows 6-8 and moves north, towards row 1.
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

/* ---- Tower cells (seed 004): columns A-H, rows 1-8, Black on rows 6-8 moving north ---- */

/* The index of cell (col 0-7 for A-H, row 1-8), or -1 for a light cell or one off the board. */
int tower_square(int col, int row);

/* The cell of index SQ as "G6" into OUT (3 bytes). */
void tower_cell(int sq, char out[3]);

/* ---- Input lines ---- */

/* What a line of input is. */
typedef enum {
    TOWER_LINE_BLANK,  /* nothing but blanks: skipped */
    TOWER_LINE_ACTION, /* letter, digits, '-', letter, digits */
    TOWER_LINE_ONE,    /* the command `A': compute and play one action */
    TOWER_LINE_TEN,    /* the command `P': play up to ten actions */
    TOWER_LINE_BAD,    /* anything else */
} TowerLine;

/* The two cells of an action line as written: columns are letter indices (A or a = 0, so 8 and
 * beyond are off the board), rows the number written (saturated at 9999, so 0 and 9+ are off). */
typedef struct {
    int from_col, from_row; /* source cell */
    int to_col, to_row;     /* target cell */
} TowerCells;

/* Whether C is a blank that lines may carry around their text (space, tab, CR). */
static inline bool tower_is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Classifies the LEN bytes of LINE (any bytes; blanks, tabs and CR around the text are ignored;
 * letters in either case). For TOWER_LINE_ACTION fills *CELLS. Never reads past LEN. */
TowerLine tower_parse_line(const char *line, size_t len, TowerCells *cells);

/* The checks of an action, in the assignment's order (the first failure wins). */
typedef enum {
    TOWER_OK,
    TOWER_SOURCE_OUTSIDE,   /* source cell not on the 8x8 board */
    TOWER_TARGET_OUTSIDE,   /* target cell not on the 8x8 board */
    TOWER_SOURCE_EMPTY,     /* nothing on the source cell (light cells are always empty) */
    TOWER_TARGET_NOT_EMPTY, /* a piece on the target cell */
    TOWER_SOURCE_OPPONENT,  /* the source holds a piece of the side not to move */
    TOWER_ILLEGAL,          /* not one of tower_generate's actions, or not an action at all */
} TowerStatus;

/* Checks the action CELLS in B; on TOWER_OK stores the action in *OUT for board_apply(). */
TowerStatus tower_check_action(const Board *b, const TowerCells *cells, Move *out);

/* The assignment's message for a status other than TOWER_OK, e.g.
 * "ERROR: Source cell is empty." */
const char *tower_status_message(TowerStatus s);

/* Writes action M as "G6-F5" into OUT (6 bytes). */
void tower_format_action(const Move *m, char out[6]);

/* The `ponder tower` command. */
int cmd_tower(int argc, char **argv);
