/*
 * test_search.c - the engine through its facade: results, limits, stopping, draws, weights.
 */
#include "check.h"
#include "egdb_hook.h"
#include "engine.h"
#include "eval.h"
#include "new_engine.h"
#include "notation.h"
#include "tt.h"
#include "util.h"
#include "weights.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static Game game; /* large: keep it off the stack */

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
    double t0 = util_now();
    SearchResult r = engine_search(e, &game, &lim, NULL, NULL);
    double t = util_now() - t0;
    CHECK(r.has_move);
    CHECK(t < 0.25);
    CHECK(r.info.depth >= 4);
    engine_free(e);
}

static void *stopper(void *arg)
{
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
    engine_stop(arg, 0);
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
    double t0 = util_now();
    CHECK(pthread_create(&th, NULL, stopper, e) == 0);
    SearchResult r = engine_search(e, &game, &lim, NULL, NULL);
    double t = util_now() - t0;
    pthread_join(th, NULL);
    CHECK(r.has_move);
    CHECK(t >= 0.1 && t < 0.3);
    engine_free(e);
}

/* No legal move: no move, a loss score. One legal move with a clock: returned at once. One
 * legal move with an exact time a move: searched for that time (the table then holds the
 * replies), the same move. */
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
    set_fen("W:W18,27:B15,22,5"); /* White must take 18x11 */
    SearchLimits clock = {.clock = 60.0};
    double t0 = util_now();
    r = engine_search(e, &game, &clock, NULL, NULL);
    CHECK(r.has_move && util_now() - t0 < 0.01);
    CHECK(r.info.depth == 0 && r.info.nodes == 0);
    char mv[64];
    move_text(&r.best, mv);
    CHECK_STR(mv, "18x11");
    SearchLimits exact = {.time = 0.2};
    t0 = util_now();
    r = engine_search(e, &game, &exact, NULL, NULL);
    double t = util_now() - t0;
    CHECK(r.has_move && t >= 0.1 && t < 0.5);
    CHECK(r.info.depth > 1 && r.info.nodes > 0);
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

/* The search engine at a fixed depth on the position FEN. */
static SearchResult search_fen(Engine *e, const char *fen, int depth)
{
    set_fen(fen);
    SearchLimits lim = {.depth = depth};
    return engine_search(e, &game, &lim, NULL, NULL);
}

/* A shot: 15-19 gives a man to take two (24x15, 10x19x26). */
static void test_finds_shot(void)
{
    Engine *e = new_engine(1);
    if (!e)
        return;
    SearchResult r = search_fen(e, "B:W23,24,29,32:B1,6,10,15,16", 6);
    char mv[64];
    move_text(&r.best, mv);
    CHECK_STR(mv, "15-19");
    CHECK(r.info.score > SCORE_MAN && !score_is_decisive(r.info.score));
    engine_free(e);
}

/* The same shot takes White's last pieces: a win in 3 plies scores SCORE_WIN - 3 and its PV
 * ends the game in exactly 3 plies; from the position after the first move (the table still
 * holding the first search) White is lost in 2. */
static void test_mate_distance(void)
{
    Engine *e = new_engine(1);
    if (!e)
        return;
    SearchResult r = search_fen(e, "B:W23,24:B6,10,15,16", 10);
    CHECK(r.info.score == SCORE_WIN - 3);
    CHECK(score_is_decisive(r.info.score) && score_plies_to_end(r.info.score) == 3);
    CHECK(r.info.pv_len == 3);
    for (int i = 0; i < r.info.pv_len; i++)
        game_play(&game, &r.info.pv[i]);
    CHECK(game_result(&game) == RESULT_BLACK_WINS);

    set_fen("B:W23,24:B6,10,15,16");
    game_play(&game, &r.best);
    SearchLimits lim = {.depth = 10};
    SearchResult r2 = engine_search(e, &game, &lim, NULL, NULL);
    CHECK(r2.info.score == -(SCORE_WIN - 2));
    engine_free(e);
}

/* Two kings against one are a win: from the lone king sitting in a double corner, the engine
 * playing both sides at a modest node budget takes the lone king within a bounded number of
 * moves. */
