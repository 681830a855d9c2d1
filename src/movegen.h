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

/* Pieces of the side to move that can jump right now (movegen_jumpers_of: the pieces OWN of
 * colour COLOR against OPP, KINGS all kings). A piece can jump in a direction if its neighbour
 * that way is an opponent and the square beyond is empty: walk back from the empty squares. */
static inline Bitboard movegen_jumpers_of(Bitboard own, Bitboard opp, Bitboard kings, int color)
{
    Bitboard empty = ~(own | opp);
    Bitboard up = bb_dr(bb_dr(empty) & opp) | bb_dl(bb_dl(empty) & opp);
    Bitboard down = bb_ul(bb_ul(empty) & opp) | bb_ur(bb_ur(empty) & opp);
    return (own & (color == BLACK ? up : down)) | (own & kings & (up | down));
}

static inline Bitboard movegen_jumpers(const Board *b)
{
    int us = b->side;
    return movegen_jumpers_of(b->pieces[us], b->pieces[us ^ 1], b->kings, us);
}

/* Whether the side to move has a simple move (its captures are a separate question). */
static inline bool movegen_has_simple(const Board *b)
{
    int us = b->side;
    Bitboard empty = board_empty(b), all = b->pieces[us], kings = all & b->kings;
    Bitboard fwd = us == BLACK ? bb_ul(all) | bb_ur(all) : bb_dl(all) | bb_dr(all);
    Bitboard back = us == BLACK ? bb_dl(kings) | bb_dr(kings) : bb_ul(kings) | bb_ur(kings);
    return ((fwd | back) & empty) != 0;
}

/* A simple move in 4 bytes, as movegen_quiet makes it (the search orders and plays these). */
typedef struct {
    uint8_t from, to;
    uint8_t crowns;  /* a man reaching the far row */
    uint8_t capture; /* MOVEGEN_NO_CAPTURE here; the search reuses the record for a capture's
                        index in its MoveList */
} QuietMove;

enum { MOVEGEN_NO_CAPTURE = 0xFF };

/* The simple moves of B's side to move into OUT (room for MAX_MOVES), direction by direction
 * (UL, UR, DL, DR), destinations ascending; returns their number. The one simple-move
 * generator: movegen_generate reorders its output by origin. */
static inline int movegen_quiet(const Board *b, QuietMove *out)
{
    int us = b->side, n = 0;
    Bitboard empty = board_empty(b), all = b->pieces[us], kings = all & b->kings;
    Bitboard crown_row = us == BLACK ? BB_ROW(7) : BB_ROW(0);
    for (int d = 0; d < DIR_NB; d++) {
        bool forward = us == BLACK ? d <= DIR_UR : d >= DIR_DL;
        Bitboard movers = forward ? all : kings;
        for (Bitboard t = bb_shift(movers, d) & empty; t; t &= t - 1) {
            int to = bb_lsb(t), from = bb_step[to][d ^ 3];
            out[n].from = (uint8_t)from;
            out[n].to = (uint8_t)to;
            out[n].crowns = !((kings >> from) & 1u) && ((crown_row >> to) & 1u);
            out[n].capture = MOVEGEN_NO_CAPTURE;
            n++;
        }
    }
    return n;
}

/* Whether the side to move must capture (it can, and R makes captures mandatory). */
static inline bool movegen_must_capture(const Board *b, const Rules *r)
{
    return r->capture_mandatory && movegen_jumpers(b) != 0;
}

/* Whether M (from movegen) is a capture. */
static inline bool move_is_capture(const Move *m)
{
    return m->captured != 0;
}

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
 * Perft counts the moves of every leaf parent's children with these: a second, counting-only
 * generator kept for perft's speed (its hot path; the measurement is in docs/perft.md, "Speed",
 * and test_perft checks it against movegen_generate). A position is given from
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

/* The number of legal moves, any position (out of line: the general case, which
 * movegen_sp_count leaves to it: kings to move, or a man crowned mid-capture that goes on). */
int movegen_sp_count_slow(int c, Spread us, Spread them, Spread kings, const Rules *r,
                          bool all_paths);

/* Men's captures, counted for all men at once. JA and JB are the squares from which a man jumps
 * by SP_FWD_A and SP_FWD_B, LA and LB the landing squares of the men's first jumps each way.
 *
 * The number of routes a capture can still take from a square s, R(s), depends on s alone: 1 if
 * no jump starts there, else the sum of R over the landing squares of the jumps from s. That
 * holds because men only jump forward: the pieces they take (still on the board until the move
 * ends) and their origin (now empty) lie behind them and never matter, so JA and JB are the same
 * at every step. A set of squares shifted by a jump keeps one route per bit, so the sum of R over
 * LA and LB unrolls into popcounts of shifted sets, level by level. A jump takes a man two rows
 * forward: after three it stands on its last two rows and cannot jump again, so three levels
 * suffice. REACH receives every square a route reaches (for the crowning rule). No two routes of
 * a man take the same pieces to the same square, so the count is the same in both conventions. */
