/*
 * hub.c - `ponder hub': the Hub protocol, version 2, as Scan 3.1 defines it (rhalbersma/scan,
 * protocol.txt), in the English-checkers dialect of pydraughts, the client that exists
 * (AttackingOrDefending/pydraughts, draughts/engines/hub.py). docs/hub.md has the mapping.
 *
 * Every line is `COMMAND ARG=VALUE ARG="VALUE WITH BLANKS" FLAG ...'. Commands and arguments the
 * engine does not know are ignored, as the protocol asks; a known command with a bad argument
 * (an unreadable position, an illegal move, a number out of range) is answered with
 * `error message="..."' and changes nothing. End of input quits like `quit'.
 *
 * pydraughts holds English checkers with the colours swapped and the board turned round: its
 * square s is square 33 - s of the standard numbering, its White (`W', `w') is the side that
 * moves first (Black in the standard rules), and a position is the side letter plus one character
 * per square in its numbering (33 characters). Moves are Hub moves in that numbering: `a-b', or
 * `axb' followed by `xc' for every piece taken (pydraughts lists them in ascending order; any
 * order is read). `pos ... moves="..."' carries the whole game, so repetitions count.
 *
 * A search is an engine job (engine_start): it runs on the engine's thread and prints `info' and
 * `done' from there, while this thread keeps reading, so `ping', `stop' and `ponder-hit' work
 * during a search; stop and ponder-hit name the job (engine_stop, engine_ponderhit), so neither
 * is lost nor reaches the next search. `go ponder' is one job from start to end: ponder-hit
 * turns it into a timed search, its clock counted from the hit. `level time= inc= moves=' goes
 * to the engine as a clock (SearchLimits.clock, inc, moves_to_go), which timeman shares out.
 * Every call into the engine facade is in the hub_engine_* functions. Output from both threads
 * goes through hub_say(), one whole line at a time.
 */
#include "cli.h"
#include "command.h"
#include "engine.h"
#include "game.h"
#include "notation.h"
#include "opts.h"
#include "util.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    HUB_LINE_MAX = 1 << 16, /* longest input line (a long game's moves) */
    HUB_ARGS_MAX = 32,      /* arguments read per line; the rest are ignored */
};

typedef struct {
    const char *name;  /* the argument's name */
    const char *value; /* its value ("" for a flag) */
} HubArg;

typedef struct {
    const char *command; /* the first word */
    int count;           /* arguments in args */
    HubArg args[HUB_ARGS_MAX];
} HubLine;

typedef enum { MODE_THINK, MODE_PONDER, MODE_ANALYZE } HubMode;

/* The `level' command: what limits the next searches. */
typedef struct {
    int depth;        /* depth= (0: none) */
    uint64_t nodes;   /* nodes= (0: none) */
    double move_time; /* move-time= (0: none) */
    double time, inc; /* time= and inc=, with has_clock */
    int moves;        /* moves= (0: to the end of the game) */
    bool has_clock;   /* time= was given */
    bool infinite;    /* infinite */
} HubLevel;

typedef struct {
    Engine *engine;             /* made by init (or the first search), dropped by set-param */
    EngineOptions opt;          /* the parameters */
    char egdb[ENGINE_PATH_MAX]; /* egdb-path ("" none), as long as the engine takes */
    const char *book_file;      /* the book the environment names (cli_engine_book), or NULL for
                                   the built-in one; book=false turns either off */
    bool has_pos;               /* whether game holds a position */
    Game game;                  /* the position to search, with its history */
    HubLevel level;
    /* The search, while one runs. */
    EngineJob job;  /* the engine's job for it */
    bool searching; /* a job was started and not waited for */
    HubMode mode;
    SearchLimits limits;  /* its limits (ponder and infinite as they stand now) */
    atomic_bool finished; /* the search thread has printed `done' */
    atomic_bool quitting; /* quit came: the search ends without a word */
} Hub;

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

/* Prints one line to stdout, whole, and flushes it. */
__attribute__((format(printf, 1, 2))) static void hub_say(const char *fmt, ...)
{
    char line[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&out_lock);
    fputs(line, stdout);
    fputc('\n', stdout);
    fflush(stdout);
    pthread_mutex_unlock(&out_lock);
}

