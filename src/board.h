/*
 * board.h - a position: one mask per colour, one for kings, the side to move and a Zobrist key.
 *
 * A Board is a plain 24-byte value; search copies it (copy-make) rather than undoing moves: see
 * docs/design.md for the measurement that chose this. The Zobrist key is kept up to date by
 * board_apply() and always equals board_compute_key() (the tests check it).
 */
#pragma once

#include "types.h"

struct Board {
    Bitboard pieces[COLOR_NB]; /* every piece of each colour, men and kings */
    Bitboard kings;            /* the kings of both colours */
    int side;                  /* BLACK or WHITE: the side to move */
    uint64_t key;              /* Zobrist key of pieces, kings and side to move */
};

enum { MOVE_CROWNS = 1 }; /* Move.flags: the moving man becomes a king */

/* A move is its whole path: path[0] the origin, path[len-1] the destination; for a capture every
 * landing square in order. */
struct Move {
    Bitboard captured;           /* the pieces this move takes */
    uint8_t from, to;            /* origin and destination indices (0-31); equal for a loop */
    uint8_t len;                 /* squares in path: 2 for a simple move, jumps+1 for a capture */
    uint8_t flags;               /* MOVE_CROWNS */
    uint8_t path[MAX_JUMPS + 4]; /* the squares visited, indices 0-31 */
};

/* Zobrist numbers: [colour][is king][square], and the side-to-move key. */
extern uint64_t zobrist_piece[COLOR_NB][2][SQUARE_NB];
extern uint64_t zobrist_side;

/* Fills the rules library's tables (bitboard steps and jumps, Zobrist numbers) the first time it
 * is called; idempotent and thread-safe. board_compute_key() calls it, and with it every board
 * set-up (board_start, board_clear, the notation parsers), so a board made by the library has
 * its tables ready; a caller that builds a Board by hand calls it (or ponder_init) first. */
void board_init(void);

/* The standard starting position: Black men on 1-12, White men on 21-32, Black to move. */
void board_start(Board *b);

/* An empty board with SIDE to move. */
void board_clear(Board *b, int side);

/* Puts a piece (or removes whatever is on SQ when color < 0), keeping the key right. */
void board_set(Board *b, int sq, int color, bool king);

/* Colour of the piece on SQ, or -1 if empty. */
static inline int board_color_at(const Board *b, int sq)
{
    Bitboard m = 1u << sq;
    return (b->pieces[BLACK] & m) ? BLACK : (b->pieces[WHITE] & m) ? WHITE : -1;
}
static inline bool board_is_king(const Board *b, int sq)
{
    return (b->kings >> sq) & 1u;
}
static inline Bitboard board_empty(const Board *b)
{
    return ~(b->pieces[BLACK] | b->pieces[WHITE]);
}

/* The key computed from scratch (for tests and after set-up). */
uint64_t board_compute_key(const Board *b);

/* B for the other side: colours swapped and the board turned half a circle (square i to
 * 31 - i), the side to move swapped too, the key computed. The same position, so every
 * evaluation from the side to move's seat gives it the same score. */
void board_turn(const Board *b, Board *out);

/* The same with the key left 0, for loops that index positions rather than hash them (the
 * endgame databases); board_compute_key() if one is needed. */
void board_turn_nokey(const Board *b, Board *out);

/* Plays M (which must come from the move generator for B) and passes the move to the opponent. */
void board_apply(Board *b, const Move *m);

/* Whether two boards hold the same position (pieces, kings, side to move). */
bool board_equal(const Board *a, const Board *b);

/* Internal consistency: no square on both colours, kings only on occupied squares, key right.
 * Returns false and fills ERR (ERR_LEN bytes) with the reason otherwise. */
bool board_valid(const Board *b, char *err);

/* Whether moving a man of COLOR to SQ crowns it (SQ on the far row). */
static inline bool board_crown_square(int color, int sq)
{
    return color == BLACK ? sq >= 28 : sq < 4;
}

/* Whether a game can reach B: no man stands on its own crowning row (it would have been crowned
 * there). The rules can play from such a position, and the tests use some, but a position set up
 * by a user is checked with this, by every program the same way. Returns false and fills ERR
 * (ERR_LEN bytes) with "a White man on square 1, its crowning row (write it as a king: K1)". */
bool board_reachable(const Board *b, char *err);

/* The square (0-31) of the first man of B that stands on its own crowning row, the one
 * board_reachable names, or -1 if there is none (parsers use it to point at that man). */
int board_unreachable_square(const Board *b);
