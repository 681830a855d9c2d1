/*
 * test_perft.c - the fast perft (bitboard children, bulk leaf counts, hash table) against a
 * plain recursion over movegen_generate and board_apply, on random positions of every rule set,
 * and movegen_count against the length of the generated list.
 */
#include "check.h"
#include "notation.h"
#include "perft.h"
#include "rng.h"

#include <stdlib.h>

static uint64_t rng_state = 0x1234567887654321ull;
static uint64_t rng(void)
{
    return rng_xorshift64(&rng_state);
}

/* A random position: each square empty (about half), or a man or king of either colour; a piece
 * is a king with probability 1/KING_ODDS (0: never). Men are never put on their own crowning
 * row. */
static void random_board_kings(Board *b, int king_odds)
{
    board_clear(b, (int)(rng() & 1));
    int density = 3 + (int)(rng() % 6);
    for (int sq = 0; sq < SQUARE_NB; sq++) {
        if ((int)(rng() % 10) >= density)
            continue;
        int color = (int)(rng() & 1);
        bool king = king_odds > 0 && rng() % (uint64_t)king_odds == 0;
        if (!king && board_crown_square(color, sq))
            king = true;
        board_set(b, sq, color, king);
    }
}

static void random_board(Board *b)
{
    random_board_kings(b, 4);
}

/* A position reached from the start by PLIES random legal moves (fewer if the game ends). */
static void random_game_board(Board *b, const Rules *r, int plies)
{
    board_start(b);
    for (int i = 0; i < plies; i++) {
        MoveList list;
        int n = movegen_generate(b, r, false, &list);
        if (n == 0)
            return;
        board_apply(b, &list.moves[rng() % (uint64_t)n]);
    }
}

/* Every combination of the three switches the generator implements (perft compiles its walk
 * once for English's and once for any: each path must agree with the naive recursion). */
static const Rules SWITCH_SETS[8] = {
    {"s0", false, false, false}, {"s1", true, false, false}, {"s2", false, true, false},
    {"s3", true, true, false},   {"s4", false, false, true}, {"s5", true, false, true},
    {"s6", false, true, true},   {"s7", true, true, true},
};

static uint64_t naive_perft(const Board *b, const Rules *r, int depth, bool paths)
{
    MoveList list;
    int n = movegen_generate(b, r, paths, &list);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        Board c = *b;
        board_apply(&c, &list.moves[i]);
        total += naive_perft(&c, r, depth - 1, paths);
    }
    return total;
}

/* Fast perft, without and with the hash table, against the naive one on POSITIONS positions
 * made by MAKE, at depths 1-MAX_DEPTH, both conventions and every rule set of SETS (NSETS). */
static void fast_matches_naive_sets(void (*make)(Board *, const Rules *), int positions,
                                    int max_depth, const Rules *const *sets, int nsets)
{
    if (getenv("PONDER_VARIANT") && strcmp(getenv("PONDER_VARIANT"), "asan") == 0)
        positions /= 4;
    PerftHash *h = perft_hash_new(1);
    for (int i = 0; i < positions; i++) {
        Board b;
        const Rules *r = sets[i % nsets];
        make(&b, r);
        bool paths = (i / nsets) % 2;
        for (int depth = 1; depth <= max_depth; depth++) {
            uint64_t want = naive_perft(&b, r, depth, paths);
            uint64_t got = perft_count(&b, r, depth, paths, NULL);
            uint64_t hashed = perft_count(&b, r, depth, paths, h);
            if (got != want || hashed != want) {
                char fen[200];
                notation_format_fen(&b, fen, sizeof fen);
                printf("  %s %s depth %d: fast %llu hashed %llu naive %llu (%s)\n", r->name,
                       paths ? "paths" : "unique", depth, (unsigned long long)got,
                       (unsigned long long)hashed, (unsigned long long)want, fen);
                check_failed++;
                perft_hash_free(h);
                return;
            }
        }
    }
    perft_hash_free(h);
}

/* The same on the built-in rule sets. */
static void fast_matches_naive_on(void (*make)(Board *, const Rules *), int positions,
                                  int max_depth)
{
    const Rules *sets[] = {&RULES_ENGLISH, &RULES_HACKERRANK, &RULES_TOWER};
    fast_matches_naive_sets(make, positions, max_depth, sets, 3);
}

