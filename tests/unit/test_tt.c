/*
 * test_tt.c - the transposition table: what goes in comes out, win scores survive a change of
 * ply, and replacement keeps the deeper and the newer entries.
 */
#include "check.h"
#include "engine.h"
#include "tt.h"

static TT table;

/* Keys that share a bucket: same low half, different high halves. */
static uint64_t bucket_key(int i)
{
    return 0x1234ull | (uint64_t)(i + 1) << 40;
}

static void test_round_trip(void)
{
    CHECK(tt_init(&table, 1));
    TTHit h;
    uint64_t key = 0xDEADBEEFCAFEF00Dull;
    CHECK(!tt_probe(&table, key, &h));
    tt_store(&table, key, -1234, 17, BOUND_LOWER, 9);
    CHECK(tt_probe(&table, key, &h));
    CHECK(h.score == -1234 && h.depth == 17 && h.bound == BOUND_LOWER && h.move == 9);
    /* A key differing only in its checked high bits is another position. */
    CHECK(!tt_probe(&table, key ^ (1ull << 63), &h));
    /* Storing again without a move keeps the old move. */
    tt_store(&table, key, 55, 18, BOUND_EXACT, TT_NO_MOVE);
    CHECK(tt_probe(&table, key, &h));
    CHECK(h.score == 55 && h.depth == 18 && h.bound == BOUND_EXACT && h.move == 9);
    tt_clear(&table);
    CHECK(!tt_probe(&table, key, &h));
    tt_free(&table);
}

/* A win found 5 plies from the root at a node 3 plies deep is a win in 2 from that node; met
 * again 7 plies deep it is a win 9 plies from the root. Losses the same way; ordinary scores
 * unchanged. */
static void test_win_scores_across_plies(void)
{
    CHECK(tt_init(&table, 1));
    TTHit h;
    uint64_t key = 0x0102030405060708ull;
    tt_store(&table, key, tt_score_to(SCORE_WIN - 5, 3, SCORE_DECISIVE), 10, BOUND_EXACT, 0);
    CHECK(tt_probe(&table, key, &h));
    CHECK(tt_score_from(h.score, 7, SCORE_DECISIVE) == SCORE_WIN - 9);
    CHECK(tt_score_from(h.score, 3, SCORE_DECISIVE) == SCORE_WIN - 5);
    tt_store(&table, key, tt_score_to(-(SCORE_WIN - 6), 4, SCORE_DECISIVE), 10, BOUND_EXACT, 0);
    CHECK(tt_probe(&table, key, &h));
    CHECK(tt_score_from(h.score, 1, SCORE_DECISIVE) == -(SCORE_WIN - 3));
    tt_store(&table, key, tt_score_to(250, 4, SCORE_DECISIVE), 10, BOUND_EXACT, 0);
    CHECK(tt_probe(&table, key, &h));
    CHECK(tt_score_from(h.score, 9, SCORE_DECISIVE) == 250);
    /* The extremes fit the 16-bit field. */
    tt_store(&table, ~key, tt_score_to(-(SCORE_WIN - MAX_PLY), MAX_PLY, SCORE_DECISIVE), 1,
             BOUND_UPPER, 0);
    CHECK(tt_probe(&table, ~key, &h));
    CHECK(tt_score_from(h.score, 0, SCORE_DECISIVE) == -SCORE_WIN);
    /* A shallower bound of the current search does not overwrite a deeper result. */
    tt_store(&table, key, 0, 3, BOUND_UPPER, 0);
    CHECK(tt_probe(&table, key, &h) && h.depth == 10 && h.score == 250);
    tt_free(&table);
}

/* A full bucket gives up its shallowest entry; entries of older searches go first. */
static void test_replacement(void)
{
    CHECK(tt_init(&table, 1));
    TTHit h;
    int depths[TT_BUCKET] = {10, 2, 8, 6};
    for (int i = 0; i < TT_BUCKET; i++)
        tt_store(&table, bucket_key(i), i, depths[i], BOUND_EXACT, i);
    tt_store(&table, bucket_key(4), 4, 5, BOUND_EXACT, 4);
    CHECK(!tt_probe(&table, bucket_key(1), &h));
    CHECK(tt_probe(&table, bucket_key(0), &h) && h.depth == 10);
    CHECK(tt_probe(&table, bucket_key(4), &h) && h.depth == 5);

    /* After two new searches the depth-10 entry counts as 10 - 16 < 5: replaced first. */
    tt_new_search(&table);
    tt_new_search(&table);
    for (int i = 0; i < TT_BUCKET; i++)
        if (i != 0)
            tt_store(&table, bucket_key(i + 4), 0, 1, BOUND_EXACT, 0);
    tt_store(&table, bucket_key(20), 0, 1, BOUND_EXACT, 0);
    CHECK(tt_probe(&table, bucket_key(20), &h));
    CHECK(!tt_probe(&table, bucket_key(0), &h));
    tt_free(&table);
}

int main(void)
{
    RUN("tt", test_round_trip);
    RUN("tt", test_win_scores_across_plies);
    RUN("tt", test_replacement);
    return check_total_failed ? 1 : 0;
}
