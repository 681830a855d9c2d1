/*
 * perft.c - perft: leaf counts of the move tree (the command is perft_cmd.c).
 *
 * Speed comes from three things: copy-make on a 24-byte Board, counting the moves of the last ply
 * with popcounts instead of generating them (movegen_count), and an optional table that keeps
 * subtree counts by (position, depth) so transpositions are counted once. No allocation happens
 * below the root.
 */
#include "perft.h"

#include "bitboard.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef struct {
    uint64_t key;   /* position key mixed with the depth */
    uint64_t count; /* leaf count of that subtree */
} PerftEntry;

struct PerftHash {
    PerftEntry *entries; /* 2-entry buckets: [0] keeps the deeper subtree, [1] the latest */
    uint64_t mask;       /* bucket count - 1 */
    size_t bytes;        /* size of the mapping ENTRIES points into */
};

PerftHash *perft_hash_new(size_t mb)
{
    if (mb == 0)
        return NULL;
    uint64_t buckets = 1;
    while (buckets * 2 * 2 * sizeof(PerftEntry) <= (uint64_t)mb << 20)
        buckets *= 2;
    PerftHash *h = malloc(sizeof *h);
    if (!h)
        return NULL;
    /* An anonymous mapping comes zeroed, page by page as it is touched; huge pages make that
     * 512 times fewer faults (a 2 GB table took about 3 s of system time in 4 KB pages). */
    h->bytes = (size_t)(buckets * 2 * sizeof(PerftEntry));
    void *p = mmap(NULL, h->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        free(h);
        return NULL;
    }
#ifdef MADV_HUGEPAGE
    madvise(p, h->bytes, MADV_HUGEPAGE);
#endif
    h->entries = p;
    h->mask = buckets - 1;
    return h;
}

void perft_hash_free(PerftHash *h)
{
    if (h) {
        munmap(h->entries, h->bytes);
        free(h);
    }
}

/* Depth is mixed into the key by a multiplier so that the same position at two depths never
 * shares an entry; the depth also sits in the low byte of the stored key for the replacement
 * decision. */
static inline uint64_t hash_key(uint64_t key, int depth)
{
    return ((key ^ ((uint64_t)depth * 0x9E3779B97F4A7C15ull)) & ~0xFFull) | (uint64_t)depth;
}

/* ---- The tree walk -------------------------------------------------------------------------
 *
 * Positions travel in the spread layout of bitboard.h (one shift per diagonal step) as US (the
 * side to move's pieces), THEM, KINGS (both colours') and KEY (the Board's Zobrist key, kept only
 * where the hash table reads it: nodes of depth HASH_MIN_DEPTH and more). The colour to move, C,
 * is a compile-time constant in every function below: each exists once per colour (inner_black,
 * inner_white, leaf_parent_black...), so every shift is one instruction with a fixed count.
 * Nodes of depth 2, the leaf parents, count their children's moves without making the children
 * (bulk_simple_children, movegen_sp_count); deeper nodes make each child from the bitboards
 * (simple moves, men's captures) or, for kings' captures, from the generator's move list.
 *
 * This is a second generator beside movegen.c's, kept for speed alone: perft is the hot path
 * where generation is nearly all the work. The spread layout and these counts took perft 10 from
 * 1,290 M instructions to 467 M (docs/perft.md, "Speed", callgrind table; 260 M with the later
 * steps). test_perft checks it against a generate-and-apply recursion over the one generator
 * under every rule set and switch. */

typedef struct {
    const Rules *rules;
    PerftHash *hash; /* NULL: no table */
    uint64_t salt; /* mixed into the keys: one table can serve several rule sets and conventions */
    bool all_paths;
} Walk;

/* The salt of rule set R and convention ALL_PATHS: a different number for every combination of
 * the switches, so that counts made under one are never read under another. */
static uint64_t walk_salt(const Rules *r, bool all_paths)
{
    unsigned bits = (unsigned)r->capture_mandatory | (unsigned)r->multi_jump << 1 |
                    (unsigned)r->crown_continues << 2 | (unsigned)all_paths << 3;
    return (uint64_t)bits * 0xD6E8FEB86659FD93ull;
}