/* `error message="..."': the message may not hold a double quote. */
__attribute__((format(printf, 1, 2))) static void hub_error(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (char *p = msg; *p; p++)
        if (*p == '"' || *p == '\n' || *p == '\r')
            *p = '\'';
    hub_say("error message=\"%s\"", msg);
}

/* ---- Lines ---------------------------------------------------------------------------------- */

/* Splits LINE (modified in place) into a command and its arguments. Returns false with the
 * reason in ERR for an unterminated quote. A line of blanks has command "". */
static bool hub_parse_line(char *line, HubLine *out, char *err, size_t size)
{
    char *p = line;
    memset(out, 0, sizeof *out);
    out->command = "";
    bool first = true;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            p++;
        if (!*p)
            break;
        char *start = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '=' && *p != '\r' && *p != '\n')
            p++;
        char *name_end = p;
        const char *value = "";
        if (*p == '=') {
            p++;
            if (*p == '"') {
                char *q = strchr(p + 1, '"');
                if (!q) {
                    snprintf(err, size, "unterminated quote after `%.*s='",
                             (int)(name_end - start) > 40 ? 40 : (int)(name_end - start), start);
                    return false;
                }
                value = p + 1;
                *q = '\0';
                p = q + 1;
            } else {
                value = p;
                while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
                    p++;
                if (*p)
                    *p++ = '\0';
            }
        } else if (*p) {
            *p++ = '\0';
        }
        *name_end = '\0';
        if (first) {
            out->command = start;
            first = false;
        } else if (out->count < HUB_ARGS_MAX) {
            out->args[out->count].name = start;
            out->args[out->count].value = value;
            out->count++;
        }
    }
    return true;
}

/* The value of argument NAME, or NULL when the line has none. */
static const char *hub_arg(const HubLine *l, const char *name)
{
    for (int i = 0; i < l->count; i++)
        if (strcmp(l->args[i].name, name) == 0)
            return l->args[i].value;
    return NULL;
}

/* Reads argument NAME's TEXT as a real number from MIN to MAX into *OUT; false after an error
 * line. */
static bool hub_number(const char *name, const char *text, double min, double max, double *out)
{
    char msg[ERR_LEN];
    if (!util_parse_double(text, min, max, out, msg, sizeof msg)) {
        hub_error("%s: %s", name, msg);
        return false;
    }
    return true;
}

/* The same for a whole number: the digits alone (util_parse_whole). */
static bool hub_whole(const char *name, const char *text, long min, long max, long *out)
{
    char msg[ERR_LEN];
    if (!util_parse_whole(text, min, max, out, msg, sizeof msg)) {
        hub_error("%s: %s", name, msg);
        return false;
    }
    return true;
}

/* Reads argument NAME's TEXT as the engine option OPTION (engine_option_parse: its limits, its
 * checks) into *OUT (a whole number's value; may be NULL); false after an error line. */
static bool hub_option(const char *name, const char *option, const char *text, long *out)
{
    char msg[ERR_LEN];
    if (!engine_option_parse(option, text, out, msg)) {
        hub_error("%s: %s", name, msg);
        return false;
    }
    return true;
}

/* ---- Squares, positions and moves in pydraughts' numbering ----------------------------------- */

/* Square index (0-31) of pydraughts' square S (1-32), and back: s -> 33 - s. */
static int hub_index(int s)
{
    return 32 - s;
}
static int hub_square(int index)
{
    return 32 - index;
}

