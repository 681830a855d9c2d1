/*
 * test_serve.c - the web board's rules of play that need no server: the strength levels, and the
 * limits of an engine move in a game (level, clock).
 */
#include "check.h"
#include "serve.h"

#include <math.h>
#include <stdlib.h>

static void test_levels(void)
{
    CHECK(serve_level_count >= 4);
    CHECK(serve_level_find("beginner") == 0);
    CHECK(serve_level_find("full") == serve_level_count - 1);
    CHECK(serve_level_find("Full") == -1);
    CHECK(serve_level_find("") == -1);
    /* Stronger levels search deeper (0: no limit) and choose less at random. */
    for (int i = 1; i < serve_level_count; i++) {
        const ServeLevel *a = &serve_levels[i - 1], *b = &serve_levels[i];
        CHECK(b->depth == 0 || (a->depth > 0 && b->depth > a->depth));
        CHECK(b->margin <= a->margin);
    }
    CHECK(serve_levels[serve_level_count - 1].depth == 0 &&
          serve_levels[serve_level_count - 1].nodes == 0 &&
          serve_levels[serve_level_count - 1].margin == 0);
}

static void test_move_job(void)
{
    ServeGame *g = calloc(1, sizeof *g);
    CHECK(g != NULL);
    if (!g)
        return;
    game_init(&g->game, &RULES_ENGLISH, NULL);
    ServeJob job;
    g->level = serve_level_find("beginner");
    serve_play_move_job(g, 1.0, 0, &job);
    CHECK(job.kind == SERVE_JOB_MOVE && job.limits.time == 1.0 && job.limits.depth == 2 &&
          job.lines == SERVE_MAX_LINES && job.margin == serve_levels[0].margin);
    serve_play_move_job(g, 1.0, 1, &job); /* a request's own depth, shallower, wins */
    CHECK(job.limits.depth == 1);
    g->level = serve_level_find("full");
    serve_play_move_job(g, 2.5, 0, &job);
    CHECK(job.limits.depth == 0 && job.limits.time == 2.5 && job.lines == 1 && job.margin == 0);
    /* On the clock, the search gets the clock of the side to move (Black here) less the reserve,
     * and the increment; timeman shares it out. An empty clock still gets the least time. */
    g->clock.on = true;
    g->clock.increment = 2;
    g->clock.left[BLACK] = 60;
    g->clock.left[WHITE] = 3;
    g->clock.since = serve_now();
    serve_play_move_job(g, 9.0, 0, &job);
    CHECK(job.limits.time == 0 && job.limits.inc == 2);
    CHECK(job.limits.clock > 59.4 && job.limits.clock <= 59.5);
    g->clock.left[BLACK] = 0.2;
    g->clock.since = serve_now();
    serve_play_move_job(g, 9.0, 0, &job);
    CHECK(job.limits.clock == SERVE_CLOCK_LEAST);
    free(g);
}

/* A random ballot is one in current use, whatever the seed (a clock reading in microseconds
 * once overflowed an int after 36 minutes of uptime and picked no ballot). */
static void test_random_ballot(void)
{
    const uint64_t seeds[] = {0,         1, 155, 156, 2147483647ull, 2147483648ull, 3000000000ull,
                              UINT64_MAX};
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        int k = serve_ballot_random(seeds[i]);
        CHECK(k >= 1 && k <= 174);
        bool in_use = false;
        for (int j = 0; j < openings_ballot_record_count; j++)
            if (openings_ballot_records[j].number == k)
                in_use = openings_ballot_records[j].in_use;
        CHECK(in_use);
    }
    CHECK(serve_ballot_random(0) != serve_ballot_random(1));
}

int main(void)
{
    RUN("serve", test_levels);
    RUN("serve", test_move_job);
    RUN("serve", test_random_ballot);
    return check_total_failed ? 1 : 0;
}
