/*
 * test_ponder.c - the library's initialisation: nothing runs at load, the tables are filled by
 * the first entry point that needs them, from any thread, exactly once (ponder.h).
 *
 * This program never calls ponder_init() before its first test, so the tables start empty: the
 * first test sees what a host that loads the library (and has no main.c) sees.
 */
#include "bitboard.h"
#include "board.h"
#include "check.h"
#include "engine.h"
#include "eval.h"
#include "notation.h"
#include "ponder.h"
#include "weights.h"

#include <pthread.h>

/* The start position's key: the Zobrist numbers come from a fixed seed (board.c). */
#define START_KEY 0xde06d94d98f67c3bull

enum { THREADS = 8 };

static pthread_barrier_t barrier;

static void *set_up_start(void *arg)
{
    Board *b = arg;
    pthread_barrier_wait(&barrier); /* all at once: the first use races */
    board_start(b);
    return NULL;
}

/* Several threads set up a board at the same moment, before anything filled the tables: each
 * gets the right key and the step and jump tables are full. */
static void test_first_use_from_threads(void)
{
    CHECK(bb_step[0][DIR_UL] == 0 && bb_jump[0][DIR_UR] == 0); /* empty: nothing ran at load */
    Board b[THREADS];
    pthread_t t[THREADS];
    pthread_barrier_init(&barrier, NULL, THREADS);
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_create(&t[i], NULL, set_up_start, &b[i]) == 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&barrier);
    for (int i = 0; i < THREADS; i++)
        CHECK_EQ_U64(b[i].key, START_KEY);
    CHECK(bb_step[0][DIR_UL] == 4 && bb_jump[0][DIR_UR] == 9); /* square 1: to 5, over to 10 */
    CHECK(bb_step[3][DIR_UR] == -1 && bb_jump[31][DIR_UL] == -1);
}

/* The engine works with nothing set up by hand: engine_new fills the evaluation's tables. */
static void test_engine_without_init(void)
{
    EngineOptions opt;
    engine_default_options(&opt);
    opt.hash_mb = 4;
    CHECK(opt.egdb_dir == NULL); /* no databases unless the caller names them */
    char err[ERR_LEN];
    Engine *e = engine_new(&opt, err);
    CHECK(e != NULL);
    if (!e)
        return;
    static Game g;
    Board b;
    ParseError pe;
    CHECK(notation_parse_fen("W:W17,20,21,23,26,28,30,32,K4:B1,2,7,9,10,11,K27", &b, &pe));
    game_init(&g, &RULES_ENGLISH, &b);
    SearchLimits lim = {.depth = 8};
    SearchResult r = engine_search(e, &g, &lim, NULL, NULL);
    /* The same search once everything is surely filled: an evaluation that ran on empty tables
     * the first time (distances, reach of the men) would have scored and searched otherwise. */
    ponder_init();
    engine_new_game(e);
    SearchResult again = engine_search(e, &g, &lim, NULL, NULL);
    CHECK(r.has_move && r.info.score == again.info.score);
    CHECK_EQ_U64(r.info.nodes, again.info.nodes);
    engine_free(e);
}

/* Calling it again changes nothing: keys and evaluations are the same as after the first call. */
static void test_idempotent(void)
{
    Weights w;
    weights_default(&w);
    Board b;
    ParseError pe;
    CHECK(notation_parse_fen("W:W17,20,21,23,26,28,30,32,K4:B1,2,7,9,10,11,K27", &b, &pe));
    ponder_init();
    int before = eval_board(&w, &b);
    uint64_t key = board_compute_key(&b);
    for (int i = 0; i < 3; i++)
        ponder_init();
    CHECK(eval_board(&w, &b) == before);
    CHECK_EQ_U64(board_compute_key(&b), key);
    Board s;
    board_start(&s);
    CHECK_EQ_U64(s.key, START_KEY);
}

int main(void)
{
    RUN("ponder", test_first_use_from_threads);
    RUN("ponder", test_engine_without_init);
    RUN("ponder", test_idempotent);
    return check_total_failed ? 1 : 0;
}
