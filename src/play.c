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
 * Every answer is checked; a bad one is answered with what was wrong and the question is asked
 * again. End of input, or `quit', at any question ends the program cleanly with status 0; `quit'
 * or Ctrl-C during a game first offers to save it (a second Ctrl-C leaves at once). When stdin is
 * not a terminal the answers are echoed, so that a piped game reads like one played by hand. The
 * options, the set-up questions and the line reader are in play_setup.c, the drawing in
 * play_view.c.
 */
#include "play.h"

#include "bitboard.h"
#include "cli.h"
#include "command.h"
#include "notation.h"
#include "opts.h"
#include "pdn.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

volatile sig_atomic_t play_interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    play_interrupted = 1;
}

/* How a turn ended: a move played, moves taken back (the position is shown again), or the end. */
typedef enum { TURN_PLAYED, TURN_AGAIN, TURN_QUIT } TurnStatus;

/* ---- The game ---- */

/* The side to move at ply PLY of the game. */
static int side_at(const Game *g, int ply)
{
    return g->start.side ^ (ply & 1);
}

/* The PDN move number of the move at PLY ("1." for Black's first, "1..." if White begins). */
static int move_number(const Game *g, int ply)
{
    return (ply + (g->start.side == WHITE)) / 2 + 1;
}

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
        printf("  %s%d.%s %s%s\n", play_view_dim(&p->style), move_number(g, g->ply - 1),
               mover == WHITE ? ".." : "", mv, play_view_reset(&p->style));
    }
    play_view_board(stdout, &p->style, &g->board, g->ply > 0 ? &g->moves[g->ply - 1] : NULL);
    char count[COLOR_NB][48];
    for (int c = 0; c < COLOR_NB; c++) {
        int kings = bb_popcount(g->board.pieces[c] & g->board.kings);
        int men = bb_popcount(g->board.pieces[c]) - kings;
        snprintf(count[c], sizeof count[c], "%d %s, %d %s", men, men == 1 ? "man" : "men", kings,
                 kings == 1 ? "king" : "kings");
    }
    printf("    Black: %s   White: %s\n    Move %d, %s%s to move%s\n", count[BLACK], count[WHITE],
           move_number(g, g->ply), play_view_bold(&p->style), play_color_name(g->board.side),
           play_view_reset(&p->style));
}

/* Search progress: shows each finished iteration on a terminal, and stops the
 * search once the result is proven (a win or loss found within the depth fully searched, so a
 * deeper search cannot change it). */
static void on_iteration(const SearchInfo *info, void *ctx)
{
    Play *p = ctx;
    if (p->live) {
        char score[48], mv[64] = "";
        play_view_score(info->score, score, sizeof score);
        if (info->pv_len > 0)
            notation_format_move(&info->pv[0], mv, sizeof mv);
        printf("\r  ... depth %d, %s, %.1f s, %s%-20s\r", info->depth, score, info->time, mv, "");
        fflush(stdout);
    }
    if ((score_is_decisive(info->score) && score_plies_to_end(info->score) <= info->depth) ||
        play_interrupted)
        engine_stop(p->engine, 0);
}

/* Searches the current position within the limits; *SECONDS gets the time taken. ANALYSIS for
 * advice to the player (a hint): a draw is worth 0 in it, not the engine's contempt. */
static SearchResult think(Play *p, bool analysis, double *seconds)
{
    SearchLimits lim = {
        .depth = p->opt.depth, .time = p->opt.time, .nodes = p->opt.nodes, .analysis = analysis};
    double t0 = util_now();
    SearchResult r = engine_search(p->engine, &p->game, &lim, on_iteration, p);
    *seconds = util_now() - t0;
    if (p->live) {
        printf("\r%60s\r", "");
        fflush(stdout);
    }
    return r;
}

