/*
 * match_run.c - the part of the referee that `ponder match' and `ponder tournament' share
 * (match_run.h): options, openings, and the runner.
 *
 * The runner starts one worker thread per concurrent game. Each takes the next fixture under a
 * mutex, plays it with referee_play() (which starts and reaps both programs), then, under the
 * mutex again, appends the game to the PDN file (pdn_write_game flushes it) and reports it to the
 * caller, which keeps the score and prints progress. Results arrive in the order games finish.
 *
 * Stopping: a handler for SIGINT, SIGTERM and SIGHUP writes one byte into a pipe that every
 * referee polls along with its program's output, so a game in progress is abandoned at once and
 * its programs killed; the byte is never read, so the pipe stays readable and every worker sees
 * it. The programs run in process groups of their own, so a Ctrl-C at the terminal reaches only
 * the referee, which then ends them itself. SIGPIPE is ignored while the run lasts: a program
 * that goes away makes a write fail instead of killing the referee.
 */
#define _GNU_SOURCE
#include "match_run.h"

#include "cli.h"
#include "egdb.h"
#include "notation.h"
#include "opts.h"
#include "pdn.h"
#include "rng.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { RUN_MAX_CONCURRENCY = 256, RUN_BAR_WIDTH = 24 };

static const char *const CAUSE_TEXT[END_NB] = {
    "no legal move", "repetition",      "40-move rule", "maximum length", "endgame databases",
    "illegal move",  "malformed reply", "time overrun", "exited",         "crashed",
    "closed a pipe",
};

const char *run_cause_text(EndCause c)
{
    return c >= 0 && c < END_NB ? CAUSE_TEXT[c] : "?";
}

const char *run_format_seconds(double seconds, char *buf, size_t size)
{
    if (seconds < 0.001)
        snprintf(buf, size, "%.3f ms", seconds * 1e3);
    else if (seconds < 1.0)
        snprintf(buf, size, "%.1f ms", seconds * 1e3);
    else
        snprintf(buf, size, "%.3f s", seconds);
    return buf;
}

void run_default_options(RunOptions *o, const char *event)
{
    memset(o, 0, sizeof *o);
    o->tc = (TimeControl){.per_move = 1.0};
    o->margin = 0.1;
    o->startup = 1.0;
    o->max_plies = 400;
    o->seed = 1;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->concurrency = cores > 0 ? cores : 1;
    o->event = event;
}

/* Codes of the common options (the commands' own start at RUN_OPT_OWN). */
enum {
    OPT_TIME = OPTS_LONG,
    OPT_MARGIN,
    OPT_STARTUP,
    OPT_MAX_PLIES,
    OPT_OPENINGS,
    OPT_ALL_BALLOTS,
    OPT_PDN,
    OPT_JSON,
    OPT_STDERR,
    OPT_EVENT,
    OPT_SEED,
    OPT_TC,
    OPT_RESUME,
    OPT_ADJUDICATE,
    OPT_ADJUDICATE_PIECES,
    OPT_ADJUDICATE_WINS,
};

static const struct option COMMON_OPTIONS[] = {
    {"help", no_argument, NULL, 'h'},
    {"time", required_argument, NULL, OPT_TIME},
    {"tc", required_argument, NULL, OPT_TC},
    {"margin", required_argument, NULL, OPT_MARGIN},
    {"startup", required_argument, NULL, OPT_STARTUP},
    {"max-plies", required_argument, NULL, OPT_MAX_PLIES},
    {"adjudicate", required_argument, NULL, OPT_ADJUDICATE},
    {"adjudicate-pieces", required_argument, NULL, OPT_ADJUDICATE_PIECES},
    {"adjudicate-wins", required_argument, NULL, OPT_ADJUDICATE_WINS},
    {"concurrency", required_argument, NULL, 'j'},
    {"openings", required_argument, NULL, OPT_OPENINGS},
    {"all-ballots", no_argument, NULL, OPT_ALL_BALLOTS},
    {"pdn", required_argument, NULL, OPT_PDN},
    {"resume", no_argument, NULL, OPT_RESUME},
    {"json", required_argument, NULL, OPT_JSON},
    {"stderr", required_argument, NULL, OPT_STDERR},
    {"event", required_argument, NULL, OPT_EVENT},
    {"seed", required_argument, NULL, OPT_SEED},
    {"quiet", no_argument, NULL, 'q'},
};