/* Reads `pos=' (side letter + 32 squares). Returns false with the reason in ERR. */
static bool hub_read_pos(const char *text, Board *b, char *err, size_t size)
{
    size_t n = strlen(text);
    if (n != 33) {
        snprintf(err, size, "pos has %zu characters, expected 33 (side to move and 32 squares)", n);
        return false;
    }
    if (text[0] != 'W' && text[0] != 'B') {
        snprintf(err, size, "pos: side to move `%c' is neither W nor B", text[0]);
        return false;
    }
    board_clear(b, text[0] == 'W' ? BLACK : WHITE);
    for (int s = 1; s <= 32; s++) {
        char c = text[s];
        int sq = hub_index(s);
        switch (c) {
        case 'e': break;
        case 'w': board_set(b, sq, BLACK, false); break;
        case 'W': board_set(b, sq, BLACK, true); break;
        case 'b': board_set(b, sq, WHITE, false); break;
        case 'B': board_set(b, sq, WHITE, true); break;
        default:
            snprintf(err, size, "pos: `%c' on square %d is none of w b W B e", c, s);
            return false;
        }
    }
    if (!board_valid(b, err))
        return false;
    /* A man on its crowning row: refused as every program refuses it (board_reachable), its
     * square and colour named in the standard numbering. */
    char why[ERR_LEN];
    if (!board_reachable(b, why)) {
        snprintf(err, size, "pos, in the standard numbering: %s", why);
        return false;
    }
    return true;
}

/* Writes M as a Hub move: `a-b', or `axb' then `xc' per piece taken, ascending. */
static void hub_format_move(const Move *m, char *buf, size_t size)
{
    if (!move_is_capture(m)) {
        snprintf(buf, size, "%d-%d", hub_square(m->from), hub_square(m->to));
        return;
    }
    int n = snprintf(buf, size, "%dx%d", hub_square(m->from), hub_square(m->to));
    for (int s = 1; s <= 32 && n > 0 && (size_t)n < size; s++)
        if ((m->captured >> hub_index(s)) & 1)
            n += snprintf(buf + n, size - (size_t)n, "x%d", s);
}

/* Resolves the Hub move TEXT to a legal move of B. Returns false with the reason in ERR. */
static bool hub_read_move(const Board *b, const char *text, Move *out, char *err, size_t size)
{
    int squares[MAX_JUMPS + 2], n = 0;
    bool capture = strchr(text, 'x') != NULL;
    const char *p = text;
    char sep = capture ? 'x' : '-';
    while (*p) {
        char *end;
        long s = strtol(p, &end, 10);
        if (end == p || s < 1 || s > 32 || n == MAX_JUMPS + 2 || (*end && *end != sep)) {
            snprintf(err, size, "move `%.40s': expected squares 1-32 joined by `-' or `x'", text);
            return false;
        }
        squares[n++] = (int)s;
        p = *end ? end + 1 : end;
        if (*end && !*p) {
            snprintf(err, size, "move `%.40s' ends with `%c'", text, sep);
            return false;
        }
    }
    if (n < 2 || (!capture && n != 2)) {
        snprintf(err, size, "move `%.40s': expected FROM-TO or FROMxTOxTAKEN...", text);
        return false;
    }
    Bitboard taken = 0;
    for (int i = 2; i < n; i++)
        taken |= 1u << hub_index(squares[i]);
    MoveList list;
    movegen_generate(b, &RULES_ENGLISH, false, &list);
    int found = -1, matches = 0;
    for (int i = 0; i < list.count; i++) {
        const Move *m = &list.moves[i];
        if (m->from != hub_index(squares[0]) || m->to != hub_index(squares[1]) ||
            move_is_capture(m) != capture || (n > 2 && m->captured != taken))
            continue;
        if (found < 0 || m->captured != list.moves[found].captured)
            matches++;
        if (found < 0)
            found = i;
    }
    if (matches == 0) {
        snprintf(err, size, "move `%.40s' is not legal here", text);
        return false;
    }
    if (matches > 1) {
        snprintf(err, size, "move `%.40s' is ambiguous: name the pieces it takes", text);
        return false;
    }
    *out = list.moves[found];
    return true;
}

/* ---- Calls into the engine facade ------------------------------------------------------------ */

/* The engine, made with the current parameters if there is none; NULL after an error line. */
static Engine *hub_engine_get(Hub *h)
{
    if (h->engine)
        return h->engine;
    char err[ERR_LEN];
    h->opt.egdb_dir = h->egdb[0] ? h->egdb : NULL;
    h->engine = engine_new(&h->opt, err);
    if (!h->engine)
        hub_error("cannot start the engine: %s", err);
    return h->engine;
}

