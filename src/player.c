/*
 * player.c - `ponder player': a program for the middleware protocol of seed 002.
 *
 * The protocol: every line on stdin is the opponent's last move as a full path of squares
 * ("2 11 18"), except that a first line of "0 0" means "you move first". Each is answered with
 * one move on stdout, one line, flushed at once; nothing else ever goes to stdout. The player
 * keeps the game in a Game record, so the engine sees repetitions, and checks every move it is
 * sent: an illegal or unreadable one is reported on stderr and ends the program with status 1.
 * End of input ends it with status 0. A player with no legal move left has lost: it says so on
 * stderr and exits 0 (to the seed's middleware, exiting is giving up).
 *
 * Besides the engine, it can play two reference opponents: `--baseline', seed 001's depth-6
 * alpha-beta bot (baseline.c), and `--random', uniformly random legal moves (fast: the match
 * tests and the referee's overhead measurement use it).
 */
#include "baseline.h"
#include "cli.h"
#include "command.h"
#include "engine.h"
#include "game.h"
#include "middleware.h"
#include "notation.h"
#include "opts.h"
#include "rng.h"
#include "timecontrol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { PLAYER_LINE_MAX = 4096 };

typedef enum { MODE_ENGINE, MODE_BASELINE, MODE_RANDOM } PlayerMode;

typedef struct {
    PlayerMode mode;     /* who chooses the moves */
    SearchLimits limits; /* engine: time and depth per move */
    bool has_tc;         /* --tc given: search with the clock below */
    TimeControl tc;      /* --tc: the match's time control */
    TcClock clock;       /* its own clock under tc: what it measured of its own thinking */
    int baseline_depth;  /* baseline: plies */
    uint64_t rng;        /* random: xorshift64 state (never 0) */
    Engine *engine;      /* engine mode only */
} Player;

/* The engine options the player takes. */
enum { PLAYER_ENGINE_OPTS = OPTS_ENGINE | OPTS_BOOK };

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ponder player [--time S | --tc TC] [--depth N] [--nodes N] [--fen FEN]\n"
            "                     [--hash MB] [--threads N] [--weights FILE] [--eval classic|net]\n"
            "                     [--net FILE] [--egdb DIR] [--book FILE|none] [--book-variety N]\n"
            "                     [--contempt N] [--baseline | --random [--seed N]]\n"
            "\n"
            "Plays one game over stdin/stdout, one move a line. Each input line is the\n"
            "opponent's move as the squares it visits, separated by spaces: `9 13' for a move,\n"
            "`2 11 18' for a double jump (2 to 11 to 18); `0 0' as the first line asks the\n"
            "player to move first. Each is answered with one move in the same form, and\n"
            "nothing else is printed on stdout. End of input ends the program (status 0); an\n"
            "illegal or unreadable move is reported on stderr (status 1).\n"
            "  --time S       seconds per move (default 1)\n"
            "  --tc TC        the match's time control (40/60, 60+0.5, 0.1: see ponder match):\n"
            "                 keeps its own clock, timing its own answers, and shares it out\n"
            "  --depth N      search at most N plies (with --time: whichever comes first)\n"
            "  --nodes N      search about N nodes a move (alone: the same game whatever the\n"
            "                 machine's speed or load, for one thread; with --time or --depth:\n"
            "                 whichever comes first)\n"
            "  --fen FEN      start from FEN; `0 0' then means: you are the side to move\n");
    opts_help(f, PLAYER_ENGINE_OPTS, NULL, 2, 17);
    fprintf(f, "  --baseline     play a small HackerRank bot instead: depth-6 alpha-beta\n"
               "                 (--depth changes the depth)\n"
               "  --random       play uniformly random legal moves (--seed N: repeatable)\n");
}

/* Chooses the move for the current position of G. Returns false when there is none. */
static bool choose(Player *pl, const Game *g, Move *out)
{
    switch (pl->mode) {
    case MODE_RANDOM: {
        MoveList list;
        int n = movegen_generate(&g->board, g->rules, false, &list);
        if (n == 0)
            return false;
        *out = list.moves[rng_xorshift64(&pl->rng) % (uint64_t)n];
        return true;
    }
    case MODE_BASELINE: return baseline_search(&g->board, g->rules, pl->baseline_depth, out);
    default: {
        SearchLimits lim = pl->limits;
        if (pl->has_tc)
            tc_clock_limits(&pl->tc, &pl->clock, &lim);
        SearchResult r = engine_search(pl->engine, g, &lim, NULL, NULL);
        if (r.has_move)
            *out = r.best;
        return r.has_move;
    }
    }
}

