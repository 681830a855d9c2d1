/*
 * nnue_features.c - the inputs of a network (see nnue.h, docs/nnue.md): which features a board
 * sets, seen from the side to move's seat. Three sets, each the one before and more: the pieces
 * (128: kind and square), the mobility set (288: also which pieces cannot move, have no safe
 * move or can be taken) and the shot set (320: also which of the side to move's pieces have a
 * shot, a move that makes the other side capture and wins material when the captures are over).
 * The engine's evaluation and the trainer both read them here, so they agree by construction.
 */

#include "nnue.h"

#include "bitboard.h"
#include "board.h"
#include "movegen.h"

int nnue_features(const Board *b, uint16_t *out)
{
    int us = b->side, flip = us == BLACK ? 0 : 31, n = 0;
    Bitboard sets[4] = {
        b->pieces[us] & ~b->kings,
        b->pieces[us] & b->kings,
        b->pieces[us ^ 1] & ~b->kings,
        b->pieces[us ^ 1] & b->kings,
    };
    for (int kind = 0; kind < 4; kind++)
        for (Bitboard m = sets[kind]; m; m &= m - 1)
            out[n++] = (uint16_t)(kind * 32 + (__builtin_ctz(m) ^ flip));
    return n;
}

/* Which pieces of one side (OWN, its kings OK, colour C; the other side's pieces OPP, kings PK)
 * cannot make a simple move (*STUCK), can but only to squares where the other side could jump
 * the piece at once (*UNSAFE), and could be jumped now (*DANGER). BEHIND[d] is the squares one
 * step behind an empty square in direction d (a piece there may step d). A square t is open to
 * a jump in direction d when a jumper stands one step before it (t - d) and the square after it
 * (t + d) is empty; after a step in direction d the square after it may also be the one the
 * piece left (a jump back, in the opposite direction). Inlined with C a constant, so the
 * directions of each piece kind are known, and those of absent kings skipped. */
static inline __attribute__((always_inline)) void
side_mobility(Bitboard own, Bitboard ok, int c, Bitboard opp, Bitboard pk, const Bitboard *behind,
              Bitboard *stuck, Bitboard *unsafe, Bitboard *danger)
{
    Bitboard hit[DIR_NB], open = 0, movers = 0, safe = 0;
    for (int d = 0; d < DIR_NB; d++) {
        /* our men step forwards (up when Black); their men jump forwards, our way */
        bool forward = c == BLACK ? d <= DIR_UR : d >= DIR_DL;
        hit[d] = forward ? (pk ? bb_shift(pk, d) : 0) : bb_shift(opp, d);
        open |= hit[d] & behind[d];
    }
    for (int d = 0; d < DIR_NB; d++) {
        bool forward = c == BLACK ? d <= DIR_UR : d >= DIR_DL;
        if (!forward && !ok)
            continue;
        Bitboard from = (forward ? own : ok) & behind[d];
        movers |= from;
        /* safe: the square stepped to is neither open nor hit from the front */
        safe |= from & ~bb_shift(open | hit[d ^ 3], d ^ 3);
    }
    *stuck = own & ~movers;
    *unsafe = movers & ~safe;
    *danger = own & open;
}

enum {
    SHOT_MAN = 2,   /* a man's worth in a shot's material count */
    SHOT_KING = 3,  /* a king's */
    SHOT_MIN = 2,   /* what a shot wins at least: a man */
    SHOT_PLIES = 8, /* captures looked at in a row (a real exchange has far fewer) */
    SHOT_INF = 1000,
};

/* A position in a capture exchange: the side to move's pieces, the other side's, the kings. */
typedef struct {
    Bitboard own, opp, kings;
    int color; /* of the side to move */
} ShotSide;

/* The pieces of S's side to move that can jump. */
static inline Bitboard shot_jumpers(const ShotSide *s)
{
    return movegen_jumpers_of(s->own, s->opp, s->kings, s->color);
}

static int shot_gain(const ShotSide *s, int alpha, int beta, int plies);

