/*
 * movepick.h - the search's own move records: quiet moves made straight from bitboards, and
 * picking the best-scored move that is left.
 *
 * Most nodes of a checkers search have no capture. Their moves come from movegen_quiet's
 * 4-byte records and are played by a small copy-make, instead of the generator's full-path Moves
 * (captures still come from the generator, whose list the records point into). Only the search
 * uses these; everything else speaks Move.
 */
#pragma once

#include "bitboard.h"
#include "board.h"
#include "movegen.h"

#include <string.h>

/* A move as the search handles it: quiet moves are made straight from their squares (most
 * moves of most nodes, and the move generator's full paths cost more than they do); captures
 * point into the MoveList the generator filled (CAPTURE is their index there, or
 * MOVEPICK_NO_CAPTURE for a quiet move). Quiet moves come from movegen_quiet. */
typedef QuietMove SearchMove;

enum { MOVEPICK_NO_CAPTURE = MOVEGEN_NO_CAPTURE };

/* The key of the position after the simple move M on B, without making the move (the search
 * asks for the children's table entries with it before it plays them). */
static inline uint64_t movepick_quiet_key(const Board *b, const SearchMove *m)
{
    int us = b->side;
    bool king = (b->kings >> m->from) & 1;
    return b->key ^ zobrist_piece[us][king][m->from] ^ zobrist_piece[us][king || m->crowns][m->to] ^
           zobrist_side;
}

/* Plays the simple move M on B (copy-make, the key kept right). board_apply does the same from a
 * Move; kept apart because it is cheaper: board_apply on a Move made from M costs the search 1.1%
 * more instructions (1,462 M against 1,446 M for `bench 18' beyond start-up, callgrind, -O3
 * -march=haswell; 1.5% through movepick_full_move), a difference that nodes per second on the
 * shared host could not resolve (docs/engine.md). test_movepick checks that both give the same
 * board and key. */
static inline void movepick_apply_quiet(Board *b, const SearchMove *m)
{
    int us = b->side;
    Bitboard fb = 1u << m->from, tb = 1u << m->to;
    b->key = movepick_quiet_key(b, m);
    b->pieces[us] ^= fb | tb;
    if (b->kings & fb)
        b->kings ^= fb | tb;
    else if (m->crowns)
        b->kings |= tb;
    b->side = us ^ 1;
}

/* The full Move of a search move (for the PV). */
static inline Move movepick_full_move(const SearchMove *m, const MoveList *caps)
{
    if (m->capture != MOVEPICK_NO_CAPTURE)
        return caps->moves[m->capture];
    Move mv;
    memset(&mv, 0, sizeof mv);
    mv.from = m->from;
    mv.to = m->to;
    mv.len = 2;
    mv.flags = m->crowns ? MOVE_CROWNS : 0;
    mv.path[0] = m->from;
    mv.path[1] = m->to;
    return mv;
}

static inline uint16_t movepick_id(const SearchMove *m)
{
    return (uint16_t)(0x8000u | m->from | m->to << 5);
}

/* Ordering keys carry the move's index in their low byte (ties go to the lower index), so the
 * best remaining move is a plain maximum, which compiles without branches. KEY must lie within
 * +-2^22. */
enum { MOVEPICK_TRIED = -0x7FFFFFFF - 1 };
static inline int movepick_key(int key, int index)
{
    return key * 256 + (255 - index);
}

/* The index of the best remaining move (keys of tried moves are MOVEPICK_TRIED), and marks it
 * tried. */
static inline int movepick_next(int *keys, int n)
{
    int best = keys[0];
    for (int i = 1; i < n; i++)
        best = keys[i] > best ? keys[i] : best;
    int index = 255 - (best & 255);
    keys[index] = MOVEPICK_TRIED;
    return index;
}