#define INLINE static inline __attribute__((always_inline))

/* The walk is compiled twice: once reading the rule switches from the Rules struct at run time
 * (SW_ANY), and once for the switches of English checkers (SW_ENGLISH), used whenever a rule
 * set has exactly those. There every switch reads from ENGLISH_SWITCHES, a constant the compiler
 * folds, so the tests of the switches and the code they skip disappear (about 11% of the
 * instructions of perft 10). SW is a compile-time constant in every function that takes it. */
enum { SW_ANY, SW_ENGLISH };

static const Rules ENGLISH_SWITCHES = {"english", true, true, false};

/* Whether A and B have the same switches (their names may differ). */
static bool same_switches(const Rules *a, const Rules *b)
{
    return a->capture_mandatory == b->capture_mandatory && a->multi_jump == b->multi_jump &&
           a->crown_continues == b->crown_continues;
}

/* The rules the walk reads. */
INLINE const Rules *walk_rules(const Walk *w, int sw)
{
    return sw == SW_ENGLISH ? &ENGLISH_SWITCHES : w->rules;
}

#define WALK_FUNCTIONS(SUFFIX)                                                                     \
    static uint64_t inner_black##SUFFIX(const Walk *w, Spread us, Spread them, Spread kings,       \
                                        uint64_t key, int depth);                                  \
    static uint64_t inner_white##SUFFIX(const Walk *w, Spread us, Spread them, Spread kings,       \
                                        uint64_t key, int depth);                                  \
    static uint64_t leaf_parent_black##SUFFIX(const Walk *w, Spread us, Spread them,               \
                                              Spread kings);                                       \
    static uint64_t leaf_parent_white##SUFFIX(const Walk *w, Spread us, Spread them, Spread kings);
WALK_FUNCTIONS(_any)
WALK_FUNCTIONS(_english)

/* The leaf count DEPTH (>= 2) plies below a position with C to move. */
INLINE uint64_t subtree(int c, const Walk *w, int sw, Spread us, Spread them, Spread kings,
                        uint64_t key, int depth)
{
    if (sw == SW_ENGLISH) {
        if (depth == 2)
            return c == BLACK ? leaf_parent_black_english(w, us, them, kings)
                              : leaf_parent_white_english(w, us, them, kings);
        return c == BLACK ? inner_black_english(w, us, them, kings, key, depth)
                          : inner_white_english(w, us, them, kings, key, depth);
    }
    if (depth == 2)
        return c == BLACK ? leaf_parent_black_any(w, us, them, kings)
                          : leaf_parent_white_any(w, us, them, kings);
    return c == BLACK ? inner_black_any(w, us, them, kings, key, depth)
                      : inner_white_any(w, us, them, kings, key, depth);
}

/* Zobrist number of a piece of colour C (a king if KING) on the spread square BIT. */
INLINE uint64_t zobrist_sp(int c, bool king, Spread bit)
{
    return zobrist_piece[c][king][sp_index(__builtin_ctzll(bit))];
}

/* Nodes this deep or deeper use the hash table. Shallower subtrees are cheaper to count again
 * than to look up (a probe is a cache miss in a large table): perft 14 --paths --hash 2048
 * took 1.85 s of CPU probing from depth 3, 1.61 s from depth 4, 2.1 s from depth 5 (medians of
 * 3 runs). */
enum { HASH_MIN_DEPTH = 4 };

/* Whether a node of depth DEPTH needs its key: only the hash table reads keys. */
INLINE bool keyed(const Walk *w, int depth)
{
    return w->hash && depth >= HASH_MIN_DEPTH;
}

/* The children of a node of depth DEPTH reached by a simple move of MOVERS in direction N (a
 * constant). At a leaf parent (LEAF_PARENT, DEPTH 2) each child only needs its number of moves,
 * which depends on the child's side to move alone: its pieces (our THEM), their kings (THEM &
 * KINGS: our move does not change them) and the empty squares. So the child is never built: no
 * key, no king update, and everything that depends on THEM alone is computed once per node
 * (movegen_sp_count is inlined here and the compiler hoists it out of the loop). */