/* The capture paths of one jumper (FROM, a king or not), walked as movegen.c walks them (a piece
 * taken is lifted at once, so it is not jumped twice; the square it stood on stays closed),
 * each scored by negamax with alpha-beta: the material it takes less what the other side then
 * wins. */
typedef struct {
    const ShotSide *s;
    Bitboard opp, empty; /* the other side less the pieces taken so far; the open squares */
    int from, alpha, beta, plies;
    int best;
} ShotWalk;

static void shot_end(ShotWalk *w, int to, Bitboard taken, bool king)
{
    const ShotSide *s = w->s;
    Bitboard fb = 1u << w->from, tb = 1u << to;
    ShotSide next = {s->opp & ~taken, (s->own & ~fb) | tb,
                     (s->kings & ~taken & ~fb) | (king ? tb : 0), s->color ^ 1};
    int worth =
        SHOT_MAN * bb_popcount(taken) + (SHOT_KING - SHOT_MAN) * bb_popcount(taken & s->kings);
    int a = w->alpha > w->best ? w->alpha : w->best;
    /* Mostly the other side has no capture back: no call then. */
    int v = worth;
    if (w->plies > 1 && shot_jumpers(&next))
        v -= shot_gain(&next, worth - w->beta, worth - a, w->plies - 1);
    if (v > w->best)
        w->best = v;
}

static void shot_walk(ShotWalk *w, int sq, Bitboard taken, bool king)
{
    static const int man_dirs[COLOR_NB][2] = {{DIR_UL, DIR_UR}, {DIR_DL, DIR_DR}};
    int color = w->s->color;
    bool extended = false;
    for (int i = 0; i < (king ? 4 : 2) && w->best < w->beta; i++) {
        int d = king ? i : man_dirs[color][i];
        int mid = bb_step[sq][d], land = bb_jump[sq][d];
        if (land < 0 || !((w->opp >> mid) & 1u) || !((w->empty >> land) & 1u))
            continue;
        extended = true;
        Bitboard m = 1u << mid;
        w->opp ^= m;
        if (!king && board_crown_square(color, land))
            shot_end(w, land, taken | m, true); /* crowning ends the move */
        else
            shot_walk(w, land, taken | m, king);
        w->opp ^= m;
    }
    if (!extended && taken && w->best < w->beta)
        shot_end(w, sq, taken, king);
}

/* What the side to move of S wins in material by captures, both sides taking their best, a
 * capture being forced when there is one (0 with none), at most PLIES captures deep: negamax
 * within ALPHA..BETA (a result at or above BETA may stand for a larger one). English capture
 * rules, whatever the game's: this is the feature's definition. */
static int shot_gain(const ShotSide *s, int alpha, int beta, int plies)
{
    Bitboard jumpers = plies > 0 ? shot_jumpers(s) : 0;
    if (!jumpers)
        return 0;
    ShotWalk w = {s, s->opp, ~(s->own | s->opp), 0, alpha, beta, plies, -SHOT_INF};
    for (; jumpers && w.best < beta; jumpers &= jumpers - 1) {
        w.from = bb_lsb(jumpers);
        w.opp = s->opp;
        w.empty = ~(s->own | s->opp) | (1u << w.from);
        shot_walk(&w, w.from, 0, (s->kings >> w.from) & 1u);
    }
    return w.best;
}

/* The pieces of B's side to move with a shot: a simple move after which the other side must
 * capture and, whichever capture it takes and the captures played out, the side to move is at
 * least SHOT_MIN ahead in material. B's own captures are not asked about (the positions a network
 * scores have none). */
