/*
 * perft_cmd.c - the `ponder perft` command: reads the depth and options, then prints one line
 * per depth with the count perft_count (perft.c) gives and its speed, and with --divide the
 * count below each root move.
 */
#include "perft.h"

#include "cli.h"
#include "command.h"
#include "notation.h"
#include "opts.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    char names[128];
    fprintf(f,
            "usage: ponder perft DEPTH [--fen FEN] [--rules R] [--paths] [--divide] [--hash MB]\n"
            "\n"
            "Counts the leaf nodes of the legal move tree to DEPTH plies and prints one line per\n"
            "depth: `perft D NODES SECONDS NODES_PER_SECOND'.\n"
            "  --fen FEN    start from FEN instead of the standard position\n"
            "  --rules R    rule set: %s (default english)\n"
            "  --paths      count every capture route as its own move (default: routes that take\n"
            "               the same pieces to the same square are one move)\n"
            "  --divide     before the last line, the count below each move of the root\n"
            "  --hash MB    keep subtree counts in a table of MB megabytes (default 0: none)\n",
            rules_names(names, sizeof names));
}

static int cmd_perft(int argc, char **argv)
{
    long depth = -1, hash_mb = 0;
    const char *fen = NULL;
    const Rules *rules = &RULES_ENGLISH;
    bool paths = false, divide = false;
    enum { OPT_FEN = OPTS_LONG, OPT_RULES, OPT_HASH, OPT_PATHS, OPT_DIVIDE };
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {"fen", required_argument, NULL, OPT_FEN},
        {"rules", required_argument, NULL, OPT_RULES},
        {"hash", required_argument, NULL, OPT_HASH},
        {"paths", no_argument, NULL, OPT_PATHS},
        {"divide", no_argument, NULL, OPT_DIVIDE},
        {0},
    };
    char names[128];
    Opts p;
    opts_begin(&p, "ponder perft", argc, argv, "h", longopts, 0, NULL);
    for (int c; (c = opts_next(&p)) != OPTS_END;) {
        switch (c) {
        case 'h': usage(stdout); return 0;
        case OPT_FEN: fen = optarg; break;
        case OPT_RULES:
            if (!(rules = rules_find(optarg))) {
                fprintf(stderr, "ponder perft: unknown rule set `%s' (known: %s)\n", optarg,
                        rules_names(names, sizeof names));
                goto bad;
            }
            break;
        case OPT_HASH:
            /* Perft's own table, not the engine's, but under the same limit; 0: none. */
            if (!cli_long("--hash", optarg, 0, ENGINE_HASH_MB_MAX, &hash_mb))
                goto bad;
            break;
        case OPT_PATHS: paths = true; break;
        case OPT_DIVIDE: divide = true; break;
        default: goto bad;
        }
    }
    if (optind < argc && !cli_long("DEPTH", argv[optind++], 0, 64, &depth))
        goto bad;
    if (optind < argc) {
        fprintf(stderr, "ponder perft: unexpected argument `%s'\n", argv[optind]);
        goto bad;
    }
    if (depth < 0) {
        fprintf(stderr, "ponder perft: DEPTH missing\n");
        goto bad;
    }
    Board b;
    if (fen) {
        ParseError e;
        if (!notation_parse_setup(fen, &b, &e)) {
            char msg[256];
            parse_error_format(&e, msg, sizeof msg);
            fprintf(stderr, "ponder perft: bad FEN: %s\n", msg);
            goto bad;
        }
    } else
        board_start(&b);
    PerftHash *h = perft_hash_new((size_t)hash_mb);
    if (hash_mb > 0 && !h) {
        fprintf(stderr, "ponder perft: cannot allocate %ld MB for the hash table\n", hash_mb);
        return 1;
    }
    /* Depth 0 is one line too: the root alone, one leaf. */
    for (int d = depth == 0 ? 0 : 1; d <= depth; d++) {
        double t0 = util_now();
        uint64_t nodes = 0;
        if (divide && d == depth && d > 0) {
            MoveList list;
            movegen_generate(&b, rules, paths, &list);
            for (int i = 0; i < list.count; i++) {
                Board child = b;
                board_apply(&child, &list.moves[i]);
                uint64_t n = perft_count(&child, rules, d - 1, paths, h);
                char mv[64];
                notation_format_move(&list.moves[i], mv, sizeof mv);
                printf("%s %llu\n", mv, (unsigned long long)n);
                nodes += n;
            }
        } else
            nodes = perft_count(&b, rules, d, paths, h);
        double dt = util_now() - t0;
        printf("perft %d %llu %.3f %.0f\n", d, (unsigned long long)nodes, dt,
               dt > 0 ? (double)nodes / dt : 0.0);
        fflush(stdout);
    }
    perft_hash_free(h);
    return 0;
bad:
    opts_see_help("ponder perft");
    return 2;
}

PONDER_COMMAND("perft", cmd_perft, 80,
               "count the move tree's leaves (move generator check and speed)")
