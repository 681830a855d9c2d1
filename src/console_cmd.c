/*
 * console_cmd.c - the engine console's commands and move input (see console.h).
 *
 * Each line is a command (its first word) or, failing that, a move. Every line gets an answer
 * ending in the prompt, or starts a search that prints the prompt when it ends. Errors read
 * `Error (REASON): INPUT', where INPUT is the line (the FEN alone for `setboard').
 *
 * Moves: a simple move `10-14'; a capture `11x18'; a multi-jump with every landing square
 * `10x17x26', or with only some of them when that names one move, or one jump per line
 * (`10x17' then `17x26'), in which case the position is shown between the jumps with the same
 * side on move. The game record keeps whole moves; `splits' remembers where the typing broke
 * them, for `history'.
 */
#include "console.h"

#include "notation.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef enum {
    NEXT_PROMPT,  /* print the prompt, then let the engine search by itself */
    NEXT_NOTHING, /* a search was started; it prints the prompt when it ends */
    NEXT_QUIT,    /* leave */
} Next;

/* Prints the path squares PATH[FROM..TO] joined by SEP. */
static void format_path(const uint8_t *path, int from, int to, char sep, char *buf, size_t size)
{
    int len = 0;
    buf[0] = '\0';
    for (int k = from; k <= to && (size_t)len + 4 < size; k++) {
        if (k > from)
            buf[len++] = sep;
        len += snprintf(buf + len, size - (size_t)len, "%d", path[k] + 1);
    }
}

/* `  move ...' for each piece of a move as it was typed: SPLITS marks the path indices where
 * the input broke it. */
static void print_typed(const uint8_t *path, int len, uint16_t splits, bool capture)
{
    int start = 0;
    for (int k = 1; k < len; k++) {
        if (k < len - 1 && !(splits & (1u << k)))
            continue;
        char text[64];
        format_path(path, start, k, capture ? 'x' : '-', text, sizeof text);
        console_out("  move %s\n", text);
        start = k;
    }
}

/* ---- Commands ---- */

static const char *const HELP_TEXT =
    "    ?               Show this list of commands.\n"
    "    analyze         Search the position on the board and show the engine's\n"
    "                    thinking, without playing a move.\n"
    "    black           Put Black on move; the engine takes White.\n"
    "    easy            Stop thinking on your time: by default, while you are on\n"
    "                    move, the engine thinks about its reply (a whole core).\n"
    "    force           Make the engine play neither side: you enter every move.\n"
    "    go              Leave force mode and give the engine the side on move: it\n"
    "                    thinks, then plays.\n"
    "    hard            Think on your time again (the default).\n"
    "    help            Show this list of commands.\n"
    "    history         List the moves played since the start position.\n"
    "    level MPS B INC Play on a clock: MPS moves in B minutes (or min:sec),\n"
    "                    repeating (MPS 0: the whole game), plus INC seconds a move.\n"
    "    new             Start a new game from the standard position.\n"
    "    otim N          Your clock holds N centiseconds (shown by print).\n"
    "    ping N          Answer \"pong N\" (N a decimal number), even while the\n"
    "                    engine thinks.\n"
    "    print           Show the board.\n"
    "    quit            Leave the program.\n"
    "    rotate          Turn the board drawing around (also `flip'): Black's side,\n"
    "                    squares 1-4, is at the top at first, as in PDN diagrams.\n"
    "    setboard FEN    Set up the position FEN, e.g. B:W18,24,K30:B1,2,K9.\n"
    "    sd DEPTH        Search at most DEPTH plies deep (`unlimited': no limit).\n"
    "    st TIME         Think at most TIME seconds per move (default 5;\n"
    "                    `unlimited': no limit). Ends a level clock.\n"
    "    time N          The engine's clock holds N centiseconds (after level).\n"
    "    undo            Take back the last move (with the engine's answer to it).\n"
    "    verbose         Show or hide the engine's thinking.\n"
    "    white           Put White on move; the engine takes Black.\n"
    "    MOVE            Play a move: 10-14, a capture 11x18, a multi-jump whole\n"
    "                    (10x17x26) or one jump per line (10x17, then 17x26).\n";

static void forget_expected(Console *c)
{
    c->have_expected = false;
}

/* A new game record starting from B (history, multi-jump and expected reply forgotten). */
static void restart_from(Console *c, const Board *b)
{
    game_init(&c->game, &RULES_ENGLISH, b);
    c->part_len = 0;
    c->part_splits = 0;
    forget_expected(c);
}

static Next cmd_easy(Console *c, const char *arg, const char *line)
{
    c->ponder = false;
    return NEXT_PROMPT;
}

