/*
 * test_search.c - the engine through its facade: results, limits, stopping, draws, weights.
 */
#include "check.h"
#include "cli.h"
#include "engine.h"
#include "eval.h"
#include "notation.h"
#include "tt.h"
#include "weights.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static Game game; /* large: keep it off the stack */

static Engine *new_engine(int threads)
{
    EngineOptions opt;
    engine_default_options(&opt);
    opt.hash_mb = 8;
    opt.threads = threads;
    char err[ERR_LEN];
    Engine *e = engine_new(&opt, err);
    if (!e)
        printf("  engine_new: %s\n", err);
    return e;
}

static void set_fen(const char *fen)
{
    Board b;
    ParseError pe;
    bool ok = notation_parse_fen(fen, &b, &pe);
    CHECK(ok);
    game_init(&game, &RULES_ENGLISH, &b);
}

static void move_text(const Move *m, char *buf)
{
    notation_format_move(m, buf, 64);
}

/* Same node-limited search twice: same move, score and node count. */
static void test_node_limit_deterministic(void)
{
    Engine *e = new_engine(1);
    CHECK(e != NULL);
    if (!e)
        return;
    game_init(&game, &RULES_ENGLISH, NULL);
    SearchLimits lim = {.nodes = 200000};
    SearchResult a = engine_search(e, &game, &lim, NULL, NULL);
    engine_new_game(e);
    SearchResult b = engine_search(e, &game, &lim, NULL, NULL);
    CHECK(a.has_move && b.has_move);
    CHECK(move_same(&a.best, &b.best, true));
    CHECK_EQ_U64(a.info.score, b.info.score);
    CHECK_EQ_U64(a.info.nodes, b.info.nodes);
    CHECK_EQ_U64(a.info.depth, b.info.depth);
    CHECK(a.info.nodes >= 200000 && a.info.nodes < 200000 + 10);
    engine_free(e);
}

/* A 0.2 s search returns within 0.25 s, from a position with many moves. */
static void test_time_limit(void)
{
    Engine *e = new_engine(1);
    if (!e)
        return;
    game_init(&game, &RULES_ENGLISH, NULL);
    SearchLimits lim = {.time = 0.2};
    double t0 = cli_now();
    SearchResult r = engine_search(e, &game, &lim, NULL, NULL);
    double t = cli_now() - t0;
    CHECK(r.has_move);
    CHECK(t < 0.25);
    CHECK(r.info.depth >= 4);
    engine_free(e);
}

static void *stopper(void *arg)
{
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
    engine_stop(arg);
    return NULL;
}

/* An infinite search ends soon after engine_stop() from another thread. */
static void test_stop_from_thread(void)
{
    Engine *e = new_engine(2);
    if (!e)
        return;
    game_init(&game, &RULES_ENGLISH, NULL);
    SearchLimits lim = {.infinite = true};
    pthread_t th;
    double t0 = cli_now();
    CHECK(pthread_create(&th, NULL, stopper, e) == 0);
    SearchResult r = engine_search(e, &game, &lim, NULL, NULL);
    double t = cli_now() - t0;
    pthread_join(th, NULL);
    CHECK(r.has_move);
    CHECK(t >= 0.1 && t < 0.3);
    engine_free(e);
}

/* No legal move: no move, a loss score. One legal move with a clock: returned at once. */
static void test_no_move_and_forced(void)
{
    Engine *e = new_engine(1);
    if (!e)
        return;
    SearchLimits lim = {.time = 1.0};
    set_fen("B:W:B"); /* nothing left for Black */
    SearchResult r = engine_search(e, &game, &lim, NULL, NULL);
    CHECK(!r.has_move);
    CHECK(r.info.score == -SCORE_WIN);
    set_fen("W:W18:B15,22"); /* White must take 18x11 */
    double t0 = cli_now();
    r = engine_search(e, &game, &lim, NULL, NULL);
    CHECK(r.has_move && cli_now() - t0 < 0.01);
    char mv[64];
    move_text(&r.best, mv);
    CHECK_STR(mv, "18x11");
    engine_free(e);
}

/* Weights files: good input overrides, bad input names its line. */
static void test_weights_files(void)
{
    Weights w;
    char err[ERR_LEN];
    weights_default(&w);
    CHECK(weights_parse(&w, "# comment\n\nman_mg 100\nking_eg   155 \r\n", err));
    CHECK(w.v[W_KING_EG] == 155);
    Weights before = w;
    CHECK(!weights_parse(&w, "man_mg 100\nbogus 3\n", err));
    CHECK_STR(err, "line 2: unknown weight `bogus'");
    CHECK(memcmp(&w, &before, sizeof w) == 0);
    CHECK(!weights_parse(&w, "king_mg\n", err));
    CHECK_STR(err, "line 1: weight `king_mg' has no value");
    CHECK(!weights_parse(&w, "king_mg 12x\n", err));
    CHECK_STR(err, "line 1: value of `king_mg' is not an integer");
    CHECK(!weights_parse(&w, "\n\nking_mg 99999\n", err));
    CHECK_STR(err, "line 3: value 99999 of `king_mg' is outside [-10000, 10000]");
    CHECK(!weights_parse(&w, "king_mg 1\nking_mg 2\n", err));
    CHECK_STR(err, "line 2: weight `king_mg' given twice");
    CHECK(!weights_parse(&w, "king_mg 1 2\n", err));
    CHECK_STR(err, "line 1: unexpected text after the value of `king_mg'");
    CHECK(!weights_parse(&w, "king-mg 1\n", err));
    CHECK_STR(err, "line 1: unexpected character '-' in a weight name");
    /* Every name maps back to its id. */
    for (int i = 0; i < WEIGHT_NB; i++)
        CHECK(weights_find(weights_name(i)) == i);
}

int main(void)
{
    RUN("search", test_node_limit_deterministic);
    RUN("search", test_time_limit);
    RUN("search", test_stop_from_thread);
    RUN("search", test_no_move_and_forced);
    RUN("search", test_weights_files);
    return check_total_failed ? 1 : 0;
}