/* Reads common option CODE with value V into O. Returns false on a bad value (message printed). */
static bool common_option(RunOptions *o, int code, const char *v)
{
    long n;
    double t;
    char err[ERR_LEN];
    switch (code) {
    case OPT_TIME:
        if (!cli_double("--time", v, 0.001, 86400, &t))
            return false;
        o->tc = (TimeControl){.per_move = t};
        return true;
    case OPT_TC:
        if (!tc_parse(v, &o->tc, err)) {
            fprintf(stderr, "--tc %s: %s\n", v, err);
            return false;
        }
        return true;
    case OPT_MARGIN: return cli_double("--margin", v, 0, 3600, &o->margin);
    case OPT_STARTUP: return cli_double("--startup", v, 0, 3600, &o->startup);
    case OPT_MAX_PLIES: return cli_long("--max-plies", v, 0, GAME_MAX_PLIES - 16, &o->max_plies);
    case OPT_ADJUDICATE: o->adjudicate = v; return true;
    case OPT_ADJUDICATE_PIECES:
        return cli_long("--adjudicate-pieces", v, 2, EGDB_MAX_PIECES, &o->adjudicate_pieces);
    case OPT_ADJUDICATE_WINS: {
        static const char *const words[] = {"any", "ahead"};
        int w;
        if (!cli_word("--adjudicate-wins", v, words, 2, &w))
            return false;
        o->adjudicate_wins = RUN_WINS_ANY + w;
        return true;
    }
    case 'j': return cli_long("--concurrency", v, 1, RUN_MAX_CONCURRENCY, &o->concurrency);
    case OPT_OPENINGS:
        o->openings = strcmp(v, "ballots") == 0 ? NULL : v;
        o->openings_given = true;
        return true;
    case OPT_ALL_BALLOTS: o->all_ballots = true; return true;
    case OPT_PDN: o->pdn = v; return true;
    case OPT_RESUME: o->resume = true; return true;
    case OPT_JSON: o->json = v; return true;
    case OPT_STDERR: o->stderr_path = v; return true;
    case OPT_EVENT: o->event = v; return true;
    case OPT_SEED:
        if (!cli_long("--seed", v, 0, 0x7fffffffL, &n))
            return false;
        o->seed = (unsigned long)n;
        o->seed_given = true;
        return true;
    default: /* 'q' */ o->quiet = true; return true;
    }
}

EgdbSet *run_open_databases(const RunOptions *o, int *pieces, char *err)
{
    char why[ERR_LEN];
    EgdbSet *set = egdb_open(o->adjudicate, why);
    if (!set) {
        snprintf(err, ERR_LEN, "--adjudicate: %.140s", why);
        return NULL;
    }
    int complete = egdb_complete_pieces(set);
    if (complete < 2 || o->adjudicate_pieces > complete) {
        if (complete < 2)
            snprintf(err, ERR_LEN,
                     "--adjudicate %.80s: a 2-piece slice is missing (`ponder egdb build "
                     "--pieces N')",
                     o->adjudicate);
        else
            snprintf(err, ERR_LEN,
                     "--adjudicate-pieces %ld: %.60s holds every slice only up to %d pieces",
                     o->adjudicate_pieces, o->adjudicate, complete);
        egdb_close(set);
        return NULL;
    }
    if (pieces)
        *pieces = o->adjudicate_pieces ? (int)o->adjudicate_pieces : complete;
    return set;
}