/* "depth 12, 2.95 s, eval +0.35 for White" for the search that gave R for SIDE. */
static void describe_search(const SearchResult *r, double seconds, int side, char *buf, size_t size)
{
    char score[48];
    if (r->book) {
        play_view_score(r->info.score, score, sizeof score);
        snprintf(buf, size, "from the opening book, %s%s for %s",
                 score_is_decisive(r->info.score) ? "" : "eval ", score, play_color_name(side));
        return;
    }
    if (r->database) {
        /* The endgame databases know the result (not its distance): say so. */
        static const char *const said[] = {"", "database win", "database loss", "database draw"};
        snprintf(buf, size, "depth %d, %.2f s, %s for %s", r->info.depth, seconds,
                 said[r->database & 3], play_color_name(side));
        return;
    }
    play_view_score(r->info.score, score, sizeof score);
    snprintf(buf, size, "depth %d, %.2f s, %s%s for %s", r->info.depth, seconds,
             score_is_decisive(r->info.score) ? "" : "eval ", score, play_color_name(side));
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
            printf("Ponder (%s) is thinking...", play_color_name(side));
        else
            printf("%s is thinking...", play_color_name(side));
        printf("%s", p->live ? "\r" : "\n");
        fflush(stdout);
        double seconds;
        SearchResult r = think(p, false, &seconds);
        if (play_interrupted) { /* Ctrl-C while it thought: no move, the game ends */
            printf("\n");
            return TURN_QUIT;
        }
        if (!r.has_move) /* cannot happen: the game is not over, so there is a legal move */
            return TURN_QUIT;
        m = r.best;
        describe_search(&r, seconds, p->game.board.side, how, sizeof how);
    }
    notation_format_move(&m, mv, sizeof mv);
    printf("%s%s plays %s%s   (%s)\n", play_view_bold(&p->style), play_color_name(side), mv,
           play_view_reset(&p->style), how);
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
           "    flip        turn the board around (Black's side at the top or the bottom)\n"
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
        snprintf(tags[n].name, sizeof tags[n].name, "%s", play_color_name(c));
        snprintf(tags[n++].value, sizeof tags[n].value, "%s",
                 p->opt.player[c] == HUMAN ? "Human" : "Ponder");
    }
    return pdn_write_game(f, &p->game, tags, n, result);
}

/* `save FILE': writes the game so far. Returns false (having said why) if it could not. */
static bool save_game(Play *p, const char *path, const char *result)
{
    char msg[LINE_MAX_LEN + 200];
    if (*path == '\0') {
        play_complain(p, "save needs a file name: save FILE.");
        return false;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(msg, sizeof msg, "Cannot write %s: %s.", path, strerror(errno));
        play_complain(p, msg);
        return false;
    }
    bool ok = write_pdn(p, f, result);
    if (fclose(f) != 0)
        ok = false;
    if (!ok) {
        snprintf(msg, sizeof msg, "Writing %s failed: %s.", path, strerror(errno));
        play_complain(p, msg);
        return false;
    }
    printf("Saved the game to %s.\n", path);
    return true;
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
        play_complain(p, "Nothing to undo: no move of yours has been played yet.");
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
        SearchResult r = think(p, true, &seconds);
        m = r.best;
        describe_search(&r, seconds, p->game.board.side, how, sizeof how);
    }
    notation_format_move(&m, mv, sizeof mv);
    int number = 0;
    for (int i = 0; i < list->count; i++)
        if (move_same(&list->moves[i], &m, false))
            number = i + 1;
    printf("Hint: %d. %s   (%s)\n", number, mv, how);
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
        char numbers[48] = "1, the only move";
        if (list->count > 1)
            snprintf(numbers, sizeof numbers, "a number from 1 to %d", list->count);
        snprintf(msg, size,
                 "`%s' is not a move or a command%s. Type %s, a move like the ones listed, or "
                 "help.",
                 text, why, numbers);
        return 0;
    }
    /* The squares decide, not the separator (the player's `9-18' for a jump is understood);
     * each move they name is found in LIST by the pieces it takes (a merged capture's route). */
    MoveList named;
    notation_resolve(&p->game.board, p->game.rules, sq, n, NOTATION_EITHER, &named);
    int candidates[MAX_MOVES], nc = 0;
    for (int i = 0; i < list->count; i++)
        for (int k = 0; k < named.count; k++)
            if (move_same(&list->moves[i], &named.moves[k], false)) {
                candidates[nc++] = i + 1;
                break;
            }
    if (nc == 1)
        return candidates[0];
    if (nc > 1) {
        int len = snprintf(msg, size, "%s could be", text);
        for (int i = 0; i < nc && len > 0 && (size_t)len < size; i++) {
            char mv[64];
            notation_format_move(&list->moves[candidates[i] - 1], mv, sizeof mv);
            len += snprintf(msg + len, size - (size_t)len, "%s %d (%s)",
                            i == 0        ? ""
                            : i == nc - 1 ? " or"
                                          : ",",
                            candidates[i], mv);
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
                 play_color_name(owner));
    else if (movegen_must_capture(b, p->game.rules) && !capture && n == 2)
        snprintf(msg, size, "%s is not legal: you must capture when you can (see the list).", text);
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
                     from                                     ? ""
                     : movegen_must_capture(b, p->game.rules) ? ": another piece must capture"
                                                              : ": that piece cannot move");
    }
    return 0;
}