INLINE uint64_t simple_children(int c, const Walk *w, int sw, Spread us, Spread them, Spread kings,
                                uint64_t key, int depth, bool leaf_parent, int n, Spread movers,
                                Spread empty)
{
    uint64_t total = 0;
    for (Spread to = sp_shift(movers, n) & empty; to; to &= to - 1) {
        Spread tb = to & (0 - to), fb = sp_shift(tb, -n);
        if (leaf_parent) {
            total += (uint64_t)movegen_sp_count(c ^ 1, them, us ^ fb ^ tb, kings & them,
                                                walk_rules(w, sw), w->all_paths);
            continue;
        }
        bool king = (kings & fb) != 0, crowns = !king && (tb & SP_CROWN_ROW(c));
        Spread nk = (kings ^ (king ? fb | tb : 0)) | (crowns ? tb : 0);
        uint64_t nkey = 0;
        if (keyed(w, depth - 1))
            nkey = key ^ zobrist_side ^ zobrist_sp(c, king, fb) ^ zobrist_sp(c, king || crowns, tb);
        total += subtree(c ^ 1, w, sw, them, us ^ fb ^ tb, nk, nkey, depth - 1);
    }
    return total;
}

/* The child reached by a capture of our man from FB to TB taking CAPTURED. */
INLINE uint64_t capture_child(int c, const Walk *w, int sw, Spread us, Spread them, Spread kings,
                              uint64_t key, int depth, bool leaf_parent, Spread fb, Spread tb,
                              Spread captured)
{
    Spread nthem = them & ~captured, nus = us ^ fb ^ tb;
    if (leaf_parent)
        return (uint64_t)movegen_sp_count(c ^ 1, nthem, nus, kings & nthem, walk_rules(w, sw),
                                          w->all_paths);
    bool crowns = (tb & SP_CROWN_ROW(c)) != 0;
    Spread nk = (kings & ~captured) | (crowns ? tb : 0);
    uint64_t nkey = 0;
    if (keyed(w, depth - 1)) {
        nkey = key ^ zobrist_side ^ zobrist_sp(c, false, fb) ^ zobrist_sp(c, crowns, tb);
        for (Spread x = captured; x; x &= x - 1) {
            Spread xb = x & (0 - x);
            nkey ^= zobrist_sp(c ^ 1, (kings & xb) != 0, xb);
        }
    }
    return subtree(c ^ 1, w, sw, nthem, nus, nk, nkey, depth - 1);
}

/* The children reached by the single jumps (one capture, no jump after it) of men landing on
 * LANDINGS in direction N. */
INLINE uint64_t jump_children(int c, const Walk *w, int sw, Spread us, Spread them, Spread kings,
                              uint64_t key, int depth, bool leaf_parent, int n, Spread landings)
{
    uint64_t total = 0;
    for (Spread to = landings; to; to &= to - 1) {
        Spread tb = to & (0 - to), mb = sp_shift(tb, -n);
        total += capture_child(c, w, sw, us, them, kings, key, depth, leaf_parent, sp_shift(mb, -n),
                               tb, mb);
    }
    return total;
}

/* Men's multi-jumps straight from the bitboards, the routes of movegen_sp_men_routes one by one:
 * X3 holds the squares where men stand after jumps D1, D2, D3 (a route per bit, see there); each
 * route's origin and captured pieces are fixed shifts of its last square. X2 and X1 are the same
 * after two jumps and one; a route ends there if no jump goes on (AGAIN: the squares from which
 * one does). Men only: the caller sends kings, and men that a crowning lets go on, to the
 * generator. */
