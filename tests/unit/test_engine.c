/*
 * test_engine.c - the engine facade's jobs and options: a job started with engine_start runs
 * while the caller goes on, engine_wait gives its result, a stop for a job is never lost (not
 * even when it comes before the search has begun) and never reaches the next job, a ponder search
 * runs unlimited until engine_ponderhit and then within its time counted from the hit, and every
 * option of the table is listed with the limits engine.h exports, set, read back, and refused
 * out of range or unreadable with a message naming the limit or the file.
 */
#include "book.h"
#include "check.h"
#include "egdb.h"
#include "egdb_build.h"
#include "egdb_hook.h"
#include "engine.h"
#include "new_engine.h"
#include "nnue.h"
#include "nnue_hook.h"
#include "notation.h"

#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

static Game game; /* large: keep it off the stack */

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

typedef struct {
    atomic_int iterations;  /* iterations reported */
    atomic_int done;        /* on_done calls */
    atomic_ullong done_job; /* the job on_done named */
} Listener;

static void on_iteration(const SearchInfo *info, void *ctx)
{
    Listener *l = ctx;
    atomic_fetch_add(&l->iterations, 1);
}

static void on_done(EngineJob job, const SearchResult *r, void *ctx)
{
    Listener *l = ctx;
    atomic_store(&l->done_job, job);
    atomic_fetch_add(&l->done, 1);
}

/* A bounded job: start returns at once, the search reports iterations and its end, wait gives
 * the move; a second wait, or a wait for another number, is refused. */
static void test_start_wait(void)
{
    Engine *e = new_engine(2);
    if (!e)
        return;
    game_init(&game, &RULES_ENGLISH, NULL);
    Listener l = {0};
    SearchLimits lim = {.depth = 9};
    char err[ERR_LEN];
    EngineJob job = engine_start(e, &game, &lim, on_iteration, on_done, &l, err);
    CHECK(job == 1);
    CHECK(engine_busy(e));
    /* One job at a time. */
    CHECK(engine_start(e, &game, &lim, NULL, NULL, NULL, err) == 0);
    CHECK(strstr(err, "already") != NULL);
    SearchResult none;
    memset(&none, 0, sizeof none);
    CHECK(!engine_wait(e, job + 1, &none));
    SearchResult r;
    CHECK(engine_wait(e, job, &r));
    CHECK(r.has_move && r.info.depth == 9);
    CHECK(atomic_load(&l.iterations) == 9);
    CHECK(atomic_load(&l.done) == 1 && atomic_load(&l.done_job) == job);
    CHECK(!engine_busy(e));
    CHECK(!engine_wait(e, job, &r));
    /* Numbers go on; the same depth gives the same move. */
    SearchResult r2;
    EngineJob job2 = engine_start(e, &game, &lim, NULL, NULL, NULL, err);
    CHECK(job2 == 2);
    CHECK(engine_wait(e, job2, &r2));
    CHECK(move_same(&r.best, &r2.best, true));
    engine_free(e);
}

/* A stop issued right after start, before the search thread has begun, is not lost: an infinite
 * search ends at once. Many times over, so that the stop lands at every stage of the start. */
static void test_stop_before_search_begins(void)
{
    Engine *e = new_engine(2);
    if (!e)
        return;
    game_init(&game, &RULES_ENGLISH, NULL);
    SearchLimits lim = {.infinite = true};
    char err[ERR_LEN];
    int lost = 0;
    for (int i = 0; i < 200; i++) {
        double t0 = timeman_now();
        EngineJob job = engine_start(e, &game, &lim, NULL, NULL, NULL, err);
        CHECK(job != 0);
        CHECK(engine_stop(e, job));
        SearchResult r;
        CHECK(engine_wait(e, job, &r));
        CHECK(r.has_move);
        if (timeman_now() - t0 > 0.5)
            lost++;
    }
    CHECK(lost == 0);
    engine_free(e);
}

