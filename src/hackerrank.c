/*
 * hackerrank.c - `ponder hackerrank`: one move for the HackerRank checkers challenge (seed 001).
 *
 * The challenge runs the program once per move: it reads the player letter, the board size and
 * eight rows of `_ b w B W' (row 0 at the top, Black's men start there and move down) and must
 * print one legal move: the number of hops, the origin `row col', then every landing square.
 * The rules are the `hackerrank' rule set: English checkers, except that a man crowned during a
 * capture goes on capturing as a king.
 *
 * The move comes from the full engine (engine.h) under a time budget. The judge counts the time
 * of the whole process, so the budget is measured from process start (the processor time used
 * before this function ran plus the time since) and the search gets HACKERRANK_TIME_SHARE of
 * --time, which leaves room for exit and the judge's own overhead. The table is small so that
 * clearing it costs nothing. The engine's choice is matched against the legal moves of the
 * position and the generator's copy is printed, so the output is always a legal move.
 *
 * `make hackerrank` turns this file and every module it needs into build/hackerrank.c, one C
 * file whose main() calls cmd_hackerrank (scripts/amalgamate.sh), to paste into the site.
 */
#include "hackerrank.h"

#include "cli.h"
#include "command.h"
#include "engine.h"
#include "notation.h"
#include "opts.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
    HACKERRANK_INPUT_MAX = 1 << 16,     /* the input is about 90 bytes; far more is not it */
    HACKERRANK_HASH_MB = 16,            /* default table size: cheap to clear at start-up */
    HACKERRANK_ENGINE_OPTS = OPTS_HASH, /* the engine options it takes */
};

#define HACKERRANK_TIME_SHARE 0.8   /* share of --time the search may use */
#define HACKERRANK_MIN_SEARCH 0.001 /* seconds the search always gets, to find some move */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ponder hackerrank [--time S] [--depth N] [--nodes N] [--hash MB] [--verbose]"
            " [FILE]\n"
            "\n"
            "Reads a position of the HackerRank checkers challenge from FILE or stdin: the player\n"
            "to move (`b' or `w'), the board size (8), then 8 rows of `_' (empty), `b' `w' (men)\n"
            "and `B' `W' (kings), Black's men starting at the top. Prints the move to play in the\n"
            "challenge's format: the number of hops, the start `row col', then each landing\n"
            "square. Captures are mandatory and go on to the end; a man crowned during a capture\n"
            "goes on capturing as a king.\n"
            "  --time S     the whole run takes at most S seconds (default 1); the search gets\n"
            "               %d%% of it, less the start-up time\n"
            "  --depth N    search N plies; without --time there is then no time limit, and the\n"
            "               answer is the same on every run\n"
            "  --nodes N    stop the search after about N nodes (also the same on every run)\n",
            (int)(HACKERRANK_TIME_SHARE * 100 + 0.5));
    EngineOptions defaults;
    engine_default_options(&defaults);
    defaults.hash_mb = HACKERRANK_HASH_MB;
    opts_help(f, HACKERRANK_ENGINE_OPTS, &defaults, 2, 15);
    fprintf(f, "  --verbose    report each finished search iteration on stderr\n"
               "Exit status: 0 a move was printed; 1 the side to move has no legal move (it has\n"
               "lost) or the output failed; 2 bad arguments or malformed input.\n");
}

/* ---- The challenge's input and output formats ---- */

/* Reads the next line of TEXT from *POS into LINE (without its end), CR removed. Returns false
 * at the end of the text. Lines longer than the buffer are reported through *LONG. */
