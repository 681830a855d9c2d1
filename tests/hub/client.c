/*
 * client.c - a Hub client for the tests: drives a Hub engine (`ponder hub') the way pydraughts
 * does, and is itself a middleware player (seed 002), so that `ponder match' can referee the Hub
 * engine against `ponder player' like any other program.
 *
 *   hubclient [--time S] [--fen FEN] -- ENGINE-COMMAND...
 *
 * It starts the engine, sends `hub' and reads up to `wait' (the variant parameter must offer
 * english), sets `variant', sends `init' and waits for `ready'. For every move it sends
 * `pos pos=START moves="WHOLE GAME"' in pydraughts' dialect (squares 33 - s, the first mover
 * written W), `level move-time=S' and `go think', and reads up to `done'. Every engine line is
 * checked: `done move=' must be a legal move of the position, any `error' line or an unexpected
 * end of the engine is a fault; a fault is named on stderr and ends the client with status 1,
 * which the referee records as a forfeit.
 */
#include "game.h"
#include "middleware.h"
#include "notation.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static FILE *to_engine, *from_engine;

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "hubclient: %s%s\n", what, detail);
    exit(1);
}

static void send_line(const char *line)
{
    if (fprintf(to_engine, "%s\n", line) < 0 || fflush(to_engine) != 0)
        die("cannot write to the engine: ", line);
}

/* The next line from the engine; an `error' line is a fault. */
static void recv_line(char *buf, size_t size)
{
    if (!fgets(buf, (int)size, from_engine))
        die("the engine ended", "");
    buf[strcspn(buf, "\r\n")] = '\0';
    if (strncmp(buf, "error", 5) == 0)
        die("the engine answered: ", buf);
}

static int hub_sq(int index)
{
    return 32 - index;
}

static void format_hub_move(const Move *m, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%d%c%d", hub_sq(m->from), move_is_capture(m) ? 'x' : '-',
                     hub_sq(m->to));
    for (int s = 1; s <= 32; s++)
        if ((m->captured >> (32 - s)) & 1)
            n += snprintf(buf + n, size - (size_t)n, "x%d", s);
}

static void format_hub_pos(const Board *b, char *buf)
{
    buf[0] = b->side == BLACK ? 'W' : 'B';
    for (int s = 1; s <= 32; s++) {
        int sq = 32 - s, c = board_color_at(b, sq);
        bool k = board_is_king(b, sq);
        buf[s] = c < 0 ? 'e' : c == BLACK ? (k ? 'W' : 'w') : (k ? 'B' : 'b');
    }
    buf[33] = '\0';
}

static void start_engine(char **argv)
{
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0)
        die("cannot make pipes", "");
    pid_t pid = fork();
    if (pid < 0)
        die("cannot fork", "");
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "hubclient: cannot run %s\n", argv[0]);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_engine = fdopen(in[1], "w");
    from_engine = fdopen(out[0], "r");
    if (!to_engine || !from_engine)
        die("cannot open the pipes", "");
}

/* Asks the engine for the move of G and plays it. */
static void engine_move(Game *g, const Board *start, double time)
{
    static char line[1 << 16];
    char pos[34], mv[64];
    format_hub_pos(start, pos);
    int n = snprintf(line, sizeof line, "pos pos=%s moves=\"", pos);
    for (int i = 0; i < g->ply; i++) {
        format_hub_move(&g->moves[i], mv, sizeof mv);
        n += snprintf(line + n, sizeof line - (size_t)n, "%s%s", i ? " " : "", mv);
    }
    snprintf(line + n, sizeof line - (size_t)n, "\"");
    send_line(line);
    snprintf(line, sizeof line, "level move-time=%g", time);
    send_line(line);
    send_line("go think");
    for (;;) {
        recv_line(line, sizeof line);
        if (strncmp(line, "done move=", 10) == 0)
            break;
        if (strncmp(line, "info", 4) != 0)
            die("unexpected line while searching: ", line);
    }
    char *move = line + 10;
    move[strcspn(move, " ")] = '\0';
    MoveList list;
    movegen_generate(&g->board, g->rules, false, &list);
    for (int i = 0; i < list.count; i++) {
        format_hub_move(&list.moves[i], mv, sizeof mv);
        if (strcmp(mv, move) == 0) {
            char path[128];
            middleware_format_move(&list.moves[i], path, sizeof path);
            game_play(g, &list.moves[i]);
            printf("%s\n", path);
            fflush(stdout);
            return;
        }
    }
    die("the engine played an illegal move: ", move);
}

int main(int argc, char **argv)
{
    double time = 0.1;
    Board start;
    board_start(&start);
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--time") == 0 && i + 1 < argc)
            time = strtod(argv[++i], NULL);
        else if (strcmp(argv[i], "--fen") == 0 && i + 1 < argc) {
            ParseError e;
            if (!notation_parse_fen(argv[++i], &start, &e))
                die("--fen: ", e.msg);
        } else
            die("usage: hubclient [--time S] [--fen FEN] -- ENGINE-COMMAND...", "");
    }
    if (i + 1 >= argc || !(time > 0))
        die("usage: hubclient [--time S] [--fen FEN] -- ENGINE-COMMAND...", "");
    signal(SIGPIPE, SIG_IGN);
    start_engine(argv + i + 1);

    char line[4096];
    send_line("hub");
    bool english = false;
    for (;;) {
        recv_line(line, sizeof line);
        if (strcmp(line, "wait") == 0)
            break;
        if (strncmp(line, "param name=variant", 18) == 0 && strstr(line, "english"))
            english = true;
    }
    if (!english)
        die("the engine offers no english variant", "");
    send_line("set-param name=variant value=english");
    send_line("init");
    do
        recv_line(line, sizeof line);
    while (strcmp(line, "ready") != 0);
    send_line("new-game");

    static Game g;
    game_init(&g, &RULES_ENGLISH, &start);
    int lines = 0;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (lines++ == 0 && strcmp(line, "0 0") == 0) {
            engine_move(&g, &start, time);
            continue;
        }
        Move m;
        ParseError e;
        if (!middleware_parse_move(&g.board, g.rules, line, &m, &e))
            die("bad move from the opponent: ", line);
        game_play(&g, &m);
        if (game_result(&g) == RESULT_NONE)
            engine_move(&g, &start, time);
    }
    send_line("quit");
    fclose(to_engine);
    wait(NULL);
    return 0;
}