static inline __attribute__((always_inline)) int
movegen_sp_men_routes(int c, Spread la, Spread lb, Spread ja, Spread jb, Spread *reach)
{
    const int fa = SP_FWD_A(c), fb = SP_FWD_B(c);
    Spread again = ja | jb, seen = la | lb;
    int n = sp_popcount(la & ~again) + sp_popcount(lb & ~again);
    const Spread second[4] = {sp_shift(la & ja, 2 * fa), sp_shift(la & jb, 2 * fb),
                              sp_shift(lb & ja, 2 * fa), sp_shift(lb & jb, 2 * fb)};
    for (int i = 0; i < 4; i++) {
        Spread x = second[i], xa = sp_shift(x & ja, 2 * fa), xb = sp_shift(x & jb, 2 * fb);
        n += sp_popcount(x & ~again) + sp_popcount(xa) + sp_popcount(xb);
        seen |= x | xa | xb;
    }
    *reach = seen;
    return n;
}

/* The squares from which a piece jumps by step N over a piece of THEM to an EMPTY square. */
static inline __attribute__((always_inline)) Spread movegen_sp_jump_from(Spread them, Spread empty,
                                                                         int n)
{
    return sp_shift(sp_shift(empty, -n) & them, -n);
}

/* The squares from which a man's capture can branch: a route that reaches one may go two ways,
 * there or after one more jump. JA and JB are the squares from which a man of colour C jumps by
 * SP_FWD_A and SP_FWD_B. A capture that never branches is one route however many pieces it
 * takes, so where no first landing square is branchy, the captures are the first jumps. Three
 * levels are all a man has (see movegen_sp_men_routes), so a branch comes at the latest from the
 * second landing square. */
static inline __attribute__((always_inline)) Spread movegen_sp_branchy(int c, Spread ja, Spread jb)
{
    const int fa = SP_FWD_A(c), fb = SP_FWD_B(c);
    Spread both = ja & jb;
    return both | (ja & sp_shift(both, -2 * fa)) | (jb & sp_shift(both, -2 * fb));
}

/* The squares from which a man of colour C reaches its crowning row by jumps (the row itself
 * included; JA, JB as in movegen_sp_branchy): under rules where a man crowned mid-capture goes
 * on as a king, only those captures need the walk. */
static inline __attribute__((always_inline)) Spread movegen_sp_crown_reach(int c, Spread ja,
                                                                           Spread jb)
{
    const int fa = SP_FWD_A(c), fb = SP_FWD_B(c);
    Spread x = SP_CROWN_ROW(c);
    x |= (ja & sp_shift(x, -2 * fa)) | (jb & sp_shift(x, -2 * fb));
    x |= (ja & sp_shift(x, -2 * fa)) | (jb & sp_shift(x, -2 * fb));
    return x;
}

/* The number of legal moves (movegen_count in the spread layout). Inline for the common case,
 * the side to move having no king: then captures and simple moves both come from popcounts,
 * and the only branch that depends on the position is the rare one for captures that branch. */
static inline __attribute__((always_inline)) int
movegen_sp_count(int c, Spread us, Spread them, Spread kings, const Rules *r, bool all_paths)
{
    const int fa = SP_FWD_A(c), fb = SP_FWD_B(c);
    if (us & kings)
        return movegen_sp_count_slow(c, us, them, kings, r, all_paths);
    Spread empty = SP_VALID & ~(us | them);
    Spread ja = movegen_sp_jump_from(them, empty, fa), jb = movegen_sp_jump_from(them, empty, fb);
    Spread la = sp_shift(us & ja, 2 * fa), lb = sp_shift(us & jb, 2 * fb);
    int captures = sp_popcount(la) + sp_popcount(lb);
    if (r->multi_jump) {
        /* Some man's capture may branch (or, where the rules let a man crowned mid-capture go on,
         * reach its crowning row): count the routes, or walk them for a crowned man. */
        Spread branchy = movegen_sp_branchy(c, ja, jb);
        if (r->crown_continues)
            branchy |= movegen_sp_crown_reach(c, ja, jb);
        if ((la | lb) & branchy) {
            Spread reach;
            captures = movegen_sp_men_routes(c, la, lb, ja, jb, &reach);
            if (r->crown_continues && (reach & SP_CROWN_ROW(c)))
                return movegen_sp_count_slow(c, us, them, kings, r, all_paths);
        }
    }
    int simple = sp_popcount(sp_shift(us, fa) & empty) + sp_popcount(sp_shift(us, fb) & empty);
    /* Simple moves count unless a capture is forced; a mask rather than a branch, which would
     * go either way half the time. */
    int forced = (captures != 0) & r->capture_mandatory;
    return captures + (simple & (forced - 1));
}
