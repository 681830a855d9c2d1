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

/* Reads a route at S[*I]: square numbers (as notation_read_square) joined by `-' or `x'/`X', one
 * kind throughout, and moves *I past it. It stops at the first character that does not go on
 * the route and leaves what follows to the caller (blanks, an end, PDN's `!' and `?' marks).
 * Stores the squares (up to MAX) in SQ and the separator in *SEP ('-', 'x', or 0 after a lone
 * square). Returns the number of squares, or 0 with E filled (LINE, the column): a square
 * missing or out of range, `-' and `x' mixed, more than MAX squares. */
int notation_read_route(const char *s, size_t *i, int line, uint8_t *sq, int max, char *sep,
                        ParseError *e);

/* Splits TEXT ("11-15", "15x24x31", surrounding blanks allowed) into square indices 0-31.
 * Returns the number of squares (>= 2) or 0 on error. *IS_CAPTURE tells which separator was
 * used. Mixing '-' and 'x' is an error, and so are more than two squares joined by '-'. */
int notation_parse_squares(const char *text, uint8_t *squares, int max, bool *is_capture,
                           ParseError *e);

/* Whether the N >= 2 squares SQ (first, optional middles, last: what notation_parse_squares
 * read) describe move M: the same origin and destination, and any squares between lie on M's
 * path in order. The matcher notation_resolve uses. */
bool notation_squares_match(const Move *m, const uint8_t *sq, int n);

/* What the separator of typed squares says about the move they name. */
typedef enum {
    NOTATION_SIMPLE,  /* written with `-': simple moves only */
    NOTATION_CAPTURE, /* written with `x': captures only */
    NOTATION_EITHER,  /* the separator does not decide, the squares do */
} NotationKind;

/* The one resolver of typed squares to legal moves (square moves, PDN movetext, `ponder play'):
 * the moves of B under R, of KIND, that the N >= 2 squares SQ name.
 *   1. A whole route names its move, even when a longer capture passes through its squares
 *      (1x10x3 beside a loop that goes round from 10 and on to 3).
 *   2. Else every route with SQ's origin and destination that passes through SQ's middle squares
 *      in order (notation_squares_match) names its move; the routes of one move (the same pieces
 *      taken to the same square, see move_same) count once.
 * Fills FOUND with the moves named, each as the first route (in generation order) that the
 * squares match, so that the move follows the route typed, and returns their number: 0 (no
 * legal move: illegal), 1 (the move), or more (ambiguous: the caller asks for more squares). */
int notation_resolve(const Board *b, const Rules *r, const uint8_t *sq, int n, NotationKind kind,
                     MoveList *found);

/* Resolves TEXT (notation_parse_squares) to a legal move of B under R, with notation_resolve.
 * The separator decides (NOTATION_SIMPLE or NOTATION_CAPTURE): the programs that call this
 * (console, CheckerBoard's engine interface, the web API) take moves that other programs write,
 * where a wrong separator means the two disagree about the position, so it is refused rather than
 * guessed. Errors: syntax, "illegal move", "ambiguous move". */
bool notation_parse_move(const Board *b, const Rules *r, const char *text, Move *out,
                         ParseError *e);

/* Writes M as "11-15" or "15x24x31" (every landing square). Returns the length. */
int notation_format_move(const Move *m, char *buf, size_t size);

/* ---- FEN ---- */

/* Reads "B:W21,22,K30:B1,2" (side, then the two lists in either order; K marks a king; a list
 * may be empty; surrounding quotes and blanks and one final '.' are allowed). */
bool notation_parse_fen(const char *text, Board *b, ParseError *e);

/* Reads a FEN that sets up a position from outside the program (a user, an openings file, a PDN
 * FEN tag): notation_parse_fen, then the rule every program applies to such a position
 * (board_reachable): a man on its own crowning row is refused with board_reachable's message
 * ("a White man on square 1, its crowning row (write it as a king: K1)") and E's column at
 * that man in TEXT. B is unchanged on failure. */
bool notation_parse_setup(const char *text, Board *b, ParseError *e);

/* Writes B as FEN: side, White list then Black list, men then kings, each ascending. */
int notation_format_fen(const Board *b, char *buf, size_t size);