int run_parse_args(RunOptions *o, int argc, char **argv, const RunCommand *cmd)
{
    enum { NCOMMON = sizeof COMMON_OPTIONS / sizeof COMMON_OPTIONS[0] };
    struct option all[OPTS_MAX];
    int n = 0;
    for (; n < NCOMMON; n++)
        all[n] = COMMON_OPTIONS[n];
    for (const struct option *own = cmd->longopts; own && own->name && n < OPTS_MAX - 1; own++)
        all[n++] = *own;
    all[n] = (struct option){0};
    Opts p;
    opts_begin(&p, cmd->prog, argc, argv, "hj:q", all, 0, NULL);
    for (int c; (c = opts_next(&p)) != OPTS_END;) {
        if (c == 'h') {
            cmd->usage(stdout);
            return 0;
        }
        bool ok = c != OPTS_BAD && (c >= RUN_OPT_OWN ? cmd->option(cmd->ctx, c, optarg)
                                                     : common_option(o, c, optarg));
        if (!ok) {
            opts_see_help(cmd->prog);
            return 2;
        }
    }
    for (; optind < argc; optind++)
        if (!cmd->argument(cmd->ctx, argv[optind])) {
            opts_see_help(cmd->prog);
            return 2;
        }
    if ((o->adjudicate_pieces || o->adjudicate_wins) && !o->adjudicate) {
        fprintf(stderr, "%s: %s limits --adjudicate DIR: give the databases\n", cmd->prog,
                o->adjudicate_pieces ? "--adjudicate-pieces" : "--adjudicate-wins");
        opts_see_help(cmd->prog);
        return 2;
    }
    if (o->adjudicate) { /* a directory that will not do is a bad argument: say so now */
        char err[ERR_LEN];
        EgdbSet *set = run_open_databases(o, NULL, err);
        if (!set) {
            fprintf(stderr, "%s: %s\n", cmd->prog, err);
            opts_see_help(cmd->prog);
            return 2;
        }
        egdb_close(set);
    }
    if (o->resume && !o->pdn) {
        fprintf(stderr, "%s: --resume goes on from the games in the --pdn FILE: give one\n",
                cmd->prog);
        opts_see_help(cmd->prog);
        return 2;
    }
    return -1;
}

void run_usage_options(FILE *f)
{
    fprintf(f,
            "  --time S          seconds per move (default 1); {time} in a command becomes S\n"
            "  --tc TC           time control as cutechess-cli writes it: 40/60 (40 moves in\n"
            "                    60 s, repeating), 60+0.5 (60 s plus 0.5 s a move), 0.1 (per\n"
            "                    move, as --time); a clock per side, loss when it runs out;\n"
            "                    {tc} in a command becomes TC (ponder player --tc {tc})\n"
            "  --margin S        grace on top of every move before it counts as overrun\n"
            "                    (default 0.1)\n"
            "  --startup S       extra time for each program's first move (default 1)\n"
            "  --openings FILE   start positions from a PDN or FEN file; `ballots' (the\n"
            "                    default): the 156 three-move ballots in use\n"
            "  --all-ballots     all 174 ballots, including the 18 barred ones\n"
            "  --max-plies N     adjudicate a draw after N plies of play (default 400, 0: none)\n"
            "  --adjudicate DIR  end a game as the endgame databases in DIR say once it has\n"
            "                    few enough pieces (`ponder egdb build' makes them; the\n"
            "                    programs still play without them unless told otherwise)\n"
            "  --adjudicate-pieces N  only at N pieces or fewer (default: every slice DIR\n"
            "                    holds complete)\n"
            "  --adjudicate-wins ahead  end a game the databases call won only once the\n"
            "                    winner is ahead in pieces: a win on even pieces is played on\n"
            "                    until converted or spoilt (default `any': every win at once)\n"
            "  -j, --concurrency N  games at once (default: the number of cores)\n"
            "  --pdn FILE        append every finished game to FILE (flushed at once)\n"
            "  --resume          go on where a run with the same options stopped: the games\n"
            "                    already in the --pdn FILE count, the others are played\n"
            "  --json FILE       write the results as JSON to FILE\n"
            "  --seed N          shuffle the openings with seed N; {seed} in a command becomes a\n"
            "                    per-game number 0-2147483647 derived from N (default 1;\n"
            "                    without --seed the openings are played in order)\n"
            "  --stderr FILE     append the programs' stderr to FILE (default: discarded)\n"
            "  --event NAME      the PDN Event tag\n"
            "  -q, --quiet       no progress output, only the final results\n"
            "Each command is a shell command line started for every game. `{fen}' in it is\n"
            "replaced by the game's start position (e.g. 'ponder player --fen {fen}'); a\n"
            "command without {fen} plays from the standard start, so when no command has it\n"
            "every game starts there (colours still alternate). A command whose first word\n"
            "is `ponder' runs this program when no `ponder' is on $PATH. A command that\n"
            "cannot start (exit status 126 or 127) stops the run at once (exit status 1).\n");
}

