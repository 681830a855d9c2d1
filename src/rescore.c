/*
 * rescore.c - `ponder rescore': searches the positions of training files again and writes them
 * with the new search scores.
 *
 * Self-play labels each position with the score of the search that played the move, a search
 * as shallow as the games are many. Rescoring gives the same positions a deeper (or another
 * network's) score without playing the games again: every record keeps its position, game
 * result and ply, and gets the score of a fresh search to --nodes nodes or --depth plies (a
 * cleared table each, no game history, no book: the score depends on the position and the
 * engine alone). `ponder train --lambda' then blends it with the result as before.
 *
 * The input is one or more training-position files (concatenated shards are one file); their
 * records in order are the run's. --shard I/N takes the I-th of N contiguous slices of them,
 * so the shards' outputs, concatenated in order, hold the whole run's records, and a long run
 * goes shard by shard (each shard's file appears complete or not at all: the file is written
 * under a temporary name and renamed when every record of the shard is in). Threads take
 * records in blocks; a node- or depth-limited search with a cleared table does not depend on
 * the thread, so the file is the same whatever --threads is.
 *
 * Self-play repeats itself (the same openings, a deterministic engine: about a third of a run's
 * records are positions met before), and a position's new score depends on the position alone,
 * so each distinct position of the shard is searched once and its repeats take its score. Earlier
 * shards of the same run given with --reuse lend their scores too: a position found there is not
 * searched again. That is only right when they were made by the same command (engine, network,
 * limit, databases), so every 64th position taken from them (the first included) is searched
 * anyway and must get the same score, else the run stops naming the file. Either way the output
 * is byte for byte the one a search of every record would give.
 */
#include "cli.h"
#include "command.h"
#include "engine.h"
#include "movegen.h"
#include "notation.h"
#include "opts.h"
#include "trainfile.h"
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum {
    RESCORE_HASH_MB = 4,      /* --hash default: each thread's table, cleared before every record */
    RESCORE_BLOCK = 32,       /* records a thread takes at once */
    RESCORE_CHECK_EVERY = 64, /* one in this many scores --reuse lends is searched again */
    RESCORE_REUSE_MAX = 4096, /* --reuse files */
    /* The engine options rescore takes (its --threads is its own: searches at once). */
    RESCORE_ENGINE_OPTS = OPTS_HASH | OPTS_WEIGHTS | OPTS_EVAL | OPTS_NET,
};

typedef struct {
    uint64_t nodes;     /* nodes per search (0: use depth) */
    int depth;          /* plies per search (0: use nodes) */
    long threads;       /* searches at once */
    long shard, shards; /* this is shard SHARD (1-based) of SHARDS */
    EngineOptions eo;   /* every thread's engine: --hash, --weights, --eval, --net */
    const char *out;    /* output path */
    char **in;          /* input files */
    int nin;            /* their number */
    const char **reuse; /* --reuse: earlier shards' outputs, whose scores are taken */
    int nreuse;         /* their number */
    bool quiet;         /* no progress or summary */
} RescoreOptions;

/* How a distinct position of the shard gets its score. */
enum { HOW_SEARCH, HOW_REUSE, HOW_CHECK };

typedef struct {
    const RescoreOptions *o;
    uint8_t *blocks;          /* the shard's records, encoded; rescored in place at the end */
    size_t count;             /* their number */
    uint32_t *first;          /* each record's first record of the same position (itself if new) */
    uint8_t *how;             /* of a first record: HOW_* */
    int32_t *score;           /* of a first record: the score lent (HOW_REUSE, HOW_CHECK), then
                                 the search's (HOW_SEARCH, HOW_CHECK); NO_SCORE: no legal move */
    uint16_t *lender;         /* of a first record taken from --reuse: the file's index */
    uint32_t *work;           /* the first records to search, in order */
    size_t nwork;             /* their number */
    size_t distinct;          /* first records */
    size_t reused;            /* of them, scored by --reuse (HOW_REUSE and HOW_CHECK) */
    atomic_size_t next;       /* next entry of work to hand out */
    atomic_size_t done;       /* searches done */
    atomic_bool failed;       /* a worker could not go on */
    char err[ERR_LEN];        /* why (the first failure) */
    char mismatch[512];       /* a --reuse file's score that the search does not confirm */
    pthread_mutex_t err_lock; /* guards err */
} Rescore;

