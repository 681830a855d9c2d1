/*
 * play_setup.c - the set-up of `ponder play': its options, the questions asked before the game
 * (each with a default taken on Enter), and the line reader every question of the game uses.
 *
 * Answers are read a byte at a time up to the newline, so a line of any length, a NUL byte or a
 * last line without its newline is handled without reading past a buffer; a bad answer is met
 * with what was wrong and the same question again; the end of input is reported to the caller,
 * which ends the program cleanly.
 */
#include "play.h"

#include "boardfile.h"
#include "cli.h"
#include "notation.h"
#include "opts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* ---- Reading answers ---- */

/* Removes leading and trailing blanks (and a CR before the newline) from S in place. */
char *play_trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

/* Prints PROMPT (and DEFAULT in brackets, if any) and reads one answer into BUF. An empty answer
 * becomes DEFAULT. Returns ASK_EOF at the end of input. A line too long for BUF, or holding a NUL
 * byte, is refused and the question asked again. *OUT points at the trimmed answer inside BUF. */
AskStatus play_ask(Play *p, const char *prompt, const char *dflt, char *buf, size_t size,
                   char **out)
{
    for (;;) {
        if (dflt)
            printf("%s%s%s [%s] ", play_view_bold(&p->style), prompt, play_view_reset(&p->style),
                   dflt);
        else
            printf("%s%s%s ", play_view_bold(&p->style), prompt, play_view_reset(&p->style));
        fflush(stdout);
        size_t n = 0;
        bool too_long = false, nul = false;
        int c;
        while ((c = getchar()) != EOF && c != '\n') {
            if (c == '\0')
                nul = true;
            else if (n + 1 < size)
                buf[n++] = (char)c;
            else
                too_long = true;
        }
        buf[n] = '\0';
        if (c == EOF && ferror(stdin) && errno == EINTR) { /* Ctrl-C: play_interrupted is set */
            clearerr(stdin);
            printf("\n");
            return ASK_EOF;
        }
        if (c == EOF && n == 0 && !too_long && !nul) {
            printf("\n");
            return ASK_EOF;
        }
        if (too_long || nul) {
            if (p->echo)
                printf("%.40s...\n", buf);
            if (too_long)
                printf("%sThat answer is too long (more than %zu characters).%s\n",
                       play_view_warn(&p->style), size - 1, play_view_reset(&p->style));
            else
                printf("%sThat answer holds a NUL byte.%s\n", play_view_warn(&p->style),
                       play_view_reset(&p->style));
            continue;
        }
        char *a = play_trim(buf);
        if (p->echo)
            printf("%s\n", a);
        if (*a == '\0' && dflt) {
            snprintf(buf, size, "%s", dflt);
            a = buf;
        }
        *out = a;
        return ASK_OK;
    }
}

/* Whether WORD is a prefix (at least MIN characters, any case) of FULL. */
static bool abbrev(const char *word, const char *full, size_t min)
{
    size_t n = strlen(word);
    return n >= min && n <= strlen(full) && strncasecmp(word, full, n) == 0;
}

/* 1 for yes, 0 for no, -1 for anything else. */
int play_yes_no(const char *a)
{
    if (abbrev(a, "yes", 1))
        return 1;
    if (abbrev(a, "no", 1))
        return 0;
    return -1;
}

void play_complain(const Play *p, const char *msg)
{
    printf("%s%s%s\n", play_view_warn(&p->style), msg, play_view_reset(&p->style));
}

/* ---- Set-up questions ---- */

/* play_ask for a set-up question, where `quit' (or exit, q) leaves as the end of input does. */
static AskStatus setup_ask(Play *p, const char *prompt, const char *dflt, char *buf, size_t size,
                           char **out)
{
    if (play_ask(p, prompt, dflt, buf, size, out) == ASK_EOF)
        return ASK_EOF;
    if (strcasecmp(*out, "quit") == 0 || strcasecmp(*out, "exit") == 0 ||
        strcasecmp(*out, "q") == 0)
        return ASK_EOF;
    return ASK_OK;
}