int run_openings(const RunOptions *o, const Entrant *e, int n, Opening **out, char *err)
{
    int with = 0;
    for (int i = 0; i < n; i++)
        with += referee_has(e[i].command, "{fen}");
    *out = NULL;
    if (with > 0 && with < n) {
        for (int i = 0; i < n; i++)
            if (!referee_has(e[i].command, "{fen}")) {
                snprintf(err, ERR_LEN,
                         "`%.40s' has no {fen} in its command, so it would play from the "
                         "standard start while the others play the openings",
                         e[i].name);
                return -1;
            }
    }
    if (with == 0) {
        if (o->openings_given || o->all_ballots) {
            snprintf(err, ERR_LEN,
                     "openings were asked for, but no command has {fen} to "
                     "receive them (e.g. 'ponder player --fen {fen}')");
            return -1;
        }
        if (!o->quiet)
            fprintf(stderr, "ponder: note: no command has {fen}: every game starts from the "
                            "standard position\n");
        return 0;
    }
    Opening *list;
    int count = o->openings ? openings_load(o->openings, &list, err)
                            : openings_ballots(o->all_ballots, &list, err);
    if (count < 0)
        return -1;
    if (o->seed_given) {
        uint64_t s = rng_mix64(o->seed);
        for (int i = count - 1; i > 0; i--) {
            s = rng_mix64(s);
            int j = (int)(s % (uint64_t)(i + 1));
            Opening t = list[i];
            list[i] = list[j];
            list[j] = t;
        }
    }
    *out = list;
    return count;
}

/* ---- the runner ---- */

static int stop_pipe[2] = {-1, -1}; /* [0] polled by referees, [1] written on a signal */
static atomic_int stop_signal;      /* the signal that stopped the run, 0 if none */
static double run_started;          /* util_now() when run_games began, for the bar */

static void on_signal(int sig)
{
    int saved = errno;
    if (!stop_signal)
        stop_signal = sig;
    if (stop_pipe[1] >= 0) {
        ssize_t w = write(stop_pipe[1], "x", 1);
        (void)w;
    }
    errno = saved;
}

typedef struct {
    const RunOptions *opt;   /* the run's options */
    const Entrant *entrants; /* the programs */
    const Fixture *fixtures; /* the games to play, in order */
    int nfixtures;           /* how many */
    const Opening *openings; /* the start positions fixtures refer to */
    const bool *done;        /* fixtures read back by --resume, not to play (or NULL) */
    RunGameFn on_game;       /* the caller's report of each finished game */
    void *ctx;               /* its context */
    FILE *pdn;               /* the PDN file, or NULL */
    const EgdbSet *egdb;     /* the databases of --adjudicate, or NULL */
    int egdb_pieces;         /* the most pieces they adjudicate */
    int stderr_fd;           /* the programs' stderr, or -1 */
    pthread_mutex_t lock;    /* guards everything below and the calls out */
    int next;                /* the next fixture to start */
    bool no_more;            /* start no more games (caller, failure or signal) */
    bool failed;             /* a failure ended the run */
    char err[ERR_LEN];       /* what failed */
} Runner;