static void hub_engine_drop(Hub *h)
{
    engine_free(h->engine);
    h->engine = NULL;
}

static void hub_on_iteration(const SearchInfo *info, void *ctx)
{
    Hub *h = ctx;
    if (atomic_load(&h->quitting))
        return;
    char score[32], pv[4096] = "";
    if (score_is_decisive(info->score)) {
        /* pydraughts reads |score| above 90 men as a win in (100 - |score|) * 100 plies. */
        int plies = score_plies_to_end(info->score);
        snprintf(score, sizeof score, "%.2f", (info->score > 0 ? 1 : -1) * (100 - plies / 100.0));
    } else {
        snprintf(score, sizeof score, "%.2f", info->score / (double)SCORE_MAN);
    }
    size_t used = 0;
    for (int i = 0; i < info->pv_len && used + 64 < sizeof pv; i++) {
        if (i)
            pv[used++] = ' ';
        hub_format_move(&info->pv[i], pv + used, sizeof pv - used);
        used += strlen(pv + used);
    }
    hub_say("info depth=%d mean-depth=%.1f score=%s nodes=%llu time=%.3f nps=%.2f pv=\"%s\"",
            info->depth, info->mean_depth, score, (unsigned long long)info->nodes, info->time,
            info->time > 0 ? info->nodes / info->time / 1e6 : 0.0, pv);
}

/* The end of a job, on the search thread: `done' (or why there is no move). The job is waited
 * for later, by the reading thread (hub_join). */
static void hub_on_done(EngineJob job, const SearchResult *r, void *ctx)
{
    (void)job;
    Hub *h = ctx;
    char best[128], ponder[128];
    if (atomic_load(&h->quitting)) {
        /* quit or end of input: nothing more is said */
    } else if (!r->has_move) {
        hub_error("no legal move in this position");
    } else {
        hub_format_move(&r->best, best, sizeof best);
        if (r->has_ponder) {
            hub_format_move(&r->ponder, ponder, sizeof ponder);
            hub_say("done move=%s ponder=%s", best, ponder);
        } else {
            hub_say("done move=%s", best);
        }
    }
    atomic_store(&h->finished, true);
}

/* Waits for the search (if any) to end. */
static void hub_join(Hub *h)
{
    if (!h->searching)
        return;
    SearchResult r;
    engine_wait(h->engine, h->job, &r);
    h->searching = false;
}

/* Ends the search (if any) and waits for it: the stop names the job, so it is never lost, even
 * when it comes before the search has begun. */
static void hub_engine_stop(Hub *h)
{
    if (!h->searching)
        return;
    engine_stop(h->engine, h->job);
    hub_join(h);
}

static void hub_engine_go(Hub *h, HubMode mode)
{
    SearchLimits lim = {0};
    const HubLevel *lv = &h->level;
    lim.depth = lv->depth;
    lim.nodes = lv->nodes;
    /* No limit at all is an endless search too: commands for after it are then refused (with
     * `error') instead of waiting for an end that never comes. */
    if (lv->infinite || (!lv->depth && !lv->nodes && !lv->move_time && !lv->has_clock))
        lim.infinite = true;
    else if (lv->move_time > 0)
        lim.time = lv->move_time;
    else if (lv->has_clock) {
        /* Hub adds the increment before every move (Scan's protocol.txt), so it is on the clock
         * already for this one; timeman shares the clock out over the moves to go. */
        lim.clock = lv->time + lv->inc;
        if (lim.clock < 0.001)
            lim.clock = 0.001; /* an empty clock: the least time, not "no clock" */
        lim.inc = lv->inc;
        lim.moves_to_go = lv->moves;
    }
    /* Pondering: the limits count from ponder-hit (engine_ponderhit); until then it searches. */
    lim.ponder = mode == MODE_PONDER;
    lim.analysis = mode == MODE_ANALYZE; /* a value to show: a draw is 0, no contempt */
    h->limits = lim;
    h->mode = mode;
    atomic_store(&h->finished, false);
    char err[ERR_LEN];
    h->job = engine_start(h->engine, &h->game, &lim, hub_on_iteration, hub_on_done, h, err);
    if (h->job == 0) {
        hub_error("cannot start the search: %s", err);
        return;
    }
    h->searching = true;
}