/* Plays M into G; a record that has filled up (thousands of plies) starts afresh from the
 * current position, losing only old repetition history. */
static void record(Game *g, const Move *m)
{
    if (!game_play(g, m)) {
        Board next = g->board;
        board_apply(&next, m);
        game_init(g, g->rules, &next);
    }
}

/* Whether TEXT (one line, end of line removed) is "0 0" with any blanks around and between. */
static bool is_first_move_marker(const char *text)
{
    int a, b;
    char rest;
    return sscanf(text, " %d %d %c", &a, &b, &rest) == 2 && a == 0 && b == 0 &&
           strspn(text, " \t0") == strlen(text);
}

/* The protocol loop. Returns the exit status. */
static int play(Player *pl, const Board *start)
{
    Game *g = malloc(sizeof *g);
    if (!g) {
        fprintf(stderr, "ponder player: out of memory\n");
        return 1;
    }
    game_init(g, &RULES_ENGLISH, start);
    char line[PLAYER_LINE_MAX];
    int status = 0;
    for (long lineno = 1; fgets(line, sizeof line, stdin); lineno++) {
        size_t n = strlen(line);
        if (n == sizeof line - 1 && line[n - 1] != '\n') {
            fprintf(stderr, "ponder player: line %ld: longer than %d characters\n", lineno,
                    PLAYER_LINE_MAX - 2);
            status = 1;
            break;
        }
        double t0 = util_now(); /* the clock runs from here to the answer's flush */
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (is_first_move_marker(line)) {
            if (lineno != 1) {
                fprintf(stderr,
                        "ponder player: line %ld: `0 0' (move first) is only valid as "
                        "the first line\n",
                        lineno);
                status = 1;
                break;
            }
        } else {
            Move m;
            ParseError e;
            if (!middleware_parse_move(&g->board, g->rules, line, &m, &e)) {
                char msg[ERR_LEN + 64], fen[128];
                parse_error_format(&e, msg, sizeof msg);
                notation_format_fen(&g->board, fen, sizeof fen);
                fprintf(stderr, "ponder player: line %ld: bad move `%s': %s (position %s)\n",
                        lineno, line, msg, fen);
                status = 1;
                break;
            }
            record(g, &m);
        }
        Move reply;
        if (!choose(pl, g, &reply)) {
            fprintf(stderr, "ponder player: no legal move left: %s has lost\n",
                    g->board.side == BLACK ? "Black" : "White");
            break;
        }
        char text[128];
        middleware_format_move(&reply, text, sizeof text);
        printf("%s\n", text);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            /* The other side has gone: nothing more to say to anyone. */
            break;
        }
        if (pl->has_tc)
            tc_clock_spend(&pl->tc, &pl->clock, util_now() - t0);
        record(g, &reply);
    }
    if (ferror(stdin)) {
        fprintf(stderr, "ponder player: read error on stdin\n");
        status = 1;
    }
    free(g);
    return status;
}