static bool next_line(const char *text, size_t *pos, char *line, size_t size, bool *overlong)
{
    if (text[*pos] == '\0')
        return false;
    size_t n = 0;
    *overlong = false;
    while (text[*pos] != '\0' && text[*pos] != '\n') {
        if (n + 1 < size)
            line[n++] = text[*pos];
        else
            *overlong = true;
        (*pos)++;
    }
    if (text[*pos] == '\n')
        (*pos)++;
    while (n > 0 && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
        n--;
    line[n] = '\0';
    return true;
}

bool hackerrank_parse_board(const char *text, Board *b, ParseError *e)
{
    char line[64];
    size_t pos = 0;
    bool overlong;
    char c8[8];
    if (!next_line(text, &pos, line, sizeof line, &overlong))
        return parse_fail(e, 1, 0, "missing player line");
    size_t k = 0;
    while (line[k] == ' ')
        k++;
    int side;
    if (line[k] == 'b')
        side = BLACK;
    else if (line[k] == 'w')
        side = WHITE;
    else if (line[k] == '\0')
        return parse_fail(e, 1, 0, "empty player line (expected `b' or `w')");
    else
        return parse_fail(e, 1, (int)k + 1, "player must be `b' or `w', not `%s'",
                          notation_show_char((unsigned char)line[k], c8));
    if (line[k + 1] != '\0' || overlong)
        return parse_fail(e, 1, (int)k + 2, "unexpected text after the player letter");
    if (!next_line(text, &pos, line, sizeof line, &overlong))
        return parse_fail(e, 2, 0, "missing board size line");
    k = 0;
    while (line[k] == ' ')
        k++;
    long size = 0;
    int digits = 0;
    while (isdigit((unsigned char)line[k])) {
        if (digits < 6)
            size = size * 10 + (line[k] - '0');
        digits++;
        k++;
    }
    if (digits == 0 || line[k] != '\0' || overlong)
        return parse_fail(e, 2, (int)k + 1, "board size must be a number");
    if (digits > 6 || size != 8)
        return parse_fail(e, 2, 1, "board size %s is not supported (only 8)",
                          digits > 6 ? "too large" : (snprintf(c8, sizeof c8, "%ld", size), c8));
    board_clear(b, side);
    for (int row = 0; row < 8; row++) {
        int ln = row + 3;
        if (!next_line(text, &pos, line, sizeof line, &overlong))
            return parse_fail(e, ln, 0, "missing board row %d (8 rows expected)", row);
        size_t len = strlen(line);
        if (overlong || len != 8)
            return parse_fail(e, ln, 0, "board row %d has %zu%s characters, expected 8", row, len,
                              overlong ? "+" : "");
        for (int col = 0; col < 8; col++) {
            char c = line[col];
            int color = -1;
            bool king = false;
            switch (c) {
            case '_': break;
            case 'b': color = BLACK; break;
            case 'w': color = WHITE; break;
            case 'B':
                color = BLACK;
                king = true;
                break;
            case 'W':
                color = WHITE;
                king = true;
                break;
            default:
                return parse_fail(e, ln, col + 1, "unknown character `%s' on the board",
                                  notation_show_char((unsigned char)c, c8));
            }
            if (color < 0)
                continue;
            int sq = bb_square_at(row, col);
            if (sq < 0)
                return parse_fail(e, ln, col + 1, "piece on a light square (row %d, column %d)",
                                  row, col);
            board_set(b, sq, color, king);
        }
    }
    for (int ln = 11; next_line(text, &pos, line, sizeof line, &overlong); ln++)
        if (line[0] != '\0' || overlong)
            return parse_fail(e, ln, 0, "unexpected text after the board");
    return true;
}

int hackerrank_format_move(const Move *m, char *buf, size_t size)
{
    int hops = move_is_capture(m) ? m->len - 1 : 1;
    int len = snprintf(buf, size, "%d\n", hops);
    for (int i = 0; i < m->len; i++) {
        int r, c;
        hackerrank_coords(m->path[i], &r, &c);
        int w = snprintf(buf + len, size > (size_t)len ? size - (size_t)len : 0, "%d %d\n", r, c);
        if (w > 0)
            len += w;
    }
    return len;
}

/* Processor time the process has used so far: what it spent before main() ran. */
static double process_seconds(void)
{
    clock_t c = clock();
    return c == (clock_t)-1 ? 0.0 : (double)c / CLOCKS_PER_SEC;
}

/* SearchCallback for --verbose: one line per finished iteration on stderr. */
static void report(const SearchInfo *info, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "info depth %d seldepth %d score %d nodes %llu time %.3f pv", info->depth,
            info->seldepth, info->score, (unsigned long long)info->nodes, info->time);
    for (int i = 0; i < info->pv_len; i++) {
        char mv[64];
        notation_format_move(&info->pv[i], mv, sizeof mv);
        fprintf(stderr, " %s", mv);
    }
    fputc('\n', stderr);
}

/* The legal move of LIST that is the engine's choice R, or NULL. */
static const Move *find_legal(const MoveList *list, const SearchResult *r)
{
    if (!r->has_move)
        return NULL;
    for (int i = 0; i < list->count; i++)
        if (move_same(&list->moves[i], &r->best, false))
            return &list->moves[i];
    return NULL;
}

