/*
 * console.c - `ponder' with no arguments, and `ponder console': the engine console of seed 000.
 *
 * It shows the seed's board with its FEN line and a `*** Black ***' prompt, reads moves and the
 * xboard-like commands of the seed (`help' lists them), and plays the side it is set to within
 * the `sd' and `st' limits. docs/console.md describes the behaviour for users.
 *
 * Two threads. The main thread owns the game and is the only one to read stdin and change
 * anything; the engine's search thread (engine_start) searches a private copy of the position and
 * prints the rows of the thinking table. While a search runs, the main thread waits (poll) for
 * either a line or the search's wake-up byte, written when the job ends. A `ping' is answered at
 * once and the search goes on; any other line stops the search's job (engine_stop: the engine
 * keeps a stop for its job even when the search has not begun) and is then carried out. Output from
 * both threads goes through one lock, a whole block at a time, and is flushed at once, so a pipe
 * sees every line as soon as it is printed.
 *
 * When searches happen. A move that leaves the engine on move prints `Thinking ...' and starts a
 * search; `go' and `analyze' do the same. After every prompt, unless in force mode or the game is
 * over, the engine goes on searching by itself: if it is on move (its search was interrupted by a
 * command) it thinks again and plays when done; if the user is on move it ponders, that is
 * searches the position after the reply it expects (or the position itself when it expects
 * none) until the user's next line, keeping what it learned in the shared table.
 *
 * Piped input. A search that would start while a line is already waiting is stopped before it
 * begins, exactly as if that line had arrived at once; this makes a session fed from a file
 * print the same thing every time. At the end of input the engine still finishes a search that
 * has a depth or time limit (a script that ends with `go' gets its move), stops one that has
 * none (pondering, unlimited analysis), and quits.
 */
#define _POSIX_C_SOURCE 200809L
#include "console.h"

#include "cli.h"
#include "command.h"
#include "console_view.h"
#include "notation.h"
#include "opts.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool out_lost; /* stdout failed (closed pipe, full disk): time to leave */

void console_out(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&out_lock);
    vprintf(fmt, ap);
    if (fflush(stdout) != 0 || ferror(stdout))
        atomic_store(&out_lost, true);
    pthread_mutex_unlock(&out_lock);
    va_end(ap);
}

/* ---- The position as shown: the game, plus a multi-jump under way ---- */

/* The square jumped over from A to B (indices two diagonal steps apart). */
static int jumped_square(int a, int b)
{
    int ra, ca, rb, cb;
    console_view_square_coords(a, &ra, &ca);
    console_view_square_coords(b, &rb, &cb);
    return console_view_square_at((ra + rb) / 2, (ca + cb) / 2);
}

static Board shown_board(const Console *c)
{
    Board b = c->game.board;
    if (c->part_len < 2)
        return b;
    int from = c->part[0], to = c->part[c->part_len - 1];
    int color = board_color_at(&b, from);
    bool king = board_is_king(&b, from);
    board_set(&b, from, -1, false);
    for (int i = 1; i < c->part_len; i++)
        board_set(&b, jumped_square(c->part[i - 1], c->part[i]), -1, false);
    board_set(&b, to, color, king);
    return b;
}

void console_show_position(const Console *c)
{
    char buf[CONSOLE_VIEW_POSITION_LEN];
    Board b = shown_board(c);
    console_view_position(&b, !c->flipped, buf, sizeof buf); /* PDN's way up unless flipped */
    console_out("%s", buf);
}

void console_prompt(const Console *c)
{
    console_out("  *** %s ***\n", c->game.board.side == BLACK ? "Black" : "White");
}

void console_error(const char *reason, const char *input)
{
    console_out("Error (%s): %s\n", reason, input);
}

/* Prints the result tag and comment if the game is over; returns whether it is. */
bool console_announce_result(const Console *c)
{
    GameResult r = game_result(&c->game);
    if (r == RESULT_NONE)
        return false;
    const char *text = r == RESULT_BLACK_WINS   ? "Black win"
                       : r == RESULT_WHITE_WINS ? "White win"
                                                : "Draw";
    console_out("[Result \"%s\"]\n{%s}\n", game_result_tag(r), text);
    return true;
}

bool console_game_over(const Console *c)
{
    return game_result(&c->game) != RESULT_NONE;
}

/* ---- Searches ---- */

enum { HEADER_EVERY = 8 }; /* the table header comes again before depths 9, 17, ... */

static void on_iteration(const SearchInfo *info, void *ctx);
static void finish_search(Console *c, bool interrupted);

