/*
 * notation.h - reading and writing positions and moves in every notation Ponder meets.
 *
 * Square moves (11-15, 15x24x31), FEN (B:W21,K30:B1,2), middleware paths (2 11 18), HackerRank
 * boards and coordinates, tower-variant cells (G6) and the seed-003 board files. Every parser
 * checks its input strictly and on failure returns false with a ParseError naming what was wrong
 * and the 1-based column (or line) where it was found; none of them reads past its input.
 */
#pragma once

#include "movegen.h"

typedef struct {
    char msg[ERR_LEN]; /* what was wrong, e.g. "square number `33' out of range" */
    int col;           /* 1-based column of the offending character, 0 if not applicable */
    int line;          /* 1-based line for multi-line inputs, 0 if not applicable */
} ParseError;

/* Sets E's message (printf-style) and position; always returns false so parsers can
 * `return parse_fail(...)`. */
bool parse_fail(ParseError *e, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* "MSG at line L, column C" (or the parts that apply) into BUF. */
void parse_error_format(const ParseError *e, char *buf, size_t size);

/* ---- Square moves ---- */

/* Splits TEXT ("11-15", "15x24x31", surrounding blanks allowed) into square indices 0-31.
 * Returns the number of squares (>= 2) or 0 on error. *IS_CAPTURE tells which separator was
 * used. Mixing '-' and 'x' is an error. */
int notation_parse_squares(const char *text, uint8_t *squares, int max, bool *is_capture,
                           ParseError *e);

/* Whether the N >= 2 squares SQ (first, optional middles, last: what notation_parse_squares
 * read) describe move M: the same origin and destination, and any squares between lie on M's
 * path in order. The one matcher of typed routes against legal moves. */
bool notation_squares_match(const Move *m, const uint8_t *sq, int n);

/* Resolves TEXT to a legal move of B under R: the first and last squares must match, and any
 * squares given in between must lie on the route in order; a complete route always names that
 * route. Errors: syntax, "illegal move", "ambiguous move". */
bool notation_parse_move(const Board *b, const Rules *r, const char *text, Move *out,
                         ParseError *e);

/* Writes M as "11-15" or "15x24x31" (every landing square). Returns the length. */
int notation_format_move(const Move *m, char *buf, size_t size);

/* ---- Middleware paths (seed 002): every square of the route separated by blanks ---- */

/* Resolves "2 11 18" to the legal move of B with exactly that route. */
bool notation_parse_path(const Board *b, const Rules *r, const char *text, Move *out,
                         ParseError *e);
int notation_format_path(const Move *m, char *buf, size_t size);

/* ---- FEN ---- */

/* Reads "B:W21,22,K30:B1,2" (side, then the two lists in either order; K marks a king; a list
 * may be empty; surrounding quotes and blanks and one final '.' are allowed). */
bool notation_parse_fen(const char *text, Board *b, ParseError *e);

/* Writes B as FEN: side, White list then Black list, men then kings, each ascending. */
int notation_format_fen(const Board *b, char *buf, size_t size);

/* ---- HackerRank (seed 001) ---- */

/* Reads the challenge input: player letter line, board size line, then the rows ('_' empty,
 * b w B W pieces; row 0 at the top, Black's men start there). */
bool notation_parse_hackerrank(const char *text, Board *b, ParseError *e);

/* Row and column (row 0 at the top) of an index, for printing moves. */
static inline void notation_hackerrank_coords(int sq, int *row, int *col)
{
    *row = sq >> 2;
    *col = 2 * (sq & 3) + (((sq >> 2) & 1) ? 0 : 1);
}

/* Writes a move in the challenge's output format: hops, then "row col" per square. */
int notation_format_hackerrank(const Move *m, char *buf, size_t size);

/* ---- Tower cells (seed 004): columns A-H, rows 1-8, Black on rows 6-8 moving north ---- */

/* The index of cell (col 0-7 for A-H, row 1-8), or -1 for a light cell or one off the board. */
int notation_tower_square(int col, int row);

/* The cell of index SQ as "G6" into OUT (3 bytes). */
void notation_tower_cell(int sq, char out[3]);

/* ---- Seed-003 board files ---- */

/* Reads 32 digits in square order (0 empty, 1/2 player-1/2 man, 3/4 player-1/2 king; player 1 is
 * Black), then the player to move (1 or 2), then the time limit in seconds (> 0). Any blanks and
 * CRLF line ends are allowed. */
bool notation_parse_board_file(const char *text, Board *b, double *time_limit, ParseError *e);

/* Writes B and TIME_LIMIT in the same format (LF line ends). */
int notation_format_board_file(const Board *b, double time_limit, char *buf, size_t size);