/* A stop for a job that has ended does nothing to the next job. */
static void test_stale_stop(void)
{
    Engine *e = new_engine(1);
    if (!e)
        return;
    game_init(&game, &RULES_ENGLISH, NULL);
    char err[ERR_LEN];
    SearchLimits quick = {.depth = 2}, inf = {.infinite = true};
    SearchResult r;
    EngineJob old = engine_start(e, &game, &quick, NULL, NULL, NULL, err);
    CHECK(engine_wait(e, old, &r));
    CHECK(!engine_stop(e, old)); /* ended: nothing to stop */
    Listener l = {0};
    EngineJob job = engine_start(e, &game, &inf, NULL, on_done, &l, err);
    CHECK(job == old + 1);
    CHECK(!engine_stop(e, old)); /* the old number does not reach the new job */
    CHECK(!engine_stop(e, job + 1));
    sleep_s(0.15);
    CHECK(atomic_load(&l.done) == 0); /* still searching */
    CHECK(engine_stop(e, 0));         /* 0: whichever job runs */
    CHECK(engine_wait(e, job, &r));
    CHECK(atomic_load(&l.done) == 1);
    CHECK(r.has_move && r.info.depth >= 5);
    engine_free(e);
}

/* A ponder search ignores its time until the ponder-hit, then keeps to it counted from the hit;
 * a ponder search that has run out of depth waits for the hit and then answers at once. */
static void test_ponderhit(void)
{
    Engine *e = new_engine(1);
    if (!e)
        return;
    game_init(&game, &RULES_ENGLISH, NULL);
    char err[ERR_LEN];
    Listener l = {0};
    SearchLimits lim = {.time = 0.2, .ponder = true};
    EngineJob job = engine_start(e, &game, &lim, NULL, on_done, &l, err);
    CHECK(job != 0);
    sleep_s(0.4); /* twice its time: a timed search would have ended */
    CHECK(atomic_load(&l.done) == 0);
    double hit = timeman_now();
    CHECK(engine_ponderhit(e, job));
    CHECK(!engine_ponderhit(e, job)); /* once */
    SearchResult r;
    CHECK(engine_wait(e, job, &r));
    double after = timeman_now() - hit;
    CHECK(r.has_move);
    CHECK(after > 0.05 && after < 0.25); /* the 0.2 s counted from the hit */
    CHECK(r.info.time > 0.4);            /* its search began before */

    /* Depth reached while pondering: it waits for the hit (or a stop), then ends at once. */
    SearchLimits shallow = {.depth = 3, .time = 10, .ponder = true};
    Listener l2 = {0};
    job = engine_start(e, &game, &shallow, NULL, on_done, &l2, err);
    sleep_s(0.1);
    CHECK(atomic_load(&l2.done) == 0);
    hit = timeman_now();
    CHECK(engine_ponderhit(e, job));
    CHECK(engine_wait(e, job, &r));
    CHECK(timeman_now() - hit < 0.05);
    CHECK(r.info.depth == 3);

    /* One legal move on a clock: pondered on until the hit, played at once after it. */
    Board forced;
    ParseError pe;
    CHECK(notation_parse_fen("W:W18:B15,22", &forced, &pe)); /* White must take 18x11 */
    game_init(&game, &RULES_ENGLISH, &forced);
    SearchLimits one = {.clock = 5, .ponder = true};
    Listener l3 = {0};
    job = engine_start(e, &game, &one, NULL, on_done, &l3, err);
    sleep_s(0.1);
    CHECK(atomic_load(&l3.done) == 0);
    hit = timeman_now();
    CHECK(engine_ponderhit(e, job));
    CHECK(engine_wait(e, job, &r));
    CHECK(timeman_now() - hit < 0.1);
    CHECK(r.has_move && r.best.from == 17 && r.best.to == 10);
    game_init(&game, &RULES_ENGLISH, NULL);

    /* A job not started pondering has no ponder-hit. */
    SearchLimits plain = {.depth = 2};
    job = engine_start(e, &game, &plain, NULL, NULL, NULL, err);
    engine_wait(e, job, &r);
    CHECK(!engine_ponderhit(e, job));
    engine_free(e);
}