/* The PV as shown: a ponder search's rows start with the reply it assumes. */
static int shown_pv(const ConsoleSearch *s, const SearchInfo *info, Move *pv)
{
    int n = 0;
    if (s->shifted)
        pv[n++] = s->reply;
    for (int i = 0; i < info->pv_len && n < MAX_PLY + 1; i++)
        pv[n++] = info->pv[i];
    return n;
}

static void on_iteration(const SearchInfo *info, void *ctx)
{
    ConsoleSearch *s = ctx;
    s->last = *info;
    s->have_last = true;
    if (!s->print)
        return;
    Move pv[MAX_PLY + 1];
    int n = shown_pv(s, info, pv);
    char value[16], row[CONSOLE_VIEW_ROW_LEN];
    snprintf(value, sizeof value, "%d", s->shifted ? -info->score : info->score);
    console_view_table_row(info->depth, value, info->time, info->nodes, pv, n, row, sizeof row);
    bool header = info->depth > 1 && (info->depth - 1) % HEADER_EVERY == 0;
    console_out("%s%s", header ? console_view_table_header() : "", row);
}

/* The job has ended (on the search thread): wake the main thread. */
static void on_search_done(EngineJob job, const SearchResult *result, void *ctx)
{
    ConsoleSearch *s = ctx;
    atomic_store(&s->done, true);
    ssize_t w;
    do
        w = write(s->wake_fd, "x", 1);
    while (w < 0 && errno == EINTR);
}

/* Waits for the ended (or stopping) job, takes its result and empties the wake-up pipe. */
static void join_search(Console *c)
{
    char junk[16];
    engine_wait(c->engine, c->search->job, &c->search->result);
    c->running = false;
    while (read(c->wake[0], junk, sizeof junk) > 0)
        ;
}

/* Stops the running search's job and waits for it. */
static void stop_search(Console *c)
{
    engine_stop(c->engine, c->search->job);
    join_search(c);
}

/* Takes the next line from the reader into the held slot; false if there is none. */
static bool take_line(Console *c)
{
    bool got;
    c->held_status = line_reader_take(&c->in, c->held, sizeof c->held, &got);
    c->held_valid = got;
    return got;
}

/* Whether LINE is a well-formed `ping N'; puts N in *ARG. */
bool console_is_ping(const char *line, const char **arg)
{
    while (*line == ' ' || *line == '\t')
        line++;
    if (strncmp(line, "ping", 4) != 0 || (line[4] != ' ' && line[4] != '\t'))
        return false;
    const char *p = line + 4;
    while (*p == ' ' || *p == '\t')
        p++;
    const char *q = p + (*p == '-');
    size_t digits = strspn(q, "0123456789");
    if (digits == 0 || digits > 18)
        return false;
    for (const char *t = q + digits; *t; t++)
        if (*t != ' ' && *t != '\t')
            return false;
    *arg = p;
    return true;
}

/* A ping that came during a search. */
static void answer_ping(const Console *c, const char *arg)
{
    size_t n = strcspn(arg, " \t");
    console_out("pong %.*s\n", (int)n, arg);
    /* Pondering is invisible to the user: a ping then gets its prompt as when idle. */
    if (c->task == CONSOLE_PONDER)
        console_prompt(c);
}

/* Whether input is waiting for a search about to start: a line (pings are answered on the
 * spot), or the end of input for a search that would never end by itself. */
static bool input_waiting(Console *c, bool infinite)
{
    for (;;) {
        if (!c->held_valid) {
            line_reader_poll(&c->in);
            if (!take_line(c))
                break;
        }
        const char *arg;
        if (c->held_status == LINE_OK && console_is_ping(c->held, &arg)) {
            answer_ping(c, arg);
            c->held_valid = false;
            continue;
        }
        return true;
    }
    return infinite && c->in.eof;
}

/* Whether MOVE is legal in G's position. */
static bool legal_in(const Game *g, const Move *move)
{
    MoveList list;
    movegen_generate(&g->board, g->rules, false, &list);
    for (int i = 0; i < list.count; i++)
        if (move_same(&list.moves[i], move, false))
            return true;
    return false;
}

/* Starts a search of KIND; ANNOUNCED when a command asked for it. If input is already waiting
 * the search ends before it begins. */