static void test_two_kings_win(void)
{
    static const char *const starts[] = {
        "B:WK32:BK1,K5",   /* the strong kings in the far double corner */
        "W:WK28:BK10,K15", /* the weak side to move */
        "B:WK1:BK30,K31",  /* the lone king in the other double corner */
    };
    Engine *e = new_engine(1);
    if (!e)
        return;
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
        set_fen(starts[i]);
        SearchLimits lim = {.nodes = 100000};
        while (game_result(&game) == RESULT_NONE && game.ply < 80) {
            SearchResult r = engine_search(e, &game, &lim, NULL, NULL);
            CHECK(r.has_move);
            if (!r.has_move)
                break;
            game_play(&game, &r.best);
        }
        if (game_result(&game) != RESULT_BLACK_WINS)
            printf("  %s: %s after %d plies\n", starts[i], game_result_text(game_result(&game)),
                   game.ply);
        CHECK(game_result(&game) == RESULT_BLACK_WINS);
    }
    engine_free(e);
}

/* Plays the moves of TEXT ("10-14 23-19 ...") in the game. */
static void play_moves(const char *text)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        Move m;
        ParseError pe;
        bool ok = notation_parse_move(&game.board, game.rules, t, &m, &pe);
        CHECK(ok);
        if (ok)
            game_play(&game, &m);
    }
}

/* A draw as the score shows it with the default contempt and PIECES on the board at the root:
 * minus the contempt, less the root's own piece term (docs/engine.md, "The contempt's piece
 * term"). */
static int shown_draw(int pieces)
{
    return -ENGINE_CONTEMPT_DEFAULT - ENGINE_CONTEMPT_DEFAULT / 5 * (pieces - 8);
}

/* The 40-move rule: two kings against one win, but not when every move completes 80 quiet
 * plies. */
static void test_forty_move_draw(void)
{
    Engine *e = new_engine(1);
    if (!e)
        return;
    SearchResult r = search_fen(e, "B:WK32:BK1,K5", 8);
    CHECK(r.info.score > SCORE_MAN);
    engine_new_game(e);
    set_fen("B:WK32:BK1,K5");
    game.quiet[game.ply] = DRAW_QUIET_PLIES - 1;
    SearchLimits lim = {.depth = 8};
    r = engine_search(e, &game, &lim, NULL, NULL);
    CHECK(r.info.score == shown_draw(3)); /* a draw, less the default contempt */
    engine_free(e);
}

/* Repetition: a king down, Black can go back to a position of the game's history, which the
 * search scores as a draw; without that history the same position is lost. */
static void test_repetition_draw(void)
{
    Engine *e = new_engine(1);
    if (!e)
        return;
    SearchResult r = search_fen(e, "B:WK19,K30:BK14", 10);
    CHECK(r.info.score < -SCORE_MAN / 2);
    engine_new_game(e);
    set_fen("B:WK23,K30:BK10");
    play_moves("10-14 23-19 14-10 19-23 10-14 23-19");
    CHECK(game.board.key == game.keys[2]);
    SearchLimits lim = {.depth = 10};
    r = engine_search(e, &game, &lim, NULL, NULL);
    CHECK(r.info.score == shown_draw(3));
    engine_free(e);
}

/* Every rule set: from positions of random games, the engine's move is one of the legal moves
 * (the search makes quiet moves itself, so this checks it against the generator). */
static void test_every_rule_set(void)
{
    const Rules *sets[] = {&RULES_ENGLISH, &RULES_HACKERRANK, &RULES_TOWER};
    Engine *e = new_engine(1);
    if (!e)
        return;
    uint64_t seed = 12345;
    int bad = 0, searched = 0;
    for (int s = 0; s < 3; s++) {
        for (int g = 0; g < 6; g++) {
            game_init(&game, sets[s], NULL);
            for (int ply = 0; ply < 60 && game_result(&game) == RESULT_NONE; ply++) {
                MoveList l;
                movegen_generate(&game.board, game.rules, false, &l);
                Move m;
                if (ply % 3 == 2) {
                    SearchLimits lim = {.depth = 5};
                    SearchResult r = engine_search(e, &game, &lim, NULL, NULL);
                    bool legal = false;
                    for (int i = 0; i < l.count; i++)
                        legal |= move_same(&r.best, &l.moves[i], true);
                    bad += !legal || !r.has_move;
                    searched++;
                    m = r.best;
                } else {
                    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                    m = l.moves[(seed >> 33) % (uint64_t)l.count];
                }
                game_play(&game, &m);
            }
        }
    }
    CHECK(bad == 0);
    CHECK(searched > 100);
    engine_free(e);
}

/* A stand-in database: every position of at most 3 pieces is a draw; "fail" cannot be opened. */
static int fake_probes;
static void *fake_open(const char *dir, char *err)
{
    if (strcmp(dir, "fail") == 0) {
        snprintf(err, ERR_LEN, "no slice files");
        return NULL;
    }
    return &fake_probes;
}
static void fake_close(void *h)
{
    (void)h;
}
static int fake_max_pieces(void *h)
{
    return 3;
}
static EgdbValue fake_probe(void *h, const Board *b)
{
    __atomic_add_fetch(&fake_probes, 1, __ATOMIC_RELAXED);
    return EGDB_DRAW;
}
static const EgdbDriver fake_driver = {fake_open,  fake_close, fake_max_pieces,
                                       fake_probe, NULL,       NULL};