const char *play_player_name(Player pl)
{
    return pl == HUMAN ? "human" : "computer";
}

/* Parses "human" / "computer" (or a prefix, or a few synonyms); false if it is neither. */
static bool parse_player(const char *a, Player *out)
{
    if (abbrev(a, "human", 1) || abbrev(a, "person", 2) || abbrev(a, "me", 2)) {
        *out = HUMAN;
        return true;
    }
    if (abbrev(a, "computer", 1) || abbrev(a, "cpu", 3) || abbrev(a, "engine", 1) ||
        abbrev(a, "ponder", 2)) {
        *out = COMPUTER;
        return true;
    }
    return false;
}

static AskStatus ask_player(Play *p, int color)
{
    char buf[LINE_MAX_LEN], *a, prompt[64];
    snprintf(prompt, sizeof prompt, "%s%s: human or computer?", play_color_name(color),
             color == BLACK ? " (moves first)" : "");
    for (;;) {
        if (setup_ask(p, prompt, play_player_name(color == BLACK ? HUMAN : COMPUTER), buf,
                      sizeof buf, &a) == ASK_EOF)
            return ASK_EOF;
        if (parse_player(a, &p->opt.player[color]))
            return ASK_OK;
        char msg[LINE_MAX_LEN + 80];
        snprintf(msg, sizeof msg, "`%s' is neither: answer human or computer (h or c is enough).",
                 a);
        play_complain(p, msg);
    }
}

/* Parses a time limit in seconds; on failure writes why into MSG. */
static bool parse_time(const char *a, double *out, char *msg, size_t size)
{
    char *end;
    errno = 0;
    double v = strtod(a, &end);
    if (*a == '\0' || *end != '\0' || end == a) {
        snprintf(msg, size, "`%s' is not a number of seconds (try 3, or 0.5).", a);
        return false;
    }
    if (errno == ERANGE || !isfinite(v) || v > TIME_MAX) {
        snprintf(msg, size, "`%s' seconds is too long: at most %.0f (a day).", a, TIME_MAX);
        return false;
    }
    if (!(v > 0)) {
        snprintf(msg, size, "The time limit must be more than 0 seconds.");
        return false;
    }
    *out = v;
    return true;
}

static AskStatus ask_time(Play *p)
{
    char buf[LINE_MAX_LEN], *a, dflt[32];
    snprintf(dflt, sizeof dflt, "%g", p->opt.time);
    for (;;) {
        if (setup_ask(p, "The computer's time limit per move, in seconds?", dflt, buf, sizeof buf,
                      &a) == ASK_EOF)
            return ASK_EOF;
        char msg[LINE_MAX_LEN + 80];
        if (parse_time(a, &p->opt.time, msg, sizeof msg))
            return ASK_OK;
        play_complain(p, msg);
    }
}

/* Reads board file PATH into the game's start position. Returns false with the reason in MSG. */
bool play_load_board(Play *p, const char *path, bool set_time, char *msg, size_t size)
{
    char err[512];
    char *text = util_read_file(path, BOARD_FILE_MAX, NULL, err, sizeof err);
    if (!text) {
        snprintf(msg, size, "Cannot read the board: %s.", err);
        return false;
    }
    Board b;
    double t;
    ParseError e;
    bool ok = boardfile_parse(text, &b, &t, &e);
    free(text);
    if (!ok) {
        char where[ERR_LEN + 64];
        parse_error_format(&e, where, sizeof where);
        snprintf(msg, size, "%s is not a board file: %s.", path, where);
        return false;
    }
    if (!board_reachable(&b, err)) { /* the rule every program applies to a set-up position */
        snprintf(msg, size, "%s: %s.", path, err);
        return false;
    }
    game_init(&p->game, &RULES_ENGLISH, &b);
    if (set_time)
        p->opt.time = t;
    return true;
}

