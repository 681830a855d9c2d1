/*
 * egdb_index.h - numbering the positions of an endgame database slice.
 *
 * A slice is every position with given numbers of black men, black kings, white men and white
 * kings, with Black to move (a position with White to move is looked up as its colour-flipped
 * image: rotate the board 180 degrees and swap the colours). Within a slice a position's index is
 * a mixed-radix number of four combination ranks:
 *   black men on the 28 squares they can occupy (not Black's crowning row),
 *   white men on their 28 squares (not White's crowning row),
 *   black kings on the squares the men leave free, then white kings on what is left.
 * Men of the two colours may collide in this numbering (both ranks name one square); those
 * indices are not positions, and egdb_index_decode says so. Everything else is a bijection.
 */
#pragma once

#include "board.h"

enum { EGDB_MAX_PIECES = 8 };

typedef struct {
    int bm, bk, wm, wk;        /* black men, black kings, white men, white kings */
    uint64_t size;             /* indices in the slice (valid positions and collisions) */
    uint64_t r_wm, r_bk, r_wk; /* the radices of the lower three digits */
} EgdbSlice;

/* C(n, k), for n <= 32. */
uint64_t egdb_choose(int n, int k);

/* Fills S for the given counts (each >= 0, total <= EGDB_MAX_PIECES). */
void egdb_slice_init(EgdbSlice *s, int bm, int bk, int wm, int wk);

/* The slice of B's pieces as they stand (colours as on the board). */
void egdb_slice_of(const Board *b, EgdbSlice *s);

/* The index of B, which must have Black to move and match S. */
uint64_t egdb_index_encode(const EgdbSlice *s, const Board *b);

/* The position of index I of S (Black to move). Returns false when I is a collision of men.
 * The position's key is left 0 (board_compute_key() if one is needed). */
bool egdb_index_decode(const EgdbSlice *s, uint64_t i, Board *b);

/* Valid positions (collisions excluded) with exactly these counts. */
uint64_t egdb_slice_positions(int bm, int bk, int wm, int wk);

/* Positions of N pieces in all, both colours together, without side to move (the published
 * counts: 120, 6972, 261224, ...). */
uint64_t egdb_count_positions(int n);

/* Walks the indices of a slice in order, faster than decoding each: the next position differs
 * from the last in its lowest digit, advanced with the next-combination step. */
typedef struct {
    const EgdbSlice *s;
    uint64_t i;              /* the current index */
    uint64_t bm, wm, bk, wk; /* the four digits as subsets of their candidate squares */
    bool valid;              /* the current index is a position (no men collide) */
    Board b;                 /* that position (Black to move, key 0) when valid */
} EgdbCursor;

/* Puts C at index I of S. */
void egdb_cursor_start(EgdbCursor *c, const EgdbSlice *s, uint64_t i);

/* Moves C to the next index (past the end: c->i == size, nothing else defined). */
void egdb_cursor_next(EgdbCursor *c);
