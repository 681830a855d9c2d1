/*
 * test_movepick.c - the search's move records (movepick.h): a quiet record played by its own
 * copy-make gives the board and key board_apply gives for the same move, and picking returns the
 * moves best key first, ties by index.
 */
#include "check.h"
#include "rng.h"

#include "movegen.h"
#include "movepick.h"
#include "notation.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void)
{
    return rng_xorshift64(&rng_state);
}

/* Along random games under every rule set, every quiet record of every position:
 * movepick_apply_quiet and board_apply of movepick_full_move reach the same board, with the key
 * board_compute_key gives it, which movepick_quiet_key foretells without making the move. Kings,
 * crownings and both sides to move all come up. */
static void test_apply_quiet_matches_board_apply(void)
{
    const Rules *sets[] = {&RULES_ENGLISH, &RULES_HACKERRANK, &RULES_TOWER};
    static MoveList none; /* no captures: quiet records never index it */
    long moves = 0, crowns = 0, king_moves = 0;
    for (int g = 0; g < 600; g++) {
        const Rules *r = sets[g % 3];
        Board b;
        board_start(&b);
        for (int ply = 0; ply < 200; ply++) {
            QuietMove q[MAX_MOVES];
            int nq = movegen_quiet(&b, q);
            for (int i = 0; i < nq; i++) {
                Board fast = b, slow = b;
                movepick_apply_quiet(&fast, &q[i]);
                Move mv = movepick_full_move(&q[i], &none);
                board_apply(&slow, &mv);
                if (!board_equal(&fast, &slow) || fast.key != slow.key ||
                    fast.key != board_compute_key(&fast) ||
                    fast.key != movepick_quiet_key(&b, &q[i])) {
                    char fen[200];
                    notation_format_fen(&b, fen, sizeof fen);
                    printf("  %s: record %d-%d differs from board_apply\n", fen, q[i].from + 1,
                           q[i].to + 1);
                    check_failed++;
                    return;
                }
                moves++;
                crowns += q[i].crowns;
                king_moves += board_is_king(&b, q[i].from);
            }
            MoveList l;
            int n = movegen_generate(&b, r, false, &l);
            if (n == 0)
                break;
            board_apply(&b, &l.moves[rng() % (uint64_t)n]);
        }
    }
    CHECK(moves > 100000 && crowns > 100 && king_moves > 1000);
}

/* movepick_next gives the indices by descending key, the lower index first among equal keys,
 * each once. */
static void test_next_order(void)
{
    int raw[6] = {5, -3, 5, 100, 0, -3};
    int keys[6];
    for (int i = 0; i < 6; i++)
        keys[i] = movepick_key(raw[i], i);
    const int want[6] = {3, 0, 2, 4, 1, 5};
    for (int k = 0; k < 6; k++)
        CHECK_EQ_U64(movepick_next(keys, 6), want[k]);
}

int main(void)
{
    RUN("movepick", test_apply_quiet_matches_board_apply);
    RUN("movepick", test_next_order);
    return check_total_failed ? 1 : 0;
}
