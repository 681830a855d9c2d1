/*
 * movegen.h - legal moves of a position under a rule set.
 *
 * One generator serves every rule set (rules.h). Simple moves come from bitboard shifts; captures
 * from a depth-first walk per capturing piece that records the whole path. Two routes that take
 * the same pieces and end on the same square are one move unless ALL_PATHS is set (the perft
 * "unique" and "paths" conventions of SPEC section 1).
 */
#pragma once

#include "bitboard.h"
#include "board.h"
#include "rules.h"

struct MoveList {
    int count;                 /* moves in moves[] */
    Move moves[MAX_MOVES];     /* the moves, captures first when both kinds are legal */
};

/* Fills LIST with every legal move of B under R and returns their number (0: the side to move
 * has lost). Order: captures (by origin, then direction), then simple moves (by origin, then
 * direction UL, UR, DL, DR). */
int movegen_generate(const Board *b, const Rules *r, bool all_paths, MoveList *list);

/* The number movegen_generate would return, faster (bulk counting for perft leaves). */
int movegen_count(const Board *b, const Rules *r, bool all_paths);

/* Pieces of the side to move that can jump right now. A piece can jump in a direction if its
 * neighbour that way is an opponent and the square beyond is empty: walk back from the empty
 * squares. */
static inline Bitboard movegen_jumpers(const Board *b)
{
    int us = b->side;
    Bitboard empty = board_empty(b), opp = b->pieces[us ^ 1];
    Bitboard up = bb_dr(bb_dr(empty) & opp) | bb_dl(bb_dl(empty) & opp);
    Bitboard down = bb_ul(bb_ul(empty) & opp) | bb_ur(bb_ur(empty) & opp);
    Bitboard kings = b->pieces[us] & b->kings;
    return (b->pieces[us] & (us == BLACK ? up : down)) | (kings & (up | down));
}

/* Whether the side to move must capture (it can, and R makes captures mandatory). */
static inline bool movegen_must_capture(const Board *b, const Rules *r)
{
    return r->capture_mandatory && movegen_jumpers(b) != 0;
}

/* Whether M (from movegen) is a capture. */
static inline bool move_is_capture(const Move *m) { return m->captured != 0; }

/* Whether two moves are the same move: same path, or (unless ALL_PATHS) the same origin,
 * destination and captured pieces. */
bool move_same(const Move *a, const Move *b, bool all_paths);
