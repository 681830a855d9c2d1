/*
 * test_perft.c - the fast perft (bitboard children, bulk leaf counts, hash table) against a
 * plain recursion over movegen_generate and board_apply, on random positions of every rule set,
 * and movegen_count against the length of the generated list.
 */
#include "check.h"
#include "notation.h"
#include "perft.h"

#include <stdlib.h>

static uint64_t rng_state = 0x1234567887654321ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A random position: each square empty (about half), or a man or king of either colour. Men
 * are never put on their own crowning row. */
static void random_board(Board *b)
{
    board_clear(b, (int)(rng() & 1));
    int density = 3 + (int)(rng() % 6);
    for (int sq = 0; sq < SQUARE_NB; sq++) {
        if ((int)(rng() % 10) >= density)
            continue;
        int color = (int)(rng() & 1);
        bool king = rng() % 4 == 0;
        if (!king && board_crown_square(color, sq))
            king = true;
        board_set(b, sq, color, king);
    }
}

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

static void fast_matches_naive(void)
{
    const Rules *sets[] = {&RULES_ENGLISH, &RULES_HACKERRANK, &RULES_TOWER};
    int positions = getenv("PONDER_VARIANT") && strcmp(getenv("PONDER_VARIANT"), "asan") == 0
                        ? 150 : 600;
    PerftHash *h = perft_hash_new(1);
    for (int i = 0; i < positions; i++) {
        Board b;
        random_board(&b);
        const Rules *r = sets[i % 3];
        bool paths = (i / 3) % 2;
        for (int depth = 1; depth <= 4; depth++) {
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
                return;
            }
        }
    }
    perft_hash_free(h);
}

static void count_matches_generate(void)
{
    const Rules *sets[] = {&RULES_ENGLISH, &RULES_HACKERRANK, &RULES_TOWER};
    for (int i = 0; i < 20000; i++) {
        Board b;
        random_board(&b);
        const Rules *r = sets[i % 3];
        bool paths = (i / 3) % 2;
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
    RUN("perft", fast_matches_naive);
    return check_total_failed != 0;
}