static void set_pdn_tag(PdnTag *t, const char *name, const char *value)
{
    snprintf(t->name, sizeof t->name, "%.*s", (int)sizeof t->name - 1, name);
    snprintf(t->value, sizeof t->value, "%.*s", (int)sizeof t->value - 1, value);
}

/* Appends the game to the PDN file. Called under the lock. */
static bool write_pdn(Runner *run, const Fixture *f, const RefereeResult *r, const Game *g)
{
    PdnTag tags[12];
    int n = 0;
    char date[32], number[16], tc[TC_TEXT_LEN], clock[COLOR_NB][32];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    snprintf(number, sizeof number, "%d", f->number);
    tc_format_pdn(&run->opt->tc, tc, sizeof tc);
    set_pdn_tag(&tags[n++], "Event", run->opt->event);
    set_pdn_tag(&tags[n++], "Date", date);
    set_pdn_tag(&tags[n++], "Round", number);
    set_pdn_tag(&tags[n++], "Black", run->entrants[f->black].name);
    set_pdn_tag(&tags[n++], "White", run->entrants[f->white].name);
    if (f->opening >= 0)
        set_pdn_tag(&tags[n++], "Opening", run->openings[f->opening].name);
    set_pdn_tag(&tags[n++], "TimeControl", tc);
    if (tc_is_clock(&run->opt->tc)) { /* the clocks at the end, as the referee kept them */
        for (int c = 0; c < COLOR_NB; c++)
            snprintf(clock[c], sizeof clock[c], "%.3f", r->clock[c]);
        set_pdn_tag(&tags[n++], "BlackClock", clock[BLACK]);
        set_pdn_tag(&tags[n++], "WhiteClock", clock[WHITE]);
    }
    set_pdn_tag(&tags[n++], "Termination", referee_cause_key(r->cause));
    set_pdn_tag(&tags[n++], "TerminationDetails", r->detail);
    const char *result = r->winner == BLACK ? "1-0" : r->winner == WHITE ? "0-1" : "1/2-1/2";
    return pdn_write_game(run->pdn, g, tags, n, result);
}

static void *worker(void *arg)
{
    Runner *run = arg;
    Game *g = malloc(sizeof *g);
    if (!g) {
        pthread_mutex_lock(&run->lock);
        if (!run->failed)
            snprintf(run->err, sizeof run->err, "out of memory");
        run->failed = run->no_more = true;
        pthread_mutex_unlock(&run->lock);
        return NULL;
    }
    for (;;) {
        pthread_mutex_lock(&run->lock);
        while (run->done && run->next < run->nfixtures && run->done[run->next])
            run->next++;
        if (run->no_more || stop_signal || run->next >= run->nfixtures) {
            pthread_mutex_unlock(&run->lock);
            break;
        }
        const Fixture *f = &run->fixtures[run->next++];
        pthread_mutex_unlock(&run->lock);

        RefereeSetup s;
        memset(&s, 0, sizeof s);
        s.command[BLACK] = run->entrants[f->black].command;
        s.command[WHITE] = run->entrants[f->white].command;
        s.opening = f->opening >= 0 ? &run->openings[f->opening] : NULL;
        s.tc = run->opt->tc;
        s.margin = run->opt->margin;
        s.startup = run->opt->startup;
        s.max_plies = (int)run->opt->max_plies;
        s.egdb = run->egdb;
        s.egdb_pieces = run->egdb_pieces;
        s.egdb_wins_ahead = run->opt->adjudicate_wins == RUN_WINS_AHEAD;
        s.stderr_fd = run->stderr_fd;
        s.stop_fd = stop_pipe[0];
        s.seed = rng_mix64(run->opt->seed * 0x100000001B3ull + (uint64_t)f->number) & 0x7fffffff;
        RefereeResult r;
        char err[ERR_LEN];
        RefereeStatus st = referee_play(&s, g, &r, err);

        pthread_mutex_lock(&run->lock);
        if (st == REFEREE_DONE) {
            if (run->pdn && !write_pdn(run, f, &r, g) && !run->failed) {
                snprintf(run->err, sizeof run->err, "cannot write to %s: %s", run->opt->pdn,
                         strerror(errno));
                run->failed = run->no_more = true;
            }
            if (!run->on_game(run->ctx, f, &r, g))
                run->no_more = true;
        } else if (st == REFEREE_FAILED) {
            if (!run->failed)
                snprintf(run->err, sizeof run->err, "game %d: %.120s", f->number, err);
            run->failed = run->no_more = true;
        }
        bool stop_all = run->failed;
        pthread_mutex_unlock(&run->lock);
        if (stop_all && stop_pipe[1] >= 0) { /* abandon the other games too */
            ssize_t w = write(stop_pipe[1], "x", 1);
            (void)w;
        }
    }
    free(g);
    return NULL;
}