static Next cmd_hard(Console *c, const char *arg, const char *line)
{
    c->ponder = true;
    return NEXT_PROMPT;
}

static Next cmd_help(Console *c, const char *arg, const char *line)
{
    console_out("%s", HELP_TEXT);
    return NEXT_PROMPT;
}

static Next cmd_ping(Console *c, const char *arg, const char *line)
{
    const char *n;
    if (!console_is_ping(line, &n))
        console_error("illegal option, N must be a decimal number", line);
    else
        console_out("pong %.*s\n", (int)strcspn(n, " \t"), n);
    return NEXT_PROMPT;
}

static Next cmd_sd(Console *c, const char *arg, const char *line)
{
    if (strcmp(arg, "unlimited") == 0) {
        c->depth = 0;
        return NEXT_PROMPT;
    }
    char *end;
    errno = 0;
    long v = strtol(arg, &end, 10);
    if (*end != '\0' || errno == ERANGE || v < 1 || v > CONSOLE_MAX_DEPTH) {
        char reason[80];
        snprintf(reason, sizeof reason, "illegal option, DEPTH must be 1 to %d or `unlimited'",
                 CONSOLE_MAX_DEPTH);
        console_error(reason, line);
    } else
        c->depth = (int)v;
    return NEXT_PROMPT;
}

static Next cmd_st(Console *c, const char *arg, const char *line)
{
    if (strcmp(arg, "unlimited") == 0) {
        c->time = 0;
        c->has_clock = false;
        return NEXT_PROMPT;
    }
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    if (*end != '\0' || errno == ERANGE || !isfinite(v) || v <= 0 || v > 1e6)
        console_error("illegal option, TIME must be seconds, 0 < TIME <= 1000000, or `unlimited'",
                      line);
    else
        c->time = v, c->has_clock = false;
    return NEXT_PROMPT;
}

/* `level MPS BASE INC' (xboard): MPS moves per control (0: the whole game), BASE minutes or
 * minutes:seconds, INC seconds added after each move. Sets the engine's clock to BASE; `st'
 * goes back to a time per move. */
static Next cmd_level(Console *c, const char *arg, const char *line)
{
    char buf[CONSOLE_LINE_MAX], extra[2];
    char mps_text[32], base_text[32], inc_text[32];
    snprintf(buf, sizeof buf, "%s", arg);
    if (sscanf(buf, "%31s %31s %31s %1s", mps_text, base_text, inc_text, extra) != 3) {
        console_error("illegal option, write level MPS BASE INC, e.g. level 40 5 0", line);
        return NEXT_PROMPT;
    }
    char *end;
    errno = 0;
    long mps = strtol(mps_text, &end, 10);
    if (*end != '\0' || errno == ERANGE || mps < 0 || mps > 1000) {
        console_error("illegal option, MPS must be moves per control, 0 to 1000", line);
        return NEXT_PROMPT;
    }
    /* BASE: minutes, or minutes:seconds; the same text timecontrol.c reads as seconds after
     * turning minutes into seconds. */
    double minutes = 0, seconds = 0;
    char *colon = strchr(base_text, ':');
    errno = 0;
    minutes = strtod(base_text, &end);
    bool ok = end != base_text && errno != ERANGE && isfinite(minutes) && minutes >= 0 &&
              (colon ? end == colon : *end == '\0');
    if (ok && colon) {
        seconds = strtod(colon + 1, &end);
        ok = end != colon + 1 && *end == '\0' && errno != ERANGE && isfinite(seconds) &&
             seconds >= 0 && seconds < 60 && minutes == floor(minutes);
    }
    double base = minutes * 60 + seconds;
    if (!ok || base <= 0 || base > 86400) {
        console_error("illegal option, BASE must be minutes or minutes:seconds, up to 1440", line);
        return NEXT_PROMPT;
    }
    errno = 0;
    double inc = strtod(inc_text, &end);
    if (end == inc_text || *end != '\0' || errno == ERANGE || !isfinite(inc) || inc < 0 ||
        inc > 3600) {
        console_error("illegal option, INC must be seconds, 0 to 3600", line);
        return NEXT_PROMPT;
    }
    c->tc = (TimeControl){.base = base, .inc = inc, .moves = (int)mps};
    tc_clock_start(&c->tc, &c->clock);
    c->has_clock = true;
    return NEXT_PROMPT;
}

/* Reads a clock of `time' or `otim': N centiseconds, a whole number. */
static bool read_centiseconds(const char *arg, const char *line, double *out)
{
    char *end;
    errno = 0;
    long v = strtol(arg, &end, 10);
    if (end == arg || *end != '\0' || errno == ERANGE || v < 0 || v > 8640000) {
        console_error("illegal option, N must be centiseconds, 0 to 8640000", line);
        return false;
    }
    *out = (double)v / 100;
    return true;
}