/* ---- Commands -------------------------------------------------------------------------------- */

static void hub_hello(const Hub *h)
{
    /* The engine's limits (engine.h, through its options table). */
    const EngineOptionInfo *hash = engine_option_info("hash");
    const EngineOptionInfo *threads = engine_option_info("threads");
    const EngineOptionInfo *variety = engine_option_info("book-variety");
    const EngineOptionInfo *contempt = engine_option_info("contempt");
    hub_say("id name=Ponder version=" PONDER_VERSION " author=\"the Ponder authors\" country=\"\"");
    hub_say("param name=variant value=english type=enum values=\"english\"");
    hub_say("param name=hash value=%zu type=int min=%ld max=%ld", h->opt.hash_mb, hash->min,
            hash->max);
    hub_say("param name=threads value=%d type=int min=%ld max=%ld", h->opt.threads, threads->min,
            threads->max);
    hub_say("param name=egdb-path value=\"%s\" type=string", h->egdb);
    hub_say("param name=book value=%s type=bool",
            h->opt.book || h->opt.book_builtin ? "true" : "false");
    hub_say("param name=book-margin value=%d type=int min=%ld max=%ld", h->opt.book_variety,
            variety->min, variety->max);
    hub_say("param name=contempt value=%d type=int min=%ld max=%ld", h->opt.contempt, contempt->min,
            contempt->max);
    hub_say("wait");
}

/* set-param: the parameters that are engine options (hash, threads, egdb-path, book-margin,
 * contempt) are read by the engine's table under its names (egdb, book-variety), so they take
 * what every front end takes; a change makes the engine afresh at the next init or go. */
static void hub_set_param(Hub *h, const HubLine *l)
{
    const char *name = hub_arg(l, "name"), *value = hub_arg(l, "value");
    if (!name || !value) {
        hub_error("set-param needs name= and value=");
        return;
    }
    long v;
    if (strcmp(name, "variant") == 0) {
        if (strcmp(value, "english") != 0)
            hub_error("variant %.40s: Ponder plays english only", value);
    } else if (strcmp(name, "hash") == 0) {
        if (hub_option(name, "hash", value, &v) && (size_t)v != h->opt.hash_mb) {
            h->opt.hash_mb = (size_t)v;
            hub_engine_drop(h);
        }
    } else if (strcmp(name, "threads") == 0) {
        if (hub_option(name, "threads", value, &v) && (int)v != h->opt.threads) {
            h->opt.threads = (int)v;
            hub_engine_drop(h);
        }
    } else if (strcmp(name, "egdb-path") == 0) {
        if (hub_option(name, "egdb", value, NULL) && strcmp(value, h->egdb) != 0) {
            snprintf(h->egdb, sizeof h->egdb, "%s", value);
            hub_engine_drop(h);
        }
    } else if (strcmp(name, "book") == 0) {
        /* On: the book the environment names, else the built-in one. */
        bool on = strcmp(value, "true") == 0;
        if (!on && strcmp(value, "false") != 0)
            hub_error("book: `%.40s' is not true or false", value);
        else if (on != (h->opt.book || h->opt.book_builtin)) {
            h->opt.book = on ? h->book_file : NULL;
            h->opt.book_builtin = on && !h->book_file;
            hub_engine_drop(h);
        }
    } else if (strcmp(name, "book-margin") == 0) {
        if (hub_option(name, "book-variety", value, &v) && (int)v != h->opt.book_variety) {
            h->opt.book_variety = (int)v;
            hub_engine_drop(h);
        }
    } else if (strcmp(name, "contempt") == 0) {
        if (hub_option(name, "contempt", value, &v) && (int)v != h->opt.contempt) {
            h->opt.contempt = (int)v;
            hub_engine_drop(h);
        }
    }
    /* Other names: parameters of other engines, ignored. */
}

