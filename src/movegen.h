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

/* The number of captures the walk of movegen.c finds for the pieces in PIECES (out of line: the
 * slow path, for kings and for men crowned in the middle of a capture that goes on). */
int movegen_sp_count_walk(int c, Spread us, Spread them, Spread kings, const Rules *r,
                          bool all_paths, Spread pieces);

/* The number of simple moves: one popcount per direction, since every target square has
 * exactly one source in a given direction. UKINGS is US & KINGS. */
static inline __attribute__((always_inline)) int
movegen_sp_count_simple(int c, Spread us, Spread ukings, Spread empty)
{
    int fa = SP_FWD_A(c), fb = SP_FWD_B(c);
    int n = sp_popcount(sp_shift(us, fa) & empty) + sp_popcount(sp_shift(us, fb) & empty);
    if (ukings)
        n +=
            sp_popcount(sp_shift(ukings, -fa) & empty) + sp_popcount(sp_shift(ukings, -fb) & empty);
    return n;
}

/* The kings among UKINGS that can jump (in any direction). */
static inline __attribute__((always_inline)) Spread
movegen_sp_king_jumpers(Spread ukings, Spread them, Spread empty)
{
    Spread from = sp_shift(sp_shift(empty, -4) & them, -4) |
                  sp_shift(sp_shift(empty, -5) & them, -5) |
                  sp_shift(sp_shift(empty, 4) & them, 4) | sp_shift(sp_shift(empty, 5) & them, 5);
    return ukings & from;
}

/* Men's multi-jumps, counted for all men at once. Take the squares X that men reach by one fixed
 * sequence of jump directions (say UL then UR): the sequence moves every man by the same amount,
 * so each bit of X is one route, and a route ends where it cannot jump again. Men only jump
 * forward, so the captured pieces (still on the board) and the origin (now empty) lie behind
 * them and never matter, and no two routes of a man take the same pieces to the same square. A
 * jump moves a man two rows forward, so after three jumps it is on its crowning row or the one
 * before and cannot jump again: three levels suffice. REACH collects every square reached, for
 * the crowning test of the caller. */
static inline __attribute__((always_inline)) int
movegen_sp_men_routes2(int c, Spread x, Spread them, Spread empty, Spread *reach)
{
    int fa = SP_FWD_A(c), fb = SP_FWD_B(c);
    Spread a = sp_jumps(x, them, empty, fa), b = sp_jumps(x, them, empty, fb);
    *reach |= a | b;
    Spread goes_on = sp_shift(a, -2 * fa) | sp_shift(b, -2 * fb);
    return sp_popcount(x & ~goes_on) + sp_popcount(a) + sp_popcount(b);
}
static inline __attribute__((always_inline)) int
movegen_sp_men_routes1(int c, Spread x, Spread them, Spread empty, Spread *reach)
{
    if (!x)
        return 0;
    int fa = SP_FWD_A(c), fb = SP_FWD_B(c);
    Spread a = sp_jumps(x, them, empty, fa), b = sp_jumps(x, them, empty, fb);
    if (!(a | b))
        return sp_popcount(x);
    *reach |= a | b;
    Spread goes_on = sp_shift(a, -2 * fa) | sp_shift(b, -2 * fb);
    return sp_popcount(x & ~goes_on) + movegen_sp_men_routes2(c, a, them, empty, reach) +
           movegen_sp_men_routes2(c, b, them, empty, reach);
}

/* The number of captures (plus simple moves when captures are optional) of a position where
 * some piece can jump: LA and LB are the landing squares of the men's first jumps by SP_FWD_A
 * and SP_FWD_B, KJ the kings that can jump. */
static inline __attribute__((always_inline)) int
movegen_sp_count_captures(int c, Spread us, Spread them, Spread kings, Spread empty, Spread la,
                          Spread lb, Spread kj, const Rules *r, bool all_paths)
{
    int n;
    if (!r->multi_jump)
        n = sp_popcount(la) + sp_popcount(lb);
    else {
        Spread reach = la | lb;
        n = movegen_sp_men_routes1(c, la, them, empty, &reach) +
            movegen_sp_men_routes1(c, lb, them, empty, &reach);
        /* A man crowned on the way goes on as a king under some rules: the walk does those. */
        if (r->crown_continues && (reach & SP_CROWN_ROW(c)))
            n = movegen_sp_count_walk(c, us, them, kings, r, all_paths, us & ~kings);
    }
    if (kj)
        n += movegen_sp_count_walk(c, us, them, kings, r, all_paths, kj);
    if (!r->capture_mandatory)
        n += movegen_sp_count_simple(c, us, us & kings, empty);
    return n;
}

/* The number of legal moves (movegen_count in the spread layout). */
static inline __attribute__((always_inline)) int
movegen_sp_count(int c, Spread us, Spread them, Spread kings, const Rules *r, bool all_paths)
{
    int fa = SP_FWD_A(c), fb = SP_FWD_B(c);
    Spread empty = SP_VALID & ~(us | them);
    Spread ukings = us & kings, men = us & ~kings;
    Spread la = sp_jumps(men, them, empty, fa), lb = sp_jumps(men, them, empty, fb);
    Spread kj = ukings ? movegen_sp_king_jumpers(ukings, them, empty) : 0;
    if (!(la | lb | kj))
        return movegen_sp_count_simple(c, us, ukings, empty);
    return movegen_sp_count_captures(c, us, them, kings, empty, la, lb, kj, r, all_paths);
}
