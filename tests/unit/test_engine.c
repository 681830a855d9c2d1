/*
 * test_engine.c - the engine facade's jobs and options: a job started with engine_start runs
 * while the caller goes on, engine_wait gives its result, a stop for a job is never lost (not
 * even when it comes before the search has begun) and never reaches the next job, a ponder search
 * runs unlimited until engine_ponderhit and then within its time counted from the hit, and options
 * are listed, read and set by name with bad names and values refused.
 */
#include "check.h"
#include "engine.h"
#include "notation.h"

#include <stdatomic.h>
#include <time.h>

static Game game; /* large: keep it off the stack */

static Engine *new_engine(int threads)
{
    EngineOptions opt;
    engine_default_options(&opt);
    opt.hash_mb = 8;
    opt.threads = threads;
    opt.egdb_dir = NULL;
    char err[ERR_LEN];
    Engine *e = engine_new(&opt, err);
    if (!e)
        printf("  engine_new: %s\n", err);
    CHECK(e != NULL);
    return e;
}

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
    CHECK(r.info.time > 0.4);             /* its search began before */

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

    /* One legal move: pondered on until the hit, played at once after it. */
    Board forced;
    ParseError pe;
    CHECK(notation_parse_fen("W:W18:B15,22", &forced, &pe)); /* White must take 18x11 */
    game_init(&game, &RULES_ENGLISH, &forced);
    SearchLimits one = {.time = 5, .ponder = true};
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
    if (!engine_option_get(e, name, out, 64, err)) {
        printf("  %s: %s\n", name, err);
        out[0] = '\0';
    }
}

static void test_options(void)
{
    Engine *e = new_engine(1);
    if (!e)
        return;
    int n;
    const EngineOptionInfo *list = engine_option_list(&n);
    CHECK(n == 4);
    bool hash_listed = false;
    for (int i = 0; i < n; i++)
        if (strcmp(list[i].name, "hash") == 0)
            hash_listed = list[i].type == ENGINE_OPTION_INT && list[i].min == 1 &&
                          list[i].max == ENGINE_HASH_MB_MAX && strcmp(list[i].def, "64") == 0;
    CHECK(hash_listed);

    char v[64], err[ERR_LEN];
    get(e, "hash", v);
    CHECK(strcmp(v, "8") == 0);
    CHECK(engine_option_set(e, "hash", "16", err));
    get(e, "hash", v);
    CHECK(strcmp(v, "16") == 0);
    CHECK(engine_option_set(e, "threads", "3", err));
    get(e, "threads", v);
    CHECK(strcmp(v, "3") == 0);
    get(e, "weights", v);
    CHECK(strcmp(v, "none") == 0);

    /* Bad values: refused with the option named, nothing changed. */
    static const char *const bad_hash[] = {"0", "-5", "65537", "abc", "16MB", "", " 16",
                                           "99999999999999999999999"};
    for (size_t i = 0; i < sizeof bad_hash / sizeof *bad_hash; i++) {
        err[0] = '\0';
        CHECK(!engine_option_set(e, "hash", bad_hash[i], err));
        CHECK(strstr(err, "hash") != NULL);
    }
    CHECK(!engine_option_set(e, "threads", "257", err));
    CHECK(!engine_option_set(e, "hash", NULL, err));
    get(e, "hash", v);
    CHECK(strcmp(v, "16") == 0);
    CHECK(!engine_option_set(e, "weights", "/nonexistent/w.txt", err));
    CHECK(strstr(err, "weights") != NULL);
    get(e, "weights", v);
    CHECK(strcmp(v, "none") == 0);

    /* Bad names. */
    CHECK(!engine_option_set(e, "hashh", "16", err));
    CHECK(strstr(err, "unknown") != NULL && strstr(err, "hashh") != NULL);
    CHECK(!engine_option_set(e, "", "16", err));
    CHECK(!engine_option_get(e, "Hash", v, sizeof v, err));
    char tiny[2];
    CHECK(!engine_option_get(e, "hash", tiny, sizeof tiny, err));

    /* Not during a search. */
    game_init(&game, &RULES_ENGLISH, NULL);
    SearchLimits inf = {.infinite = true};
    EngineJob job = engine_start(e, &game, &inf, NULL, NULL, NULL, err);
    CHECK(!engine_option_set(e, "hash", "32", err));
    CHECK(strstr(err, "during a search") != NULL);
    engine_stop(e, job);
    SearchResult r;
    CHECK(engine_wait(e, job, &r));
    CHECK(r.has_move);
    /* The engine still searches after its options changed (3 threads, 16 MB). */
    SearchLimits lim = {.depth = 6};
    r = engine_search(e, &game, &lim, NULL, NULL);
    CHECK(r.has_move && r.info.depth == 6);
    engine_free(e);
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
    RUN("engine", test_options);
    RUN("engine", test_free_while_running);
    return check_total_failed ? 1 : 0;
}
