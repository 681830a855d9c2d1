/*
 * types.h - the handful of types and limits every module of Ponder shares.
 *
 * The board is the 32 dark squares of an 8x8 board, numbered 1-32 in the standard way (Black's
 * men start on 1-12 and move towards higher numbers). Internally a square is an index 0-31
 * (square number minus one) and a set of squares is a 32-bit mask, bit i for index i. Colour 0
 * is Black (moves first), colour 1 is White.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The program's version, as `ponder --version' and the Hub handshake give it. */
#define PONDER_VERSION "0.1"

typedef uint32_t Bitboard; /* a set of squares, bit i = square i+1 */

enum {
    SQUARE_NB = 32,  /* playable squares */
    COLOR_NB = 2,    /* Black, White */
    MAX_JUMPS = 12,  /* most pieces one capture can take (the whole opposing army) */
    MAX_MOVES = 256, /* capacity of a MoveList; real positions stay far below it */
    MAX_PLY = 128,   /* deepest search ply */
    ERR_LEN = 160,   /* size of the caller-owned error buffers the parsers fill */
};

enum { BLACK = 0, WHITE = 1 };

typedef struct Board Board;
typedef struct Move Move;
typedef struct MoveList MoveList;
typedef struct Rules Rules;
typedef struct Game Game;
