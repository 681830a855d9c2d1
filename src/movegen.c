/*
 * movegen.c - the one move generator (see movegen.h).
 *
 * Simple moves: for each direction, shift the movers and keep the empty targets; each target bit
 * has exactly one source, so counting needs only a popcount. Captures: a depth-first walk from
 * each piece that can jump. The moving piece leaves its origin (so a king can loop back to it);
 * captured pieces stay on the board until the move ends, which matters for nothing in English
 * checkers because landing squares and jumped squares lie on different colour classes.
 */
#include "movegen.h"

#include "bitboard.h"

#include <string.h>

/* Directions a man of each colour moves in; kings use all four. */
static const int man_dirs[COLOR_NB][2] = {{DIR_UL, DIR_UR}, {DIR_DL, DIR_DR}};

typedef struct {
    const Rules *rules;
    MoveList *list;
    Bitboard opp;   /* opposing pieces not yet captured on this route */
    Bitboard empty; /* empty squares, the mover's origin included */
    int color;      /* side to move */
    int first;      /* index in list->moves of this piece's first capture */
    bool all_paths; /* keep duplicate routes */
    bool was_king;  /* the mover started as a king */
    int counted;    /* captures found when counting */
    uint8_t path[MAX_JUMPS + 4];
} CaptureWalk;

/* The walk is written once and compiled twice, for listing and for counting (COUNT_ONLY is a
 * constant in each), so that generating pays nothing for the counting mode. */
#define WALK_INLINE static inline __attribute__((always_inline))

WALK_INLINE void emit_capture(CaptureWalk *w, int len, Bitboard captured, bool king_now,
                              bool count_only)
{
    MoveList *l = w->list;
    int to = w->path[len - 1];
    /* Duplicate routes can only come from a piece that moves as a king (loops need backward
     * jumps); compare against this piece's earlier captures only. */
    if (!w->all_paths && king_now) {
        for (int i = w->first; i < l->count; i++)
            if (l->moves[i].to == to && l->moves[i].captured == captured)
                return;
    }
    if (count_only) {
        /* Only a king's routes can merge, so only they are kept for comparing. */
        w->counted++;
        if (!king_now)
            return;
    }
    if (l->count >= MAX_MOVES)
        return;
    Move *m = &l->moves[l->count++];
    m->captured = captured;
    m->to = (uint8_t)to;
    if (count_only)
        return;
    m->from = w->path[0];
    m->len = (uint8_t)len;
    m->flags = (!w->was_king && king_now) ? MOVE_CROWNS : 0;
    if (!w->was_king && !king_now && board_crown_square(w->color, to))
        m->flags = MOVE_CROWNS;
    memcpy(m->path, w->path, (size_t)len);
}

static void walk_list(CaptureWalk *w, int sq, int len, Bitboard captured, bool king);
static void walk_count(CaptureWalk *w, int sq, int len, Bitboard captured, bool king);

WALK_INLINE void walk(CaptureWalk *w, int sq, int len, Bitboard captured, bool king,
                      bool count_only)
{
    bool extended = false;
    int ndirs = king ? 4 : 2;
    for (int i = 0; i < ndirs; i++) {
        int d = king ? i : man_dirs[w->color][i];
        int mid = bb_step[sq][d], land = bb_jump[sq][d];
        if (land < 0 || !((w->opp >> mid) & 1u) || !((w->empty >> land) & 1u))
            continue;
        extended = true;
        Bitboard m = 1u << mid;
        w->path[len] = (uint8_t)land;
        w->opp ^= m;
        bool crowned = !king && board_crown_square(w->color, land);
        bool goes_on = w->rules->multi_jump && (!crowned || w->rules->crown_continues);
        if (goes_on && count_only)
            walk_count(w, land, len + 1, captured | m, king || crowned);
        else if (goes_on)
            walk_list(w, land, len + 1, captured | m, king || crowned);
        else
            emit_capture(w, len + 1, captured | m, king || crowned, count_only);
        w->opp ^= m;
    }
    if (!extended && len > 1)
        emit_capture(w, len, captured, king, count_only);
}

static void walk_list(CaptureWalk *w, int sq, int len, Bitboard captured, bool king)
{
    walk(w, sq, len, captured, king, false);
}

static void walk_count(CaptureWalk *w, int sq, int len, Bitboard captured, bool king)
{
    walk(w, sq, len, captured, king, true);
}

/* The captures of JUMPERS appended to LIST, in full or (COUNT_ONLY) as much as merging needs. */
static int captures_of(const Board *b, const Rules *r, bool all_paths, MoveList *list,
                       Bitboard jumpers, bool count_only)
{
    CaptureWalk w;
    w.rules = r;
    w.counted = 0;
    w.list = list;
    w.color = b->side;
    w.all_paths = all_paths;
    while (jumpers) {
        int sq = bb_lsb(jumpers);
        jumpers &= jumpers - 1;
        w.opp = b->pieces[b->side ^ 1];
        w.empty = board_empty(b) | (1u << sq);
        w.first = list->count;
        w.was_king = board_is_king(b, sq);
        w.path[0] = (uint8_t)sq;
        if (count_only)
            walk_count(&w, sq, 1, 0, w.was_king);
        else
            walk_list(&w, sq, 1, 0, w.was_king);
    }
    return count_only ? w.counted : list->count;
}