static RunStatus run_all(const RunOptions *o, const Entrant *e, const Fixture *fixtures, int n,
                         const Opening *openings, RunGameFn on_game, void *ctx, int *signal_number,
                         char *err, const EgdbSet *egdb, int egdb_pieces)
{
    Runner run;
    memset(&run, 0, sizeof run);
    run.opt = o;
    run.egdb = egdb;
    run.egdb_pieces = egdb_pieces;
    run.entrants = e;
    run.fixtures = fixtures;
    run.nfixtures = n;
    run.openings = openings;
    run.on_game = on_game;
    run.ctx = ctx;
    run.stderr_fd = -1;
    *signal_number = 0;
    run_started = util_now();

    /* 1. Files: the games already played (--resume), the PDN (appended) and the programs'
     * stderr. */
    bool *done = NULL;
    if (o->resume) {
        done = calloc(n > 0 ? (size_t)n : 1, sizeof *done);
        if (!done) {
            snprintf(err, ERR_LEN, "out of memory");
            return RUN_FAILED;
        }
        bool stop = false;
        int back = run_read_back(o, e, fixtures, n, openings, done, on_game, ctx, &stop, err);
        if (back < 0) {
            free(done);
            return RUN_FAILED;
        }
        if (!o->quiet && back > 0)
            printf("Resuming: %d of %d games read back from %s%s\n", back, n, o->pdn,
                   stop ? "; its stopping rule was met already" : "");
        run.done = done;
        run.no_more = stop;
    }
    if (o->pdn && !(run.pdn = fopen(o->pdn, "ae"))) {
        snprintf(err, ERR_LEN, "cannot open %s: %s", o->pdn, strerror(errno));
        free(done);
        return RUN_FAILED;
    }
    if (o->stderr_path) {
        run.stderr_fd = open(o->stderr_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (run.stderr_fd < 0) {
            snprintf(err, ERR_LEN, "cannot open %s: %s", o->stderr_path, strerror(errno));
            if (run.pdn)
                fclose(run.pdn);
            free(done);
            return RUN_FAILED;
        }
    }

    /* 2. Signals. */
    if (pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        snprintf(err, ERR_LEN, "cannot create a pipe: %s", strerror(errno));
        stop_pipe[0] = stop_pipe[1] = -1;
        if (run.pdn)
            fclose(run.pdn);
        if (run.stderr_fd >= 0)
            close(run.stderr_fd);
        free(done);
        return RUN_FAILED;
    }
    stop_signal = 0;
    /* SIGINT and SIGHUP stay ignored when they were on entry (a background job of a script,
     * nohup); SIGTERM always stops the run. */
    struct sigaction sa, old_int, old_term, old_hup, old_pipe;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, NULL, &old_int);
    sigaction(SIGHUP, NULL, &old_hup);
    if (old_int.sa_handler != SIG_IGN)
        sigaction(SIGINT, &sa, NULL);
    if (old_hup.sa_handler != SIG_IGN)
        sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGTERM, &sa, &old_term);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, &old_pipe);

    /* 3. The workers. */
    pthread_mutex_init(&run.lock, NULL);
    int nthreads = (int)(o->concurrency < n ? o->concurrency : n);
    pthread_t threads[RUN_MAX_CONCURRENCY];
    int started = 0;
    for (; started < nthreads; started++)
        if (pthread_create(&threads[started], NULL, worker, &run) != 0)
            break;
    if (started == 0 && n > 0) {
        snprintf(run.err, sizeof run.err, "cannot start a thread");
        run.failed = true;
    }
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    pthread_mutex_destroy(&run.lock);
    free(done);

    /* 4. Put everything back. */
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    sigaction(SIGPIPE, &old_pipe, NULL);
    close(stop_pipe[0]);
    close(stop_pipe[1]);
    stop_pipe[0] = stop_pipe[1] = -1;
    if (run.pdn && fclose(run.pdn) != 0 && !run.failed) {
        snprintf(run.err, sizeof run.err, "cannot write to %s: %s", o->pdn, strerror(errno));
        run.failed = true;
    }
    if (run.stderr_fd >= 0)
        close(run.stderr_fd);
    if (run.failed) {
        snprintf(err, ERR_LEN, "%s", run.err);
        return RUN_FAILED;
    }
    if (stop_signal) {
        *signal_number = stop_signal;
        return RUN_INTERRUPTED;
    }
    return RUN_COMPLETE;
}

