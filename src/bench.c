/*
 * bench.c - `ponder bench [DEPTH]`: a fixed-depth search of fixed positions, the engine's
 * signature and speed test.
 *
 * One thread, a 16 MB table cleared before each position, the same positions every time: the
 * total node count is a signature of the search and the evaluation (any functional change moves
 * it, a pure refactor must not), and nodes per second measure speed. The positions span the
 * game: openings, middlegames with and without kings, and endings. The time counted is the
 * searches' own (clearing the table between positions is left out). With --threads N the same
 * run measures Lazy SMP's time to depth (the node count is then no longer reproducible).
 * Endgame databases are used only when --egdb names them, never the user's default directory:
 * the count must not depend on what the machine has built (tests/cli/bench.sh pins it).
 */
#include "cli.h"
#include "command.h"
#include "engine.h"
#include "notation.h"
#include "opts.h"

#include <stdio.h>
#include <string.h>

enum { BENCH_DEFAULT_DEPTH = 23, BENCH_HASH_MB = 16 };

static const char *const bench_positions[] = {
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,13",
    "B:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,13",
    "B:W18,19,22,23,24,25,26,27,29,30,31,32:B1,2,3,5,6,7,9,10,11,12,14,15",
    "W:W17,19,21,22,24,26,27,28,30,31,32:B1,2,3,5,6,7,9,10,12,13,14",
    "B:W18,20,22,23,25,26,27,29,31:B2,3,5,6,8,9,10,11,15",
    "W:W17,20,21,23,26,28,30,32,K4:B1,2,7,9,10,11,K27",
    "B:W22,23,25,27,28,29:B5,6,9,10,12,13",
    "B:W21,24,26,31,K7:B3,5,10,11,K28",
    "W:W20,26,29,K14:B5,11,K19,K27",
    "B:WK18,K23:BK1,K10,K15",
    "W:W21,27,30:B6,10,15",
};

/* The engine options bench takes. */
enum {
    BENCH_ENGINE_OPTS = OPTS_HASH | OPTS_THREADS | OPTS_WEIGHTS | OPTS_EVAL | OPTS_NET | OPTS_EGDB
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ponder bench [DEPTH] [--weights FILE] [--eval classic|net] [--net FILE]\n"
            "                    [--threads N] [--hash MB] [--egdb DIR]\n"
            "Searches %zu fixed positions to DEPTH plies (default %d) on one thread with a\n"
            "cleared %d MB table each, then prints `Nodes searched: N' and `Nodes/second: N'.\n"
            "The node count is the same on every run and machine: no endgame databases\n"
            "are used unless --egdb names them.\n"
            "  --threads N  search with N threads (Lazy SMP): `Total time' is then the time\n"
            "               to depth; the node count varies from run to run\n",
            sizeof bench_positions / sizeof bench_positions[0], BENCH_DEFAULT_DEPTH, BENCH_HASH_MB);
    EngineOptions defaults;
    engine_default_options(&defaults);
    defaults.hash_mb = BENCH_HASH_MB;
    /* --threads and --egdb change what bench measures: their lines say how. */
    opts_help(f, BENCH_ENGINE_OPTS & ~(OPTS_THREADS | OPTS_EGDB), &defaults, 2, 15);
    fprintf(f,
            "  --egdb DIR   probe the endgame databases in DIR (the count then depends on them)\n");
}

static int cmd_bench(int argc, char **argv)
{
    long depth = BENCH_DEFAULT_DEPTH;
    EngineOptions opt;
    engine_default_options(&opt);
    opt.hash_mb = BENCH_HASH_MB;
    static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {0}};
    Opts p;
    opts_begin(&p, "ponder bench", argc, argv, "h", longopts, BENCH_ENGINE_OPTS, &opt);
    for (int c; (c = opts_next(&p)) != OPTS_END;) {
        if (c == 'h') {
            usage(stdout);
            return 0;
        }
        opts_see_help("ponder bench");
        return 2;
    }
    if (optind < argc && !cli_long("DEPTH", argv[optind++], 1, MAX_PLY - 1, &depth)) {
        opts_see_help("ponder bench");
        return 2;
    }
    if (optind < argc) {
        fprintf(stderr, "ponder bench: unexpected argument `%s'\n", argv[optind]);
        opts_see_help("ponder bench");
        return 2;
    }

    char err[ERR_LEN];
    Engine *e = engine_new(&opt, err);
    if (!e) {
        fprintf(stderr, "ponder bench: %s\n", err);
        return 1;
    }
    static Game game;
    uint64_t nodes = 0;
    double secs = 0; /* searching only: clearing the table between positions is not search */
    int n = (int)(sizeof bench_positions / sizeof bench_positions[0]);
    for (int i = 0; i < n; i++) {
        Board b;
        ParseError pe;
        if (!notation_parse_fen(bench_positions[i], &b, &pe)) {
            parse_error_format(&pe, err, sizeof err);
            fprintf(stderr, "ponder bench: position %d: %s\n", i + 1, err);
            engine_free(e);
            return 1;
        }
        game_init(&game, &RULES_ENGLISH, &b);
        engine_new_game(e);
        SearchLimits lim = {.depth = (int)depth};
        double t0 = util_now();
        SearchResult r = engine_search(e, &game, &lim, NULL, NULL);
        secs += util_now() - t0;
        char mv[64] = "none";
        if (r.has_move)
            notation_format_move(&r.best, mv, sizeof mv);
        printf("Position %2d/%d: %-8s score %6d nodes %12llu  %s\n", i + 1, n, mv, r.info.score,
               (unsigned long long)r.info.nodes, bench_positions[i]);
        nodes += r.info.nodes;
    }
    engine_free(e);
    printf("\nTotal time (ms): %.0f\n", secs * 1000);
    printf("Nodes searched: %llu\n", (unsigned long long)nodes);
    printf("Nodes/second: %.0f\n", secs > 0 ? nodes / secs : 0.0);
    return 0;
}

PONDER_COMMAND("bench", cmd_bench, 81, "search fixed positions to a fixed depth (signature, speed)")