INLINE uint64_t routes3(int c, const Walk *w, int sw, Spread us, Spread them, Spread kings,
                        uint64_t key, int depth, bool leaf_parent, int d1, int d2, int d3,
                        Spread x3)
{
    uint64_t total = 0;
    for (; x3; x3 &= x3 - 1) {
        Spread tb = x3 & (0 - x3);
        Spread captured =
            sp_shift(tb, -d3) | sp_shift(tb, -2 * d3 - d2) | sp_shift(tb, -2 * d3 - 2 * d2 - d1);
        total += capture_child(c, w, sw, us, them, kings, key, depth, leaf_parent,
                               sp_shift(tb, -2 * (d1 + d2 + d3)), tb, captured);
    }
    return total;
}
INLINE uint64_t routes2(int c, const Walk *w, int sw, Spread us, Spread them, Spread kings,
                        uint64_t key, int depth, bool leaf_parent, Spread ja, Spread jb, int d1,
                        int d2, Spread x2)
{
    const int fa = SP_FWD_A(c), fb = SP_FWD_B(c);
    uint64_t total = 0;
    for (Spread ends = x2 & ~(ja | jb); ends; ends &= ends - 1) {
        Spread tb = ends & (0 - ends);
        Spread captured = sp_shift(tb, -d2) | sp_shift(tb, -2 * d2 - d1);
        total += capture_child(c, w, sw, us, them, kings, key, depth, leaf_parent,
                               sp_shift(tb, -2 * (d1 + d2)), tb, captured);
    }
    if (x2 & (ja | jb)) {
        total += routes3(c, w, sw, us, them, kings, key, depth, leaf_parent, d1, d2, fa,
                         sp_shift(x2 & ja, 2 * fa));
        total += routes3(c, w, sw, us, them, kings, key, depth, leaf_parent, d1, d2, fb,
                         sp_shift(x2 & jb, 2 * fb));
    }
    return total;
}
INLINE uint64_t routes1(int c, const Walk *w, int sw, Spread us, Spread them, Spread kings,
                        uint64_t key, int depth, bool leaf_parent, Spread ja, Spread jb, int d1,
                        Spread x1)
{
    const int fa = SP_FWD_A(c), fb = SP_FWD_B(c);
    uint64_t total =
        jump_children(c, w, sw, us, them, kings, key, depth, leaf_parent, d1, x1 & ~(ja | jb));
    if (x1 & (ja | jb)) {
        total += routes2(c, w, sw, us, them, kings, key, depth, leaf_parent, ja, jb, d1, fa,
                         sp_shift(x1 & ja, 2 * fa));
        total += routes2(c, w, sw, us, them, kings, key, depth, leaf_parent, ja, jb, d1, fb,
                         sp_shift(x1 & jb, 2 * fb));
    }
    return total;
}

/* The children reached by the captures of PIECES (kings, and men whose capture can go on), which
 * the move generator lists; out of line because the list is large. */
static __attribute__((noinline)) uint64_t generated_children(int c, const Walk *w, int sw,
                                                             Spread us, Spread them, Spread kings,
                                                             uint64_t key, int depth, Spread pieces)
{
    Board b;
    b.pieces[c] = bb_unspread(us);
    b.pieces[c ^ 1] = bb_unspread(them);
    b.kings = bb_unspread(kings);
    b.side = c;
    b.key = key;
    MoveList list;
    list.count = 0;
    int n = movegen_captures_of(&b, w->rules, w->all_paths, &list, bb_unspread(pieces));
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        Board child = b;
        board_apply(&child, &list.moves[i]);
        Spread cus = bb_spread(child.pieces[c ^ 1]), cthem = bb_spread(child.pieces[c]);
        Spread ck = bb_spread(child.kings);
        if (depth == 2)
            total += (uint64_t)(c == BLACK ? movegen_sp_count(WHITE, cus, cthem, ck,
                                                              walk_rules(w, sw), w->all_paths)
                                           : movegen_sp_count(BLACK, cus, cthem, ck,
                                                              walk_rules(w, sw), w->all_paths));
        else if (sw == SW_ENGLISH)
            total += c == BLACK
                         ? subtree(WHITE, w, SW_ENGLISH, cus, cthem, ck, child.key, depth - 1)
                         : subtree(BLACK, w, SW_ENGLISH, cus, cthem, ck, child.key, depth - 1);
        else
            total += c == BLACK ? subtree(WHITE, w, SW_ANY, cus, cthem, ck, child.key, depth - 1)
                                : subtree(BLACK, w, SW_ANY, cus, cthem, ck, child.key, depth - 1);
    }
    return total;
}