/* Says what a board file set. */
static void loaded(const Play *p, const char *path)
{
    printf("Loaded %s: %s to move", path, play_color_name(p->game.board.side));
    if (!p->opt.time_given)
        printf(", %g s per computer move", p->opt.time);
    printf(".\n");
}

static AskStatus ask_board(Play *p)
{
    char buf[LINE_MAX_LEN], *a;
    for (;;) {
        if (setup_ask(p, "Load a board from a file?", "no", buf, sizeof buf, &a) == ASK_EOF)
            return ASK_EOF;
        int yn = play_yes_no(a);
        if (yn == 0)
            return ASK_OK;
        if (yn == 1)
            break;
        char msg[LINE_MAX_LEN + 600];
        if (access(a, R_OK) == 0) { /* the path itself, without the yes first */
            if (play_load_board(p, a, !p->opt.time_given, msg, sizeof msg)) {
                loaded(p, a);
                return ASK_OK;
            }
            play_complain(p, msg);
            continue;
        }
        snprintf(msg, sizeof msg, "`%s': please answer yes or no.", a);
        play_complain(p, msg);
    }
    for (;;) {
        if (setup_ask(p, "Board file (Enter for the standard start):", NULL, buf, sizeof buf, &a) ==
            ASK_EOF)
            return ASK_EOF;
        if (*a == '\0')
            return ASK_OK;
        char msg[LINE_MAX_LEN + 600];
        if (play_load_board(p, a, !p->opt.time_given, msg, sizeof msg)) {
            loaded(p, a);
            return ASK_OK;
        }
        play_complain(p, msg);
    }
}

/* Asks every set-up question the options did not answer. */
AskStatus play_setup(Play *p)
{
    for (int c = BLACK; c <= WHITE; c++)
        if (!p->opt.player_given[c] && ask_player(p, c) == ASK_EOF)
            return ASK_EOF;
    bool computer = p->opt.player[BLACK] == COMPUTER || p->opt.player[WHITE] == COMPUTER;
    if (computer && !p->opt.time_given && ask_time(p) == ASK_EOF)
        return ASK_EOF;
    if (!p->opt.board_path && ask_board(p) == ASK_EOF)
        return ASK_EOF;
    return ASK_OK;
}

/* ---- Options ---- */

/* The engine options `ponder play' takes. */
enum { PLAY_ENGINE_OPTS = OPTS_ENGINE | OPTS_BOOK };

void play_usage(FILE *f)
{
    fprintf(f,
            "usage: ponder play [--black human|computer] [--white human|computer] [--time S]\n"
            "                   [--board FILE] [--depth N] [--nodes N] [--color WHEN]\n"
            "                   [--hash MB] [--threads N] [--weights FILE] [--egdb DIR]\n"
            "                   [--eval classic|net] [--net FILE] [--book FILE|none]\n"
            "                   [--book-variety N] [--contempt N]\n"
            "\n"
            "Plays checkers at the terminal: you against the computer, against a friend, or the\n"
            "computer against itself. It asks who plays each side, the computer's time limit and\n"
            "whether to start from a board file; each option below answers one question.\n"
            "  --black WHO     who plays Black (moves first): human or computer\n"
            "  --white WHO     who plays White\n"
            "  --time S        the computer's time per move in seconds (default %g; a board\n"
            "                  file's own limit is used unless this is given)\n"
            "  --board FILE    start from a board file: 32 digits 0-4 in square order,\n"
            "                  then the player to move (1 Black, 2 White), then the time limit\n"
            "  --depth N       the computer searches at most N plies (also within the time)\n"
            "  --nodes N       the computer searches about N nodes at most\n"
            "  --color WHEN    auto (default: colours on a terminal unless NO_COLOR is set),\n"
            "                  always, or never\n",
            TIME_DEFAULT);
    opts_help(f, PLAY_ENGINE_OPTS, NULL, 2, 18);
    fprintf(f,
            "During the game type a move's number or the move (11-15, 9x18x27), or undo, hint,\n"
            "save FILE, board, flip, help, quit. quit or Ctrl-D at any question leaves; quit or\n"
            "Ctrl-C during a game first offers to save it.\n");
}

