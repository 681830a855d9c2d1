/*
 * play.c - `ponder play': a game of checkers at the terminal (seed 003). A person plays the
 * computer, or a friend, or watches the computer play itself.
 *
 * The program asks its set-up questions in a fixed order (who plays Black, who plays White, the
 * computer's time limit, whether to load a board file), each with a default taken on Enter; an
 * option answers each question in advance, so a script can start a game with no questions. The
 * game is a Game record (game.h), so it ends by the same rules as every other front end. Every
 * turn the board is drawn again below the last one (the screen is never cleared, so the game's
 * history stays on screen); a human turn lists the legal moves numbered and takes a number, the
 * move itself, or a command; a computer turn is one engine_search() within the limits.
 *
 * Input is read a line at a time. Every answer is checked; a bad one is answered with what was
 * wrong and the question is asked again. End of input at any question ends the program cleanly
 * with status 0. When stdin is not a terminal the answers are echoed, so that a piped game reads
 * like one played by hand.
 */
#include "bitboard.h"
#include "cli.h"
#include "command.h"
#include "engine.h"
#include "notation.h"
#include "pdn.h"
#include "play_view.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

enum {
    LINE_MAX_LEN = 1024,          /* longest answer read; longer lines are refused */
    BOARD_FILE_MAX = 1 << 16,     /* a board file is ~150 bytes; anything past this is not one */
};

#define TIME_DEFAULT 3.0       /* the computer's default time per move, seconds */
#define TIME_MAX 86400.0       /* a day per move is more than anyone means */

typedef enum { HUMAN, COMPUTER } Player;

static const char *const COLOR_NAME[COLOR_NB] = {"Black", "White"};

typedef struct {
    Player player[COLOR_NB];   /* who plays each colour */
    bool player_given[COLOR_NB]; /* set by --black / --white (no question) */
    double time;               /* the computer's time per move, seconds */
    bool time_given;           /* set by --time (no question; a board file does not change it) */
    const char *board_path;    /* --board FILE, or NULL */
    int depth;                 /* --depth: search depth limit (0: none) */
    uint64_t nodes;            /* --nodes: node limit (0: none) */
    int color;                 /* --color: -1 auto, 0 never, 1 always */
    EngineOptions engine;      /* --hash, --threads, --weights, --egdb */
} PlayOptions;

typedef enum { ASK_OK, ASK_EOF } AskStatus;

typedef enum { TURN_PLAYED, TURN_AGAIN, TURN_QUIT } TurnStatus;

typedef struct {
    PlayOptions opt;     /* the options, completed by the answers to the set-up questions */
    ViewStyle style;     /* colours or plain text */
    bool echo;           /* echo answers (stdin is not a terminal) */
    bool live;           /* show the search's progress on one line (stdout is a terminal) */
    Engine *engine;      /* the engine for computer moves and hints */
    Game game;           /* the game so far */
    SearchInfo last;     /* the last finished iteration of the running search */
    bool have_last;      /* whether last is set */
} Play;

/* ---- Reading answers ---- */