/* Bulk counting at a leaf parent. Let C move a piece from f to t by a simple move, and say the
 * opponent (THEM, to move in the child) has no king and cannot capture in the parent position as
 * it stands. Then the child's move count has a closed form, and so has its sum over all the
 * simple moves of one direction at once, N (MOVERS the pieces moving that way):
 *
 * - Simple moves. Their men step to MA and MB (by their two directions, ignoring what is there),
 *   and S of those squares are empty in the parent. In the child t is taken and f is free, so
 *   the child has S - [t in MA] - [t in MB] + [f in MA] + [f in MB] simple moves: summed over a
 *   set of targets X with origins F, |X| S - |X & MA| - |X & MB| + |F & MA| + |F & MB|.
 * - Captures. The opponent can capture in the child only through a change the move made:
 *   either our piece on t is jumped (by G: a man of theirs on t - G, the square t + G empty; when
 *   their jump runs against our move, t + G is f itself, which the move emptied) - DTA and DTB
 *   hold those t for their two directions - or a piece of ours on f - G is jumped onto the
 *   emptied f: DFA and DFB hold those f. The child's captures are its first jumps, [t in DTA] +
 *   [t in DTB] + [f in DFA] + [f in DFB], summed like the simple moves, unless a capture can
 *   branch after its first jump (movegen_sp_branchy); the few children where that may happen
 *   are counted one by one.
 * - A child's count is its captures if it has some and they are forced, else captures plus
 *   simple moves. */
INLINE uint64_t bulk_simple_children(int c, const Walk *w, int sw, Spread us, Spread them,
                                     Spread empty, int n, Spread movers, Spread ma, Spread mb,
                                     int s, Spread dfa, Spread dfb, Spread branchy_parent)
{
    const Rules *r = walk_rules(w, sw);
    const int ga = -SP_FWD_A(c), gb = -SP_FWD_B(c); /* the opponent's steps */
    Spread to = sp_shift(movers, n) & empty;
    if (!to)
        return 0;
    Spread dta = ma & (ga == -n ? ~0ull : sp_shift(empty, -ga));
    Spread dtb = mb & (gb == -n ? ~0ull : sp_shift(empty, -gb));
    Spread quiet = to & ~(dta | dtb) & ~sp_shift(dfa | dfb, n);
    uint64_t total = 0;
    Spread single = to; /* children whose captures (if any) are all single jumps */
    if (r->multi_jump) {
        /* Where no first jump can branch, the child's captures are its first jumps (see
         * movegen_sp_branchy). The test is made on the parent: a jump from a square L of the
         * child goes over L + G' to L + 2 G' (G' one of their steps); L + 2 G' is never f, so
         * it must be empty in the parent too; L + G' is ours in the parent too unless it is t,
         * which happens only when our piece moved the way their men do (a king moving back)
         * and they landed on f: then t counts as ours. The parent's jumps can only be more. */
        Spread branchy = branchy_parent;
        if (n == ga || n == gb || r->crown_continues) {
            Spread u = n == ga || n == gb ? us | to : us;
            Spread ja = movegen_sp_jump_from(u, empty, ga), jb = movegen_sp_jump_from(u, empty, gb);
            branchy = movegen_sp_branchy(c ^ 1, ja, jb);
            if (r->crown_continues)
                branchy |= movegen_sp_crown_reach(c ^ 1, ja, jb);
        }
        /* The children where a first jump might branch are counted one by one. */
        Spread more = to & ((dta & sp_shift(branchy, -ga)) | (dtb & sp_shift(branchy, -gb)) |
                            sp_shift(branchy & (dfa | dfb), n));
        single = to & ~more;
        for (; more; more &= more - 1) {
            Spread tb = more & (0 - more), fb = sp_shift(tb, -n);
            total += (uint64_t)movegen_sp_count(c ^ 1, them, us ^ fb ^ tb, 0, r, w->all_paths);
        }
    }
    Spread fsingle = sp_shift(single, -n);
    int captures = sp_popcount(single & dta) + sp_popcount(single & dtb) +
                   sp_popcount(fsingle & dfa) + sp_popcount(fsingle & dfb);
    Spread x = r->capture_mandatory ? quiet : single, fx = sp_shift(x, -n);
    int simple = sp_popcount(x) * s - sp_popcount(x & ma) - sp_popcount(x & mb) +
                 sp_popcount(fx & ma) + sp_popcount(fx & mb);
    return total + (uint64_t)(captures + simple);
}