static TurnStatus human_turn(Play *p)
{
    Game *g = &p->game;
    int side = g->board.side;
    MoveList list;
    legal_moves(g, &list);
    const char *must =
        movegen_must_capture(&g->board, g->rules) ? " (a capture is compulsory)" : "";
    if (count_humans(p) == 1)
        printf("Your moves%s:\n", must);
    else
        printf("%s's moves%s:\n", play_color_name(side), must);
    play_view_moves(stdout, &p->style, list.moves, list.count);
    char prompt[96], buf[LINE_MAX_LEN], *a;
    char range[24] = "1";
    if (list.count > 1)
        snprintf(range, sizeof range, "1-%d", list.count);
    snprintf(prompt, sizeof prompt, "%s move (%s, or help):",
             count_humans(p) == 1 ? "Your"
             : side == BLACK      ? "Black's"
                                  : "White's",
             range);
    for (;;) {
        if (play_ask(p, prompt, NULL, buf, sizeof buf, &a) == ASK_EOF)
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
        if (strcasecmp(a, "flip") == 0) {
            p->style.flip = !p->style.flip;
            show_position(p);
            play_view_moves(stdout, &p->style, list.moves, list.count);
            continue;
        }
        if (strcasecmp(a, "board") == 0) {
            show_position(p);
            play_view_moves(stdout, &p->style, list.moves, list.count);
            continue;
        }
        if (strncasecmp(a, "save", 4) == 0 && (a[4] == '\0' || a[4] == ' ' || a[4] == '\t')) {
            save_game(p, play_trim(a + 4), "*");
            continue;
        }
        bool number = a[0] != '\0' && strspn(a, "0123456789") == strlen(a);
        if (number) {
            long v = strlen(a) > 6 ? 0 : strtol(a, NULL, 10);
            if (v < 1 || v > list.count) {
                if (list.count == 1)
                    snprintf(msg, sizeof msg, "There is no move %s: there is one move, 1.", a);
                else
                    snprintf(msg, sizeof msg,
                             "There is no move %s: the moves are numbered 1 to %d.", a, list.count);
                play_complain(p, msg);
                continue;
            }
            choice = (int)v;
        } else if (!(choice = resolve_move(p, &list, a, msg, sizeof msg))) {
            play_complain(p, msg);
            continue;
        }
        Move m = list.moves[choice - 1];
        if (!game_play(g, &m)) {
            play_complain(p, "The game record is full.");
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
        printf("\n%s*** %s wins: %s %s. ***%s\n", play_view_bold(&p->style),
               res == RESULT_BLACK_WINS ? "Black" : "White", play_color_name(g->board.side), why,
               play_view_reset(&p->style));
        if (count_humans(p) == 1)
            printf("%s\n", p->opt.player[res == RESULT_BLACK_WINS ? BLACK : WHITE] == HUMAN
                               ? "Well played: you beat Ponder."
                               : "Ponder wins this one.");
        break;
    case RESULT_DRAW_REPETITION:
        printf("\n%s*** Draw: the same position has come up three times. ***%s\n",
               play_view_bold(&p->style), play_view_reset(&p->style));
        break;
    case RESULT_DRAW_40_MOVES:
        printf("\n%s*** Draw: 40 moves each without a capture or a man moving. ***%s\n",
               play_view_bold(&p->style), play_view_reset(&p->style));
        break;
    default: break;
    }
    int moves = g->ply > 0 ? move_number(g, g->ply - 1) : 0;
    printf("Result %s after %d move%s.\n", game_result_tag(res), moves, moves == 1 ? "" : "s");
}

/* After the game: the PDN on request. */
static void offer_pdn(Play *p, const char *result)
{
    char buf[LINE_MAX_LEN], *a;
    for (;;) {
        if (play_ask(p, "Show the game in PDN? (yes, no, or save FILE)", "no", buf, sizeof buf,
                     &a) == ASK_EOF)
            return;
        if (strncasecmp(a, "save", 4) == 0 && (a[4] == '\0' || a[4] == ' ' || a[4] == '\t')) {
            if (save_game(p, play_trim(a + 4), result))
                return;
            continue;
        }
        int yn = play_yes_no(a);
        if (yn == 1) {
            printf("\n");
            write_pdn(p, stdout, result);
            fflush(stdout);
        }
        if (yn >= 0)
            return;
        char msg[LINE_MAX_LEN + 80];
        snprintf(msg, sizeof msg, "`%s': please answer yes, no, or save FILE.", a);
        play_complain(p, msg);
    }
}

/* Leaving a game before its end (quit, or Ctrl-C): if moves were played and the input is still
 * there to answer, offers to save the game. A second Ctrl-C leaves at once (SA_RESETHAND). */
static void offer_save(Play *p)
{
    if (p->game.ply == 0 || feof(stdin))
        return;
    play_interrupted = 0;
    char buf[LINE_MAX_LEN], *a;
    for (;;) {
        if (play_ask(p, "Save the game before leaving? (no, or save FILE)", "no", buf, sizeof buf,
                     &a) == ASK_EOF)
            return;
        if (strncasecmp(a, "save", 4) == 0 && (a[4] == '\0' || a[4] == ' ' || a[4] == '\t')) {
            if (save_game(p, play_trim(a + 4), "*"))
                return;
            continue;
        }
        if (play_yes_no(a) == 0)
            return;
        char msg[LINE_MAX_LEN + 80];
        snprintf(msg, sizeof msg, "`%s': please answer no, or save FILE.", a);
        play_complain(p, msg);
    }
}

static void play_game(Play *p)
{
    for (;;) {
        Game *g = &p->game;
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
        TurnStatus t = p->opt.player[g->board.side] == HUMAN ? human_turn(p) : computer_turn(p);
        if (t == TURN_QUIT) {
            if (play_interrupted)
                printf("Interrupted.\n");
            offer_save(p);
            printf("Goodbye.\n");
            return;
        }
    }
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
    char egdb_dir[CLI_PATH_MAX];
    p->opt.engine.egdb_dir = cli_engine_egdb(egdb_dir, sizeof egdb_dir);
    char book_path[CLI_PATH_MAX];
    cli_engine_book(&p->opt.engine, book_path, sizeof book_path);
    int status = play_parse_options(argc, argv, &p->opt);
    if (status == 0)
        return 0;
    if (status == 2) {
        opts_see_help("ponder play");
        return 2;
    }
    game_init(&p->game, &RULES_ENGLISH, NULL);
    if (p->opt.board_path) {
        char msg[LINE_MAX_LEN + 600];
        if (!play_load_board(p, p->opt.board_path, !p->opt.time_given, msg, sizeof msg)) {
            fprintf(stderr, "ponder play: %s\n", msg);
            return 2;
        }
    }
    play_choose_style(p);
    char err[ERR_LEN];
    p->engine = engine_new(&p->opt.engine, err);
    if (!p->engine) {
        fprintf(stderr, "ponder play: %s\n", err);
        return 1;
    }
    if (*engine_database_warnings(p->engine))
        fprintf(stderr, "ponder play: endgame databases: %s\n",
                engine_database_warnings(p->engine));
    bool asked =
        !(p->opt.player_given[BLACK] && p->opt.player_given[WHITE] &&
          (p->opt.time_given || (p->opt.player[BLACK] == HUMAN && p->opt.player[WHITE] == HUMAN)) &&
          p->opt.board_path);
    if (asked)
        printf("%sPonder checkers.%s Press Enter to take the answer in [brackets].\n",
               play_view_bold(&p->style), play_view_reset(&p->style));
    if (play_setup(p) == ASK_EOF) {
        printf("Goodbye.\n");
        engine_free(p->engine);
        return 0;
    }
    printf("\n%sBlack%s: %s   %sWhite%s: %s", play_view_bold(&p->style), play_view_reset(&p->style),
           play_player_name(p->opt.player[BLACK]), play_view_bold(&p->style),
           play_view_reset(&p->style), play_player_name(p->opt.player[WHITE]));
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
    /* Ctrl-C ends the game with an offer to save it, once; a second one leaves at once. No
     * SA_RESTART: the read under way returns, so the question gives way. */
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    play_interrupted = 0;
    sigaction(SIGINT, &sa, &old);
    play_game(p);
    sigaction(SIGINT, &old, NULL);
    engine_free(p->engine);
    fflush(stdout);
    return 0;
}

PONDER_COMMAND("play", cmd_play, 20, "play checkers at the terminal (human or computer each side)")