static void hub_pos(Hub *h, const HubLine *l)
{
    const char *pos = hub_arg(l, "pos"), *moves = hub_arg(l, "moves");
    char err[256];
    Board b;
    if (!pos) {
        hub_error("pos needs pos=");
        return;
    }
    if (!hub_read_pos(pos, &b, err, sizeof err)) {
        hub_error("%s", err);
        return;
    }
    static Game g; /* a few hundred KB: not on the stack */
    game_init(&g, &RULES_ENGLISH, &b);
    char buf[HUB_LINE_MAX];
    snprintf(buf, sizeof buf, "%s", moves ? moves : "");
    char *save = NULL;
    for (char *tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        Move m;
        if (!hub_read_move(&g.board, tok, &m, err, sizeof err)) {
            hub_error("moves: move %d: %s", g.ply + 1, err);
            return;
        }
        if (!game_play(&g, &m)) {
            hub_error("moves: more than %d moves", GAME_MAX_PLIES);
            return;
        }
    }
    h->game = g;
    h->has_pos = true;
}

static void hub_level(Hub *h, const HubLine *l)
{
    HubLevel lv = {0};
    double v;
    long n;
    const char *s;
    if ((s = hub_arg(l, "depth")) && !hub_whole("depth", s, 1, MAX_PLY - 1, &n))
        return;
    if (s)
        lv.depth = (int)n;
    if ((s = hub_arg(l, "nodes")) && !hub_whole("nodes", s, 1, 1000000000000000L, &n))
        return;
    if (s)
        lv.nodes = (uint64_t)n;
    if ((s = hub_arg(l, "move-time")) && !hub_number("move-time", s, 0.001, 1e6, &v))
        return;
    if (s)
        lv.move_time = v;
    if ((s = hub_arg(l, "time")) && !hub_number("time", s, 0, 1e6, &v))
        return;
    if (s)
        lv.time = v, lv.has_clock = true;
    if ((s = hub_arg(l, "inc")) && !hub_number("inc", s, 0, 1e6, &v))
        return;
    if (s)
        lv.inc = v;
    if ((s = hub_arg(l, "moves")) && !hub_whole("moves", s, 1, 10000, &n))
        return;
    if (s)
        lv.moves = (int)n;
    lv.infinite = hub_arg(l, "infinite") != NULL;
    h->level = lv;
}

static void hub_go(Hub *h, const HubLine *l)
{
    HubMode mode = MODE_THINK;
    if (hub_arg(l, "ponder"))
        mode = MODE_PONDER;
    else if (hub_arg(l, "analyze"))
        mode = MODE_ANALYZE;
    if (!h->has_pos) {
        hub_error("go before pos: no position to search");
        return;
    }
    MoveList list;
    if (movegen_generate(&h->game.board, &RULES_ENGLISH, false, &list) == 0) {
        hub_error("no legal move in this position");
        return;
    }
    if (!hub_engine_get(h))
        return;
    hub_engine_go(h, mode);
}

/* While a search runs only ping, stop, ponder-hit and quit are expected. Another known command
 * waits for a search that ends by itself and is refused during an endless one. Returns true when
 * the line is dealt with, false when the caller should handle it now (the search has ended) or
 * quit (*QUIT). */
static bool hub_during_search(Hub *h, const HubLine *l, bool *quit)
{
    const char *c = l->command;
    if (strcmp(c, "ping") == 0) {
        hub_say("pong");
    } else if (strcmp(c, "stop") == 0) {
        hub_engine_stop(h);
    } else if (strcmp(c, "ponder-hit") == 0) {
        if (h->mode == MODE_PONDER) {
            /* The expected move came: the same search goes on, now within the level's limits,
             * its clock counted from here. */
            engine_ponderhit(h->engine, h->job);
            h->mode = MODE_THINK;
            h->limits.ponder = false;
        }
    } else if (strcmp(c, "quit") == 0) {
        *quit = true;
        return false;
    } else if (strcmp(c, "hub") == 0 || strcmp(c, "set-param") == 0 || strcmp(c, "init") == 0 ||
               strcmp(c, "new-game") == 0 || strcmp(c, "pos") == 0 || strcmp(c, "level") == 0 ||
               strcmp(c, "go") == 0) {
        /* A command for after the search: a search that ends by itself is waited for (so a
         * client that writes ahead, like a script, is served in order); an endless one is not. */
        if (h->limits.infinite || h->limits.ponder) {
            hub_error("%.40s during an endless search: send stop first", c);
            return true;
        }
        hub_join(h);
        return false;
    }
    return true;
}

