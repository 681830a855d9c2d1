/*
 * selfplay.c - `ponder selfplay': the engine plays itself and writes training positions.
 *
 * Game g (0-based, counted over the whole run) starts from opening g mod the number of openings
 * (the three-move ballots unless told otherwise; a training-position file as --openings gives
 * positions of an earlier run's games, trainfile_openings), goes on with 0 to --random-plies
 * uniformly random moves, and is then played by the engine at a fixed node budget that varies by
 * up to --jitter either way from move to move, or at a fixed time per move. Every position the
 * engine searched in which the side to move has more than one move and no capture (a quiet
 * position, the kind the evaluation is asked about) becomes a record with the search score; the
 * game's result is filled in when it ends. Games end by the rules of SPEC section 1 or are
 * adjudicated drawn after --max-plies.
 *
 * Reproducibility: everything random in game g comes from a generator seeded by (--seed, g),
 * each game starts with a cleared engine, and node-limited searches are deterministic, so a game
 * does not depend on the thread that plays it. Threads take games in order and their records
 * are written in game order, so the file is the same whatever --threads is. --shard I/N plays
 * the I-th of N contiguous slices of the games: the shards of a run, concatenated in order, hold
 * the same records as the whole run (with one header per shard). Time-limited games depend on
 * the machine's load and are not reproducible.
 *
 * The file is written under a temporary name beside --out and renamed when the run is complete,
 * so a file under the final name is never partial. Ctrl-C removes the temporary file.
 */
#include "cli.h"
#include "command.h"
#include "engine.h"
#include "openings.h"
#include "opts.h"
#include "rng.h"
#include "trainfile.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    SELFPLAY_HASH_MB = 16, /* --hash default: each game thread's table */
    /* A position sampled from a training file as an opening: its search score at most this
     * far from even (hundredths of a man), so that the games start balanced. */
    SELFPLAY_OPENING_SCORE = 80,
    /* The engine options selfplay takes (its --threads is its own: games at once). */
    SELFPLAY_ENGINE_OPTS = OPTS_HASH | OPTS_WEIGHTS | OPTS_EVAL | OPTS_NET,
};

typedef struct {
    long games;           /* games in the whole run, over every shard */
    uint64_t seed;        /* the run's seed */
    uint64_t nodes;       /* nodes per move (0: use time) */
    double time;          /* seconds per move (0: use nodes) */
    double jitter;        /* node budget varies by this fraction either way */
    int random_plies;     /* at most this many random moves after the opening */
    int max_plies;        /* adjudicate a draw after this many plies of play */
    long threads;         /* games played at once */
    long shard, shards;   /* this is shard SHARD (1-based) of SHARDS */
    long hash_mb;         /* transposition table per thread */
    const char *weights;  /* weights file or NULL */
    int eval;             /* ENGINE_EVAL_* */
    const char *net;      /* network file or NULL */
    const char *openings; /* openings file, or NULL for the ballots */
    int open_lo, open_hi; /* the plies sampled from a training file as openings */
    const char *out;      /* output path */
    bool quiet;           /* no progress or summary */
} SelfplayOptions;

/* One finished game waiting for its turn to be written. */
typedef struct {
    bool done;          /* the game is finished and not yet written */
    uint8_t *data;      /* its encoded records */
    size_t len, cap;    /* bytes used and allocated */
    TrainResult result; /* how it ended */
} Slot;

typedef struct {
    const SelfplayOptions *o;
    Opening *openings;    /* start positions */
    int nopenings;        /* their number */
    long first, end;      /* the games of this shard: [first, end) */
    long next_game;       /* next game to hand out */
    long next_write;      /* next game to write */
    Slot *slots;          /* finished games, indexed by game mod window */
    long window;          /* games that may be in flight or waiting */
    FILE *out;            /* the temporary file */
    bool failed;          /* a write failed: stop */
    char err[ERR_LEN];    /* why */
    long wins[3];         /* games by TrainResult */
    uint64_t positions;   /* records written */
    double start, shown;  /* run start, last progress line */
    pthread_mutex_t lock; /* guards everything above that changes */
    pthread_cond_t cond;  /* signalled when a game is written */
} Selfplay;

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted = sig;
}

