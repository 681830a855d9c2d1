/*
 * board.c - position set-up, Zobrist hashing and copy-make move application.
 *
 * The Zobrist numbers come from a fixed-seed splitmix64 generator, so keys (and with them every
 * node count the engine prints) are the same on every run and machine.
 */
#include "board.h"

#include "bitboard.h"
#include "rng.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

uint64_t zobrist_piece[COLOR_NB][2][SQUARE_NB];
uint64_t zobrist_side;

static void zobrist_init(void)
{
    uint64_t s = 0x504F4E4445520001ull; /* "PONDER" and a version */
    for (int c = 0; c < COLOR_NB; c++)
        for (int k = 0; k < 2; k++)
            for (int sq = 0; sq < SQUARE_NB; sq++)
                zobrist_piece[c][k][sq] = rng_splitmix64(&s);
    zobrist_side = rng_splitmix64(&s);
}

void board_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    bb_init();
    pthread_once(&once, zobrist_init);
}

uint64_t board_compute_key(const Board *b)
{
    board_init();
    uint64_t key = b->side == WHITE ? zobrist_side : 0;
    for (int c = 0; c < COLOR_NB; c++)
        for (Bitboard m = b->pieces[c]; m; m &= m - 1) {
            int sq = __builtin_ctz(m);
            key ^= zobrist_piece[c][board_is_king(b, sq)][sq];
        }
    return key;
}

void board_turn_nokey(const Board *b, Board *out)
{
    Board t;
    t.pieces[BLACK] = bb_turn(b->pieces[WHITE]);
    t.pieces[WHITE] = bb_turn(b->pieces[BLACK]);
    t.kings = bb_turn(b->kings);
    t.side = b->side ^ 1;
    t.key = 0;
    *out = t;
}

void board_turn(const Board *b, Board *out)
{
    board_turn_nokey(b, out);
    out->key = board_compute_key(out);
}

void board_clear(Board *b, int side)
{
    memset(b, 0, sizeof *b);
    b->side = side;
    b->key = board_compute_key(b);
}

void board_start(Board *b)
{
    board_clear(b, BLACK);
    b->pieces[BLACK] = 0x00000FFFu;
    b->pieces[WHITE] = 0xFFF00000u;
    b->key = board_compute_key(b);
}

void board_set(Board *b, int sq, int color, bool king)
{
    Bitboard m = 1u << sq;
    int old = board_color_at(b, sq);
    if (old >= 0) {
        b->key ^= zobrist_piece[old][board_is_king(b, sq)][sq];
        b->pieces[old] &= ~m;
        b->kings &= ~m;
    }
    if (color >= 0) {
        b->pieces[color] |= m;
        if (king)
            b->kings |= m;
        b->key ^= zobrist_piece[color][king][sq];
    }
}

void board_apply(Board *b, const Move *m)
{
    int us = b->side, them = us ^ 1;
    Bitboard fromto = (1u << m->from) ^ (1u << m->to);
    bool king = board_is_king(b, m->from);

    /* 1. Move the piece (a loop back to its origin leaves fromto empty and changes nothing). */
    b->key ^= zobrist_piece[us][king][m->from];
    b->pieces[us] ^= fromto;
    if (king)
        b->kings ^= fromto;
    else if (m->flags & MOVE_CROWNS) {
        b->kings |= 1u << m->to;
        king = true;
    }
    b->key ^= zobrist_piece[us][king][m->to];

    /* 2. Remove what it took. */
    for (Bitboard c = m->captured; c; c &= c - 1) {
        int sq = __builtin_ctz(c);
        b->key ^= zobrist_piece[them][board_is_king(b, sq)][sq];
    }
    b->pieces[them] &= ~m->captured;
    b->kings &= ~m->captured;

    /* 3. Pass the move. */
    b->side = them;
    b->key ^= zobrist_side;
}

bool board_equal(const Board *a, const Board *b)
{
    return a->pieces[0] == b->pieces[0] && a->pieces[1] == b->pieces[1] && a->kings == b->kings &&
           a->side == b->side;
}

int board_unreachable_square(const Board *b)
{
    for (int sq = 0; sq < SQUARE_NB; sq++) {
        int c = board_color_at(b, sq);
        if (c >= 0 && !board_is_king(b, sq) && board_crown_square(c, sq))
            return sq;
    }
    return -1;
}

bool board_reachable(const Board *b, char *err)
{
    int sq = board_unreachable_square(b);
    if (sq < 0)
        return true;
    snprintf(err, ERR_LEN, "a %s man on square %d, its crowning row (write it as a king: K%d)",
             board_color_at(b, sq) == WHITE ? "White" : "Black", sq + 1, sq + 1);
    return false;
}

bool board_valid(const Board *b, char *err)
{
    if (b->pieces[BLACK] & b->pieces[WHITE]) {
        snprintf(err, ERR_LEN, "square %d holds both colours",
                 __builtin_ctz(b->pieces[BLACK] & b->pieces[WHITE]) + 1);
        return false;
    }
    if (b->kings & ~(b->pieces[BLACK] | b->pieces[WHITE])) {
        snprintf(err, ERR_LEN, "king flag on empty square %d",
                 __builtin_ctz(b->kings & ~(b->pieces[BLACK] | b->pieces[WHITE])) + 1);
        return false;
    }
    if (b->side != BLACK && b->side != WHITE) {
        snprintf(err, ERR_LEN, "side to move is %d", b->side);
        return false;
    }
    if (b->key != board_compute_key(b)) {
        snprintf(err, ERR_LEN, "hash key out of date");
        return false;
    }
    return true;
}