/* Contempt: a draw scores minus the contempt for the side to move at the root, and 0 in an
 * analysis. Kings one ply before the 40-move rule, none able to reach another: every move
 * draws, so the search's score is the draw's. The score shown leaves out the root's piece term
 * (a fifth of a positive contempt for each piece beyond 8), so with 8 pieces a draw shows as
 * minus the contempt, and with 2 as minus the contempt less six fifths of it. */
static void test_contempt(void)
{
    Engine *e = new_engine(1);
    if (!e)
        return;
    static const char *const fens[] = {"B:WK32:BK1", "B:WK25,K26,K27,K28:BK5,K6,K7,K8"};
    static const int pieces[] = {2, 8};
    static const char *const values[] = {"0", "30", "-30", "1000"};
    for (int f = 0; f < 2; f++)
        for (int i = 0; i < 4; i++) {
            char err[ERR_LEN];
            Board b;
            ParseError pe;
            CHECK(notation_parse_fen(fens[f], &b, &pe));
            CHECK(engine_option_set(e, "contempt", values[i], err));
            game_init(&game, &RULES_ENGLISH, &b);
            game.quiet[game.ply] = 79;
            SearchLimits lim = {.depth = 6};
            SearchResult r = engine_search(e, &game, &lim, NULL, NULL);
            CHECK(r.has_move);
            int c = atoi(values[i]);
            int shown = -c - (c > 0 ? c / 5 : 0) * (pieces[f] - 8);
            if (r.info.score != shown) {
                printf("  %s, contempt %s: score %d, not %d\n", fens[f], values[i], r.info.score,
                       shown);
                CHECK(false);
            }
            /* An analysis shows the draw as it is, whatever the contempt. */
            lim.analysis = true;
            r = engine_search(e, &game, &lim, NULL, NULL);
            if (!r.has_move || r.info.score != 0) {
                printf("  %s, contempt %s, analysis: score %d\n", fens[f], values[i], r.info.score);
                CHECK(false);
            }
        }
    engine_free(e);
}

/* The contempt's piece term, as the score shows it: the root's own term is left out, so a line
 * that takes a piece off reads a fifth of the contempt lower than in an analysis (the term only
 * with a positive contempt). Black's one legal move takes a man and leaves a quiet position. */
static void test_contempt_pieces(void)
{
    Engine *e = new_engine(1);
    if (!e)
        return;
    Board b;
    ParseError pe;
    CHECK(notation_parse_fen("B:W18,30:B1,14", &b, &pe));
    static const char *const values[] = {"500", "20", "0", "-500"};
    static const int trade[] = {100, 4, 0, 0};
    int plain = 0;
    for (int i = -1; i < 4; i++) {
        char err[ERR_LEN];
        CHECK(engine_option_set(e, "contempt", i < 0 ? "0" : values[i], err));
        game_init(&game, &RULES_ENGLISH, &b);
        engine_new_game(e);
        SearchLimits lim = {.depth = 1, .analysis = i < 0};
        SearchResult r = engine_search(e, &game, &lim, NULL, NULL);
        CHECK(r.has_move && r.best.from == 13 && r.best.to == 22);
        if (i < 0)
            plain = r.info.score;
        else if (r.info.score != plain - trade[i]) {
            printf("  contempt %s: score %d, analysis %d\n", values[i], r.info.score, plain);
            CHECK(false);
        }
    }
    engine_free(e);
}

/* Clocked search through the facade: with one second left and no increment the move comes well
 * inside it. */