static bool slot_append(Slot *s, const uint8_t *block)
{
    uint8_t *d = util_grow(s->data, &s->cap, s->len + TRAIN_BLOCK, 1, 64 * TRAIN_BLOCK);
    if (!d)
        return false;
    s->data = d;
    memcpy(s->data + s->len, block, TRAIN_BLOCK);
    s->len += TRAIN_BLOCK;
    return true;
}

static void progress(Selfplay *sp, bool last)
{
    const SelfplayOptions *o = sp->o;
    if (o->quiet)
        return;
    double now = util_now();
    bool tty = isatty(STDERR_FILENO);
    if (!last && now - sp->shown < (tty ? 0.5 : 30.0))
        return;
    sp->shown = now;
    long done = sp->next_write - sp->first, total = sp->end - sp->first;
    double rate = done / (now - sp->start + 1e-9);
    fprintf(stderr, "%sselfplay: %ld/%ld games, %llu positions, %.2f games/s", tty ? "\r" : "",
            done, total, (unsigned long long)sp->positions, rate);
    if (!last && rate > 0)
        fprintf(stderr, ", %.0f s to go  ", (total - done) / rate);
    fprintf(stderr, "%s", tty && !last ? "" : "\n");
}

/* Writes the finished games that are next in order (lock held). */
static void flush_ready(Selfplay *sp)
{
    for (;;) {
        Slot *s = &sp->slots[sp->next_write % sp->window];
        if (sp->next_write >= sp->end || !s->done)
            break;
        if (!sp->failed && s->len && fwrite(s->data, 1, s->len, sp->out) != s->len) {
            snprintf(sp->err, ERR_LEN, "write error: %s", strerror(errno));
            sp->failed = true;
        }
        sp->positions += s->len / TRAIN_BLOCK;
        sp->wins[s->result]++;
        s->done = false;
        s->len = 0;
        sp->next_write++;
        progress(sp, false);
    }
    pthread_cond_broadcast(&sp->cond);
}

/* Plays game G into slot S with engine E, using GAME as scratch. Returns false when
 * interrupted or out of memory. */
static bool play_game(Selfplay *sp, Engine *e, Game *game, long g, Slot *s)
{
    const SelfplayOptions *o = sp->o;
    uint64_t rng = o->seed * 0xD1B54A32D192ED03ull ^ (uint64_t)g * 0x9E3779B97F4A7C15ull;
    rng_splitmix64(&rng);
    const Opening *op = &sp->openings[g % sp->nopenings];
    int random_plies = (int)(rng_splitmix64(&rng) % (uint64_t)(o->random_plies + 1));
    game_init(game, &RULES_ENGLISH, &op->start);
    engine_new_game(e);
    s->len = 0;

    GameResult result;
    while ((result = game_result(game)) == RESULT_NONE && game->ply < o->max_plies) {
        if (interrupted)
            return false;
        MoveList list;
        int n = movegen_generate(&game->board, game->rules, false, &list);
        Move m;
        if (game->ply < random_plies) {
            m = list.moves[rng_splitmix64(&rng) % (uint64_t)n];
        } else {
            SearchLimits lim = {0};
            if (o->nodes) {
                double u = (double)(rng_splitmix64(&rng) >> 11) * 0x1p-53 * 2 - 1;
                double budget = (double)o->nodes * (1 + o->jitter * u);
                lim.nodes = budget < 1 ? 1 : (uint64_t)budget;
            } else
                lim.time = o->time;
            SearchResult r = engine_search(e, game, &lim, NULL, NULL);
            if (!r.has_move)
                break;
            m = r.best;
            if (n > 1 && !move_is_capture(&list.moves[0])) {
                TrainRecord rec = {.board = game->board,
                                   .result = TRAIN_DRAW,
                                   .score = r.info.score,
                                   .ply = op->earlier_plies + op->nmoves + game->ply};
                uint8_t block[TRAIN_BLOCK];
                trainfile_encode(&rec, block);
                if (!slot_append(s, block))
                    return false;
            }
        }
        if (!game_play(game, &m))
            break;
    }

    /* The result goes into every record of the game (byte 14, bits 1-2). */
    s->result = result == RESULT_BLACK_WINS   ? TRAIN_BLACK_WON
                : result == RESULT_WHITE_WINS ? TRAIN_WHITE_WON
                                              : TRAIN_DRAW;
    for (size_t at = 0; at < s->len; at += TRAIN_BLOCK)
        s->data[at + 14] = (uint8_t)((s->data[at + 14] & 1u) | ((unsigned)s->result << 1));
    return true;
}