/* Removes leading and trailing blanks (and a CR before the newline) from S in place. */
static char *trim(char *s)
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
static AskStatus ask(Play *p, const char *prompt, const char *dflt, char *buf, size_t size,
                     char **out)
{
    for (;;) {
        if (dflt)
            printf("%s%s%s [%s] ", view_bold(&p->style), prompt, view_reset(&p->style), dflt);
        else
            printf("%s%s%s ", view_bold(&p->style), prompt, view_reset(&p->style));
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
        if (c == EOF && n == 0 && !too_long && !nul) {
            printf("\n");
            return ASK_EOF;
        }
        if (too_long || nul) {
            if (p->echo)
                printf("%.40s...\n", buf);
            if (too_long)
                printf("%sThat answer is too long (more than %zu characters).%s\n",
                       view_warn(&p->style), size - 1, view_reset(&p->style));
            else
                printf("%sThat answer holds a NUL byte.%s\n", view_warn(&p->style),
                       view_reset(&p->style));
            continue;
        }
        char *a = trim(buf);
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
static int yes_no(const char *a)
{
    if (abbrev(a, "yes", 1))
        return 1;
    if (abbrev(a, "no", 1))
        return 0;
    return -1;
}

static void complain(const Play *p, const char *msg)
{
    printf("%s%s%s\n", view_warn(&p->style), msg, view_reset(&p->style));
}

/* ---- Set-up questions ---- */

static const char *player_name(Player pl) { return pl == HUMAN ? "human" : "computer"; }

/* Parses "human" / "computer" (or a prefix, or a few synonyms); false if it is neither. */
static bool parse_player(const char *a, Player *out)
{
    if (abbrev(a, "human", 1) || abbrev(a, "person", 1) || abbrev(a, "me", 2)) {
        *out = HUMAN;
        return true;
    }
    if (abbrev(a, "computer", 1) || abbrev(a, "cpu", 3) || abbrev(a, "engine", 1) ||
        abbrev(a, "ponder", 1)) {
        *out = COMPUTER;
        return true;
    }
    return false;
}

static AskStatus ask_player(Play *p, int color)
{
    char buf[LINE_MAX_LEN], *a, prompt[64];
    snprintf(prompt, sizeof prompt, "%s%s: human or computer?", COLOR_NAME[color],
             color == BLACK ? " (moves first)" : "");
    for (;;) {
        if (ask(p, prompt, player_name(color == BLACK ? HUMAN : COMPUTER), buf, sizeof buf, &a) ==
            ASK_EOF)
            return ASK_EOF;
        if (parse_player(a, &p->opt.player[color]))
            return ASK_OK;
        char msg[LINE_MAX_LEN + 80];
        snprintf(msg, sizeof msg, "`%s' is neither: answer human or computer (h or c is enough).",
                 a);
        complain(p, msg);
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
        if (ask(p, "The computer's time limit per move, in seconds?", dflt, buf, sizeof buf, &a) ==
            ASK_EOF)
            return ASK_EOF;
        char msg[LINE_MAX_LEN + 80];
        if (parse_time(a, &p->opt.time, msg, sizeof msg))
            return ASK_OK;
        complain(p, msg);
    }
}

/* Reads board file PATH into the game's start position. Returns false with the reason in MSG. */
static bool load_board(Play *p, const char *path, bool set_time, char *msg, size_t size)
{
    char err[512];
    char *text = cli_read_file(path, BOARD_FILE_MAX, NULL, err, sizeof err);
    if (!text) {
        snprintf(msg, size, "Cannot read the board: %s.", err);
        return false;
    }
    Board b;
    double t;
    ParseError e;
    bool ok = notation_parse_board_file(text, &b, &t, &e);
    free(text);
    if (!ok) {
        char where[ERR_LEN + 64];
        parse_error_format(&e, where, sizeof where);
        snprintf(msg, size, "%s is not a board file: %s.", path, where);
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
    printf("Loaded %s: %s to move", path, COLOR_NAME[p->game.board.side]);
    if (!p->opt.time_given)
        printf(", %g s per computer move", p->opt.time);
    printf(".\n");
}

static AskStatus ask_board(Play *p)
{
    char buf[LINE_MAX_LEN], *a;
    for (;;) {
        if (ask(p, "Load a board from a file?", "no", buf, sizeof buf, &a) == ASK_EOF)
            return ASK_EOF;
        int yn = yes_no(a);
        if (yn == 0)
            return ASK_OK;
        if (yn == 1)
            break;
        char msg[LINE_MAX_LEN + 600];
        if (access(a, R_OK) == 0) { /* the path itself, without the yes first */
            if (load_board(p, a, !p->opt.time_given, msg, sizeof msg)) {
                loaded(p, a);
                return ASK_OK;
            }
            complain(p, msg);
            continue;
        }
        snprintf(msg, sizeof msg, "`%s': please answer yes or no.", a);
        complain(p, msg);
    }
    for (;;) {
        if (ask(p, "Board file (Enter for the standard start):", NULL, buf, sizeof buf, &a) == ASK_EOF)
            return ASK_EOF;
        if (*a == '\0')
            return ASK_OK;
        char msg[LINE_MAX_LEN + 600];
        if (load_board(p, a, !p->opt.time_given, msg, sizeof msg)) {
            loaded(p, a);
            return ASK_OK;
        }
        complain(p, msg);
    }
}

/* Asks every set-up question the options did not answer. */
static AskStatus setup(Play *p)
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

/* ---- The game ---- */

/* The side to move at ply PLY of the game. */
static int side_at(const Game *g, int ply) { return g->start.side ^ (ply & 1); }

/* The PDN move number of the move at PLY ("1." for Black's first, "1..." if White begins). */
static int move_number(const Game *g, int ply) { return (ply + (g->start.side == WHITE)) / 2 + 1; }

static int count_humans(const Play *p)
{
    return (p->opt.player[BLACK] == HUMAN) + (p->opt.player[WHITE] == HUMAN);
}

/* The legal moves of the position, sorted by origin square then path, the order people read. */
static int compare_moves(const void *x, const void *y)
{
    const Move *a = x, *b = y;
    int n = a->len < b->len ? a->len : b->len;
    for (int i = 0; i < n; i++)
        if (a->path[i] != b->path[i])
            return (int)a->path[i] - (int)b->path[i];
    return (int)a->len - (int)b->len;
}

static int legal_moves(const Game *g, MoveList *list)
{
    movegen_generate(&g->board, g->rules, false, list);
    qsort(list->moves, (size_t)list->count, sizeof list->moves[0], compare_moves);
    return list->count;
}

static void show_position(const Play *p)
{
    const Game *g = &p->game;
    printf("\n");
    if (g->ply > 0) {
        char mv[64];
        notation_format_move(&g->moves[g->ply - 1], mv, sizeof mv);
        int mover = side_at(g, g->ply - 1);
        printf("  %s%d.%s %s%s\n", view_dim(&p->style), move_number(g, g->ply - 1),
               mover == WHITE ? ".." : "", mv, view_reset(&p->style));
    }
    view_board(stdout, &p->style, &g->board, g->ply > 0 ? &g->moves[g->ply - 1] : NULL);
    char count[COLOR_NB][48];
    for (int c = 0; c < COLOR_NB; c++) {
        int kings = bb_popcount(g->board.pieces[c] & g->board.kings);
        int men = bb_popcount(g->board.pieces[c]) - kings;
        snprintf(count[c], sizeof count[c], "%d %s, %d %s", men, men == 1 ? "man" : "men", kings,
                 kings == 1 ? "king" : "kings");
    }
    printf("    Black: %s   White: %s\n    Move %d, %s%s to move%s\n", count[BLACK], count[WHITE],
           move_number(g, g->ply), view_bold(&p->style), COLOR_NAME[g->board.side],
           view_reset(&p->style));
}

/* Search progress: remembers each finished iteration, shows it on a terminal, and stops the
 * search once the result is proven (a win or loss found within the depth fully searched, so a
 * deeper search cannot change it). */
static void on_iteration(const SearchInfo *info, void *ctx)
{
    Play *p = ctx;
    p->last = *info;
    p->have_last = true;
    if (p->live) {
        char score[48], mv[64] = "";
        view_score(info->score, score, sizeof score);
        if (info->pv_len > 0)
            notation_format_move(&info->pv[0], mv, sizeof mv);
        printf("\r  ... depth %d, %s, %.1f s, %s%-20s\r", info->depth, score, info->time, mv, "");
        fflush(stdout);
    }
    if (score_is_decisive(info->score) && score_plies_to_end(info->score) <= info->depth)
        engine_stop(p->engine);
}

/* Searches the current position within the limits; *SECONDS gets the time taken. */
static SearchResult think(Play *p, double *seconds)
{
    SearchLimits lim = {.depth = p->opt.depth, .time = p->opt.time, .nodes = p->opt.nodes};
    p->have_last = false;
    double t0 = cli_now();
    SearchResult r = engine_search(p->engine, &p->game, &lim, on_iteration, p);
    *seconds = cli_now() - t0;
    if (p->live) {
        printf("\r%60s\r", "");
        fflush(stdout);
    }
    return r;
}

/* " (depth 12, 2.95 s, eval +0.35)" for the search that gave R. */
static void describe_search(const SearchResult *r, double seconds, char *buf, size_t size)
{
    char score[48];
    view_score(r->info.score, score, sizeof score);
    snprintf(buf, size, "depth %d, %.2f s, %s%s", r->info.depth, seconds,
             score_is_decisive(r->info.score) ? "" : "eval ", score);
}

static TurnStatus computer_turn(Play *p)
{
    Game *g = &p->game;
    int side = g->board.side;
    MoveList list;
    char mv[64], how[160];
    Move m;
    if (legal_moves(g, &list) == 1) {
        m = list.moves[0];
        snprintf(how, sizeof how, "the only legal move");
    } else {
        if (count_humans(p) == 1)
            printf("Ponder (%s) is thinking...", COLOR_NAME[side]);
        else
            printf("%s is thinking...", COLOR_NAME[side]);
        printf("%s", p->live ? "\r" : "\n");
        fflush(stdout);
        double seconds;
        SearchResult r = think(p, &seconds);
        if (!r.has_move) /* cannot happen: the game is not over, so there is a legal move */
            return TURN_QUIT;
        m = r.best;
        describe_search(&r, seconds, how, sizeof how);
    }
    notation_format_move(&m, mv, sizeof mv);
    printf("%s%s plays %s%s   (%s)\n", view_bold(&p->style), COLOR_NAME[side], mv,
           view_reset(&p->style), how);
    if (!game_play(g, &m))
        return TURN_QUIT;
    return TURN_PLAYED;
}

static void print_help(void)
{
    printf("  Type the number of a move in the list, or the move itself: 11-15, or a capture\n"
           "  with every landing square, 9x18x27 (the first and last squares are enough when\n"
           "  they say which capture you mean: 9x27). Commands:\n"
           "    undo        take back your last move (and the computer's reply)\n"
           "    hint        ask the computer for a move\n"
           "    save FILE   write the game so far to FILE (PDN)\n"
           "    board       show the board and the moves again\n"
           "    quit        end the game (so does Ctrl-D)\n");
}

/* Writes the game to F as PDN with RESULT. */
static bool write_pdn(const Play *p, FILE *f, const char *result)
{
    PdnTag tags[5];
    int n = 0;
    char date[16] = "????.??.??";
    time_t now = time(NULL);
    struct tm tm;
    if (localtime_r(&now, &tm))
        strftime(date, sizeof date, "%Y.%m.%d", &tm);
    snprintf(tags[n].name, sizeof tags[n].name, "Event");
    snprintf(tags[n++].value, sizeof tags[n].value, "Ponder terminal game");
    snprintf(tags[n].name, sizeof tags[n].name, "Date");
    snprintf(tags[n++].value, sizeof tags[n].value, "%s", date);
    for (int c = 0; c < COLOR_NB; c++) {
        snprintf(tags[n].name, sizeof tags[n].name, "%s", COLOR_NAME[c]);
        snprintf(tags[n++].value, sizeof tags[n].value, "%s",
                 p->opt.player[c] == HUMAN ? "Human" : "Ponder");
    }
    return pdn_write_game(f, &p->game, tags, n, result);
}

/* `save FILE': writes the game so far. */
static void save_game(Play *p, const char *path, const char *result)
{
    char msg[LINE_MAX_LEN + 200];
    if (*path == '\0') {
        complain(p, "save needs a file name: save FILE.");
        return;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(msg, sizeof msg, "Cannot write %s: %s.", path, strerror(errno));
        complain(p, msg);
        return;
    }
    bool ok = write_pdn(p, f, result);
    if (fclose(f) != 0)
        ok = false;
    if (!ok) {
        snprintf(msg, sizeof msg, "Writing %s failed: %s.", path, strerror(errno));
        complain(p, msg);
        return;
    }
    printf("Saved the game to %s.\n", path);
}

/* `undo': goes back to the last position in which a person was to move (so in a game against
 * the computer, the computer's reply is taken back too). */
static bool undo(Play *p)
{
    Game *g = &p->game;
    int target = g->ply - 1;
    while (target >= 0 && p->opt.player[side_at(g, target)] != HUMAN)
        target--;
    if (target < 0) {
        complain(p, "Nothing to undo: no move of yours has been played yet.");
        return false;
    }
    int n = g->ply - target;
    while (g->ply > target)
        game_undo(g);
    printf("Took back %d move%s.\n", n, n == 1 ? "" : "s");
    return true;
}

/* `hint': what the engine would play. */
static void hint(Play *p, const MoveList *list)
{
    char mv[64], how[160];
    Move m;
    if (list->count == 1) {
        m = list->moves[0];
        snprintf(how, sizeof how, "the only legal move");
    } else {
        printf("Thinking...%s", p->live ? "\r" : "\n");
        fflush(stdout);
        double seconds;
        SearchResult r = think(p, &seconds);
        m = r.best;
        describe_search(&r, seconds, how, sizeof how);
    }
    notation_format_move(&m, mv, sizeof mv);
    int number = 0;
    for (int i = 0; i < list->count; i++)
        if (move_same(&list->moves[i], &m, false))
            number = i + 1;
    printf("Hint: %d. %s   (%s)\n", number, mv, how);
}

/* Whether the squares SQ[0..N-1] describe M: same origin and destination, and any squares in
 * between lie on M's path in order. */
static bool squares_on_path(const Move *m, const uint8_t *sq, int n)
{
    if (m->path[0] != sq[0] || m->path[m->len - 1] != sq[n - 1])
        return false;
    int j = 1;
    for (int i = 1; i < n - 1; i++) {
        while (j < m->len - 1 && m->path[j] != sq[i])
            j++;
        if (j >= m->len - 1)
            return false;
        j++;
    }
    return true;
}

/* Resolves typed move TEXT against LIST (the number of the move, 1-based), or explains in MSG why
 * it is not one of them and returns 0. The separator is not held against the player: 9-18 for a
 * jump is understood. */
static int resolve_move(const Play *p, const MoveList *list, const char *text, char *msg,
                        size_t size)
{
    uint8_t sq[MAX_JUMPS + 4];
    bool capture;
    ParseError e;
    int n = notation_parse_squares(text, sq, (int)sizeof sq, &capture, &e);
    if (n == 0) {
        char why[ERR_LEN + 64] = "";
        if (!isalpha((unsigned char)text[0])) {
            why[0] = ' ';
            why[1] = '(';
            parse_error_format(&e, why + 2, sizeof why - 4);
            strcat(why, ")");
        }
        snprintf(msg, size,
                 "`%s' is not a move or a command%s. Type a number from 1 to %d, a move like "
                 "the ones listed, or help.",
                 text, why, list->count);
        return 0;
    }
    int found = 0, candidates[MAX_MOVES], nc = 0;
    for (int i = 0; i < list->count; i++)
        if (squares_on_path(&list->moves[i], sq, n))
            candidates[nc++] = i + 1;
    if (nc == 0) {
        /* A capture route that the list merged with another one that takes the same pieces. */
        MoveList all;
        movegen_generate(&p->game.board, p->game.rules, true, &all);
        for (int i = 0; i < all.count && !found; i++)
            if (squares_on_path(&all.moves[i], sq, n))
                for (int j = 0; j < list->count; j++)
                    if (move_same(&list->moves[j], &all.moves[i], false))
                        found = j + 1;
        if (found)
            return found;
    }
    if (nc == 1)
        return candidates[0];
    if (nc > 1) {
        int len = snprintf(msg, size, "%s could be", text);
        for (int i = 0; i < nc && len > 0 && (size_t)len < size; i++) {
            char mv[64];
            notation_format_move(&list->moves[candidates[i] - 1], mv, sizeof mv);
            len += snprintf(msg + len, size - (size_t)len, "%s %d (%s)",
                            i == 0 ? "" : i == nc - 1 ? " or" : ",", candidates[i], mv);
        }
        if (len > 0 && (size_t)len < size)
            snprintf(msg + len, size - (size_t)len, ": type its number or all its squares.");
        return 0;
    }
    const Board *b = &p->game.board;
    int us = b->side, owner = board_color_at(b, sq[0]);
    if (owner < 0)
        snprintf(msg, size, "%s is not legal: square %d is empty.", text, sq[0] + 1);
    else if (owner != us)
        snprintf(msg, size, "%s is not legal: the piece on %d is %s's.", text, sq[0] + 1,
                 COLOR_NAME[owner]);
    else if (movegen_must_capture(b, p->game.rules) && !capture && n == 2)
        snprintf(msg, size, "%s is not legal: you must capture when you can (see the list).",
                 text);
    else {
        int len = snprintf(msg, size, "%s is not legal", text), from = 0, count = 0;
        for (int i = 0; i < list->count; i++)
            count += list->moves[i].from == sq[0];
        for (int i = 0; i < list->count && len > 0 && (size_t)len < size; i++)
            if (list->moves[i].from == sq[0]) {
                char mv[64];
                notation_format_move(&list->moves[i], mv, sizeof mv);
                from++;
                len += snprintf(msg + len, size - (size_t)len, "%s%d (%s)",
                                from == 1       ? "; the piece there can play "
                                : from == count ? " or "
                                                : ", ",
                                i + 1, mv);
            }
        if (len > 0 && (size_t)len < size)
            snprintf(msg + len, size - (size_t)len, "%s.",
                     from                                    ? ""
                     : movegen_must_capture(b, p->game.rules) ? ": another piece must capture"
                                                              : ": that piece cannot move");
    }
    return 0;
}

static TurnStatus human_turn(Play *p, bool show_moves)
{
    Game *g = &p->game;
    int side = g->board.side;
    MoveList list;
    legal_moves(g, &list);
    if (show_moves) {
        if (count_humans(p) == 1)
            printf("Your moves%s:\n",
                   movegen_must_capture(&g->board, g->rules) ? " (a capture is compulsory)" : "");
        else
            printf("%s's moves%s:\n", COLOR_NAME[side],
                   movegen_must_capture(&g->board, g->rules) ? " (a capture is compulsory)" : "");
        view_moves(stdout, &p->style, list.moves, list.count);
    }
    char prompt[96], buf[LINE_MAX_LEN], *a;
    char range[24] = "1";
    if (list.count > 1)
        snprintf(range, sizeof range, "1-%d", list.count);
    snprintf(prompt, sizeof prompt, "%s move (%s, or help):",
             count_humans(p) == 1 ? "Your" : side == BLACK ? "Black's" : "White's", range);
    for (;;) {
        if (ask(p, prompt, NULL, buf, sizeof buf, &a) == ASK_EOF)
            return TURN_QUIT;
        char msg[LINE_MAX_LEN * 2 + 400];
        int choice = 0;
        if (*a == '\0')
            continue;
        if (strcasecmp(a, "help") == 0 || strcmp(a, "?") == 0) {
            print_help();
            continue;
        }
        if (strcasecmp(a, "quit") == 0 || strcasecmp(a, "exit") == 0 || strcasecmp(a, "q") == 0)
            return TURN_QUIT;
        if (strcasecmp(a, "undo") == 0) {
            if (undo(p))
                return TURN_AGAIN;
            continue;
        }
        if (strcasecmp(a, "hint") == 0) {
            hint(p, &list);
            continue;
        }
        if (strcasecmp(a, "board") == 0) {
            show_position(p);
            view_moves(stdout, &p->style, list.moves, list.count);
            continue;
        }
        if (strncasecmp(a, "save", 4) == 0 && (a[4] == '\0' || a[4] == ' ' || a[4] == '\t')) {
            save_game(p, trim(a + 4), "*");
            continue;
        }
        bool number = a[0] != '\0' && strspn(a, "0123456789") == strlen(a);
        if (number) {
            long v = strlen(a) > 6 ? 0 : strtol(a, NULL, 10);
            if (v < 1 || v > list.count) {
                snprintf(msg, sizeof msg, "There is no move %s: the moves are numbered 1 to %d.",
                         a, list.count);
                complain(p, msg);
                continue;
            }
            choice = (int)v;
        } else if (!(choice = resolve_move(p, &list, a, msg, sizeof msg))) {
            complain(p, msg);
            continue;
        }
        Move m = list.moves[choice - 1];
        if (!game_play(g, &m)) {
            complain(p, "The game record is full.");
            return TURN_QUIT;
        }
        return TURN_PLAYED;
    }
}

/* The end of the game: who won and why, in words. */
static void announce(const Play *p, GameResult res)
{
    const Game *g = &p->game;
    const char *why;
    switch (res) {
    case RESULT_BLACK_WINS:
    case RESULT_WHITE_WINS:
        why = (g->board.pieces[g->board.side] == 0) ? "has no pieces left" : "cannot move";
        printf("\n%s*** %s wins: %s %s. ***%s\n", view_bold(&p->style),
               res == RESULT_BLACK_WINS ? "Black" : "White", COLOR_NAME[g->board.side], why,
               view_reset(&p->style));
        if (count_humans(p) == 1)
            printf("%s\n", p->opt.player[res == RESULT_BLACK_WINS ? BLACK : WHITE] == HUMAN
                               ? "Well played: you beat Ponder."
                               : "Ponder wins this one.");
        break;
    case RESULT_DRAW_REPETITION:
        printf("\n%s*** Draw: the same position has come up three times. ***%s\n",
               view_bold(&p->style), view_reset(&p->style));
        break;
    case RESULT_DRAW_40_MOVES:
        printf("\n%s*** Draw: 40 moves each without a capture or a man moving. ***%s\n",
               view_bold(&p->style), view_reset(&p->style));
        break;
    default:
        break;
    }
    int moves = g->ply > 0 ? move_number(g, g->ply - 1) : 0;
    printf("Result %s after %d move%s.\n", game_result_tag(res), moves, moves == 1 ? "" : "s");
}

/* After the game: the PDN on request. */
static void offer_pdn(Play *p, const char *result)
{
    char buf[LINE_MAX_LEN], *a;
    for (;;) {
        if (ask(p, "Show the game in PDN? (yes, no, or save FILE)", "no", buf, sizeof buf, &a) ==
            ASK_EOF)
            return;
        if (strncasecmp(a, "save", 4) == 0 && (a[4] == '\0' || a[4] == ' ' || a[4] == '\t')) {
            save_game(p, trim(a + 4), result);
            if (a[4] != '\0')
                return;
            continue;
        }
        int yn = yes_no(a);
        if (yn == 1) {
            printf("\n");
            write_pdn(p, stdout, result);
            fflush(stdout);
        }
        if (yn >= 0)
            return;
        char msg[LINE_MAX_LEN + 80];
        snprintf(msg, sizeof msg, "`%s': please answer yes, no, or save FILE.", a);
        complain(p, msg);
    }
}

static void play_game(Play *p)
{
    bool show = true;
    for (;;) {
        Game *g = &p->game;
        if (show)
            show_position(p);
        GameResult res = game_result(g);
        if (res != RESULT_NONE) {
            announce(p, res);
            offer_pdn(p, game_result_tag(res));
            return;
        }
        if (g->ply >= GAME_MAX_PLIES) {
            printf("\nThe game has reached %d plies, the most a game record holds: stopping.\n",
                   GAME_MAX_PLIES);
            offer_pdn(p, "*");
            return;
        }
        TurnStatus t = p->opt.player[g->board.side] == HUMAN ? human_turn(p, show)
                                                              : computer_turn(p);
        if (t == TURN_QUIT) {
            printf("Goodbye.\n");
            return;
        }
        show = true;
    }
}

/* ---- Options ---- */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ponder play [--black human|computer] [--white human|computer] [--time S]\n"
            "                   [--board FILE] [--depth N] [--nodes N] [--color WHEN]\n"
            "                   [--hash MB] [--threads N] [--weights FILE] [--egdb DIR]\n"
            "\n"
            "Plays checkers at the terminal: you against the computer, against a friend, or the\n"
            "computer against itself. It asks who plays each side, the computer's time limit and\n"
            "whether to start from a board file; each option below answers one question.\n"
            "  --black WHO     who plays Black (moves first): human or computer\n"
            "  --white WHO     who plays White\n"
            "  --time S        the computer's time per move in seconds (default %g; a board\n"
            "                  file's own limit is used unless this is given)\n"
            "  --board FILE    start from a seed-003 board file: 32 digits 0-4 in square order,\n"
            "                  then the player to move (1 Black, 2 White), then the time limit\n"
            "  --depth N       the computer searches at most N plies (also within the time)\n"
            "  --nodes N       the computer searches about N nodes at most\n"
            "  --color WHEN    auto (default: colours on a terminal unless NO_COLOR is set),\n"
            "                  always, or never\n"
            "  --hash MB       transposition table size (default 64)\n"
            "  --threads N     search threads (default 1)\n"
            "  --weights FILE  evaluation weights\n"
            "  --egdb DIR      endgame databases\n"
            "During the game type a move's number or the move (11-15, 9x18x27), or undo, hint,\n"
            "save FILE, board, help, quit. Ctrl-D at any question quits.\n",
            TIME_DEFAULT);
}

static bool parse_player_option(const char *opt, const char *v, Player *out)
{
    if (parse_player(v, out))
        return true;
    fprintf(stderr, "ponder play: %s: `%s' is not human or computer\n", opt, v);
    return false;
}

static int parse_options(int argc, char **argv, PlayOptions *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        long n;
        double d;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--black") == 0 || strcmp(a, "--white") == 0) {
            int c = a[2] == 'b' ? BLACK : WHITE;
            if (!(v = cli_value(argc, argv, &i)) || !parse_player_option(a, v, &o->player[c]))
                return 2;
            o->player_given[c] = true;
        } else if (strcmp(a, "--time") == 0) {
            if (!(v = cli_value(argc, argv, &i)) || !cli_double("--time", v, 0.001, TIME_MAX, &d))
                return 2;
            o->time = d;
            o->time_given = true;
        } else if (strcmp(a, "--board") == 0) {
            if (!(o->board_path = cli_value(argc, argv, &i)))
                return 2;
        } else if (strcmp(a, "--depth") == 0) {
            if (!(v = cli_value(argc, argv, &i)) || !cli_long("--depth", v, 1, MAX_PLY - 1, &n))
                return 2;
            o->depth = (int)n;
        } else if (strcmp(a, "--nodes") == 0) {
            if (!(v = cli_value(argc, argv, &i)) ||
                !cli_long("--nodes", v, 1, 1000000000000L, &n))
                return 2;
            o->nodes = (uint64_t)n;
        } else if (strcmp(a, "--color") == 0 || strcmp(a, "--colour") == 0) {
            if (!(v = cli_value(argc, argv, &i)))
                return 2;
            if (strcmp(v, "auto") == 0)
                o->color = -1;
            else if (strcmp(v, "always") == 0)
                o->color = 1;
            else if (strcmp(v, "never") == 0)
                o->color = 0;
            else {
                fprintf(stderr, "ponder play: --color: `%s' is not auto, always or never\n", v);
                return 2;
            }
        } else if (strcmp(a, "--hash") == 0) {
            if (!(v = cli_value(argc, argv, &i)) || !cli_long("--hash", v, 1, 1 << 20, &n))
                return 2;
            o->engine.hash_mb = (size_t)n;
        } else if (strcmp(a, "--threads") == 0) {
            if (!(v = cli_value(argc, argv, &i)) || !cli_long("--threads", v, 1, 256, &n))
                return 2;
            o->engine.threads = (int)n;
        } else if (strcmp(a, "--weights") == 0) {
            if (!(o->engine.weights = cli_value(argc, argv, &i)))
                return 2;
        } else if (strcmp(a, "--egdb") == 0) {
            if (!(o->engine.egdb_dir = cli_value(argc, argv, &i)))
                return 2;
        } else {
            fprintf(stderr, "ponder play: %s `%s'\n",
                    a[0] == '-' ? "unknown option" : "unexpected argument", a);
            return 2;
        }
    }
    return -1;
}

