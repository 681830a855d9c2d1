/*
 * notation.h - reading and writing positions and moves in every notation Ponder meets.
 *
 * The core notations: square moves (11-15, 15x24x31) and FEN (B:W21,K30:B1,2). The formats of
 * one program each live with it: middleware paths (middleware.h), HackerRank boards
 * (hackerrank.h), tower cells (tower.h), seed-003 board files (boardfile.h). Every parser
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

/* ---- Helpers for the parsers of other formats (hackerrank, tower, boardfile, middleware) ---- */

/* A printable rendering of byte C for messages: the character itself, or \xNN. Returns OUT. */
const char *notation_show_char(unsigned char c, char out[8]);

/* Reads a decimal square number 1-32 at S[*I] and moves *I past it; on success stores the index
 * (0-31). Numbers are read up to 6 digits so that "99" and "100000" are "out of range" rather
 * than garbage. On failure fills E (LINE, the column) and returns false. */
bool notation_read_square(const char *s, size_t *i, int line, int *sq, ParseError *e);

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

/* ---- FEN ---- */

/* Reads "B:W21,22,K30:B1,2" (side, then the two lists in either order; K marks a king; a list
 * may be empty; surrounding quotes and blanks and one final '.' are allowed). */
bool notation_parse_fen(const char *text, Board *b, ParseError *e);

/* Writes B as FEN: side, White list then Black list, men then kings, each ascending. */
int notation_format_fen(const Board *b, char *buf, size_t size);
