/*
 * perft.c - perft: leaf counts of the move tree, and the `ponder perft` command.
 *
 * Speed comes from three things: copy-make on a 24-byte Board, counting the moves of the last ply
 * with popcounts instead of generating them (movegen_count), and an optional table that keeps
 * subtree counts by (position, depth) so transpositions are counted once. No allocation happens
 * below the root.
 */
#include "perft.h"

#include "bitboard.h"
#include "cli.h"
#include "command.h"
#include "notation.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t key;   /* position key mixed with the depth */
    uint64_t count; /* leaf count of that subtree */
} PerftEntry;

struct PerftHash {
    PerftEntry *entries; /* 2-entry buckets: [0] keeps the deeper subtree, [1] the latest */
    uint64_t mask;       /* bucket count - 1 */
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
    h->entries = calloc(buckets * 2, sizeof(PerftEntry));
    if (!h->entries) {
        free(h);
        return NULL;
    }
    h->mask = buckets - 1;
    return h;
}

void perft_hash_free(PerftHash *h)
{
    if (h) {
        free(h->entries);
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

static uint64_t perft_rec(const Board *b, const Rules *r, int depth, bool all_paths, PerftHash *h);

/* The subtrees below the simple moves of MOVERS in direction D (a compile-time constant at every
 * call, so the shifts fold). */
static inline __attribute__((always_inline)) uint64_t
simple_children(const Board *b, const Rules *r, int depth, bool all_paths, PerftHash *h, int d,
                Bitboard movers)
{
    int us = b->side;
    uint64_t total = 0;
    for (Bitboard to = bb_shift(movers, d) & board_empty(b); to; to &= to - 1) {
        Bitboard tb = to & (0u - to);
        Bitboard fb = bb_shift(tb, d ^ 3);
        int from_sq = bb_lsb(fb), to_sq = bb_lsb(tb);
        Board child = *b;
        child.pieces[us] ^= fb | tb;
        child.side = us ^ 1;
        if (depth == 2) {
            /* The child is a leaf parent: no key needed, only its move count. */
            if (b->kings & fb)
                child.kings ^= fb | tb;
            else if (board_crown_square(us, to_sq))
                child.kings |= tb;
            total += (uint64_t)movegen_count(&child, r, all_paths);
            continue;
        }
        if (b->kings & fb) {
            child.kings ^= fb | tb;
            child.key ^= zobrist_piece[us][1][from_sq] ^ zobrist_piece[us][1][to_sq];
        } else if (board_crown_square(us, to_sq)) {
            child.kings |= tb;
            child.key ^= zobrist_piece[us][0][from_sq] ^ zobrist_piece[us][1][to_sq];
        } else
            child.key ^= zobrist_piece[us][0][from_sq] ^ zobrist_piece[us][0][to_sq];
        child.key ^= zobrist_side;
        total += perft_rec(&child, r, depth - 1, all_paths, h);
    }
    return total;
}

/* The subtrees below the single jumps of the men MOVERS in direction D. */
static inline __attribute__((always_inline)) uint64_t
jump_children(const Board *b, const Rules *r, int depth, bool all_paths, PerftHash *h, int d,
              Bitboard movers)
{
    int us = b->side, them = us ^ 1;
    uint64_t total = 0;
    Bitboard victims = bb_shift(movers, d) & b->pieces[them];
    for (Bitboard to = bb_shift(victims, d) & board_empty(b); to; to &= to - 1) {
        Bitboard tb = to & (0u - to);
        Bitboard mb = bb_shift(tb, d ^ 3);
        Bitboard fb = bb_shift(mb, d ^ 3);
        int from_sq = bb_lsb(fb), to_sq = bb_lsb(tb), mid_sq = bb_lsb(mb);
        bool crowns = board_crown_square(us, to_sq);
        Board child = *b;
        child.pieces[us] ^= fb | tb;
        child.pieces[them] ^= mb;
        child.key ^= zobrist_piece[them][board_is_king(b, mid_sq)][mid_sq];
        child.kings &= ~mb;
        if (crowns)
            child.kings |= tb;
        child.key ^= zobrist_piece[us][0][from_sq] ^ zobrist_piece[us][crowns][to_sq] ^ zobrist_side;
        child.side = them;
        total += perft_rec(&child, r, depth - 1, all_paths, h);
    }
    return total;
}

static uint64_t perft_rec(const Board *b, const Rules *r, int depth, bool all_paths, PerftHash *h)
{
    if (depth == 1)
        return (uint64_t)movegen_count(b, r, all_paths);
    uint64_t hk = 0;
    PerftEntry *bucket = NULL;
    if (h && depth >= 3) {
        hk = hash_key(b->key, depth);
        bucket = &h->entries[(b->key & h->mask) * 2];
        if (bucket[0].key == hk)
            return bucket[0].count;
        if (bucket[1].key == hk)
            return bucket[1].count;
    }
    uint64_t total = 0;
    Bitboard jumpers = movegen_jumpers(b);
    if (jumpers) {
        /* Men that can only jump once: children straight from the bitboards. Everything else
         * (kings, multi-jumps) through the generator. */
        Bitboard single = movegen_single_jumpers(b, r, jumpers);
        if (single) {
            int us = b->side;
            total += jump_children(b, r, depth, all_paths, h, us == BLACK ? DIR_UL : DIR_DL, single);
            total += jump_children(b, r, depth, all_paths, h, us == BLACK ? DIR_UR : DIR_DR, single);
        }
        if (jumpers & ~single) {
            MoveList list;
            list.count = 0;
            int n = movegen_captures_of(b, r, all_paths, &list, jumpers & ~single);
            for (int i = 0; i < n; i++) {
                Board child = *b;
                board_apply(&child, &list.moves[i]);
                total += perft_rec(&child, r, depth - 1, all_paths, h);
            }
        }
        if (r->capture_mandatory)
            goto done;
    }
    /* Simple moves straight from the bitboards: no Move structs, no list. */
    {
        int us = b->side;
        Bitboard kings = b->pieces[us] & b->kings;
        if (us == BLACK) {
            total += simple_children(b, r, depth, all_paths, h, DIR_UL, b->pieces[us]);
            total += simple_children(b, r, depth, all_paths, h, DIR_UR, b->pieces[us]);
            if (kings) {
                total += simple_children(b, r, depth, all_paths, h, DIR_DL, kings);
                total += simple_children(b, r, depth, all_paths, h, DIR_DR, kings);
            }
        } else {
            total += simple_children(b, r, depth, all_paths, h, DIR_DL, b->pieces[us]);
            total += simple_children(b, r, depth, all_paths, h, DIR_DR, b->pieces[us]);
            if (kings) {
                total += simple_children(b, r, depth, all_paths, h, DIR_UL, kings);
                total += simple_children(b, r, depth, all_paths, h, DIR_UR, kings);
            }
        }
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

uint64_t perft_count(const Board *b, const Rules *r, int depth, bool all_paths, PerftHash *h)
{
    if (depth <= 0)
        return 1;
    return perft_rec(b, r, depth, all_paths, h);
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ponder perft DEPTH [--fen FEN] [--rules R] [--paths] [--divide] [--hash MB]\n"
            "\n"
            "Counts the leaf nodes of the legal move tree to DEPTH plies and prints one line per\n"
            "depth: `perft D NODES SECONDS NODES_PER_SECOND'.\n"
            "  --fen FEN    start from FEN instead of the standard position\n"
            "  --rules R    rule set: %s (default english)\n"
            "  --paths      count every capture route as its own move (default: routes that take\n"
            "               the same pieces to the same square are one move)\n"
            "  --divide     before the last line, the count below each move of the root\n"
            "  --hash MB    keep subtree counts in a table of MB megabytes (default 0: none)\n",
            rules_names());
}

int cmd_perft(int argc, char **argv)
{
    long depth = -1, hash_mb = 0;
    const char *fen = NULL;
    const Rules *rules = &RULES_ENGLISH;
    bool paths = false, divide = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--fen") == 0) {
            if (!(fen = cli_value(argc, argv, &i)))
                goto bad;
        } else if (strcmp(a, "--rules") == 0) {
            if (!(v = cli_value(argc, argv, &i)))
                goto bad;
            if (!(rules = rules_find(v))) {
                fprintf(stderr, "ponder perft: unknown rule set `%s' (known: %s)\n", v,
                        rules_names());
                goto bad;
            }
        } else if (strcmp(a, "--hash") == 0) {
            if (!(v = cli_value(argc, argv, &i)) || !cli_long("--hash", v, 0, 1 << 20, &hash_mb))
                goto bad;
        } else if (strcmp(a, "--paths") == 0) {
            paths = true;
        } else if (strcmp(a, "--divide") == 0) {
            divide = true;
        } else if (a[0] == '-' && a[1] != '\0' && !(a[1] >= '0' && a[1] <= '9')) {
            fprintf(stderr, "ponder perft: unknown option `%s'\n", a);
            goto bad;
        } else if (depth < 0) {
            if (!cli_long("DEPTH", a, 0, 64, &depth))
                goto bad;
        } else {
            fprintf(stderr, "ponder perft: unexpected argument `%s'\n", a);
            goto bad;
        }
    }
    if (depth < 0) {
        fprintf(stderr, "ponder perft: DEPTH missing\n");
        goto bad;
    }
    Board b;
    if (fen) {
        ParseError e;
        if (!notation_parse_fen(fen, &b, &e)) {
            char msg[256];
            parse_error_format(&e, msg, sizeof msg);
            fprintf(stderr, "ponder perft: bad FEN: %s\n", msg);
            goto bad;
        }
    } else
        board_start(&b);
    PerftHash *h = perft_hash_new((size_t)hash_mb);
    if (hash_mb > 0 && !h) {
        fprintf(stderr, "ponder perft: cannot allocate %ld MB for the hash table\n", hash_mb);
        return 1;
    }
    for (int d = 1; d <= depth; d++) {
        double t0 = cli_now();
        uint64_t nodes = 0;
        if (divide && d == depth) {
            MoveList list;
            movegen_generate(&b, rules, paths, &list);
            for (int i = 0; i < list.count; i++) {
                Board child = b;
                board_apply(&child, &list.moves[i]);
                uint64_t n = perft_count(&child, rules, d - 1, paths, h);
                char mv[64];
                notation_format_move(&list.moves[i], mv, sizeof mv);
                printf("%s %llu\n", mv, (unsigned long long)n);
                nodes += n;
            }
        } else
            nodes = perft_count(&b, rules, d, paths, h);
        double dt = cli_now() - t0;
        printf("perft %d %llu %.3f %.0f\n", d, (unsigned long long)nodes, dt,
               dt > 0 ? (double)nodes / dt : 0.0);
        fflush(stdout);
    }
    perft_hash_free(h);
    return 0;
bad:
    usage(stderr);
    return 2;
}

PONDER_COMMAND("perft", cmd_perft, 80, "count the move tree's leaves (move generator check and speed)")
