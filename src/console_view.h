/*
 * console_view.h - what the engine console (seed 000) prints: the board drawing with its FEN
 * line, and the rows of the thinking table.
 *
 * The board is the seed's 8x8 ASCII drawing: one text row per board row, `(b)' `(B)' `(w)' `(W)'
 * for men and kings, ` \ ' for an empty dark square, and under each row a border line that
 * carries the square numbers. Square 1 is at the lower right, as seen from Black's side;
 * rotated, the drawing is turned 180 degrees (square 1 at the upper left). The thinking table
 * has the columns depth, value, time and nodes, then the principal variation six moves to a
 * line. Everything is written into caller-owned buffers, so the console decides when and under
 * which lock it reaches stdout.
 */
#pragma once

#include "board.h"

enum {
    CONSOLE_VIEW_POSITION_LEN = 1024, /* enough for the FEN line and the 17 lines of the drawing */
    CONSOLE_VIEW_ROW_LEN = 2048,      /* enough for one iteration row with a MAX_PLY-move PV */
    CONSOLE_VIEW_PV_PER_LINE = 6,     /* moves of the PV on each line of the table */
};

/* The index (0-31) of the dark square at ROW (0 = Black's back row, squares 1-4) and COL (0-7,
 * left to right as drawn from Black's side), or -1 for a light square or off the board. */
int console_view_square_at(int row, int col);

/* Row (0-7 from Black's back row) and column (0-7) of index SQ. */
void console_view_square_coords(int sq, int *row, int *col);

/* Writes `;[FEN "..."]' and the 17-line drawing of B (every line ends in '\n') into BUF of SIZE
 * bytes (CONSOLE_VIEW_POSITION_LEN is always enough). ROTATED turns the drawing 180 degrees.
 * Returns the length written. */
int console_view_position(const Board *b, bool rotated, char *buf, size_t size);

/* The two header lines of the thinking table. */
const char *console_view_table_header(void);

/* One row of the thinking table: DEPTH, VALUE (a number, or "-" for an iteration that did not
 * finish), TIME in seconds, NODES, then the PV of PV_LEN moves, CONSOLE_VIEW_PV_PER_LINE to a line,
 * the later lines indented under the first move. Every line ends in '\n'. Returns the length. */
int console_view_table_row(int depth, const char *value, double time, uint64_t nodes,
                           const Move *pv, int pv_len, char *buf, size_t size);