/* Colours on a terminal that can show them, unless NO_COLOR (https://no-color.org) says no. */
static void choose_style(Play *p)
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

static int cmd_play(int argc, char **argv)
{
    static Play play; /* a Game is large (about 80 KB): keep it off the stack */
    Play *p = &play;
    memset(p, 0, sizeof *p);
    p->opt.player[BLACK] = HUMAN;
    p->opt.player[WHITE] = COMPUTER;
    p->opt.time = TIME_DEFAULT;
    p->opt.color = -1;
    engine_default_options(&p->opt.engine);
    int status = parse_options(argc, argv, &p->opt);
    if (status == 0)
        return 0;
    if (status == 2) {
        usage(stderr);
        return 2;
    }
    game_init(&p->game, &RULES_ENGLISH, NULL);
    if (p->opt.board_path) {
        char msg[LINE_MAX_LEN + 600];
        if (!load_board(p, p->opt.board_path, !p->opt.time_given, msg, sizeof msg)) {
            fprintf(stderr, "ponder play: %s\n", msg);
            return 2;
        }
    }
    choose_style(p);
    char err[ERR_LEN];
    p->engine = engine_new(&p->opt.engine, err);
    if (!p->engine) {
        fprintf(stderr, "ponder play: %s\n", err);
        return 1;
    }
    bool asked = !(p->opt.player_given[BLACK] && p->opt.player_given[WHITE] &&
                   (p->opt.time_given || (p->opt.player[BLACK] == HUMAN &&
                                          p->opt.player[WHITE] == HUMAN)) &&
                   p->opt.board_path);
    if (asked)
        printf("%sPonder checkers.%s Press Enter to take the answer in [brackets].\n",
               view_bold(&p->style), view_reset(&p->style));
    if (setup(p) == ASK_EOF) {
        printf("Goodbye.\n");
        engine_free(p->engine);
        return 0;
    }
    printf("\n%sBlack%s: %s   %sWhite%s: %s", view_bold(&p->style), view_reset(&p->style),
           player_name(p->opt.player[BLACK]), view_bold(&p->style), view_reset(&p->style),
           player_name(p->opt.player[WHITE]));
    if (p->opt.player[BLACK] == COMPUTER || p->opt.player[WHITE] == COMPUTER) {
        printf("   computer: %g s a move", p->opt.time);
        if (p->opt.depth)
            printf(", depth %d at most", p->opt.depth);
        if (p->opt.nodes)
            printf(", %llu nodes at most", (unsigned long long)p->opt.nodes);
    }
    printf("\n");
    if (count_humans(p) > 0)
        printf("Type a move's number or the move itself; `help' lists the commands.\n");
    play_game(p);
    engine_free(p->engine);
    fflush(stdout);
    return 0;
}

PONDER_COMMAND("play", cmd_play, 20, "play checkers at the terminal (human or computer each side)")