static void test_clock(void)
{
    Engine *e = new_engine(1);
    if (!e)
        return;
    game_init(&game, &RULES_ENGLISH, NULL);
    SearchLimits lim = {.clock = 1.0, .moves_to_go = 1};
    double t0 = timeman_now();
    SearchResult r = engine_search(e, &game, &lim, NULL, NULL);
    double t = timeman_now() - t0;
    CHECK(r.has_move);
    CHECK(t > 0.3 && t < 1.0 - TIME_MARGIN_MIN);
    engine_free(e);
}

static void get(Engine *e, const char *name, char *out)
{
    char err[ERR_LEN];
    if (!engine_option_get(e, name, out, ENGINE_PATH_MAX, err)) {
        printf("  %s: %s\n", name, err);
        out[0] = '\0';
    }
}

/* Sets NAME to VALUE and reads it back: WANT (NULL: VALUE). */
static bool set_get(Engine *e, const char *name, const char *value, const char *want)
{
    char err[ERR_LEN], v[ENGINE_PATH_MAX];
    if (!engine_option_set(e, name, value, err)) {
        printf("  set %s %s: %s\n", name, value, err);
        return false;
    }
    get(e, name, v);
    if (strcmp(v, want ? want : value) != 0) {
        printf("  set %s %s: reads back `%s'\n", name, value, v);
        return false;
    }
    return true;
}

/* NAME=VALUE is refused with a message naming the option and holding each of WANT (NULL-ended),
 * and the option keeps its value. */
static bool refused(Engine *e, const char *name, const char *value, const char *const *want)
{
    char err[ERR_LEN] = "", before[ENGINE_PATH_MAX], after[ENGINE_PATH_MAX], prefix[48];
    get(e, name, before);
    bool ok = !engine_option_set(e, name, value, err);
    snprintf(prefix, sizeof prefix, "option %s: ", name);
    ok = ok && strncmp(err, prefix, strlen(prefix)) == 0;
    for (int i = 0; want && want[i]; i++)
        ok = ok && strstr(err, want[i]) != NULL;
    get(e, name, after);
    ok = ok && strcmp(before, after) == 0;
    if (!ok)
        printf("  %s=%s: `%s' (before %s, after %s)\n", name, value ? value : "(null)", err, before,
               after);
    return ok;
}

/* The table: every option of EngineOptions, its limits the ones engine.h exports, and a new
 * engine reads back the defaults. */