typedef struct {
    Selfplay *sp;   /* the run */
    Engine *engine; /* this thread's engine */
    Game *game;     /* this thread's scratch game */
    Slot mine;      /* this thread's game being played */
    bool failed;    /* out of memory */
} Worker;

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Selfplay *sp = w->sp;
    for (;;) {
        pthread_mutex_lock(&sp->lock);
        while (sp->next_game < sp->end && sp->next_game >= sp->next_write + sp->window &&
               !sp->failed && !interrupted)
            pthread_cond_wait(&sp->cond, &sp->lock);
        if (sp->next_game >= sp->end || sp->failed || interrupted) {
            pthread_mutex_unlock(&sp->lock);
            break;
        }
        long g = sp->next_game++;
        pthread_mutex_unlock(&sp->lock);

        bool ok = play_game(sp, w->engine, w->game, g, &w->mine);

        pthread_mutex_lock(&sp->lock);
        if (!ok) {
            if (!interrupted && !sp->failed) {
                snprintf(sp->err, ERR_LEN, "out of memory");
                sp->failed = true;
            }
            pthread_cond_broadcast(&sp->cond);
            pthread_mutex_unlock(&sp->lock);
            break;
        }
        /* Hand the records over to the slot and take its (empty) buffer in exchange. */
        Slot *s = &sp->slots[g % sp->window];
        Slot spare = *s;
        *s = w->mine;
        s->done = true;
        w->mine = spare;
        w->mine.done = false;
        flush_ready(sp);
        pthread_mutex_unlock(&sp->lock);
    }
    return NULL;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ponder selfplay --games N --seed S (--nodes N | --time S) --out FILE\n"
            "                       [--threads T] [--shard I/N] [options]\n"
            "\n"
            "Plays the engine against itself and writes the quiet positions it searched, each\n"
            "with the game's result and the search score, to FILE (the format of\n"
            "docs/tuning.md, read by `ponder tune'). The same options give the same file\n"
            "with --nodes, whatever --threads is.\n"
            "  --games N         games in the whole run (all shards together)\n"
            "  --seed S          seed of every random choice (0-18446744073709551615)\n"
            "  --nodes N         nodes per move (varied by --jitter), reproducible\n"
            "  --time S          seconds per move instead (not reproducible)\n"
            "  --out FILE        the training-position file to write\n"
            "  --threads T       games at once (default: the number of cores)\n"
            "  --shard I/N       play only the I-th of N equal slices of the games; the\n"
            "                    shards' files, concatenated in order, hold the whole run\n"
            "  --openings FILE   start positions from a PDN or FEN file (default: the 156\n"
            "                    three-move ballots; `ballots' names them), game g plays\n"
            "                    opening g mod their number; or a training-position\n"
            "                    file of an earlier run: its positions from plies\n"
            "                    --opening-plies with a search score within %d\n"
            "                    hundredths of a man of even, each once, shuffled by\n"
            "                    --seed\n"
            "  --opening-plies LO-HI  those plies (default 8-30)\n"
            "  --random-plies K  then 0 to K random moves, chosen by the seed (default 2)\n"
            "  --jitter F        node budget varies by up to F either way (default 0.25)\n"
            "  --max-plies N     adjudicate a draw after N plies of play (default 400)\n"
            "  --hash MB         transposition table per thread (default %d)\n",
            SELFPLAY_OPENING_SCORE, SELFPLAY_HASH_MB);
    opts_help(f, SELFPLAY_ENGINE_OPTS & ~OPTS_HASH, NULL, 2, 20);
    fprintf(f, "  -q, --quiet       no progress line or summary\n");
}