/* `time N': the engine's clock holds N centiseconds (after `level'). */
static Next cmd_time(Console *c, const char *arg, const char *line)
{
    double v;
    if (!read_centiseconds(arg, line, &v))
        return NEXT_PROMPT;
    if (!c->has_clock) {
        console_error("no clock: set one with level MPS BASE INC first", line);
        return NEXT_PROMPT;
    }
    c->clock.left = v;
    return NEXT_PROMPT;
}

/* `otim N': the user's clock holds N centiseconds. The search does not use it (as most engines,
 * it plans on its own clock); `print' shows both. */
static Next cmd_otim(Console *c, const char *arg, const char *line)
{
    double v;
    if (read_centiseconds(arg, line, &v))
        c->opp_clock = v;
    return NEXT_PROMPT;
}

static Next cmd_verbose(Console *c, const char *arg, const char *line)
{
    c->verbose = !c->verbose;
    console_out("  Verbose mode %s.\n", c->verbose ? "on" : "off");
    return NEXT_PROMPT;
}

static Next cmd_print(Console *c, const char *arg, const char *line)
{
    console_show_position(c);
    if (c->has_clock) {
        char tc[TC_TEXT_LEN];
        tc_format(&c->tc, tc, sizeof tc);
        console_out("  Clock %s: engine %.2f s\n", tc, c->clock.left);
    }
    if (c->opp_clock >= 0)
        console_out("  Your clock: %.2f s\n", c->opp_clock);
    return NEXT_PROMPT;
}

static Next cmd_rotate(Console *c, const char *arg, const char *line)
{
    c->flipped = !c->flipped;
    console_show_position(c);
    return NEXT_PROMPT;
}

static Next cmd_history(Console *c, const char *arg, const char *line)
{
    for (int i = 0; i < c->game.ply; i++) {
        const Move *m = &c->game.moves[i];
        print_typed(m->path, m->len, c->splits[i], move_is_capture(m));
    }
    if (c->part_len > 0)
        print_typed(c->part, c->part_len, c->part_splits, true);
    return NEXT_PROMPT;
}

static Next cmd_new(Console *c, const char *arg, const char *line)
{
    restart_from(c, NULL);
    c->force = false;
    c->engine_side = WHITE;
    engine_new_game(c->engine);
    console_show_position(c);
    return NEXT_PROMPT;
}

static Next cmd_force(Console *c, const char *arg, const char *line)
{
    c->force = true;
    return NEXT_PROMPT;
}

static Next cmd_quit(Console *c, const char *arg, const char *line)
{
    return NEXT_QUIT;
}

static Next cmd_go(Console *c, const char *arg, const char *line)
{
    if (c->part_len > 0) {
        console_error("jump not finished", line);
        return NEXT_PROMPT;
    }
    if (console_game_over(c)) {
        console_error("game is over", line);
        return NEXT_PROMPT;
    }
    c->force = false;
    c->engine_side = c->game.board.side;
    console_out("  Thinking ...\n");
    console_start_search(c, CONSOLE_THINK, true);
    return NEXT_NOTHING;
}

static Next cmd_analyze(Console *c, const char *arg, const char *line)
{
    if (c->part_len > 0) {
        console_error("jump not finished", line);
        return NEXT_PROMPT;
    }
    console_out("  Analyzing ...\n");
    console_start_search(c, CONSOLE_ANALYZE, true);
    return NEXT_NOTHING;
}

/* `black' and `white': SIDE on move, the engine plays the other side. */
static Next set_side(Console *c, int side, const char *line)
{
    if (c->part_len > 0) {
        console_error("jump not finished", line);
        return NEXT_PROMPT;
    }
    if (c->game.board.side != side) {
        Board b = c->game.board;
        b.side = side;
        b.key = board_compute_key(&b);
        restart_from(c, &b);
    }
    c->force = false;
    c->engine_side = side ^ 1;
    return NEXT_PROMPT;
}

static Next cmd_black(Console *c, const char *arg, const char *line)
{
    return set_side(c, BLACK, line);
}

static Next cmd_white(Console *c, const char *arg, const char *line)
{
    return set_side(c, WHITE, line);
}