RunStatus run_games(const RunOptions *o, const Entrant *e, const Fixture *fixtures, int n,
                    const Opening *openings, RunGameFn on_game, void *ctx, int *signal_number,
                    char *err)
{
    EgdbSet *egdb = NULL;
    int pieces = 0;
    if (o->adjudicate) {
        if (!(egdb = run_open_databases(o, &pieces, err))) {
            *signal_number = 0;
            return RUN_FAILED;
        }
        if (egdb_warnings(egdb)[0])
            fprintf(stderr, "warning: --adjudicate %s: %s\n", o->adjudicate, egdb_warnings(egdb));
        if (!o->quiet)
            printf("Adjudication: a game ends as the endgame databases in %s say once it has %d "
                   "pieces or fewer%s\n",
                   o->adjudicate, pieces,
                   o->adjudicate_wins == RUN_WINS_AHEAD
                       ? " (a win once the winner is ahead in pieces)"
                       : "");
    }
    RunStatus st =
        run_all(o, e, fixtures, n, openings, on_game, ctx, signal_number, err, egdb, pieces);
    egdb_close(egdb);
    return st;
}

/* ---- output helpers ---- */

void run_json_string(FILE *f, const char *text)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '\t')
            fputs("\\t", f);
        else if (*p < 32)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

void run_json_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.6g", v + 0.0); /* + 0.0: no "-0" */
    else
        fputs("null", f);
}

static bool bar_drawn;

/* Seconds as "m:ss" or "h:mm:ss". */
static void format_duration(double seconds, char *buf, size_t size)
{
    long s = seconds > 0 ? (long)(seconds + 0.5) : 0;
    if (s >= 3600)
        snprintf(buf, size, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(buf, size, "%ld:%02ld", s / 60, s % 60);
}

bool run_progress_is_tty(void)
{
    return isatty(STDOUT_FILENO) && getenv("TERM") && strcmp(getenv("TERM"), "dumb") != 0;
}

void run_progress_bar(int done, int total, const char *text)
{
    char bar[RUN_BAR_WIDTH + 1];
    int filled = total > 0 ? (int)((long)done * RUN_BAR_WIDTH / total) : 0;
    for (int i = 0; i < RUN_BAR_WIDTH; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[RUN_BAR_WIDTH] = '\0';
    double elapsed = util_now() - run_started;
    char spent[32], left[32];
    format_duration(elapsed, spent, sizeof spent);
    format_duration(done > 0 ? elapsed / done * (total - done) : 0, left, sizeof left);
    printf("\r[%s] %d/%d %s (%s left) %s\033[K", bar, done, total, spent, left, text);
    fflush(stdout);
    bar_drawn = true;
}

void run_progress_end(void)
{
    if (bar_drawn) {
        printf("\n");
        fflush(stdout);
        bar_drawn = false;
    }
}
