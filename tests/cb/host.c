/*
 * host.c - a CheckerBoard host for the tests: loads a CheckerBoard engine library (dlopen, or
 * LoadLibrary on Windows) and plays one game through it in the middleware protocol of seed 002,
 * so that `ponder match' can referee it against `ponder player' like any other program.
 *
 *   cbhost LIBRARY [--time S] [--exact] [--incr MS INC_MS] [--no-gamehist] [--playnow S]
 *                  [--hash MB] [--margin S] [--fen FEN]
 *
 * It calls the library as CheckerBoard does: "set gamehist FEN MOVES" before each getmove (the
 * position after the last man move or capture and the king moves since; --no-gamehist leaves
 * it out, so the library must follow the game by itself), getmove with the board as an 8x8 array,
 * then reads the position back. Everything the library returns is checked: the board after the
 * call must be the position after exactly one legal move, the CBmove must describe that move
 * (from, to, jumps, pieces, path, captured squares), the return value must be one of the four,
 * and the call must not take longer than the time it was given plus --margin (0.1 s, the
 * referee's default; 1 s more for the first call, which makes the engine). Any
 * fault is named on stderr and ends the host with status 1, which the referee records as a
 * forfeit. At start it checks enginecommand's fixed answers (protocol version 2, game type 21,
 * an unknown command refused). `cbhost LIBRARY [--status] [--command CMD]... --position FEN
 * [X Y V]...' sends the commands, makes one getmove call and prints its return value (and the
 * status line when it is Ponder's message or a book move, or always with --status), and
 * `cbhost LIBRARY --commands' instead answers each line of stdin with enginecommand's return
 * value and reply. --playnow S sets *playnow after S seconds of each search: the answer must then
 * come within 0.4 s plus --margin.
 */
#include "cbengine.h"
#include "game.h"
#include "middleware.h"
#include "notation.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif

typedef int(CB_CALL *GetmoveFn)(int[8][8], int, double, char[1024], int *, int, int, CBmove *);
typedef int(CB_CALL *CommandFn)(const char *, char[1024]);

typedef struct {
    GetmoveFn getmove;
    CommandFn command;
    double time;        /* maxtime */
    int info, moreinfo; /* getmove's flags */
    bool gamehist;      /* send "set gamehist" */
    double playnow;     /* seconds before *playnow is set (0: never) */
    double margin;      /* grace per call before a move counts as late (the referee's 0.1 s) */
    double startup;     /* more grace for the first call, which makes the engine (1 s) */
    int calls;          /* getmove calls so far */
} Host;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "cbhost: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    exit(1);
}