static Next cmd_undo(Console *c, const char *arg, const char *line)
{
    if (c->part_len > 0) {
        /* Take back the last jump typed. */
        int k = c->part_len - 2;
        while (k > 0 && !(c->part_splits & (1u << k)))
            k--;
        c->part_splits &= (uint16_t) ~(1u << k);
        c->part_len = k > 0 ? k + 1 : 0;
    } else if (c->game.ply == 0) {
        console_error("no move to undo", line);
        return NEXT_PROMPT;
    } else {
        game_undo(&c->game);
        /* Playing a side, take back the engine's answer too, so that the user is on move. */
        if (!c->force && c->game.board.side == c->engine_side && c->game.ply > 0)
            game_undo(&c->game);
        forget_expected(c);
    }
    console_show_position(c);
    return NEXT_PROMPT;
}

/* The FEN of ARG, which may also be the line the console prints, `;[FEN "..."]' (or the PDN tag
 * `[FEN "..."]'), copied into BUF of SIZE bytes. */
static const char *fen_of(const char *arg, char *buf, size_t size)
{
    const char *p = arg;
    if (*p == ';')
        p++;
    size_t n = strlen(p);
    if (strncmp(p, "[FEN \"", 6) != 0 || n < 8 || strcmp(p + n - 2, "\"]") != 0)
        return arg;
    snprintf(buf, size, "%.*s", (int)(n - 8), p + 6);
    return buf;
}

static Next cmd_setboard(Console *c, const char *arg, const char *line)
{
    Board b;
    ParseError e;
    char fen[CONSOLE_LINE_MAX];
    arg = fen_of(arg, fen, sizeof fen);
    if (!notation_parse_fen(arg, &b, &e)) {
        char reason[ERR_LEN + 16];
        snprintf(reason, sizeof reason, "illegal FEN, %s", e.msg);
        console_error(reason, arg);
        return NEXT_PROMPT;
    }
    char why[ERR_LEN];
    if (!board_reachable(&b, why)) {
        char reason[ERR_LEN + 16];
        snprintf(reason, sizeof reason, "illegal FEN, %s", why);
        console_error(reason, arg);
        return NEXT_PROMPT;
    }
    restart_from(c, &b);
    engine_new_game(c->engine);
    console_show_position(c);
    /* A finished position says so at once, not at the next `go'. */
    console_announce_result(c);
    return NEXT_PROMPT;
}

/* Plays the user's whole move M, typed in pieces at the path indices SPLITS. */
static Next play_user_move(Console *c, const Move *m, uint16_t splits, const char *line)
{
    if (!game_play(&c->game, m)) {
        console_error("game record full", line);
        return NEXT_PROMPT;
    }
    c->splits[c->game.ply - 1] = splits;
    c->part_len = 0;
    c->part_splits = 0;
    forget_expected(c);
    console_show_position(c);
    if (console_announce_result(c))
        return NEXT_PROMPT;
    if (!c->force && c->game.board.side == c->engine_side) {
        console_out("  Thinking ...\n");
        console_start_search(c, CONSOLE_THINK, true);
        return NEXT_NOTHING;
    }
    return NEXT_PROMPT;
}

/* A move, a jump of a multi-jump, or anything that is not a command. */
static Next cmd_move(Console *c, const char *line)
{
    uint8_t sq[MAX_JUMPS + 4];
    bool capture;
    ParseError e;
    int n = notation_parse_squares(line, sq, (int)sizeof sq, &capture, &e);
    if (n == 0) {
        /* Squares joined by dashes that would read as a capture path are merely illegal. */
        char alt[CONSOLE_LINE_MAX];
        snprintf(alt, sizeof alt, "%s", line);
        for (char *p = alt; *p; p++)
            if (*p == '-')
                *p = 'x';
        if (notation_parse_squares(alt, sq, (int)sizeof sq, &capture, &e) == 0) {
            char reason[ERR_LEN + 16];
            notation_parse_squares(line, sq, (int)sizeof sq, &capture, &e);
            snprintf(reason, sizeof reason, "illegal move, %s", e.msg);
            console_error(reason, line);
        } else
            console_error("illegal move", line);
        return NEXT_PROMPT;
    }
    /* The path typed so far: a jump under way, then these squares. */
    uint8_t path[CONSOLE_PATH_MAX];
    int len = 0;
    uint16_t splits = 0;
    if (c->part_len > 0) {
        if (!capture || sq[0] != c->part[c->part_len - 1] ||
            c->part_len + n - 1 > CONSOLE_PATH_MAX) {
            console_error("illegal move", line);
            return NEXT_PROMPT;
        }
        memcpy(path, c->part, (size_t)c->part_len);
        len = c->part_len;
        splits = (uint16_t)(c->part_splits | (1u << (c->part_len - 1)));
        for (int i = 1; i < n; i++)
            path[len++] = sq[i];
    } else {
        if (n > CONSOLE_PATH_MAX) {
            console_error("illegal move", line);
            return NEXT_PROMPT;
        }
        memcpy(path, sq, (size_t)n);
        len = n;
    }

    /* 1. Every square of a legal route: the move. 2. The start of a capture route: a jump
     * under way. 3. First and last squares (and some between): the move they name. */
    MoveList all;
    movegen_generate(&c->game.board, c->game.rules, true, &all);
    for (int i = 0; i < all.count; i++) {
        const Move *m = &all.moves[i];
        if (move_is_capture(m) == capture && m->len == len &&
            memcmp(m->path, path, (size_t)len) == 0)
            return play_user_move(c, m, splits, line);
    }
    if (capture)
        for (int i = 0; i < all.count; i++) {
            const Move *m = &all.moves[i];
            if (move_is_capture(m) && m->len > len && memcmp(m->path, path, (size_t)len) == 0) {
                memcpy(c->part, path, (size_t)len);
                c->part_len = len;
                c->part_splits = splits;
                forget_expected(c);
                console_show_position(c);
                return NEXT_PROMPT;
            }
        }
    Move m;
    if (c->part_len == 0 && notation_parse_move(&c->game.board, c->game.rules, line, &m, &e))
        return play_user_move(c, &m, 0, line);
    console_error(c->part_len == 0 ? e.msg : "illegal move", line);
    return NEXT_PROMPT;
}