/* Handles one line. Returns false on quit. */
static bool hub_command(Hub *h, char *line)
{
    HubLine l;
    char err[160];
    if (!hub_parse_line(line, &l, err, sizeof err)) {
        hub_error("%s", err);
        return true;
    }
    if (h->searching && atomic_load(&h->finished))
        hub_join(h);
    bool quit = false;
    if (h->searching && hub_during_search(h, &l, &quit))
        return true;
    if (quit)
        return false;
    const char *c = l.command;
    if (strcmp(c, "hub") == 0)
        hub_hello(h);
    else if (strcmp(c, "set-param") == 0)
        hub_set_param(h, &l);
    else if (strcmp(c, "init") == 0) {
        if (hub_engine_get(h))
            hub_say("ready");
    } else if (strcmp(c, "new-game") == 0) {
        if (h->engine)
            engine_new_game(h->engine);
    } else if (strcmp(c, "pos") == 0)
        hub_pos(h, &l);
    else if (strcmp(c, "level") == 0)
        hub_level(h, &l);
    else if (strcmp(c, "go") == 0)
        hub_go(h, &l);
    else if (strcmp(c, "ping") == 0)
        hub_say("pong");
    else if (strcmp(c, "quit") == 0)
        return false;
    /* stop and ponder-hit with no search, and unknown commands: nothing to do. */
    return true;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ponder hub\n"
            "\n"
            "Speaks the Hub protocol (version 2, as Scan 3.1 defines it) on stdin/stdout in the\n"
            "English-checkers dialect of pydraughts: squares numbered 33 - s, the side that\n"
            "moves first written W. Parameters (hash, threads, egdb-path, book, book-margin)\n"
            "are set with set-param; see docs/hub.md.\n");
}

static int cmd_hub(int argc, char **argv)
{
    static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {0}};
    Opts p;
    opts_begin(&p, "ponder hub", argc, argv, "h", longopts, 0, NULL);
    for (int c; (c = opts_next(&p)) != OPTS_END;) {
        if (c == 'h') {
            usage(stdout);
            return 0;
        }
        opts_see_help("ponder hub");
        return 2;
    }
    if (optind < argc) {
        fprintf(stderr, "ponder hub: unexpected argument `%s'\n", argv[optind]);
        opts_see_help("ponder hub");
        return 2;
    }
    static Hub h;
    engine_default_options(&h.opt);
    if (cli_engine_egdb(h.egdb, sizeof h.egdb) == NULL) /* what `ponder egdb build' made, if any */
        h.egdb[0] = '\0';
    h.opt.egdb_dir = h.egdb[0] ? h.egdb : NULL;
    static char book_path[CLI_PATH_MAX];
    cli_engine_book(&h.opt, book_path, sizeof book_path);
    h.book_file = h.opt.book;
    static char line[HUB_LINE_MAX];
    bool go_on = true;
    while (go_on && fgets(line, sizeof line, stdin)) {
        size_t n = strlen(line);
        if (n == sizeof line - 1 && line[n - 1] != '\n') {
            hub_error("line longer than %d bytes ignored", HUB_LINE_MAX - 2);
            int ch;
            while ((ch = getchar()) != EOF && ch != '\n')
                ;
            continue;
        }
        go_on = hub_command(&h, line);
    }
    /* quit or end of input: end any search at once. */
    atomic_store(&h.quitting, true);
    hub_engine_stop(&h);
    hub_engine_drop(&h);
    return 0;
}

PONDER_COMMAND("hub", cmd_hub, 45, "the Hub protocol (Scan's, in pydraughts' English dialect)")