void console_start_search(Console *c, ConsoleTask task, bool announced)
{
    ConsoleSearch *s = c->search;
    s->game = c->game;
    s->shifted = false;
    memset(&s->limits, 0, sizeof s->limits);
    if (task == CONSOLE_PONDER) {
        s->limits.infinite = true;
        if (c->have_expected && legal_in(&c->game, &c->expected) &&
            game_play(&s->game, &c->expected)) {
            if (game_result(&s->game) == RESULT_NONE) {
                s->shifted = true;
                s->reply = c->expected;
            } else
                s->game = c->game;
        }
    } else {
        s->limits.depth = c->depth;
        s->limits.time = c->time;
        if (c->has_clock) /* the clock (level, time), which timeman shares out */
            tc_clock_limits(&c->tc, &c->clock, &s->limits);
        s->limits.infinite = c->depth == 0 && s->limits.time == 0 && s->limits.clock == 0;
        s->limits.analysis = task == CONSOLE_ANALYZE; /* a value to show: no contempt */
        c->think_start = util_now();
    }
    s->print = c->verbose || task == CONSOLE_ANALYZE;
    s->have_last = false;
    s->wake_fd = c->wake[1];
    atomic_store(&s->done, false);
    c->task = task;
    c->announced = announced;
    if (s->print)
        console_out("%s", console_view_table_header());
    if (input_waiting(c, s->limits.infinite)) {
        finish_search(c, true);
        return;
    }
    char err[ERR_LEN];
    s->job = engine_start(c->engine, &s->game, &s->limits, on_iteration, on_search_done, s, err);
    if (s->job) {
        c->running = true;
        return;
    }
    /* No thread: a bounded search can still run here, without reading input meanwhile. */
    if (!s->limits.infinite) {
        s->result = engine_search(c->engine, &s->game, &s->limits, on_iteration, s);
        atomic_store(&s->done, true);
        finish_search(c, false);
    } else
        finish_search(c, true);
}

/* Whether an iteration was left unfinished: the search was stopped (INTERRUPTED) or ran out of
 * time before the depth it was allowed. */
static bool unfinished(const ConsoleSearch *s, bool interrupted)
{
    if (!s->have_last)
        return true;
    if (s->last.depth >= CONSOLE_MAX_DEPTH)
        return false;
    return interrupted || s->limits.depth == 0 || s->last.depth < s->limits.depth;
}

static void play_engine_move(Console *c, const SearchResult *r)
{
    if (c->has_clock) /* the engine's own clock, until `time' says otherwise */
        tc_clock_spend(&c->tc, &c->clock, util_now() - c->think_start);
    Move m = r->best;
    if (!game_play(&c->game, &m)) {
        console_out("Error (game record full): the engine cannot play on\n");
        c->force = true;
        console_prompt(c);
        return;
    }
    c->splits[c->game.ply - 1] = 0;
    c->have_expected = r->has_ponder;
    c->expected = r->ponder;
    console_show_position(c);
    char text[64];
    notation_format_move(&m, text, sizeof text);
    if (r->book)
        console_out("(a move of the opening book)\n");
    console_out("%s\n", text);
    console_announce_result(c);
    console_prompt(c);
    console_auto_search(c);
}

/* Winds up the search that has ended (INTERRUPTED: stopped by input). */
static void finish_search(Console *c, bool interrupted)
{
    ConsoleSearch *s = c->search;
    ConsoleTask task = c->task;
    c->task = CONSOLE_IDLE;
    if (s->print && unfinished(s, interrupted)) {
        Move pv[MAX_PLY + 1];
        int n = s->have_last ? shown_pv(s, &s->last, pv) : 0;
        char row[CONSOLE_VIEW_ROW_LEN];
        console_view_table_row(s->have_last ? s->last.depth + 1 : 1, "-", 0.0, 0, pv, n, row,
                               sizeof row);
        console_out("%s", row);
    }
    if (task == CONSOLE_THINK && !interrupted && s->result.has_move) {
        play_engine_move(c, &s->result);
        return;
    }
    if (task == CONSOLE_ANALYZE || (task == CONSOLE_THINK && c->announced)) {
        console_prompt(c);
        console_auto_search(c);
    }
}

/* After a prompt: the engine thinks if it is on move, else ponders (unless `easy'). */
void console_auto_search(Console *c)
{
    if (c->force || c->part_len > 0 || console_game_over(c))
        return;
    bool ours = c->game.board.side == c->engine_side;
    if (!ours && !c->ponder)
        return;
    console_start_search(c, ours ? CONSOLE_THINK : CONSOLE_PONDER, false);
}

/* The main loop: lines and the ends of searches, in the order they come, until `quit', the end
 * of input, or a failed write. Returns false after a failed write. */