typedef struct {
    const char *name;
    Next (*run)(Console *c, const char *arg, const char *line);
    int args; /* 0: none, 1: one required */
} ConsoleCommand;

static const ConsoleCommand COMMANDS[] = {
    /* clang-format off */
    {"?", cmd_help, 0},
    {"analyze", cmd_analyze, 0},
    {"black", cmd_black, 0},
    {"easy", cmd_easy, 0},
    {"flip", cmd_rotate, 0},
    {"force", cmd_force, 0},
    {"go", cmd_go, 0},
    {"hard", cmd_hard, 0},
    {"help", cmd_help, 0},
    {"history", cmd_history, 0},
    {"level", cmd_level, 1},
    {"new", cmd_new, 0},
    {"otim", cmd_otim, 1},
    {"ping", cmd_ping, 1},
    {"print", cmd_print, 0},
    {"quit", cmd_quit, 0},
    {"rotate", cmd_rotate, 0},
    {"setboard", cmd_setboard, 1},
    {"sd", cmd_sd, 1},
    {"st", cmd_st, 1},
    {"time", cmd_time, 1},
    {"undo", cmd_undo, 0},
    {"verbose", cmd_verbose, 0},
    {"white", cmd_white, 0},
    /* clang-format on */
};

/* Carries out one input line. Returns false to quit. */
bool console_execute(Console *c, char *line, LineStatus status)
{
    Next next = NEXT_PROMPT;
    if (status == LINE_TOO_LONG) {
        char shown[64];
        snprintf(shown, sizeof shown, "%.32s...", line);
        console_error("line too long", shown);
    } else if (status == LINE_NUL) {
        console_error("NUL byte in the line", line);
    } else {
        size_t n = strlen(line);
        while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t'))
            line[--n] = '\0';
        while (*line == ' ' || *line == '\t')
            line++;
        size_t word = strcspn(line, " \t");
        const char *arg = line + word;
        while (*arg == ' ' || *arg == '\t')
            arg++;
        /* Command names in any case (`HELP' is `help'); a first word of letters alone that
         * names none is an unknown command, anything else a move. */
        const ConsoleCommand *cmd = NULL;
        bool letters = word > 0;
        for (size_t i = 0; i < word; i++)
            letters = letters && isalpha((unsigned char)line[i]);
        for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
            if (strlen(COMMANDS[i].name) == word && strncasecmp(COMMANDS[i].name, line, word) == 0)
                cmd = &COMMANDS[i];
        if (*line == '\0') {
            /* An empty line: just the prompt again. */
        } else if (!cmd && letters) {
            console_error("unknown command, `help' lists them", line);
        } else if (!cmd) {
            next = cmd_move(c, line);
        } else if (cmd->args == 1 && *arg == '\0') {
            console_error("option missing", line);
        } else if (cmd->args == 0 && *arg != '\0') {
            char reason[64];
            snprintf(reason, sizeof reason, "unexpected argument `%.32s'", arg);
            console_error(reason, line);
        } else {
            next = cmd->run(c, arg, line);
        }
    }
    if (next == NEXT_QUIT)
        return false;
    if (next == NEXT_PROMPT) {
        console_prompt(c);
        console_auto_search(c);
    }
    return true;
}
