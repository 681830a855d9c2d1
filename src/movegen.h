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
    int count;             /* moves in moves[] */
    Move moves[MAX_MOVES]; /* the moves, captures first when both kinds are legal */
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

/* The captures of the pieces in JUMPERS (a subset of movegen_jumpers) appended to LIST, which
 * the caller has emptied or filled; returns the new count. */
int movegen_captures_of(const Board *b, const Rules *r, bool all_paths, MoveList *list,
                        Bitboard jumpers);

/* The number movegen_generate would return, without generating (bulk counting for perft
 * leaves and mobility). */
int movegen_count(const Board *b, const Rules *r, bool all_paths);

/* ---- Bulk counting in the spread layout (bitboard.h) ------------------------------------------
 *
 * Perft counts the moves of every leaf parent's children with these. A position is given from
 * the side to move's point of view: C its colour (a constant at every call, so each colour gets
 * straight-line code), US its pieces, THEM the opponent's, KINGS the kings of both, EMPTY the
 * empty squares (SP_VALID & ~(US | THEM)). */

/* The kings among UKINGS that can jump (in any direction). */
static inline __attribute__((always_inline)) Spread
movegen_sp_king_jumpers(Spread ukings, Spread them, Spread empty)
{
    Spread from = sp_shift(sp_shift(empty, -4) & them, -4) |
                  sp_shift(sp_shift(empty, -5) & them, -5) |
                  sp_shift(sp_shift(empty, 4) & them, 4) | sp_shift(sp_shift(empty, 5) & them, 5);
    return ukings & from;
}

/* The number of legal moves, any position (out of line: the general case, with kings or men
 * whose capture can go on; movegen_sp_count calls it for those). */
int movegen_sp_count_slow(int c, Spread us, Spread them, Spread kings, const Rules *r,
                          bool all_paths);

/* The number of legal moves (movegen_count in the spread layout). Inline for the common case,
 * the side to move having no king and no capture that can go on: then every capture is one jump
 * of a man, so captures and simple moves both come from popcounts, and the only branch that
 * depends on the position is the rare one to the general case. */
static inline __attribute__((always_inline)) int
movegen_sp_count(int c, Spread us, Spread them, Spread kings, const Rules *r, bool all_paths)
{
    const int fa = SP_FWD_A(c), fb = SP_FWD_B(c);
    if (us & kings)
        return movegen_sp_count_slow(c, us, them, kings, r, all_paths);
    Spread empty = SP_VALID & ~(us | them);
    Spread la = sp_jumps(us, them, empty, fa), lb = sp_jumps(us, them, empty, fb);
    if (r->multi_jump) {
        /* The squares from which a man jumps again (forward: what lies behind never matters), and
         * the crowning row where a man crowned mid-capture goes on as a king. */
        Spread again = sp_shift(sp_shift(empty, -fa) & them, -fa) |
                       sp_shift(sp_shift(empty, -fb) & them, -fb);
        if (r->crown_continues)
            again |= SP_CROWN_ROW(c);
        if ((la | lb) & again)
            return movegen_sp_count_slow(c, us, them, kings, r, all_paths);
    }
    int captures = sp_popcount(la) + sp_popcount(lb);
    int simple = sp_popcount(sp_shift(us, fa) & empty) + sp_popcount(sp_shift(us, fb) & empty);
    return captures + (captures && r->capture_mandatory ? 0 : simple);
}