static void make_random(Board *b, const Rules *r)
{
    random_board(b);
}
/* Few kings or none: the leaf parents' bulk counting (perft.c) needs an opponent without kings. */
static void make_few_kings(Board *b, const Rules *r)
{
    random_board_kings(b, rng() % 2 ? 0 : 16);
}
static void make_from_game(Board *b, const Rules *r)
{
    random_game_board(b, r, (int)(rng() % 50));
}

static void fast_matches_naive(void)
{
    fast_matches_naive_on(make_random, 600, 4);
}
static void fast_matches_naive_few_kings(void)
{
    fast_matches_naive_on(make_few_kings, 600, 4);
}
static void fast_matches_naive_games(void)
{
    fast_matches_naive_on(make_from_game, 300, 5);
}
static void fast_matches_naive_switches(void)
{
    const Rules *sets[8];
    for (int i = 0; i < 8; i++)
        sets[i] = &SWITCH_SETS[i];
    fast_matches_naive_sets(make_few_kings, 800, 4, sets, 8);
    fast_matches_naive_sets(make_from_game, 400, 4, sets, 8);
}

/* movegen_count against the length of the generated list, on random positions with and without
 * many kings, under the built-in rule sets and every combination of the switches. */
static void count_matches_generate(void)
{
    const Rules *sets[11] = {&RULES_ENGLISH, &RULES_HACKERRANK, &RULES_TOWER};
    for (int i = 0; i < 8; i++)
        sets[3 + i] = &SWITCH_SETS[i];
    for (int i = 0; i < 40000; i++) {
        Board b;
        random_board_kings(&b, i % 2 ? 4 : 32);
        const Rules *r = sets[i % 11];
        bool paths = (i / 11) % 2;
        MoveList list;
        int n = movegen_generate(&b, r, paths, &list);
        if (movegen_count(&b, r, paths) != n) {
            char fen[200];
            notation_format_fen(&b, fen, sizeof fen);
            printf("  %s: count %d, generated %d (%s)\n", r->name, movegen_count(&b, r, paths), n,
                   fen);
            check_failed++;
            return;
        }
    }
}

/* Positions where a man's third jump crowns it and, under HackerRank rules, the new king goes on
 * (found by searching random positions for ones where counting that missed it went wrong). */
static void deep_crowning_counts(void)
{
    const char *fens[] = {
        "W:W27,32:B6,7,8,14,15,16,22,24,K4",
        "B:W5,7,11,12,17,19,21,25,26,27:B4,8,14,18",
        "W:W24,26,27,31:B1,3,5,6,7,8,14,17,19,23,25,28,K16",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        Board b;
        ParseError e;
        CHECK(notation_parse_fen(fens[i], &b, &e));
        for (int paths = 0; paths < 2; paths++) {
            MoveList list;
            int n = movegen_generate(&b, &RULES_HACKERRANK, paths, &list);
            CHECK(n >= 2);
            CHECK(movegen_count(&b, &RULES_HACKERRANK, paths) == n);
            for (int depth = 2; depth <= 3; depth++)
                CHECK_EQ_U64(perft_count(&b, &RULES_HACKERRANK, depth, paths, NULL),
                             naive_perft(&b, &RULES_HACKERRANK, depth, paths));
        }
    }
}

static void start_position_counts(void)
{
    Board b;
    board_start(&b);
    CHECK_EQ_U64(perft_count(&b, &RULES_ENGLISH, 0, false, NULL), 1);
    CHECK_EQ_U64(perft_count(&b, &RULES_ENGLISH, 7, false, NULL), 179740);
    PerftHash *h = perft_hash_new(4);
    CHECK(h != NULL);
    CHECK_EQ_U64(perft_count(&b, &RULES_ENGLISH, 9, true, h), 3963680);
    CHECK_EQ_U64(perft_count(&b, &RULES_ENGLISH, 9, false, h), 3963680);
    perft_hash_free(h);
    CHECK(perft_hash_new(0) == NULL);
}

int main(void)
{
    RUN("perft", start_position_counts);
    RUN("perft", count_matches_generate);
    RUN("perft", deep_crowning_counts);
    RUN("perft", fast_matches_naive);
    RUN("perft", fast_matches_naive_few_kings);
    RUN("perft", fast_matches_naive_games);
    RUN("perft", fast_matches_naive_switches);
    return check_total_failed != 0;
}