static bool console_run(Console *c)
{
    console_show_position(c);
    console_prompt(c);
    console_auto_search(c);
    for (;;) {
        if (atomic_load(&out_lost)) {
            if (c->running)
                stop_search(c);
            return false;
        }
        if (!c->held_valid) {
            if (c->running && atomic_load(&c->search->done)) {
                join_search(c);
                finish_search(c, false);
                continue;
            }
            bool infinite = c->running && c->search->limits.infinite;
            if (!line_reader_has_line(&c->in) && !(c->in.eof && (!c->running || infinite))) {
                line_reader_wait(&c->in, c->running ? c->wake[0] : -1);
                continue;
            }
            if (!take_line(c)) { /* the end of input */
                if (!c->running)
                    return true;
                stop_search(c);
                finish_search(c, true);
                continue;
            }
        }
        if (c->running) {
            const char *arg;
            if (c->held_status == LINE_OK && console_is_ping(c->held, &arg)) {
                answer_ping(c, arg);
                c->held_valid = false;
                continue;
            }
            stop_search(c);
            finish_search(c, true);
        }
        char line[CONSOLE_LINE_MAX];
        memcpy(line, c->held, sizeof line);
        c->held_valid = false;
        if (!console_execute(c, line, c->held_status))
            return true;
    }
}

/* ---- The command ---- */

/* The engine options the console takes. */
enum { CONSOLE_ENGINE_OPTS = OPTS_ENGINE | OPTS_BOOK };

static void usage(FILE *f)
{
    fprintf(f, "usage: ponder [console] [--hash MB] [--threads N] [--weights FILE] [--eval E]\n"
               "                      [--net FILE] [--egdb DIR] [--book FILE|none]\n"
               "                      [--book-variety N] [--contempt N]\n"
               "\n"
               "The engine console: it shows the board, reads moves (10-14, captures 11x18, a\n"
               "multi-jump as 10x17x26 or one jump at a time) and commands (`help' lists them) on\n"
               "standard input, plays White until told otherwise, and thinks on your time. Works\n"
               "on a terminal and with pipes; the end of input quits.\n");
    opts_help(f, CONSOLE_ENGINE_OPTS, NULL, 2, 18);
}

static int cmd_console(int argc, char **argv)
{
    EngineOptions opt;
    engine_default_options(&opt);
    char egdb_dir[CLI_PATH_MAX];
    opt.egdb_dir = cli_engine_egdb(egdb_dir, sizeof egdb_dir);
    char book_path[CLI_PATH_MAX];
    cli_engine_book(&opt, book_path, sizeof book_path);
    static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {0}};
    Opts p;
    opts_begin(&p, "ponder console", argc, argv, "h", longopts, CONSOLE_ENGINE_OPTS, &opt);
    for (int c; (c = opts_next(&p)) != OPTS_END;) {
        if (c == 'h') {
            usage(stdout);
            return 0;
        }
        goto bad;
    }
    if (optind < argc) {
        fprintf(stderr, "ponder console: unexpected argument `%s'\n", argv[optind]);
        goto bad;
    }

    /* A closed standard descriptor would be taken by the pipe below and read or written by
     * mistake: put /dev/null in its place (a closed stdin is then the end of input). */
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) == -1 && open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) != fd) {
            fprintf(stderr, "ponder console: cannot open /dev/null: %s\n", strerror(errno));
            return 1;
        }

    char err[ERR_LEN];
    Console *c = calloc(1, sizeof *c);
    ConsoleSearch *s = calloc(1, sizeof *s);
    if (!c || !s) {
        fprintf(stderr, "ponder console: out of memory\n");
        free(c);
        free(s);
        return 1;
    }
    c->engine = engine_new(&opt, err);
    if (!c->engine) {
        fprintf(stderr, "ponder console: %s\n", err);
        free(c);
        free(s);
        return 1;
    }
    if (*engine_database_warnings(c->engine))
        fprintf(stderr, "ponder console: endgame databases: %s\n",
                engine_database_warnings(c->engine));
    /* The wake-up pipe: its read end is non-blocking so that it can be emptied. */
    if (pipe(c->wake) != 0 || fcntl(c->wake[0], F_SETFL, O_NONBLOCK) != 0) {
        fprintf(stderr, "ponder console: cannot make a pipe: %s\n", strerror(errno));
        engine_free(c->engine);
        free(c);
        free(s);
        return 1;
    }
    atomic_store(&out_lost, false); /* the command may run more than once in a process */
    c->search = s;
    c->engine_side = WHITE;
    c->ponder = true;
    c->time = CONSOLE_DEFAULT_TIME;
    c->opp_clock = -1;
    game_init(&c->game, &RULES_ENGLISH, NULL);
    line_reader_init(&c->in, STDIN_FILENO);

    bool ok = console_run(c);

    close(c->wake[0]);
    close(c->wake[1]);
    engine_free(c->engine);
    free(c);
    free(s);
    return ok ? 0 : 1;

bad:
    opts_see_help("ponder console");
    return 2;
}

PONDER_COMMAND("console", cmd_console, 10, "the engine console (what `ponder' alone runs)")
