/*
 * tower_format.h - the cells and action lines of the tower variant of seed 004, as the program
 * `ponder tower` (tower_cmd.c) reads and writes them; the variant's rules and searches are
 * tower.h.
 *
 * A cell is a column letter A-H and a row 1-8; Black starts on rows 6-8 and moves north, towards
 * row 1. The cell G6 of the assignment is the square tower_square('G' - 'A', 6).
 */
#pragma once

#include "board.h"

#include <stdbool.h>
#include <stddef.h>

/* ---- Cells ---- */

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
static inline bool tower_is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

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