static void *load(const char *path, const char *name)
{
#ifdef _WIN32
    static HMODULE lib;
    if (!lib && !(lib = LoadLibraryA(path)))
        die("cannot load %s%s", path, "");
    void *f = (void *)GetProcAddress(lib, name);
#else
    static void *lib;
    if (!lib && !(lib = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
        die("cannot load %s: %s", path, dlerror());
    void *f = dlsym(lib, name);
#endif
    if (!f)
        die("%s exports no %s", path, name);
    return f;
}

/* enginecommand COMMAND must return WANT_RET and, when WANT is not NULL, reply WANT. */
static void check_command(const Host *h, const char *command, int want_ret, const char *want)
{
    char reply[1024] = "";
    int r = h->command(command, reply);
    if (r != want_ret || (want && strcmp(reply, want) != 0)) {
        char got[1100];
        snprintf(got, sizeof got, "returned %d, replied `%.1000s'", r, reply);
        die("enginecommand `%s' %s", command, got);
    }
}

static void to_array(const Board *b, int a[8][8])
{
    memset(a, 0, sizeof(int[8][8]));
    for (int sq = 0; sq < 32; sq++) {
        int c = board_color_at(b, sq);
        if (c < 0)
            continue;
        int y = sq / 4, x = 2 * (3 - sq % 4) + (y & 1);
        a[x][y] = (c == BLACK ? CB_BLACK : CB_WHITE) | (board_is_king(b, sq) ? CB_KING : CB_MAN);
    }
}

static bool same_coor(CBcoor c, int sq)
{
    int y = sq / 4, x = 2 * (3 - sq % 4) + (y & 1);
    return c.x == x && c.y == y;
}

/* "set gamehist": the position after the last irreversible move of G, then the moves since. */
static void send_gamehist(const Host *h, const Game *g)
{
    Game replay;
    int from = g->ply;
    while (from > 0 && g->quiet[from] != 0)
        from--;
    game_init(&replay, g->rules, &g->start);
    for (int i = 0; i < from; i++)
        game_play(&replay, &g->moves[i]);
    char cmd[8192];
    int n = snprintf(cmd, sizeof cmd, "set gamehist ");
    n += notation_format_fen(&replay.board, cmd + n, sizeof cmd - (size_t)n);
    for (int i = from; i < g->ply && n < (int)sizeof cmd - 64; i++) {
        cmd[n++] = ' ';
        n += notation_format_move(&g->moves[i], cmd + n, sizeof cmd - (size_t)n);
    }
    check_command(h, cmd, 1, NULL);
}

typedef struct {
    atomic_int *flag;
    double after;
    atomic_bool cancel;
} PlaynowTimer;

static void *playnow_timer(void *arg)
{
    PlaynowTimer *t = arg;
    double until = now() + t->after;
    while (!atomic_load(&t->cancel) && now() < until) {
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    if (!atomic_load(&t->cancel))
        atomic_store(t->flag, 1);
    return NULL;
}

/* Asks the library for the move of G's side to move; checks it and plays it into G. */
static void engine_move(Host *h, Game *g)
{
    if (h->gamehist)
        send_gamehist(h, g);
    int a[8][8];
    to_array(&g->board, a);
    char str[1024] = "";
    atomic_int playnow = 0;
    CBmove m;
    memset(&m, 0x55, sizeof m);
    PlaynowTimer timer = {&playnow, h->playnow, false};
    pthread_t th;
    if (h->playnow > 0 && pthread_create(&th, NULL, playnow_timer, &timer) != 0)
        die("cannot start a thread%s%s", "", "");
    double t0 = now();
    int ret = h->getmove(a, g->board.side == BLACK ? CB_BLACK : CB_WHITE, h->time, str,
                         (int *)&playnow, h->info, h->moreinfo, &m);
    double took = now() - t0;
    if (h->playnow > 0) {
        atomic_store(&timer.cancel, true);
        pthread_join(th, NULL);
    }
    char fen[200], msg[400];
    notation_format_fen(&g->board, fen, sizeof fen);
    double limit = h->playnow > 0 ? h->playnow + 0.4 + h->margin : h->time + h->margin;
    if (h->moreinfo && !(h->info & CB_EXACT_TIME))
        limit = ((unsigned)h->moreinfo >> 16) * 0.001 + h->margin;
    if (h->calls++ == 0)
        limit += h->startup;
    if (took > limit) {
        snprintf(msg, sizeof msg, "took %.3f s, more than %.3f s", took, limit);
        die("late move in %s: %s", fen, msg);
    }
    if (ret < CB_DRAW || ret > CB_UNKNOWN) {
        snprintf(msg, sizeof msg, "%d", ret);
        die("getmove in %s returned %s", fen, msg);
    }
    Board after;
    board_clear(&after, g->board.side ^ 1);
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 8; y++) {
            int v = a[x][y];
            if (v == CB_FREE)
                continue;
            if ((x + y) & 1)
                die("getmove in %s put a piece on a light square%s", fen, "");
            int sq = 4 * (y + 1) - x / 2 - 1;
            if (v != (CB_BLACK | CB_MAN) && v != (CB_BLACK | CB_KING) && v != (CB_WHITE | CB_MAN) &&
                v != (CB_WHITE | CB_KING)) {
                snprintf(msg, sizeof msg, "%d on square %d", v, sq + 1);
                die("getmove in %s wrote %s", fen, msg);
            }
            board_set(&after, sq, (v & CB_BLACK) ? BLACK : WHITE, (v & CB_KING) != 0);
        }
    MoveList list;
    movegen_generate(&g->board, g->rules, false, &list);
    const Move *played = NULL;
    for (int i = 0; i < list.count && !played; i++) {
        Board b = g->board;
        board_apply(&b, &list.moves[i]);
        if (board_equal(&b, &after))
            played = &list.moves[i];
    }
    if (!played) {
        char got[200];
        notation_format_fen(&after, got, sizeof got);
        snprintf(msg, sizeof msg, "%s (status `%.100s')", got, str);
        die("getmove in %s: the board it returned, %s, is no legal move away", fen, msg);
    }
    /* The CBmove must describe the same move. Two captures with the same ends and pieces are
     * one move to the rules; the path given must be one of them. */
    int jumps = __builtin_popcount(played->captured);
    int old = (g->board.side == BLACK ? CB_BLACK : CB_WHITE) |
              (board_is_king(&g->board, played->from) ? CB_KING : CB_MAN);
    int now_piece = (g->board.side == BLACK ? CB_BLACK : CB_WHITE) |
                    (board_is_king(&after, played->to) ? CB_KING : CB_MAN);
    bool ok = same_coor(m.from, played->from) && same_coor(m.to, played->to) &&
              m.jumps == (jumps ? played->len - 1 : 0) && m.oldpiece == old &&
              m.newpiece == now_piece;
    for (int i = 0; ok && i < jumps; i++) {
        bool found = false;
        for (int sq = 0; sq < 32; sq++)
            if (((played->captured >> sq) & 1) && same_coor(m.del[i], sq))
                found = true;
        int y = m.del[i].y, x = m.del[i].x;
        if (x < 0 || x > 7 || y < 0 || y > 7 || ((x + y) & 1))
            found = false;
        else {
            int sq = 4 * (y + 1) - x / 2 - 1;
            int want = (g->board.side == BLACK ? CB_WHITE : CB_BLACK) |
                       (board_is_king(&g->board, sq) ? CB_KING : CB_MAN);
            found = found && m.delpiece[i] == want;
        }
        ok = found;
    }
    for (int i = 1; ok && i < jumps; i++)
        ok = same_coor(m.path[i], played->path[i]);
    if (!ok) {
        char mv[64];
        notation_format_move(played, mv, sizeof mv);
        die("getmove in %s: its CBmove does not describe %s", fen, mv);
    }
    char path[128];
    middleware_format_move(played, path, sizeof path);
    game_play(g, played);
    printf("%s\n", path);
    fflush(stdout);
}

static double number(const char *opt, const char *s)
{
    char *end;
    double v = s ? strtod(s, &end) : 0;
    if (!s || end == s || *end || v < 0 || v > 1e6)
        die("%s needs a number, not `%s'", opt, s ? s : "");
    return v;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr,
                "usage: cbhost LIBRARY [--time S] [--exact] [--incr MS INC_MS] "
                "[--no-gamehist] [--playnow S] [--hash MB] [--margin S]\n"
                "              [--fen FEN]\n"
                "       cbhost LIBRARY --commands\n"
                "       cbhost LIBRARY [--status] [--movetime S] [--command CMD]... --position FEN "
                "[X Y V]...\n");
        return 2;
    }
    if (argc >= 3 && strcmp(argv[2], "--commands") == 0) {
        /* Transcript mode: each line of stdin is an enginecommand, answered with its return
         * value and reply. */
        CommandFn command = (CommandFn)load(argv[1], "enginecommand");
        char cmd[4096];
        while (fgets(cmd, sizeof cmd, stdin)) {
            cmd[strcspn(cmd, "\r\n")] = '\0';
            char reply[1024] = "";
            int r = command(cmd, reply);
            printf("%s -> %d %s\n", cmd, r, reply);
        }
        return 0;
    }
    /* `--command CMD' pairs before --position: enginecommands sent first, each printed with its
     * answer as in --commands; `--status' prints the status line getmove leaves (the search's
     * last iteration) whatever it is; `--movetime S' gives getmove S seconds (0.05 unless told:
     * a longer one measures the library's speed). */
    int arg = 2;
    bool status = false;
    double movetime = 0.05;
    for (;;) {
        if (argc >= arg + 2 && strcmp(argv[arg], "--status") == 0) {
            status = true;
            arg++;
            continue;
        }
        if (argc >= arg + 3 && strcmp(argv[arg], "--movetime") == 0) {
            movetime = number("--movetime", argv[arg + 1]);
            arg += 2;
            continue;
        }
        if (!(argc >= arg + 3 && strcmp(argv[arg], "--command") == 0))
            break;
        CommandFn command = (CommandFn)load(argv[1], "enginecommand");
        char reply[1024] = "";
        int r = command(argv[arg + 1], reply);
        printf("%s -> %d %s\n", argv[arg + 1], r, reply);
        arg += 2;
    }
    if (arg > 2) { /* the rest as if the commands were not there */
        argv[arg - 1] = argv[1];
        argv += arg - 2;
        argc -= arg - 2;
    }
    if (argc >= 4 && strcmp(argv[2], "--position") == 0) {
        /* One getmove on a position: `--position FEN [X Y V]...' (each triple overwrites
         * board[X][Y] with V first, to hand the library a bad board); prints what came back. */
        GetmoveFn gm = (GetmoveFn)load(argv[1], "getmove");
        Board b;
        ParseError e;
        if (!notation_parse_fen(argv[3], &b, &e))
            die("--position: %s%s", e.msg, "");
        int a[8][8];
        to_array(&b, a);
        for (int i = 4; i + 2 < argc; i += 3)
            a[atoi(argv[i])][atoi(argv[i + 1])] = atoi(argv[i + 2]);
        int before[8][8];
        memcpy(before, a, sizeof a);
        char str[1024] = "";
        int playnow = 0;
        CBmove m;
        int r = gm(a, b.side == BLACK ? CB_BLACK : CB_WHITE, movetime, str, &playnow, 0, 0, &m);
        printf("returned %d, board %s\n", r,
               memcmp(before, a, sizeof a) == 0 ? "unchanged" : "changed");
        if (status || strncmp(str, "Ponder:", 7) == 0 || strncmp(str, "book move", 9) == 0)
            printf("%s\n", str);
        return 0;
    }
    Host h = {0};
    h.time = 1;
    h.gamehist = true;
    h.margin = 0.1;
    h.startup = 1;
    const char *hash = NULL;
    Board start;
    board_start(&start);
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--time") == 0)
            h.time = number("--time", i + 1 < argc ? argv[++i] : NULL);
        else if (strcmp(argv[i], "--margin") == 0)
            h.margin = number("--margin", i + 1 < argc ? argv[++i] : NULL);
        else if (strcmp(argv[i], "--fen") == 0) {
            ParseError e;
            if (++i >= argc || !notation_parse_fen(argv[i], &start, &e))
                die("--fen: %s%s", i < argc ? e.msg : "no FEN", "");
        } else if (strcmp(argv[i], "--hash") == 0) {
            if (++i >= argc)
                die("--hash needs a number%s%s", "", "");
            hash = argv[i];
        } else if (strcmp(argv[i], "--exact") == 0)
            h.info |= CB_EXACT_TIME;
        else if (strcmp(argv[i], "--incr") == 0) {
            double left = number("--incr", i + 1 < argc ? argv[++i] : NULL);
            double inc = number("--incr", i + 1 < argc ? argv[++i] : NULL);
            if (left > 65535 || inc > 65535)
                die("--incr: at most 65535 ms%s%s", "", "");
            h.info |= 1 << CB_INCR_TIME_SHIFT;
            h.moreinfo = (int)(((unsigned)left << 16) | (unsigned)inc);
        } else if (strcmp(argv[i], "--no-gamehist") == 0)
            h.gamehist = false;
        else if (strcmp(argv[i], "--playnow") == 0)
            h.playnow = number("--playnow", i + 1 < argc ? argv[++i] : NULL);
        else
            die("unknown option `%s'%s", argv[i], "");
    }
    h.getmove = (GetmoveFn)load(argv[1], "getmove");
    h.command = (CommandFn)load(argv[1], "enginecommand");
    check_command(&h, "get protocolversion", 1, "2");
    check_command(&h, "get gametype", 1, "21");
    check_command(&h, "name", 1, "Ponder");
    check_command(&h, "no such command", 0, "?");
    if (hash) {
        char cmd[64], want[64];
        snprintf(cmd, sizeof cmd, "set hashsize %.20s", hash);
        snprintf(want, sizeof want, "hashsize %.20s", hash);
        check_command(&h, cmd, 1, want);
        check_command(&h, "get hashsize", 1, hash);
    }

    static Game g;
    game_init(&g, &RULES_ENGLISH, &start);
    char line[4096];
    int lines = 0;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (lines++ == 0 && strcmp(line, "0 0") == 0) {
            engine_move(&h, &g);
            continue;
        }
        Move m;
        ParseError e;
        if (!middleware_parse_move(&g.board, g.rules, line, &m, &e))
            die("bad move from the opponent `%s': %s", line, e.msg);
        game_play(&g, &m);
        if (game_result(&g) != RESULT_NONE)
            continue;
        engine_move(&h, &g);
    }
    return 0;
}