/* The database hook: with a driver and a directory the engine believes the databases (2K v 1K
 * is reported as a database draw, and a position one capture away from them is searched with
 * them), without a directory it does not consult them, and a directory the driver cannot open is
 * an error from engine_new. */
static void test_egdb_hook(void)
{
    const EgdbDriver *saved = egdb_hook_driver();
    egdb_hook_register(&fake_driver);
    EngineOptions opt;
    engine_default_options(&opt);
    opt.hash_mb = 8;
    char err[ERR_LEN];
    opt.egdb_dir = "fail";
    CHECK(engine_new(&opt, err) == NULL);
    CHECK_STR(err, "endgame databases in fail: no slice files");

    opt.egdb_dir = "somewhere";
    Engine *e = engine_new(&opt, err);
    CHECK(e != NULL);
    if (e) {
        SearchResult r = search_fen(e, "B:WK32:BK1,K5", 8);
        CHECK(r.database == EGDB_DRAW && fake_probes > 0);
        /* Four pieces, Black must take: every line ends in the (drawn) databases. */
        r = search_fen(e, "B:W6,K32:BK1,K2", 8);
        CHECK(r.database == 0 && r.info.score == shown_draw(4));
        engine_free(e);
    }
    opt.egdb_dir = NULL;
    fake_probes = 0;
    e = engine_new(&opt, err);
    if (e) {
        SearchResult r = search_fen(e, "B:WK32:BK1,K5", 8);
        CHECK(r.info.score > SCORE_MAN && fake_probes == 0);
        engine_free(e);
    }
    egdb_hook_register(saved);
}

/* Multi-PV by exclusion: excluding the best root move gives a different one, excluding every
 * move leaves none; the 2nd line never scores above the 1st at the same depth. */
static void test_exclude_root_moves(void)
{
    Engine *e = new_engine(1);
    CHECK(e != NULL);
    if (!e)
        return;
    game_init(&game, &RULES_ENGLISH, NULL);
    SearchLimits lim = {.depth = 8};
    SearchResult a = engine_search(e, &game, &lim, NULL, NULL);
    CHECK(a.has_move);
    lim.exclude[0] = a.best;
    lim.exclude_len = 1;
    SearchResult b = engine_search(e, &game, &lim, NULL, NULL);
    CHECK(b.has_move && !move_same(&a.best, &b.best, false));
    CHECK(b.info.pv_len >= 1 && !move_same(&b.info.pv[0], &a.best, false));
    CHECK(b.info.score <= a.info.score + 5); /* same depth: the best line is no worse */
    MoveList all;
    int n = movegen_generate(&game.board, game.rules, false, &all);
    CHECK(n == 7);
    for (int i = 0; i < n && i < ENGINE_MAX_EXCLUDE; i++)
        lim.exclude[i] = all.moves[i];
    lim.exclude_len = ENGINE_MAX_EXCLUDE;
    SearchResult c = engine_search(e, &game, &lim, NULL, NULL);
    CHECK(c.has_move);
    for (int i = 0; i < ENGINE_MAX_EXCLUDE; i++)
        CHECK(!move_same(&c.best, &all.moves[i], false));
    /* A position with one legal move: excluding it leaves none. */
    set_fen("B:W18:B14");
    SearchLimits one = {.depth = 4, .exclude_len = 1};
    MoveList only;
    CHECK(movegen_generate(&game.board, game.rules, false, &only) == 1);
    one.exclude[0] = only.moves[0];
    SearchResult d = engine_search(e, &game, &one, NULL, NULL);
    CHECK(!d.has_move);
    engine_free(e);
}

int main(void)
{
    RUN("search", test_node_limit_deterministic);
    RUN("search", test_time_limit);
    RUN("search", test_stop_from_thread);
    RUN("search", test_no_move_and_forced);
    RUN("search", test_weights_files);
    RUN("search", test_finds_shot);
    RUN("search", test_mate_distance);
    RUN("search", test_two_kings_win);
    RUN("search", test_forty_move_draw);
    RUN("search", test_repetition_draw);
    RUN("search", test_every_rule_set);
    RUN("search", test_egdb_hook);
    RUN("search", test_exclude_root_moves);
    return check_total_failed ? 1 : 0;
}