#define NO_SCORE INT32_MIN

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted = sig;
}

/* Records the first failure. */
static void fail_run(Rescore *rs, const char *msg)
{
    pthread_mutex_lock(&rs->err_lock);
    if (!atomic_load(&rs->failed))
        snprintf(rs->err, ERR_LEN, "%s", msg);
    atomic_store(&rs->failed, true);
    pthread_mutex_unlock(&rs->err_lock);
}

typedef struct {
    Rescore *rs;
    Engine *engine; /* this thread's engine */
    Game *game;     /* its scratch game */
} Worker;

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Rescore *rs = w->rs;
    const RescoreOptions *o = rs->o;
    /* Training targets: values (a draw 0, no contempt), never book moves. */
    SearchLimits lim = {.nodes = o->nodes, .depth = o->depth, .analysis = true};
    for (;;) {
        size_t from = atomic_fetch_add(&rs->next, RESCORE_BLOCK);
        if (from >= rs->nwork)
            break;
        size_t end = from + RESCORE_BLOCK < rs->nwork ? from + RESCORE_BLOCK : rs->nwork;
        for (size_t k = from; k < end; k++) {
            if (interrupted || atomic_load(&rs->failed))
                return NULL;
            uint32_t i = rs->work[k];
            TrainRecord rec;
            char err[ERR_LEN];
            if (trainfile_decode(rs->blocks + (size_t)i * TRAIN_BLOCK, &rec, err) !=
                TRAIN_RECORD) { /* checked when read */
                fail_run(rs, err);
                return NULL;
            }
            game_init(w->game, &RULES_ENGLISH, &rec.board);
            engine_new_game(w->engine);
            SearchResult r = engine_search(w->engine, w->game, &lim, NULL, NULL);
            int32_t got = r.has_move ? r.info.score : NO_SCORE;
            if (rs->how[i] == HOW_CHECK && got != rs->score[i]) {
                char fen[128];
                notation_format_fen(&rec.board, fen, sizeof fen);
                pthread_mutex_lock(&rs->err_lock);
                if (!rs->mismatch[0])
                    snprintf(rs->mismatch, sizeof rs->mismatch,
                             "%s: the score of %s is %d there, %d by this run's search",
                             o->reuse[rs->lender[i]], fen, (int)rs->score[i], (int)got);
                pthread_mutex_unlock(&rs->err_lock);
                fail_run(rs, "a --reuse file's score differs from this run's search");
                return NULL;
            }
            rs->score[i] = got;
        }
        atomic_fetch_add(&rs->done, end - from);
    }
    return NULL;
}

/* The table of the shard's positions: open addressing on the record's Zobrist key, each slot a
 * record index + 1 (0: empty), SIZE a power of two at least twice the records. */
typedef struct {
    uint32_t *slot;
    size_t mask;
} PosTable;

/* Whether records A and B (encoded) hold the same position: the pieces, the kings and the side
 * to move. */
static bool same_position(const uint8_t *a, const uint8_t *b)
{
    return memcmp(a, b, 12) == 0 && ((a[14] ^ b[14]) & 1) == 0;
}

/* The slot of the position of BLOCK (KEY its Zobrist key): the one holding it, or the empty
 * one where it would go. */
static uint32_t *pos_find(const PosTable *t, const uint8_t *blocks, uint64_t key,
                          const uint8_t *block)
{
    for (size_t h = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & t->mask;; h = (h + 1) & t->mask)
        if (!t->slot[h] || same_position(blocks + (size_t)(t->slot[h] - 1) * TRAIN_BLOCK, block))
            return &t->slot[h];
}

/* Finds each record's first record of the same position, takes the scores --reuse lends, and
 * lists the searches to make. Returns false with the message printed. */