int movegen_captures_of(const Board *b, const Rules *r, bool all_paths, MoveList *list,
                        Bitboard jumpers)
{
    return captures_of(b, r, all_paths, list, jumpers, false);
}

/* The simple moves of B appended to LIST by origin, then direction: movegen_quiet's moves
 * (direction by direction) sorted stably by origin. */
static void gen_simple(const Board *b, MoveList *list)
{
    QuietMove q[MAX_MOVES];
    int n = movegen_quiet(b, q);
    uint8_t start[SQUARE_NB + 1] = {0}, order[MAX_MOVES];
    for (int i = 0; i < n; i++)
        start[q[i].from + 1]++;
    for (int sq = 0; sq < SQUARE_NB; sq++)
        start[sq + 1] += start[sq];
    for (int i = 0; i < n; i++)
        order[start[q[i].from]++] = (uint8_t)i;
    for (int i = 0; i < n && list->count < MAX_MOVES; i++) {
        const QuietMove *s = &q[order[i]];
        Move *m = &list->moves[list->count++];
        m->captured = 0;
        m->from = s->from;
        m->to = s->to;
        m->len = 2;
        m->flags = s->crowns ? MOVE_CROWNS : 0;
        m->path[0] = s->from;
        m->path[1] = s->to;
    }
}

int movegen_generate(const Board *b, const Rules *r, bool all_paths, MoveList *list)
{
    list->count = 0;
    Bitboard jumpers = movegen_jumpers(b);
    if (jumpers)
        movegen_captures_of(b, r, all_paths, list, jumpers);
    if (!jumpers || !r->capture_mandatory)
        gen_simple(b, list);
    return list->count;
}

/* Captures of the pieces in SLOW, counted by the walk without copying paths (kept out of line:
 * the list makes its frame large). Only positions with kings to move, or a man crowned
 * mid-capture that goes on, come here. */
static __attribute__((noinline)) int count_slow(const Board *b, const Rules *r, bool all_paths,
                                                Bitboard slow)
{
    MoveList list;
    list.count = 0;
    return captures_of(b, r, all_paths, &list, slow, true);
}

/* The number of captures the walk finds for the pieces in PIECES. */
static int sp_count_walk(int c, Spread us, Spread them, Spread kings, const Rules *r,
                         bool all_paths, Spread pieces)
{
    Board b;
    b.pieces[c] = bb_unspread(us);
    b.pieces[c ^ 1] = bb_unspread(them);
    b.kings = bb_unspread(kings);
    b.side = c;
    b.key = 0; /* not read */
    return count_slow(&b, r, all_paths, bb_unspread(pieces));
}

/* movegen_sp_count_slow for colour C (a constant). */
static inline __attribute__((always_inline)) int
sp_count_slow(int c, Spread us, Spread them, Spread kings, const Rules *r, bool all_paths)
{
    const int fa = SP_FWD_A(c), fb = SP_FWD_B(c);
    Spread empty = SP_VALID & ~(us | them);
    Spread ukings = us & kings, men = us & ~kings;
    Spread ja = movegen_sp_jump_from(them, empty, fa), jb = movegen_sp_jump_from(them, empty, fb);
    Spread la = sp_shift(men & ja, 2 * fa), lb = sp_shift(men & jb, 2 * fb);
    Spread kj = ukings ? movegen_sp_king_jumpers(ukings, them, empty) : 0;
    int simple = sp_popcount(sp_shift(us, fa) & empty) + sp_popcount(sp_shift(us, fb) & empty) +
                 sp_popcount(sp_shift(ukings, -fa) & empty) +
                 sp_popcount(sp_shift(ukings, -fb) & empty);
    if (!(la | lb | kj))
        return simple;
    int n;
    if (!r->multi_jump)
        n = sp_popcount(la) + sp_popcount(lb);
    else {
        Spread reach;
        n = movegen_sp_men_routes(c, la, lb, ja, jb, &reach);
        /* A man crowned on the way goes on as a king under some rules: the walk does those. */
        if (r->crown_continues && (reach & SP_CROWN_ROW(c)))
            n = sp_count_walk(c, us, them, kings, r, all_paths, men);
    }
    if (kj)
        n += sp_count_walk(c, us, them, kings, r, all_paths, kj);
    return r->capture_mandatory ? n : n + simple;
}

int movegen_sp_count_slow(int c, Spread us, Spread them, Spread kings, const Rules *r,
                          bool all_paths)
{
    return c == BLACK ? sp_count_slow(BLACK, us, them, kings, r, all_paths)
                      : sp_count_slow(WHITE, us, them, kings, r, all_paths);
}

int movegen_count(const Board *b, const Rules *r, bool all_paths)
{
    Spread black = bb_spread(b->pieces[BLACK]), white = bb_spread(b->pieces[WHITE]);
    Spread kings = bb_spread(b->kings);
    if (b->side == BLACK)
        return movegen_sp_count(BLACK, black, white, kings, r, all_paths);
    return movegen_sp_count(WHITE, white, black, kings, r, all_paths);
}

bool move_same(const Move *a, const Move *b, bool all_paths)
{
    if (a->from != b->from || a->to != b->to || a->captured != b->captured)
        return false;
    if (!all_paths)
        return true;
    return a->len == b->len && memcmp(a->path, b->path, a->len) == 0;
}