static void test_option_table(void)
{
    int n;
    const EngineOptionInfo *list = engine_option_list(&n);
    static const char *const names[] = {"hash", "threads", "weights",      "eval",    "net",
                                        "egdb", "book",    "book-variety", "contempt"};
    CHECK(n == (int)(sizeof names / sizeof *names));
    for (int i = 0; i < n && i < (int)(sizeof names / sizeof *names); i++) {
        CHECK_STR(list[i].name, names[i]);
        CHECK(engine_option_info(names[i]) == &list[i]);
        CHECK(list[i].help && list[i].help[0]);
    }
    CHECK(engine_option_info("Hash") == NULL && engine_option_info(NULL) == NULL);
    const EngineOptionInfo *o = engine_option_info("hash");
    CHECK(o && o->type == ENGINE_OPTION_INT && o->min == ENGINE_HASH_MB_MIN &&
          o->max == ENGINE_HASH_MB_MAX && o->def == ENGINE_HASH_MB_DEFAULT);
    o = engine_option_info("threads");
    CHECK(o && o->type == ENGINE_OPTION_INT && o->min == ENGINE_THREADS_MIN &&
          o->max == ENGINE_THREADS_MAX && o->def == ENGINE_THREADS_DEFAULT);
    o = engine_option_info("book-variety");
    CHECK(o && o->type == ENGINE_OPTION_INT && o->min == ENGINE_BOOK_VARIETY_MIN &&
          o->max == ENGINE_BOOK_VARIETY_MAX && o->def == ENGINE_BOOK_VARIETY_DEFAULT);
    o = engine_option_info("contempt");
    CHECK(o && o->type == ENGINE_OPTION_INT && o->min == ENGINE_CONTEMPT_MIN &&
          o->max == ENGINE_CONTEMPT_MAX && o->def == ENGINE_CONTEMPT_DEFAULT);
    o = engine_option_info("eval");
    CHECK(o && o->type == ENGINE_OPTION_CHOICE && strcmp(o->choices[0], "classic") == 0 &&
          strcmp(o->choices[1], "net") == 0 && o->choices[2] == NULL);
    CHECK(engine_option_info("book")->type == ENGINE_OPTION_STRING);

    /* engine_default_options as engine_option_default words it. */
    EngineOptions opt;
    engine_default_options(&opt);
    char err[ERR_LEN], v[ENGINE_PATH_MAX], def[ENGINE_PATH_MAX];
    Engine *e = engine_new(&opt, err);
    CHECK(e != NULL);
    if (!e)
        return;
    for (int i = 0; i < n; i++) {
        get(e, list[i].name, v);
        engine_option_default(&list[i], def, sizeof def);
        if (strcmp(v, def) != 0) {
            printf("  %s: %s, default %s\n", list[i].name, v, def);
            CHECK(false);
        }
    }
    engine_free(e);

    /* engine_new refuses what the options by name refuse. */
    opt.book_variety = ENGINE_BOOK_VARIETY_MAX + 1;
    CHECK(engine_new(&opt, err) == NULL && strstr(err, "book variety 10001 is outside 0-10000"));
    opt.book_variety = ENGINE_BOOK_VARIETY_DEFAULT;
    opt.contempt = ENGINE_CONTEMPT_MIN - 1;
    CHECK(engine_new(&opt, err) == NULL && strstr(err, "contempt -1001 is outside -1000-1000"));

    /* engine_option_parse: the reason alone, for a protocol to name the option its own way. */
    long num = -1;
    CHECK(!engine_option_parse("hash", "16.7", &num, err) && num == -1);
    CHECK_STR(err, "`16.7' is not a whole number from 1 to 65536");
    CHECK(!engine_option_parse("threads", "257", &num, err));
    CHECK_STR(err, "`257' is not a whole number from 1 to 256");
    CHECK(!engine_option_parse("eval", "nett", &num, err));
    CHECK_STR(err, "`nett' is not `classic' or `net'");
    CHECK(engine_option_parse("eval", "net", &num, err) && num == 1);
    CHECK(engine_option_parse("book-variety", "100", &num, err) && num == 100);
    CHECK(engine_option_parse("contempt", "-25", &num, err) && num == -25);
    CHECK(engine_option_parse("book", "x.pbk", NULL, err));
    CHECK(!engine_option_parse("hash", NULL, &num, err));
    CHECK(!engine_option_parse("hashsize", "16", &num, err));
    CHECK_STR(err, "unknown engine option `hashsize' (known: hash, threads, weights, eval, net, "
                   "egdb, book, book-variety, contempt)");
}