static bool plan_shard(const RescoreOptions *o, Rescore *rs)
{
    size_t n = rs->count, size = 2;
    while (size < 2 * n)
        size *= 2;
    PosTable t = {calloc(size, sizeof *t.slot), size - 1};
    rs->first = malloc((n ? n : 1) * sizeof *rs->first);
    rs->how = calloc(n ? n : 1, sizeof *rs->how);
    rs->score = malloc((n ? n : 1) * sizeof *rs->score);
    rs->lender = calloc(n ? n : 1, sizeof *rs->lender);
    rs->work = malloc((n ? n : 1) * sizeof *rs->work);
    if (!t.slot || !rs->first || !rs->how || !rs->score || !rs->lender || !rs->work) {
        fprintf(stderr, "ponder rescore: out of memory for %zu records\n", n);
        free(t.slot);
        return false;
    }
    char err[ERR_LEN];
    TrainRecord rec;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *block = rs->blocks + i * TRAIN_BLOCK;
        trainfile_decode(block, &rec, err); /* checked when read */
        uint32_t *s = pos_find(&t, rs->blocks, rec.board.key, block);
        if (!*s) {
            *s = (uint32_t)i + 1;
            rs->distinct++;
        }
        rs->first[i] = *s - 1;
    }
    /* The lenders, file by file: the first to hold a position gives its score. A position with
     * no legal move is left to the search (which keeps each record's own score then). */
    bool ok = true;
    for (int f = 0; f < o->nreuse && ok; f++) {
        TrainReader rd;
        if (!trainfile_open(&rd, o->reuse[f], err)) {
            fprintf(stderr, "ponder rescore: --reuse: %s\n", err);
            ok = false;
            break;
        }
        int got;
        uint8_t block[TRAIN_BLOCK];
        while ((got = trainfile_next(&rd, &rec, err)) == 1) {
            trainfile_encode(&rec, block);
            uint32_t *s = pos_find(&t, rs->blocks, rec.board.key, block);
            if (*s && rs->how[*s - 1] == HOW_SEARCH &&
                movegen_count(&rec.board, &RULES_ENGLISH, false) > 0) {
                rs->how[*s - 1] = rs->reused % RESCORE_CHECK_EVERY == 0 ? HOW_CHECK : HOW_REUSE;
                rs->score[*s - 1] = rec.score;
                rs->lender[*s - 1] = (uint16_t)f;
                rs->reused++;
            }
        }
        trainfile_close(&rd);
        if (got < 0) {
            fprintf(stderr, "ponder rescore: --reuse: %s\n", err);
            ok = false;
        }
    }
    free(t.slot);
    for (size_t i = 0; ok && i < n; i++)
        if (rs->first[i] == i && rs->how[i] != HOW_REUSE)
            rs->work[rs->nwork++] = (uint32_t)i;
    return ok;
}

/* Every record's new score (its first record's; its own when the position has no legal move),
 * written into its block; the sum of the changes returned. */
static long long apply_scores(Rescore *rs)
{
    long long change = 0;
    char err[ERR_LEN];
    for (size_t i = 0; i < rs->count; i++) {
        uint8_t *block = rs->blocks + i * TRAIN_BLOCK;
        TrainRecord rec;
        trainfile_decode(block, &rec, err); /* checked when read */
        int32_t s = rs->score[rs->first[i]];
        if (s != NO_SCORE) {
            change += llabs((long long)s - rec.score);
            rec.score = s;
        }
        trainfile_encode(&rec, block);
    }
    return change;
}

/* Reads the records of the input files that belong to this shard into RS. Returns false with
 * the message printed. */