/* A node of depth DEPTH with C to move: captures first (single jumps of men from the bitboards,
 * the rest through the generator), then, unless a capture was forced, the simple moves. */
INLINE uint64_t node(int c, const Walk *w, int sw, Spread us, Spread them, Spread kings,
                     uint64_t key, int depth, bool leaf_parent)
{
    const Rules *r = walk_rules(w, sw);
    uint64_t hk = 0;
    PerftEntry *bucket = NULL;
    if (!leaf_parent && keyed(w, depth)) {
        PerftHash *h = w->hash;
        uint64_t salted = key ^ w->salt;
        hk = hash_key(salted, depth);
        bucket = &h->entries[(salted & h->mask) * 2];
        if (bucket[0].key == hk)
            return bucket[0].count;
        if (bucket[1].key == hk)
            return bucket[1].count;
    }
    const int fa = SP_FWD_A(c), fb = SP_FWD_B(c);
    Spread empty = SP_VALID & ~(us | them);
    Spread ukings = us & kings, men = us & ~kings;
    Spread la = sp_jumps(men, them, empty, fa), lb = sp_jumps(men, them, empty, fb);
    Spread kj = ukings ? movegen_sp_king_jumpers(ukings, them, empty) : 0;
    uint64_t total = 0;
    if ((la | lb | kj) && r->multi_jump && !r->crown_continues) {
        /* Men's captures from the bitboards, kings' through the generator. */
        Spread ja = movegen_sp_jump_from(them, empty, fa),
               jb = movegen_sp_jump_from(them, empty, fb);
        total += routes1(c, w, sw, us, them, kings, key, depth, leaf_parent, ja, jb, fa, la);
        total += routes1(c, w, sw, us, them, kings, key, depth, leaf_parent, ja, jb, fb, lb);
        if (kj)
            total += generated_children(c, w, sw, us, them, kings, key, depth, kj);
        if (r->capture_mandatory)
            goto done;
    } else if (la | lb | kj) {
        /* Kings, and men that can jump on after landing (or, where the rules say so, are crowned
         * and go on as kings), go through the generator. */
        Spread slow = kj;
        if (r->multi_jump) {
            Spread again = sp_shift(sp_shift(empty, -fa) & them, -fa) |
                           sp_shift(sp_shift(empty, -fb) & them, -fb);
            if (r->crown_continues)
                again |= SP_CROWN_ROW(c);
            slow |= sp_shift(la & again, -2 * fa) | sp_shift(lb & again, -2 * fb);
        }
        total += jump_children(c, w, sw, us, them, kings, key, depth, leaf_parent, fa,
                               la & ~sp_shift(slow, 2 * fa));
        total += jump_children(c, w, sw, us, them, kings, key, depth, leaf_parent, fb,
                               lb & ~sp_shift(slow, 2 * fb));
        if (slow)
            total += generated_children(c, w, sw, us, them, kings, key, depth, slow);
        if (r->capture_mandatory)
            goto done;
    }
    if (leaf_parent && !(them & kings)) {
        Spread ma = sp_shift(them, -fa), mb = sp_shift(them, -fb);
        Spread threat = (ma & us & sp_shift(empty, fa)) | (mb & us & sp_shift(empty, fb));
        if (!threat) {
            int s = sp_popcount(ma & empty) + sp_popcount(mb & empty);
            Spread dfa = sp_shift(ma & us, -fa), dfb = sp_shift(mb & us, -fb);
            Spread branchy = movegen_sp_branchy(c ^ 1, movegen_sp_jump_from(us, empty, -fa),
                                                movegen_sp_jump_from(us, empty, -fb));
            total += bulk_simple_children(c, w, sw, us, them, empty, fa, us, ma, mb, s, dfa, dfb,
                                          branchy);
            total += bulk_simple_children(c, w, sw, us, them, empty, fb, us, ma, mb, s, dfa, dfb,
                                          branchy);
            if (ukings) {
                total += bulk_simple_children(c, w, sw, us, them, empty, -fa, ukings, ma, mb, s,
                                              dfa, dfb, branchy);
                total += bulk_simple_children(c, w, sw, us, them, empty, -fb, ukings, ma, mb, s,
                                              dfa, dfb, branchy);
            }
            goto done;
        }
    }
    total += simple_children(c, w, sw, us, them, kings, key, depth, leaf_parent, fa, us, empty);
    total += simple_children(c, w, sw, us, them, kings, key, depth, leaf_parent, fb, us, empty);
    if (ukings) {
        total +=
            simple_children(c, w, sw, us, them, kings, key, depth, leaf_parent, -fa, ukings, empty);
        total +=
            simple_children(c, w, sw, us, them, kings, key, depth, leaf_parent, -fb, ukings, empty);
    }
done:
    if (bucket) {
        if ((int)(bucket[0].key & 0xFF) <= depth) {
            bucket[1] = bucket[0];
            bucket[0] = (PerftEntry){hk, total};
        } else
            bucket[1] = (PerftEntry){hk, total};
    }
    return total;
}