static int cmd_player(int argc, char **argv)
{
    Player pl;
    memset(&pl, 0, sizeof pl);
    pl.mode = MODE_ENGINE;
    pl.limits.time = 1.0;
    pl.baseline_depth = BASELINE_DEPTH;
    EngineOptions eo;
    engine_default_options(&eo);
    char egdb_dir[CLI_PATH_MAX];
    eo.egdb_dir = cli_engine_egdb(egdb_dir, sizeof egdb_dir);
    char book_path[CLI_PATH_MAX];
    cli_engine_book(&eo, book_path, sizeof book_path);
    const char *fen = NULL;
    long depth = 0, seed = -1, nodes = 0;
    double time = pl.limits.time;
    bool has_time = false;
    enum {
        OPT_TIME = OPTS_LONG,
        OPT_DEPTH,
        OPT_FEN,
        OPT_SEED,
        OPT_BASELINE,
        OPT_RANDOM,
        OPT_TC,
        OPT_NODES
    };
    char tc_err[ERR_LEN];
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {"time", required_argument, NULL, OPT_TIME},
        {"tc", required_argument, NULL, OPT_TC},
        {"depth", required_argument, NULL, OPT_DEPTH},
        {"nodes", required_argument, NULL, OPT_NODES},
        {"fen", required_argument, NULL, OPT_FEN},
        {"seed", required_argument, NULL, OPT_SEED},
        {"baseline", no_argument, NULL, OPT_BASELINE},
        {"random", no_argument, NULL, OPT_RANDOM},
        {0},
    };
    Opts p;
    opts_begin(&p, "ponder player", argc, argv, "h", longopts, PLAYER_ENGINE_OPTS, &eo);
    for (int c; (c = opts_next(&p)) != OPTS_END;) {
        switch (c) {
        case 'h': usage(stdout); return 0;
        case OPT_TIME:
            if (!cli_double("--time", optarg, 0.001, 86400, &time))
                goto bad;
            has_time = true;
            pl.has_tc = false;
            break;
        case OPT_TC:
            if (!tc_parse(optarg, &pl.tc, tc_err)) {
                fprintf(stderr, "ponder player: --tc %s: %s\n", optarg, tc_err);
                goto bad;
            }
            pl.has_tc = has_time = true;
            tc_clock_start(&pl.tc, &pl.clock);
            break;
        case OPT_DEPTH:
            if (!cli_long("--depth", optarg, 1, MAX_PLY - 1, &depth))
                goto bad;
            break;
        case OPT_NODES:
            if (!cli_long("--nodes", optarg, 1, 0x7fffffffL, &nodes))
                goto bad;
            break;
        case OPT_FEN: fen = optarg; break;
        case OPT_SEED:
            if (!cli_long("--seed", optarg, 0, 0x7fffffffL, &seed))
                goto bad;
            break;
        case OPT_BASELINE: pl.mode = MODE_BASELINE; break;
        case OPT_RANDOM: pl.mode = MODE_RANDOM; break;
        default: goto bad;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "ponder player: unexpected argument `%s'\n", argv[optind]);
        goto bad;
    }
    Board start;
    if (fen) {
        ParseError e;
        char bad_board[ERR_LEN];
        if (!notation_parse_fen(fen, &start, &e)) {
            char msg[ERR_LEN + 64];
            parse_error_format(&e, msg, sizeof msg);
            fprintf(stderr, "ponder player: bad FEN `%s': %s\n", fen, msg);
            goto bad;
        }
        if (!board_valid(&start, bad_board) || !board_reachable(&start, bad_board)) {
            fprintf(stderr, "ponder player: bad FEN `%s': %s\n", fen, bad_board);
            goto bad;
        }
    } else
        board_start(&start);
    pl.limits.time = time;
    pl.limits.depth = (int)depth;
    pl.limits.nodes = (uint64_t)nodes;
    if ((depth > 0 || nodes > 0) && !has_time)
        pl.limits.time = 0; /* --depth or --nodes alone: a fixed search, no clock */
    if (depth > 0)
        pl.baseline_depth = (int)depth;
    pl.rng = seed >= 0 ? (uint64_t)seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull
                       : (uint64_t)(util_now() * 1e9) ^ ((uint64_t)getpid() << 32);
    if (pl.rng == 0)
        pl.rng = 1;
    if (pl.mode == MODE_ENGINE) {
        char err[ERR_LEN];
        if (!(pl.engine = engine_new(&eo, err))) {
            fprintf(stderr, "ponder player: %s\n", err);
            return 1;
        }
        if (*engine_database_warnings(pl.engine))
            fprintf(stderr, "ponder player: endgame databases: %s\n",
                    engine_database_warnings(pl.engine));
    }
    int status = play(&pl, &start);
    if (pl.engine)
        engine_free(pl.engine);
    return status;
bad:
    opts_see_help("ponder player");
    return 2;
}

PONDER_COMMAND("player", cmd_player, 40,
               "play one game over stdin/stdout, one move a line (for match and tournament)")