static bool load_shard(const RescoreOptions *o, Rescore *rs, size_t *total, size_t *first)
{
    char err[ERR_LEN];
    TrainReader rd;
    TrainRecord rec;
    int got;
    /* 1. Count the records of every file (and check every block). */
    size_t n = 0;
    for (int f = 0; f < o->nin; f++) {
        if (!trainfile_open(&rd, o->in[f], err)) {
            fprintf(stderr, "ponder rescore: %s\n", err);
            return false;
        }
        while ((got = trainfile_next(&rd, &rec, err)) == 1)
            n++;
        trainfile_close(&rd);
        if (got < 0) {
            fprintf(stderr, "ponder rescore: %s\n", err);
            return false;
        }
    }
    if (n == 0) {
        fprintf(stderr, "ponder rescore: the input holds no record\n");
        return false;
    }
    size_t lo = (size_t)((unsigned long long)n * (unsigned long long)(o->shard - 1) /
                         (unsigned long long)o->shards);
    size_t hi = (size_t)((unsigned long long)n * (unsigned long long)o->shard /
                         (unsigned long long)o->shards);
    *total = n;
    *first = lo;
    rs->count = hi - lo;
    if (rs->count >= UINT32_MAX) {
        fprintf(stderr, "ponder rescore: %zu records in one shard; at most %u (use --shard)\n",
                rs->count, UINT32_MAX - 1);
        return false;
    }
    rs->blocks = malloc(rs->count ? rs->count * TRAIN_BLOCK : 1);
    if (!rs->blocks) {
        fprintf(stderr, "ponder rescore: out of memory for %zu records\n", rs->count);
        return false;
    }
    /* 2. Keep the shard's (the files cannot have changed in between without a message). */
    size_t at = 0, kept = 0;
    for (int f = 0; f < o->nin && at < hi; f++) {
        if (!trainfile_open(&rd, o->in[f], err)) {
            fprintf(stderr, "ponder rescore: %s\n", err);
            return false;
        }
        while (at < hi && (got = trainfile_next(&rd, &rec, err)) == 1) {
            if (at >= lo)
                trainfile_encode(&rec, rs->blocks + kept++ * TRAIN_BLOCK);
            at++;
        }
        trainfile_close(&rd);
        if (got < 0) {
            fprintf(stderr, "ponder rescore: %s\n", err);
            return false;
        }
    }
    if (kept != rs->count) {
        fprintf(stderr, "ponder rescore: the input changed while it was read\n");
        return false;
    }
    return true;
}

static void progress(const Rescore *rs, double start, bool tty, bool last)
{
    size_t done = atomic_load(&rs->done);
    double el = util_now() - start;
    double rate = done / (el + 1e-9);
    fprintf(stderr, "%srescore: %zu/%zu searches, %.0f a second", tty ? "\r" : "", done, rs->nwork,
            rate);
    if (!last && rate > 0)
        fprintf(stderr, ", %.0f s to go  ", (rs->nwork - done) / rate);
    fprintf(stderr, "%s", tty && !last ? "" : "\n");
}