#define WALK_DEFINITIONS(SUFFIX, SW)                                                               \
    static uint64_t inner_black##SUFFIX(const Walk *w, Spread us, Spread them, Spread kings,       \
                                        uint64_t key, int depth)                                   \
    {                                                                                              \
        return node(BLACK, w, SW, us, them, kings, key, depth, false);                             \
    }                                                                                              \
    static uint64_t inner_white##SUFFIX(const Walk *w, Spread us, Spread them, Spread kings,       \
                                        uint64_t key, int depth)                                   \
    {                                                                                              \
        return node(WHITE, w, SW, us, them, kings, key, depth, false);                             \
    }                                                                                              \
    static uint64_t leaf_parent_black##SUFFIX(const Walk *w, Spread us, Spread them, Spread kings) \
    {                                                                                              \
        return node(BLACK, w, SW, us, them, kings, 0, 2, true);                                    \
    }                                                                                              \
    static uint64_t leaf_parent_white##SUFFIX(const Walk *w, Spread us, Spread them, Spread kings) \
    {                                                                                              \
        return node(WHITE, w, SW, us, them, kings, 0, 2, true);                                    \
    }
WALK_DEFINITIONS(_any, SW_ANY)
WALK_DEFINITIONS(_english, SW_ENGLISH)

uint64_t perft_count(const Board *b, const Rules *r, int depth, bool all_paths, PerftHash *h)
{
    if (depth <= 0)
        return 1;
    Walk w = {r, h, walk_salt(r, all_paths), all_paths};
    int us = b->side;
    Spread mine = bb_spread(b->pieces[us]), theirs = bb_spread(b->pieces[us ^ 1]);
    Spread kings = bb_spread(b->kings);
    if (depth == 1)
        return (uint64_t)movegen_count(b, r, all_paths);
    if (same_switches(r, &ENGLISH_SWITCHES))
        return us == BLACK ? subtree(BLACK, &w, SW_ENGLISH, mine, theirs, kings, b->key, depth)
                           : subtree(WHITE, &w, SW_ENGLISH, mine, theirs, kings, b->key, depth);
    return us == BLACK ? subtree(BLACK, &w, SW_ANY, mine, theirs, kings, b->key, depth)
                       : subtree(WHITE, &w, SW_ANY, mine, theirs, kings, b->key, depth);
}