/* Parses "LO-HI" plies with 0 <= LO <= HI <= 255. */
static bool parse_plies(const char *text, int *lo, int *hi)
{
    const char *dash = strchr(text, '-');
    char first[32];
    long a, b;
    if (!dash || dash == text || (size_t)(dash - text) >= sizeof first) {
        fprintf(stderr, "ponder selfplay: --opening-plies wants LO-HI (e.g. 8-30), not `%s'\n",
                text);
        return false;
    }
    memcpy(first, text, (size_t)(dash - text));
    first[dash - text] = '\0';
    if (!cli_long("--opening-plies (LO)", first, 0, 255, &a) ||
        !cli_long("--opening-plies (HI)", dash + 1, 0, 255, &b))
        return false;
    if (a > b) {
        fprintf(stderr, "ponder selfplay: --opening-plies %s: LO must not exceed HI\n", text);
        return false;
    }
    *lo = (int)a;
    *hi = (int)b;
    return true;
}

static bool parse_seed(const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (!*text || *text == '-' || *text == '+' || *end || errno == ERANGE) {
        fprintf(stderr,
                "ponder selfplay: --seed wants an integer 0-18446744073709551615, "
                "not `%s'\n",
                text);
        return false;
    }
    *out = (uint64_t)v;
    return true;
}