static bool parse_player_option(const char *opt, const char *v, Player *out)
{
    if (parse_player(v, out))
        return true;
    fprintf(stderr, "ponder play: %s: `%s' is not human or computer\n", opt, v);
    return false;
}

int play_parse_options(int argc, char **argv, PlayOptions *o)
{
    enum { OPT_BLACK = OPTS_LONG, OPT_WHITE, OPT_TIME, OPT_BOARD, OPT_DEPTH, OPT_NODES, OPT_COLOR };
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {"black", required_argument, NULL, OPT_BLACK},
        {"white", required_argument, NULL, OPT_WHITE},
        {"time", required_argument, NULL, OPT_TIME},
        {"board", required_argument, NULL, OPT_BOARD},
        {"depth", required_argument, NULL, OPT_DEPTH},
        {"nodes", required_argument, NULL, OPT_NODES},
        {"color", required_argument, NULL, OPT_COLOR},
        {"colour", required_argument, NULL, OPT_COLOR},
        {0},
    };
    Opts p;
    opts_begin(&p, "ponder play", argc, argv, "h", longopts, PLAY_ENGINE_OPTS, &o->engine);
    for (int c; (c = opts_next(&p)) != OPTS_END;) {
        long n;
        double d;
        switch (c) {
        case 'h': play_usage(stdout); return 0;
        case OPT_BLACK:
        case OPT_WHITE: {
            int side = c == OPT_BLACK ? BLACK : WHITE;
            if (!parse_player_option(side == BLACK ? "--black" : "--white", optarg,
                                     &o->player[side]))
                return 2;
            o->player_given[side] = true;
            break;
        }
        case OPT_TIME:
            if (!cli_double("--time", optarg, 0.001, TIME_MAX, &d))
                return 2;
            o->time = d;
            o->time_given = true;
            break;
        case OPT_BOARD: o->board_path = optarg; break;
        case OPT_DEPTH:
            if (!cli_long("--depth", optarg, 1, MAX_PLY - 1, &n))
                return 2;
            o->depth = (int)n;
            break;
        case OPT_NODES:
            if (!cli_long("--nodes", optarg, 1, 1000000000000L, &n))
                return 2;
            o->nodes = (uint64_t)n;
            break;
        case OPT_COLOR:
            if (strcmp(optarg, "auto") == 0)
                o->color = -1;
            else if (strcmp(optarg, "always") == 0)
                o->color = 1;
            else if (strcmp(optarg, "never") == 0)
                o->color = 0;
            else {
                fprintf(stderr, "ponder play: --color: `%s' is not auto, always or never\n",
                        optarg);
                return 2;
            }
            break;
        default: return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "ponder play: unexpected argument `%s'\n", argv[optind]);
        return 2;
    }
    return -1;
}

/* Colours on a terminal that can show them, unless NO_COLOR (https://no-color.org) says no. */
void play_choose_style(Play *p)
{
    const char *no_color = getenv("NO_COLOR"), *term = getenv("TERM"), *ct = getenv("COLORTERM");
    bool tty = isatty(STDOUT_FILENO);
    if (p->opt.color >= 0)
        p->style.color = p->opt.color == 1;
    else
        p->style.color = tty && !(no_color && *no_color) && !(term && strcmp(term, "dumb") == 0);
    p->style.rich = (term && strstr(term, "256")) || (ct && *ct);
    p->live = tty && !(term && strcmp(term, "dumb") == 0);
    p->echo = !isatty(STDIN_FILENO);
}