int cmd_hackerrank(int argc, char **argv)
{
    double start = util_now() - process_seconds();
    double time_limit = 1.0;
    long depth = 0, nodes = 0;
    bool time_given = false, verbose = false;
    const char *path = NULL;
    EngineOptions opt;
    engine_default_options(&opt);
    /* The evaluation of the single file that is pasted into HackerRank (make hackerrank: the
     * network stays out of it), so this program answers as that file does. */
    opt.eval = ENGINE_EVAL_CLASSIC;
    char egdb_dir[CLI_PATH_MAX];
    opt.egdb_dir = cli_engine_egdb(egdb_dir, sizeof egdb_dir);
    opt.hash_mb = HACKERRANK_HASH_MB;
    enum { OPT_TIME = OPTS_LONG, OPT_DEPTH, OPT_NODES };
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {"time", required_argument, NULL, OPT_TIME},
        {"depth", required_argument, NULL, OPT_DEPTH},
        {"nodes", required_argument, NULL, OPT_NODES},
        {"verbose", no_argument, NULL, 'v'},
        {0},
    };
    Opts p;
    opts_begin(&p, "ponder hackerrank", argc, argv, "hv", longopts, HACKERRANK_ENGINE_OPTS, &opt);
    for (int c; (c = opts_next(&p)) != OPTS_END;) {
        switch (c) {
        case 'h': usage(stdout); return 0;
        case OPT_TIME:
            if (!cli_double("--time", optarg, 0.01, 1e6, &time_limit))
                goto bad;
            time_given = true;
            break;
        case OPT_DEPTH:
            if (!cli_long("--depth", optarg, 1, MAX_PLY - 1, &depth))
                goto bad;
            break;
        case OPT_NODES:
            if (!cli_long("--nodes", optarg, 1, 1000000000000L, &nodes))
                goto bad;
            break;
        case 'v': verbose = true; break;
        default: goto bad;
        }
    }
    if (optind < argc)
        path = argv[optind++];
    if (optind < argc) {
        fprintf(stderr, "ponder hackerrank: unexpected argument `%s'\n", argv[optind]);
        goto bad;
    }

    /* Read and check the position. */
    char err[ERR_LEN + 64];
    char *text = util_read_file(path ? path : "-", HACKERRANK_INPUT_MAX, NULL, err, sizeof err);
    if (!text) {
        fprintf(stderr, "ponder hackerrank: cannot read the input: %s\n", err);
        return 2;
    }
    Board board;
    ParseError pe;
    bool ok = hackerrank_parse_board(text, &board, &pe);
    free(text);
    if (!ok) {
        parse_error_format(&pe, err, sizeof err);
        fprintf(stderr, "ponder hackerrank: bad input: %s\n", err);
        return 2;
    }
    MoveList legal;
    if (movegen_generate(&board, &RULES_HACKERRANK, false, &legal) == 0) {
        fprintf(stderr, "ponder hackerrank: %s has no legal move (the game is lost)\n",
                board.side == BLACK ? "Black" : "White");
        return 1;
    }

    /* Search. */
    opt.threads = 1;
    Engine *engine = engine_new(&opt, err);
    Game *game = malloc(sizeof *game);
    if (!engine || !game) {
        fprintf(stderr, "ponder hackerrank: %s\n", engine ? "out of memory" : err);
        engine_free(engine);
        free(game);
        return 1;
    }
    game_init(game, &RULES_HACKERRANK, &board);
    SearchLimits limits = {.depth = (int)depth, .nodes = (uint64_t)nodes};
    if (time_given || (depth == 0 && nodes == 0)) {
        limits.time = time_limit * HACKERRANK_TIME_SHARE - (util_now() - start);
        if (limits.time < HACKERRANK_MIN_SEARCH)
            limits.time = HACKERRANK_MIN_SEARCH;
        /* One legal move: the engine would search it for the time (its table then helps the
         * next search), but this process ends with the move, so a clock with the same time
         * makes it answer at once. */
        if (legal.count == 1)
            limits.clock = limits.time, limits.time = 0;
    }
    SearchResult result = engine_search(engine, game, &limits, verbose ? report : NULL, NULL);
    engine_free(engine);
    free(game);

    /* The generator's copy of the chosen move: always legal, with every landing square. */
    const Move *move = find_legal(&legal, &result);
    if (!move) {
        fprintf(stderr, "ponder hackerrank: internal error: the engine chose no legal move; "
                        "playing the first legal move instead\n");
        move = &legal.moves[0];
    }
    char out[32 * (MAX_JUMPS + 4)];
    hackerrank_format_move(move, out, sizeof out);
    if (verbose)
        fprintf(stderr, "time %.3f s since process start\n", util_now() - start);
    if (fputs(out, stdout) == EOF || fflush(stdout) != 0) {
        fprintf(stderr, "ponder hackerrank: cannot write the move\n");
        return 1;
    }
    return 0;
bad:
    opts_see_help("ponder hackerrank");
    return 2;
}

PONDER_COMMAND("hackerrank", cmd_hackerrank, 60, "one move for the HackerRank checkers challenge")