/* Runs the games of the shard. Returns the exit status. */
static int run(const SelfplayOptions *o, Opening *openings, int nopenings)
{
    Selfplay sp;
    memset(&sp, 0, sizeof sp);
    sp.o = o;
    sp.openings = openings;
    sp.nopenings = nopenings;
    sp.first = (long)((long long)o->games * (o->shard - 1) / o->shards);
    sp.end = (long)((long long)o->games * o->shard / o->shards);
    sp.next_game = sp.next_write = sp.first;
    long nthreads = o->threads;
    if (nthreads > sp.end - sp.first)
        nthreads = sp.end - sp.first > 0 ? sp.end - sp.first : 1;
    sp.window = 4 * nthreads + 4;
    pthread_mutex_init(&sp.lock, NULL);
    pthread_cond_init(&sp.cond, NULL);

    int status = 1;
    char tmp[4096];
    CliStop stop = {0};
    Worker *workers = calloc((size_t)nthreads, sizeof *workers);
    pthread_t *tids = calloc((size_t)nthreads, sizeof *tids);
    sp.slots = calloc((size_t)sp.window, sizeof *sp.slots);
    if (!workers || !tids || !sp.slots) {
        fprintf(stderr, "ponder selfplay: out of memory\n");
        goto done;
    }

    /* 1. Engines first, so a bad weights file or no memory is reported before any work. */
    EngineOptions eo;
    engine_default_options(&eo);
    eo.contempt = 0; /* training games: a draw is worth what it is, for both sides */
    char egdb_dir[CLI_PATH_MAX];
    eo.egdb_dir = cli_engine_egdb(egdb_dir, sizeof egdb_dir);
    eo.hash_mb = (size_t)o->hash_mb;
    eo.weights = o->weights;
    eo.eval = o->eval;
    eo.net = o->net;
    for (long i = 0; i < nthreads; i++) {
        char err[ERR_LEN];
        workers[i].sp = &sp;
        workers[i].game = malloc(sizeof *workers[i].game);
        if (!workers[i].game) {
            fprintf(stderr, "ponder selfplay: out of memory\n");
            goto done;
        }
        if (!(workers[i].engine = engine_new(&eo, err))) {
            fprintf(stderr, "ponder selfplay: %s\n", err);
            goto done;
        }
    }

    /* 2. The temporary file, with its header. Ctrl-C is caught from before the file exists (so
     * it can never leave the file behind): the file's appearance means the handler is in. */
    cli_catch_stop(&stop, on_signal);
    char msg[ERR_LEN];
    sp.out = util_temp_open(o->out, tmp, sizeof tmp, msg, sizeof msg);
    if (!sp.out) {
        fprintf(stderr, "ponder selfplay: %s\n", msg);
        goto done;
    }
    uint8_t header[TRAIN_BLOCK];
    trainfile_header(header);
    if (fwrite(header, 1, sizeof header, sp.out) != sizeof header) {
        snprintf(sp.err, ERR_LEN, "write error: %s", strerror(errno));
        sp.failed = true;
    }

    /* 3. The games. */
    sp.start = sp.shown = util_now();
    long started = 0;
    for (long i = 0; i < nthreads && !sp.failed; i++, started++)
        if (pthread_create(&tids[i], NULL, worker_main, &workers[i]) != 0) {
            pthread_mutex_lock(&sp.lock);
            snprintf(sp.err, ERR_LEN, "cannot start thread %ld", i + 1);
            sp.failed = true;
            pthread_cond_broadcast(&sp.cond);
            pthread_mutex_unlock(&sp.lock);
            break;
        }
    for (long i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    cli_release_stop(&stop);

    /* 4. Close, and rename into place only when every game is in. */
    bool complete = !interrupted && !sp.failed && sp.next_write == sp.end;
    bool written = util_temp_commit(sp.out, tmp, o->out, complete, msg, sizeof msg);
    sp.out = NULL;
    char done_text[32];
    snprintf(done_text, sizeof done_text, "%ld games", sp.next_write - sp.first);
    status = cli_job_end("ponder selfplay", interrupted, done_text, complete, sp.err, o->out,
                         written, msg);
    if (status)
        goto done;
    progress(&sp, true);
    if (!o->quiet)
        printf("selfplay: shard %ld/%ld, games %ld-%ld of %ld: Black won %ld, White won %ld, "
               "drawn %ld; %llu positions written to %s in %.1f s\n",
               o->shard, o->shards, sp.first + 1, sp.end, o->games, sp.wins[TRAIN_BLACK_WON],
               sp.wins[TRAIN_WHITE_WON], sp.wins[TRAIN_DRAW], (unsigned long long)sp.positions,
               o->out, util_now() - sp.start);

done:
    if (sp.out) {
        fclose(sp.out);
        remove(tmp);
    }
    cli_release_stop(&stop);
    for (long i = 0; workers && i < nthreads; i++) {
        engine_free(workers[i].engine);
        free(workers[i].game);
        free(workers[i].mine.data);
    }
    for (long i = 0; sp.slots && i < sp.window; i++)
        free(sp.slots[i].data);
    free(sp.slots);
    free(workers);
    free(tids);
    pthread_mutex_destroy(&sp.lock);
    pthread_cond_destroy(&sp.cond);
    return status;
}

static int cmd_selfplay(int argc, char **argv)
{
    SelfplayOptions o;
    memset(&o, 0, sizeof o);
    o.games = -1;
    o.shard = o.shards = 1;
    o.jitter = 0.25;
    o.random_plies = 2;
    o.max_plies = 400;
    o.open_lo = 8;
    o.open_hi = 30;
    o.hash_mb = SELFPLAY_HASH_MB;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o.threads = cores > 0 ? cores : 1;
    if (o.threads > ENGINE_THREADS_MAX)
        o.threads = ENGINE_THREADS_MAX;
    bool has_seed = false;
    long lv;
    EngineOptions eo; /* --hash and --weights of every game's engine */
    engine_default_options(&eo);
    eo.hash_mb = (size_t)o.hash_mb;
    enum {
        OPT_GAMES = OPTS_LONG,
        OPT_SEED,
        OPT_NODES,
        OPT_TIME,
        OPT_THREADS,
        OPT_SHARD,
        OPT_OUT,
        OPT_OPENINGS,
        OPT_OPENING_PLIES,
        OPT_RANDOM_PLIES,
        OPT_JITTER,
        OPT_MAX_PLIES,
    };
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {"games", required_argument, NULL, OPT_GAMES},
        {"seed", required_argument, NULL, OPT_SEED},
        {"nodes", required_argument, NULL, OPT_NODES},
        {"time", required_argument, NULL, OPT_TIME},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"shard", required_argument, NULL, OPT_SHARD},
        {"out", required_argument, NULL, OPT_OUT},
        {"openings", required_argument, NULL, OPT_OPENINGS},
        {"opening-plies", required_argument, NULL, OPT_OPENING_PLIES},
        {"random-plies", required_argument, NULL, OPT_RANDOM_PLIES},
        {"jitter", required_argument, NULL, OPT_JITTER},
        {"max-plies", required_argument, NULL, OPT_MAX_PLIES},
        {"quiet", no_argument, NULL, 'q'},
        {0},
    };
    Opts p;
    opts_begin(&p, "ponder selfplay", argc, argv, "hq", longopts, SELFPLAY_ENGINE_OPTS, &eo);
    for (int c; (c = opts_next(&p)) != OPTS_END;) {
        switch (c) {
        case 'h': usage(stdout); return 0;
        case OPT_GAMES:
            if (!cli_long("--games", optarg, 1, 1000000000, &o.games))
                goto bad;
            break;
        case OPT_SEED:
            if (!parse_seed(optarg, &o.seed))
                goto bad;
            has_seed = true;
            break;
        case OPT_NODES:
            if (!cli_long("--nodes", optarg, 1, 1000000000, &lv))
                goto bad;
            o.nodes = (uint64_t)lv;
            break;
        case OPT_TIME:
            if (!cli_double("--time", optarg, 0.001, 3600, &o.time))
                goto bad;
            break;
        case OPT_THREADS:
            /* Games at once, each on one search thread: under the engine's thread limit. */
            if (!cli_long("--threads", optarg, ENGINE_THREADS_MIN, ENGINE_THREADS_MAX, &o.threads))
                goto bad;
            break;
        case OPT_SHARD:
            if (!cli_shard("--shard", optarg, &o.shard, &o.shards))
                goto bad;
            break;
        case OPT_OUT: o.out = optarg; break;
        case OPT_OPENINGS: o.openings = optarg; break;
        case OPT_OPENING_PLIES:
            if (!parse_plies(optarg, &o.open_lo, &o.open_hi))
                goto bad;
            break;
        case OPT_RANDOM_PLIES:
            if (!cli_long("--random-plies", optarg, 0, 100, &lv))
                goto bad;
            o.random_plies = (int)lv;
            break;
        case OPT_JITTER:
            if (!cli_double("--jitter", optarg, 0, 0.9, &o.jitter))
                goto bad;
            break;
        case OPT_MAX_PLIES:
            if (!cli_long("--max-plies", optarg, 1, GAME_MAX_PLIES - 1, &lv))
                goto bad;
            o.max_plies = (int)lv;
            break;
        case 'q': o.quiet = true; break;
        default: goto bad;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "ponder selfplay: unexpected argument `%s'\n", argv[optind]);
        goto bad;
    }
    o.hash_mb = (long)eo.hash_mb;
    o.weights = eo.weights;
    o.eval = eo.eval;
    o.net = eo.net;
    const char *missing = o.games < 0 ? "--games" : !has_seed ? "--seed" : !o.out ? "--out" : NULL;
    if (missing) {
        fprintf(stderr, "ponder selfplay: %s is required\n", missing);
        goto bad;
    }
    if ((o.nodes != 0) == (o.time != 0)) {
        fprintf(stderr, "ponder selfplay: give exactly one of --nodes and --time\n");
        goto bad;
    }

    char err[ERR_LEN];
    if (o.weights) { /* a bad weights file is a bad argument: checked before anything runs */
        EngineOptions check;
        engine_default_options(&check);
        check.hash_mb = 1;
        check.weights = o.weights;
        check.egdb_dir = NULL;
        Engine *probe = engine_new(&check, err);
        if (!probe) {
            fprintf(stderr, "ponder selfplay: %s\n", err);
            return 2;
        }
        engine_free(probe);
    }
    Opening *openings = NULL;
    int n;
    if (!o.openings || strcmp(o.openings, "ballots") == 0)
        n = openings_ballots(false, &openings, err);
    else if (trainfile_sniff(o.openings))
        n = trainfile_openings(o.openings, o.open_lo, o.open_hi, SELFPLAY_OPENING_SCORE, o.seed,
                               o.games < INT_MAX ? (int)o.games : INT_MAX, &openings, err);
    else
        n = openings_load(o.openings, &openings, err);
    if (n < 0) {
        fprintf(stderr, "ponder selfplay: %s\n", err);
        return 2;
    }
    int status = run(&o, openings, n);
    free(openings);
    return status;
bad:
    opts_see_help("ponder selfplay");
    return 2;
}

PONDER_COMMAND("selfplay", cmd_selfplay, 83,
               "play the engine against itself for training positions")