static void sleep_ms(long ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Rescores the shard. Returns the exit status. */
static int run(const RescoreOptions *o)
{
    Rescore rs;
    memset(&rs, 0, sizeof rs);
    rs.o = o;
    pthread_mutex_init(&rs.err_lock, NULL);
    int status = 1;
    char tmp[4096], msg[ERR_LEN];
    FILE *out = NULL;
    CliStop stop = {0};
    long nthreads = o->threads;
    Worker *workers = calloc((size_t)nthreads, sizeof *workers);
    pthread_t *tids = calloc((size_t)nthreads, sizeof *tids);
    size_t total = 0, first = 0;
    if (!workers || !tids) {
        fprintf(stderr, "ponder rescore: out of memory\n");
        goto done;
    }

    /* 1. Engines first, so a bad network or no memory is reported before any work. */
    for (long i = 0; i < nthreads; i++) {
        workers[i].rs = &rs;
        if (!(workers[i].game = malloc(sizeof *workers[i].game)) ||
            !(workers[i].engine = engine_new(&o->eo, msg))) {
            fprintf(stderr, "ponder rescore: %s\n", workers[i].game ? msg : "out of memory");
            status = workers[i].game ? 2 : 1;
            goto done;
        }
    }

    /* 2. The input: every block checked before any search. */
    if (!load_shard(o, &rs, &total, &first) || !plan_shard(o, &rs)) {
        status = 2;
        goto done;
    }

    /* 3. The temporary file, before the work, so an output that cannot be written is known at
     * once; Ctrl-C is caught from before it exists, so it never leaves the file behind. */
    cli_catch_stop(&stop, on_signal);
    out = util_temp_open(o->out, tmp, sizeof tmp, msg, sizeof msg);
    if (!out) {
        fprintf(stderr, "ponder rescore: %s\n", msg);
        goto done;
    }

    /* 4. The searches, with a progress line from this thread. */
    double start = util_now(), shown = start;
    bool tty = isatty(STDERR_FILENO);
    long started = 0;
    for (long i = 0; i < nthreads; i++, started++)
        if (pthread_create(&tids[i], NULL, worker_main, &workers[i]) != 0) {
            snprintf(msg, sizeof msg, "cannot start thread %ld", i + 1);
            fail_run(&rs, msg);
            break;
        }
    while (started > 0 && atomic_load(&rs.done) < rs.nwork && !interrupted &&
           !atomic_load(&rs.failed)) {
        sleep_ms(50);
        if (!o->quiet && util_now() - shown >= (tty ? 0.5 : 30.0)) {
            shown = util_now();
            progress(&rs, start, tty, false);
        }
    }
    for (long i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    cli_release_stop(&stop);

    /* 5. Write, and rename into place only when every record is in. */
    bool complete = !interrupted && !atomic_load(&rs.failed) && atomic_load(&rs.done) == rs.nwork;
    long long change = complete ? apply_scores(&rs) : 0;
    if (complete) {
        uint8_t header[TRAIN_BLOCK];
        trainfile_header(header);
        if (fwrite(header, 1, sizeof header, out) != sizeof header ||
            (rs.count && fwrite(rs.blocks, TRAIN_BLOCK, rs.count, out) != rs.count)) {
            snprintf(msg, sizeof msg, "write error: %s", strerror(errno));
            fail_run(&rs, msg);
            complete = false;
        }
    }
    bool written = util_temp_commit(out, tmp, o->out, complete, msg, sizeof msg);
    out = NULL;
    if (rs.mismatch[0] && !interrupted) { /* the --reuse files were bad input */
        fprintf(stderr,
                "\nponder rescore: --reuse: %s: it takes only earlier shards of the same run "
                "(the same --nodes or --depth, network and databases); nothing written\n",
                rs.mismatch);
        status = 2;
        goto done;
    }
    char done_text[64];
    snprintf(done_text, sizeof done_text, "%zu of %zu searches", atomic_load(&rs.done), rs.nwork);
    status = cli_job_end("ponder rescore", interrupted, done_text, complete, rs.err, o->out,
                         written, msg);
    if (status)
        goto done;
    if (!o->quiet) {
        progress(&rs, start, tty, true);
        char limit[64];
        if (o->nodes)
            snprintf(limit, sizeof limit, "%llu nodes", (unsigned long long)o->nodes);
        else
            snprintf(limit, sizeof limit, "depth %d", o->depth);
        printf("rescore: shard %ld/%ld, records %zu-%zu of %zu, %zu distinct positions: %zu "
               "searched to %s, %zu scores taken from --reuse files (%zu of them checked by a "
               "search); mean change %.1f hundredths of a man; %zu positions written to %s in "
               "%.1f s\n",
               o->shard, o->shards, rs.count ? first + 1 : first, first + rs.count, total,
               rs.distinct, rs.nwork, limit, rs.reused, rs.nwork - (rs.distinct - rs.reused),
               rs.count ? (double)change / (double)rs.count : 0.0, rs.count, o->out,
               util_now() - start);
    }

done:
    if (out) {
        fclose(out);
        remove(tmp);
    }
    cli_release_stop(&stop);
    for (long i = 0; workers && i < nthreads; i++) {
        engine_free(workers[i].engine);
        free(workers[i].game);
    }
    free(workers);
    free(tids);
    free(rs.blocks);
    free(rs.first);
    free(rs.how);
    free(rs.score);
    free(rs.lender);
    free(rs.work);
    pthread_mutex_destroy(&rs.err_lock);
    return status;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ponder rescore (--nodes N | --depth D) --out FILE [options] FILE...\n"
            "\n"
            "Searches every position of the training-position files again (a fresh search\n"
            "each, no game history) and writes them to --out with the new search scores;\n"
            "positions, results and plies stay as they were (docs/training.md). The same\n"
            "options give the same file, whatever --threads is.\n"
            "  --nodes N         nodes per search\n"
            "  --depth D         plies per search instead (1-%d)\n"
            "  --out FILE        the training-position file to write\n"
            "  --threads T       searches at once (default: the number of cores)\n"
            "  --shard I/N       rescore only the I-th of N equal slices of the records; the\n"
            "                    shards' files, concatenated in order, hold the whole run\n"
            "  --reuse FILE      an earlier shard's output of this same command: its scores\n"
            "                    are taken for the positions it holds instead of searching\n"
            "                    them again (every 64th is searched to check; repeatable)\n"
            "  --hash MB         transposition table per thread, cleared before each\n"
            "                    position (default %d)\n",
            MAX_PLY - 1, RESCORE_HASH_MB);
    opts_help(f, RESCORE_ENGINE_OPTS & ~OPTS_HASH, NULL, 2, 20);
    fprintf(f, "  -q, --quiet       no progress line or summary\n");
}

static int cmd_rescore(int argc, char **argv)
{
    RescoreOptions o;
    memset(&o, 0, sizeof o);
    o.shard = o.shards = 1;
    engine_default_options(&o.eo);
    o.eo.hash_mb = RESCORE_HASH_MB;
    char egdb_dir[CLI_PATH_MAX];
    o.eo.egdb_dir = cli_engine_egdb(egdb_dir, sizeof egdb_dir);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o.threads = cores > 0 ? cores : 1;
    if (o.threads > ENGINE_THREADS_MAX)
        o.threads = ENGINE_THREADS_MAX;
    long lv;
    enum { OPT_NODES = OPTS_LONG, OPT_DEPTH, OPT_THREADS, OPT_SHARD, OPT_OUT, OPT_REUSE };
    const char **reuse = calloc((size_t)argc, sizeof *reuse); /* at most one per argument */
    if (!reuse) {
        fprintf(stderr, "ponder rescore: out of memory\n");
        return 1;
    }
    o.reuse = reuse;
    int status = 2;
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {"nodes", required_argument, NULL, OPT_NODES},
        {"depth", required_argument, NULL, OPT_DEPTH},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"shard", required_argument, NULL, OPT_SHARD},
        {"out", required_argument, NULL, OPT_OUT},
        {"reuse", required_argument, NULL, OPT_REUSE},
        {"quiet", no_argument, NULL, 'q'},
        {0},
    };
    Opts p;
    opts_begin(&p, "ponder rescore", argc, argv, "hq", longopts, RESCORE_ENGINE_OPTS, &o.eo);
    for (int c; (c = opts_next(&p)) != OPTS_END;) {
        switch (c) {
        case 'h':
            usage(stdout);
            status = 0;
            goto end;
        case OPT_NODES:
            if (!cli_long("--nodes", optarg, 1, 1000000000, &lv))
                goto bad;
            o.nodes = (uint64_t)lv;
            break;
        case OPT_DEPTH:
            if (!cli_long("--depth", optarg, 1, MAX_PLY - 1, &lv))
                goto bad;
            o.depth = (int)lv;
            break;
        case OPT_THREADS:
            if (!cli_long("--threads", optarg, ENGINE_THREADS_MIN, ENGINE_THREADS_MAX, &o.threads))
                goto bad;
            break;
        case OPT_SHARD:
            if (!cli_shard("--shard", optarg, &o.shard, &o.shards))
                goto bad;
            break;
        case OPT_OUT: o.out = optarg; break;
        case OPT_REUSE:
            if (o.nreuse == RESCORE_REUSE_MAX) {
                fprintf(stderr, "ponder rescore: more than %d --reuse files\n", RESCORE_REUSE_MAX);
                goto bad;
            }
            reuse[o.nreuse++] = optarg;
            break;
        case 'q': o.quiet = true; break;
        default: goto bad;
        }
    }
    o.in = argv + optind;
    o.nin = argc - optind;
    if (!o.out) {
        fprintf(stderr, "ponder rescore: --out is required\n");
        goto bad;
    }
    if ((o.nodes != 0) == (o.depth != 0)) {
        fprintf(stderr, "ponder rescore: give exactly one of --nodes and --depth\n");
        goto bad;
    }
    if (o.nin == 0) {
        fprintf(stderr, "ponder rescore: no input file (the training-position files to rescore)\n");
        goto bad;
    }
    for (int i = 0; i < o.nin; i++)
        if (strcmp(o.in[i], o.out) == 0) {
            fprintf(stderr, "ponder rescore: %s is both an input and the output\n", o.out);
            goto bad;
        }
    for (int i = 0; i < o.nreuse; i++)
        if (strcmp(o.reuse[i], o.out) == 0) {
            fprintf(stderr, "ponder rescore: %s is both --reuse and the output\n", o.out);
            goto bad;
        }
    status = run(&o);
    goto end;
bad:
    opts_see_help("ponder rescore");
end:
    free(reuse);
    return status;
}

PONDER_COMMAND("rescore", cmd_rescore, 84, "search training positions again for deeper scores")
