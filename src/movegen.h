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

/* The number of simple moves of the side to move: one popcount per direction, since every
 * target square has exactly one source in a given direction. */
static inline int movegen_count_simple(const Board *b)
{
    int us = b->side;
    Bitboard empty = board_empty(b);
    Bitboard kings = b->pieces[us] & b->kings;
    Bitboard all = b->pieces[us];
    if (us == BLACK)
        return bb_popcount(bb_ul(all) & empty) + bb_popcount(bb_ur(all) & empty) +
               (kings ? bb_popcount(bb_dl(kings) & empty) + bb_popcount(bb_dr(kings) & empty) : 0);
    return bb_popcount(bb_dl(all) & empty) + bb_popcount(bb_dr(all) & empty) +
           (kings ? bb_popcount(bb_ul(kings) & empty) + bb_popcount(bb_ur(kings) & empty) : 0);
}

/* The captures of the pieces in JUMPERS (a subset of movegen_jumpers) appended to LIST, which
 * the caller has emptied or filled; returns the new count. */
int movegen_captures_of(const Board *b, const Rules *r, bool all_paths, MoveList *list,
                        Bitboard jumpers);

/* The men among JUMPERS whose every capture is a single jump (no further jump from any landing
 * square, no crowning that lets them go on): their captures can be made from bitboards. */
Bitboard movegen_single_jumpers(const Board *b, const Rules *r, Bitboard jumpers);

/* The slow half of movegen_count: positions where JUMPERS (non-empty) can capture. */
int movegen_count_captures(const Board *b, const Rules *r, bool all_paths, Bitboard jumpers);

/* The number movegen_generate would return, without generating (bulk counting for perft
 * leaves and mobility). */
static inline int movegen_count(const Board *b, const Rules *r, bool all_paths)
{
    Bitboard jumpers = movegen_jumpers(b);
    return jumpers ? movegen_count_captures(b, r, all_paths, jumpers) : movegen_count_simple(b);
}