static Bitboard shots_of(const Board *b)
{
    int us = b->side;
    Bitboard own = b->pieces[us], opp = b->pieces[us ^ 1], ok = own & b->kings;
    Bitboard empty = board_empty(b), crown = us == BLACK ? BB_ROW(7) : BB_ROW(0);
    ShotSide now = {opp, own, b->kings, us ^ 1};
    /* Which moves make them capture. When they already can, nearly every move: each is tried.
     * Otherwise a move does exactly when the piece moved can be jumped where it lands (the square
     * it left counts as empty) or the square it left is where one of theirs would land jumping
     * another of ours. */
    Bitboard hit[DIR_NB], open = 0, disc = 0;
    bool threat = shot_jumpers(&now) != 0;
    for (int e = 0; e < DIR_NB; e++) {
        /* their pieces that may move in direction e (men forwards: down when Black is us) */
        bool forward = us == BLACK ? e >= DIR_DL : e <= DIR_UR;
        hit[e] = bb_shift(forward ? opp : opp & b->kings, e); /* squares they would jump over */
        open |= hit[e] & bb_shift(empty, e ^ 3);              /* ... onto an empty square */
        disc |= bb_shift(hit[e] & own, e) & own;
    }
    Bitboard shots = 0;
    for (int d = 0; d < DIR_NB; d++) {
        bool forward = us == BLACK ? d <= DIR_UR : d >= DIR_DL;
        Bitboard from = (forward ? own : ok) & bb_shift(empty, d ^ 3);
        if (!threat)
            from &= disc | bb_shift(open | hit[d ^ 3], d ^ 3);
        for (from &= ~shots; from; from &= from - 1) {
            Bitboard fb = from & (0u - from), tb = bb_shift(fb, d);
            Bitboard kings = b->kings;
            if (kings & fb)
                kings ^= fb | tb;
            else if (tb & crown)
                kings |= tb;
            ShotSide them = {opp, own ^ (fb | tb), kings, us ^ 1};
            /* They must capture; a shot when their best is to lose SHOT_MIN or more. */
            if (shot_jumpers(&them) &&
                shot_gain(&them, -SHOT_INF, 1 - SHOT_MIN, SHOT_PLIES) <= -SHOT_MIN)
                shots |= fb;
        }
    }
    return shots;
}

int nnue_features_of(int features, const Board *b, uint16_t *out)
{
    int n = nnue_features(b, out);
    if (features == NNUE_FEATURES)
        return n;
    int us = b->side, flip = us == BLACK ? 0 : 31;
    Bitboard empty = board_empty(b), mine = b->pieces[us], theirs = b->pieces[us ^ 1];
    Bitboard mk = mine & b->kings, tk = theirs & b->kings;
    /* The pieces that cannot move: as informative as the ones that can (the piece features
     * are there too), and fewer rows to add past the opening. Theirs in danger: none, since a
     * position the search evaluates has no capture for the side to move. */
    const Bitboard behind[DIR_NB] = {bb_dr(empty), bb_dl(empty), bb_ur(empty), bb_ul(empty)};
    Bitboard our_stuck, our_unsafe, danger, their_stuck, their_unsafe, unused;
    if (us == BLACK) {
        side_mobility(mine, mk, BLACK, theirs, tk, behind, &our_stuck, &our_unsafe, &danger);
        side_mobility(theirs, tk, WHITE, mine, mk, behind, &their_stuck, &their_unsafe, &unused);
    } else {
        side_mobility(mine, mk, WHITE, theirs, tk, behind, &our_stuck, &our_unsafe, &danger);
        side_mobility(theirs, tk, BLACK, mine, mk, behind, &their_stuck, &their_unsafe, &unused);
    }
    const Bitboard extra[5] = {our_stuck, their_stuck, danger, our_unsafe, their_unsafe};
    for (int kind = 0; kind < 5; kind++)
        for (Bitboard m = extra[kind]; m; m &= m - 1)
            out[n++] = (uint16_t)(NNUE_FEATURES + kind * 32 + (__builtin_ctz(m) ^ flip));
    if (features == NNUE_FEATURES_SHOTS)
        for (Bitboard m = shots_of(b); m; m &= m - 1)
            out[n++] = (uint16_t)(NNUE_FEATURES_MOBILITY + (__builtin_ctz(m) ^ flip));
    return n;
}