static void test_options(void)
{
    /* The program's drivers, as main.c registers them: a network and databases by name. */
    nnue_hook_register(&nnue_driver);
    egdb_hook_register(&egdb_driver);
    Engine *e = new_engine(1);
    if (!e)
        return;
    char v[ENGINE_PATH_MAX], err[ERR_LEN];

    /* hash */
    get(e, "hash", v);
    CHECK_STR(v, "8");
    CHECK(set_get(e, "hash", "16", NULL));
    CHECK(set_get(e, "hash", "1", NULL));
    CHECK(set_get(e, "hash", "16", NULL));
    static const char *const bad_hash[] = {
        "0", "-5", "abc", "16MB", "16.7", "", " 16", "+16", "99999999999999999999999"};
    static const char *const hash_limits[] = {"from 1 to 65536", NULL};
    for (size_t i = 0; i < sizeof bad_hash / sizeof *bad_hash; i++)
        CHECK(refused(e, "hash", bad_hash[i], hash_limits));
    CHECK(refused(e, "hash", "65537", hash_limits));
    static const char *const no_value[] = {"no value", NULL};
    CHECK(refused(e, "hash", NULL, no_value));

    /* threads */
    CHECK(set_get(e, "threads", "3", NULL));
    static const char *const thread_limits[] = {"from 1 to 256", NULL};
    CHECK(refused(e, "threads", "0", thread_limits));
    CHECK(refused(e, "threads", "257", thread_limits));

    /* weights: a file (the evaluation changes), none (the built-in ones) */
    Board start;
    board_start(&start);
    start.pieces[WHITE] &= ~(1u << 21); /* a man short: the weights show */
    start.key = board_compute_key(&start);
    CHECK(set_get(e, "eval", "classic", NULL));
    int built_in = engine_evaluate(e, &start);
    CHECK(set_get(e, "weights", "data/weights/v0.txt", NULL));
    CHECK(engine_evaluate(e, &start) != built_in);
    static const char *const missing_weights[] = {"/nonexistent/w.txt", NULL};
    CHECK(refused(e, "weights", "/nonexistent/w.txt", missing_weights));
    CHECK(set_get(e, "weights", "none", NULL));
    CHECK(engine_evaluate(e, &start) == built_in);

    /* eval and net: the built-in network (if the program has one), or a file */
    static const char *const eval_values[] = {"`nett' is not `classic' or `net'", NULL};
    CHECK(refused(e, "eval", "nett", eval_values));
    bool net = engine_option_set(e, "eval", "net", err);
    CHECK(net == nnue_has_default());
    if (!net)
        CHECK(strstr(err, "no network is built in") != NULL);
    CHECK(engine_uses_net(e) == net);
    get(e, "net", v);
    CHECK_STR(v, "none");
    CHECK(set_get(e, "eval", "classic", NULL));
    CHECK(set_get(e, "net", "data/nets/default.pnet", NULL));
    CHECK(!engine_uses_net(e)); /* read and checked, but eval is classic */
    get(e, "eval", v);
    CHECK_STR(v, "classic");
    CHECK(set_get(e, "eval", "net", NULL));
    CHECK(engine_uses_net(e) && engine_evaluate(e, &start) != built_in);
    static const char *const missing_net[] = {"/nonexistent/n.pnet", NULL};
    CHECK(refused(e, "net", "/nonexistent/n.pnet", missing_net));
    CHECK(engine_uses_net(e));
    CHECK(set_get(e, "eval", "classic", NULL));
    CHECK(!engine_uses_net(e) && engine_evaluate(e, &start) == built_in);

    /* egdb: a directory of databases, or none */
    char dir[96], cmd[160];
    snprintf(dir, sizeof dir, "%s/ponder-engine-test-%d",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    EgdbBuildOptions build = {dir, 2, 1, true};
    CHECK(egdb_build(&build, NULL, NULL, err));
    CHECK(set_get(e, "egdb", dir, NULL));
    CHECK(engine_database_pieces(e) == 2);
    static const char *const missing_dir[] = {"/nonexistent/egdb", NULL};
    CHECK(refused(e, "egdb", "/nonexistent/egdb", missing_dir));
    CHECK(engine_database_pieces(e) == 2);
    CHECK(set_get(e, "egdb", "none", NULL));
    CHECK(engine_database_pieces(e) == 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);

    /* book and book-variety: a file plays its move, none searches */
    game_init(&game, &RULES_ENGLISH, NULL);
    SearchLimits two = {.depth = 2};
    CHECK(set_get(e, "book", "data/book/default.pbk", NULL));
    SearchResult r = engine_search(e, &game, &two, NULL, NULL);
    CHECK(r.has_move && r.book);
    CHECK(set_get(e, "book-variety", "30", NULL));
    CHECK(set_get(e, "book-variety", "10000", NULL));
    static const char *const variety_limits[] = {"from 0 to 10000", NULL};
    CHECK(refused(e, "book-variety", "10001", variety_limits));
    CHECK(refused(e, "book-variety", "-1", variety_limits));
    CHECK(set_get(e, "contempt", "-1000", NULL));
    CHECK(set_get(e, "contempt", "15", NULL));
    static const char *const contempt_limits[] = {"from -1000 to 1000", NULL};
    CHECK(refused(e, "contempt", "1001", contempt_limits));
    CHECK(set_get(e, "contempt", "0", NULL));
    static const char *const missing_book[] = {"/nonexistent/b.pbk", NULL};
    CHECK(refused(e, "book", "/nonexistent/b.pbk", missing_book));
    CHECK(set_get(e, "book", "none", NULL));
    r = engine_search(e, &game, &two, NULL, NULL);
    CHECK(r.has_move && !r.book);
    /* The built-in book: this test program has none, ponder has one. */
    bool builtin = engine_option_set(e, "book", "builtin", err);
    CHECK(builtin == (book_default_size > 0));
    if (!builtin)
        CHECK_STR(err, "option book: no book is built into this program");
    CHECK(set_get(e, "book", "", "none"));

    /* Every value read back sets the same. */
    int n;
    const EngineOptionInfo *list = engine_option_list(&n);
    for (int i = 0; i < n; i++) {
        get(e, list[i].name, v);
        CHECK(set_get(e, list[i].name, v, NULL));
    }

    /* Bad names: the table's names listed. */
    CHECK(!engine_option_set(e, "hashh", "16", err));
    CHECK_STR(err, "unknown engine option `hashh' (known: hash, threads, weights, eval, net, "
                   "egdb, book, book-variety, contempt)");
    CHECK(!engine_option_set(e, "", "16", err));
    CHECK(!engine_option_get(e, "Hash", v, sizeof v, err));
    char tiny[2];
    CHECK(!engine_option_get(e, "hash", tiny, sizeof tiny, err));

    /* Not during a search. */
    SearchLimits inf = {.infinite = true};
    EngineJob job = engine_start(e, &game, &inf, NULL, NULL, NULL, err);
    CHECK(!engine_option_set(e, "hash", "32", err));
    CHECK(strstr(err, "during a search") != NULL);
    engine_stop(e, job);
    CHECK(engine_wait(e, job, &r));
    CHECK(r.has_move);
    /* The engine still searches after its options changed (3 threads, 16 MB). */
    SearchLimits lim = {.depth = 6};
    r = engine_search(e, &game, &lim, NULL, NULL);
    CHECK(r.has_move && r.info.depth == 6);
    engine_free(e);
    nnue_hook_register(NULL);
    egdb_hook_register(NULL);
}

/* engine_free stops and waits for a job still running. */
static void test_free_while_running(void)
{
    Engine *e = new_engine(2);
    if (!e)
        return;
    game_init(&game, &RULES_ENGLISH, NULL);
    SearchLimits inf = {.infinite = true};
    Listener l = {0};
    char err[ERR_LEN];
    EngineJob job = engine_start(e, &game, &inf, NULL, on_done, &l, err);
    CHECK(job != 0);
    sleep_s(0.02);
    engine_free(e);
    /* The job was stopped and had ended (its on_done run) by the time engine_free returned. */
    CHECK(atomic_load(&l.done) == 1 && atomic_load(&l.done_job) == job);
}

int main(void)
{
    RUN("engine", test_start_wait);
    RUN("engine", test_stop_before_search_begins);
    RUN("engine", test_stale_stop);
    RUN("engine", test_ponderhit);
    RUN("engine", test_clock);
    RUN("engine", test_option_table);
    RUN("engine", test_options);
    RUN("engine", test_contempt);
    RUN("engine", test_contempt_pieces);
    RUN("engine", test_free_while_running);
    return check_total_failed ? 1 : 0;
}
