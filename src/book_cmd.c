/*
 * book_cmd.c - `ponder book build|probe|info|export|merge`: the opening-book tool.
 *
 * build grows a book by drop-out expansion (book_build.c) with progress on stderr, saving as it
 * goes, so it can be stopped (Ctrl-C) and run again to go on; probe lists a position's book
 * moves; info describes a book; export writes it as PDN with variations; merge joins books
 * (the shards of a build spread over several machines).
 */
#include "book_build.h"
#include "cli.h"
#include "command.h"
#include "notation.h"
#include "opts.h"
#include "util.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The engine options of book build (its --threads is its own: searches at once). */
enum {
    BOOK_HASH_MB = 16, /* --hash default: each search's table */
    BOOK_ENGINE_OPTS = OPTS_HASH | OPTS_WEIGHTS,
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ponder book build --out FILE [--positions N] [--nodes N | --depth N]\n"
            "                         [--threads T] [--drop D] [--shard I/N] [--no-ballots]\n"
            "       ponder book probe FILE FEN\n"
            "       ponder book info FILE\n"
            "       ponder book export FILE [--fen FEN] [--plies N] [--lines K]\n"
            "       ponder book merge --out FILE BOOK...\n"
            "\n"
            "Opening books in Ponder's open format (docs/book.md).\n"
            "  build     grow the book FILE by drop-out expansion from the start position and\n"
            "            the 156 three-move ballots, the engine searching every new position;\n"
            "            an existing FILE is resumed; Ctrl-C saves and stops\n"
            "    --positions N  stop at N book positions (default 2000)\n"
            "    --nodes N      nodes per search (default 100000); --depth N: plies instead\n"
            "    --threads T    searches at once (default: the number of cores)\n"
            "    --drop D       hundredths of a man a second-best move may lose per ply of\n"
            "                   depth it is given (default 10; larger: a wider, shallower book)\n"
            "    --shard I/N    only the roots I, I+N, ... (start = 0, ballot k = k): merge\n"
            "                   the shards' books with `book merge'\n"
            "    --no-ballots   the start position only\n"
            "    --name TEXT    the name stored in the book (23 characters at most)\n"
            "    --hash MB      transposition table of each search (default %d)\n",
            BOOK_HASH_MB);
    opts_help(f, BOOK_ENGINE_OPTS & ~OPTS_HASH, NULL, 4, 19);
    fprintf(f,
            "    --save-every S seconds between saves (default 30)\n"
            "    -q, --quiet    no progress line\n"
            "  probe     the book moves of FEN, best first: move, score, depth, positions\n"
            "  info      size, positions, moves, and the book's main line from the start\n"
            "  export    the book as one PDN game: the best line with the other book moves as\n"
            "            variations (--plies N deep, default 12; --lines K alternatives at each\n"
            "            move, default 2, within two levels of variations)\n"
            "  merge     join books: each move keeps its deepest search\n");
}

/* ---- build ------------------------------------------------------------------------------- */

static atomic_int stop_flag;
static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&stop_flag, 1);
}

static void progress(const BookBuildStatus *st, bool saved, void *ctx)
{
    bool tty = *(bool *)ctx;
    double rate = st->seconds > 0 ? st->searches / st->seconds : 0;
    if (tty || saved)
        fprintf(
            stderr,
            "%sbook: %zu positions, %zu leaves, %llu searches (%.1f/s), deepest %d plies, %.0f s%s",
            tty ? "\r" : "", st->positions, st->leaves, (unsigned long long)st->searches, rate,
            st->deepest, st->seconds, saved ? ", saved" : "       ");
    if (!tty && saved)
        fputc('\n', stderr);
    fflush(stderr);
}

static int cmd_build(int argc, char **argv)
{
    BookBuildOptions o = {0};
    engine_default_options(&o.engine);
    o.engine.contempt = 0; /* a book's scores: a draw scores 0 */
    o.engine.hash_mb = BOOK_HASH_MB;
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    o.threads = threads < 1 ? 1 : (int)threads;
    o.nodes = 100000;
    o.positions = 2000;
    o.drop = 10;
    o.batch = 16;
    o.shards = 1;
    o.ballots = true;
    o.save_every = 30;
    const char *out = NULL, *name = "ponder book";
    bool quiet = false;
    static const struct option longs[] = {{"out", required_argument, NULL, 'o'},
                                          {"positions", required_argument, NULL, 'p'},
                                          {"nodes", required_argument, NULL, 'n'},
                                          {"depth", required_argument, NULL, 'd'},
                                          {"threads", required_argument, NULL, 't'},
                                          {"drop", required_argument, NULL, 'D'},
                                          {"shard", required_argument, NULL, 's'},
                                          {"no-ballots", no_argument, NULL, 'B'},
                                          {"name", required_argument, NULL, 'N'},
                                          {"save-every", required_argument, NULL, 'S'},
                                          {"quiet", no_argument, NULL, 'q'},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
    Opts opts;
    opts_begin(&opts, "ponder book build", argc, argv, "o:t:qh", longs, BOOK_ENGINE_OPTS,
               &o.engine);
    int c;
    long v;
    double dv;
    while ((c = opts_next(&opts)) != OPTS_END) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'p':
            if (!cli_long("--positions", optarg, 1, 100000000, &v))
                return 2;
            o.positions = (size_t)v;
            break;
        case 'n':
            if (!cli_long("--nodes", optarg, 0, 1000000000000L, &v))
                return 2;
            o.nodes = (uint64_t)v;
            break;
        case 'd':
            if (!cli_long("--depth", optarg, 1, MAX_PLY - 1, &v))
                return 2;
            o.depth = (int)v;
            o.nodes = 0;
            break;
        case 't':
            if (!cli_long("--threads", optarg, 1, BOOK_BUILD_MAX_THREADS, &v))
                return 2;
            o.threads = (int)v;
            break;
        case 'D':
            if (!cli_long("--drop", optarg, 1, 10000, &v))
                return 2;
            o.drop = (int)v;
            break;
        case 's': {
            char *slash = strchr(optarg, '/');
            long i, n;
            if (!slash) {
                fprintf(stderr, "ponder book build: --shard `%s': expected I/N, e.g. 0/4\n",
                        optarg);
                return 2;
            }
            *slash = '\0';
            bool okn = cli_long("--shard N", slash + 1, 1, 1000, &n) &&
                       cli_long("--shard I", optarg, 0, 999, &i);
            *slash = '/';
            if (!okn)
                return 2;
            if (i >= n) {
                fprintf(stderr, "ponder book build: --shard %s: I must be below N (0 to %ld)\n",
                        optarg, n - 1);
                return 2;
            }
            o.shard = (int)i;
            o.shards = (int)n;
            break;
        }
        case 'B': o.ballots = false; break;
        case 'N':
            if (strlen(optarg) >= BOOK_NAME_LEN) {
                fprintf(stderr, "ponder book build: --name: at most %d characters\n",
                        BOOK_NAME_LEN - 1);
                return 2;
            }
            for (const char *p = optarg; *p; p++)
                if (*p < 32 || *p > 126) {
                    fprintf(stderr, "ponder book build: --name: printable ASCII only\n");
                    return 2;
                }
            name = optarg;
            break;
        case 'S':
            if (!cli_double("--save-every", optarg, 0, 86400, &dv))
                return 2;
            o.save_every = dv;
            break;
        case 'q': quiet = true; break;
        case 'h': usage(stdout); return 0;
        default: /* OPTS_BAD: the message is out */ opts_see_help("ponder book"); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "ponder book build: unexpected argument `%s'\n", argv[optind]);
        return 2;
    }
    if (!out) {
        fprintf(stderr, "ponder book build: --out FILE is required\n");
        return 2;
    }
    atomic_store(&stop_flag, 0);
    o.stop = &stop_flag;
    CliStop stop = {0};
    cli_catch_stop(&stop, on_signal);
    bool tty = !quiet && isatty(2);
    if (!quiet)
        fprintf(stderr, "book: growing %s to %zu positions, %s %llu per search, %d threads\n", out,
                o.positions, o.nodes ? "nodes" : "depth",
                (unsigned long long)(o.nodes ? o.nodes : (uint64_t)o.depth), o.threads);
    BookBuildStatus st;
    char err[ERR_LEN];
    bool ok = book_build(out, name, &o, quiet ? NULL : progress, &tty, &st, err);
    cli_release_stop(&stop);
    if (tty)
        fputc('\n', stderr);
    if (!ok) {
        fprintf(stderr, "ponder book build: %s\n", err);
        return 1;
    }
    if (!quiet)
        fprintf(stderr,
                "book: %s: %zu positions (%zu leaves), %llu searches, %llu nodes in %.1f s%s\n",
                out, st.positions, st.leaves, (unsigned long long)st.searches,
                (unsigned long long)st.nodes, st.seconds,
                atomic_load(&stop_flag) ? " (stopped; run again to go on)" : "");
    return atomic_load(&stop_flag) ? 130 : 0;
}

/* ---- probe, info, export, merge ---------------------------------------------------------- */

static Book *open_book(const char *verb, const char *path)
{
    char err[ERR_LEN];
    Book *bk = book_load(path, err);
    if (!bk)
        fprintf(stderr, "ponder book %s: %s\n", verb, err);
    return bk;
}

static void format_score(int score, char *buf, size_t size)
{
    if (score_is_decisive(score))
        snprintf(buf, size, "%s%d", score > 0 ? "win in " : "loss in ", score_plies_to_end(score));
    else
        snprintf(buf, size, "%+.2f", score / 100.0);
}

static int cmd_probe(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: ponder book probe FILE FEN\n");
        return 2;
    }
    Board b;
    ParseError pe;
    if (!notation_parse_fen(argv[3], &b, &pe)) {
        char msg[ERR_LEN];
        parse_error_format(&pe, msg, sizeof msg);
        fprintf(stderr, "ponder book probe: bad FEN: %s\n", msg);
        return 2;
    }
    Book *bk = open_book("probe", argv[2]);
    if (!bk)
        return 1;
    BookHit hits[BOOK_MAX_MOVES];
    int n = book_probe(bk, &b, hits, BOOK_MAX_MOVES);
    if (n == 0)
        printf("not in the book\n");
    for (int i = 0; i < n; i++) {
        char mv[64], sc[32];
        notation_format_move(&hits[i].move, mv, sizeof mv);
        format_score(hits[i].score, sc, sizeof sc);
        printf("%-8s %9s  depth %3d  %u positions\n", mv, sc, hits[i].depth, hits[i].count);
    }
    book_free(bk);
    return 0;
}

/* How fast a probe is: every position of the book looked up from its board (a hit, with its
 * moves turned back into moves of the board), and the same position with the other side to move
 * (mostly misses), over and over for about a tenth of a second. */
static void print_probe_speed(const Book *bk)
{
    if (bk->npos == 0)
        return;
    enum { SAMPLE = 4096 };
    size_t n = bk->npos < SAMPLE ? bk->npos : SAMPLE;
    Board *boards = malloc(2 * n * sizeof *boards);
    if (!boards)
        return;
    for (size_t i = 0; i < n; i++) {
        book_key_board(&bk->pos[i * bk->npos / n].key, &boards[2 * i]);
        boards[2 * i + 1] = boards[2 * i];
        boards[2 * i + 1].side ^= 1; /* the same pieces, the other side to move */
        boards[2 * i + 1].key ^= zobrist_side;
    }
    BookHit hits[BOOK_MAX_MOVES];
    long probes = 0, found = 0;
    double start = util_now(), took;
    do {
        for (size_t i = 0; i < 2 * n; i++, probes++)
            found += book_probe(bk, &boards[i], hits, BOOK_MAX_MOVES) > 0;
        took = util_now() - start;
    } while (took < 0.1);
    printf("  probe speed: %.2f us a probe (%ld probes, %.0f%% found)\n", took / probes * 1e6,
           probes, 100.0 * found / probes);
    free(boards);
}

static int cmd_info(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: ponder book info FILE\n");
        return 2;
    }
    Book *bk = open_book("info", argv[2]);
    if (!bk)
        return 1;
    size_t bytes = BOOK_HEADER + bk->npos * BOOK_POS_BYTES + bk->nmoves * BOOK_MOVE_BYTES + 4;
    uint64_t depth_sum = 0;
    for (size_t i = 0; i < bk->nmoves; i++)
        depth_sum += bk->moves[i].depth;
    printf("book %s: \"%s\", format %d\n", argv[2], bk->name, BOOK_VERSION);
    printf("  %zu positions, %zu moves, %zu bytes\n", bk->npos, bk->nmoves, bytes);
    printf("  mean search depth behind a move: %.1f plies\n",
           bk->nmoves ? (double)depth_sum / bk->nmoves : 0.0);
    print_probe_speed(bk);
    /* The main line: the best book move from the start while there is one. */
    Board b;
    board_start(&b);
    printf("  main line:");
    int plies = 0;
    BookHit h;
    BookChoice best = {0, NULL};
    while (plies < 200 && book_choose(bk, &b, &best, &h)) {
        char mv[64];
        notation_format_move(&h.move, mv, sizeof mv);
        if (plies % 2 == 0)
            printf(" %d.", plies / 2 + 1);
        printf(" %s", mv);
        board_apply(&b, &h.move);
        plies++;
    }
    if (plies == 0)
        printf(" (the start position is not in the book)");
    char sc[32];
    board_start(&b);
    BookHit first[BOOK_MAX_MOVES];
    if (book_probe(bk, &b, first, BOOK_MAX_MOVES)) {
        format_score(first[0].score, sc, sizeof sc);
        printf("\n  %d plies; the start position is worth %s to Black\n", plies, sc);
    } else {
        printf("\n");
    }
    book_free(bk);
    return 0;
}

typedef struct {
    const Book *bk;
    FILE *f;
    int lines;  /* alternatives shown at each move */
    int column; /* for wrapping */
} Exporter;

static void emit(Exporter *x, const char *tok)
{
    size_t n = strlen(tok);
    if (x->column > 0 && x->column + 1 + (int)n > 79) {
        fputc('\n', x->f);
        x->column = 0;
    } else if (x->column > 0) {
        fputc(' ', x->f);
        x->column++;
    }
    fputs(tok, x->f);
    x->column += (int)n;
}

/* The move at ply PLY (0: Black's first) with its number when it needs one. */
static void emit_move(Exporter *x, int ply, bool number, const BookHit *h)
{
    char tok[96], mv[64], sc[32];
    if (ply % 2 == 0 || number) {
        snprintf(tok, sizeof tok, "%d.%s", ply / 2 + 1, ply % 2 ? ".." : "");
        emit(x, tok);
    }
    notation_format_move(&h->move, mv, sizeof mv);
    emit(x, mv);
    format_score(h->score, sc, sizeof sc);
    snprintf(tok, sizeof tok, "{%s/%d}", sc, h->depth);
    emit(x, tok);
}

/* The line from B (at ply PLY) for PLIES moves: the best move, then its alternatives as
 * variations when NEST allows, then the rest of the line. */
static void export_line(Exporter *x, const Board *b, int ply, int plies, int nest, bool number)
{
    BookHit hits[BOOK_MAX_MOVES];
    int n = plies > 0 ? book_probe(x->bk, b, hits, BOOK_MAX_MOVES) : 0;
    if (n == 0)
        return;
    emit_move(x, ply, number, &hits[0]);
    bool alt = false;
    for (int i = 1; i < n && i <= x->lines && nest > 0; i++) {
        emit(x, "(");
        x->column -= 1;
        emit_move(x, ply, true, &hits[i]);
        Board c = *b;
        board_apply(&c, &hits[i].move);
        export_line(x, &c, ply + 1, plies - 1, nest - 1, false);
        emit(x, ")");
        alt = true;
    }
    Board c = *b;
    board_apply(&c, &hits[0].move);
    export_line(x, &c, ply + 1, plies - 1, nest, alt);
}

static int cmd_export(int argc, char **argv)
{
    static const struct option longs[] = {{"fen", required_argument, NULL, 'f'},
                                          {"plies", required_argument, NULL, 'p'},
                                          {"lines", required_argument, NULL, 'l'},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
    const char *fen = NULL;
    long plies = 12, lines = 2;
    int ac = argc - 1;
    char **av = argv + 1; /* from "export" on */
    Opts opts;
    opts_begin(&opts, "ponder book export", ac, av, "h", longs, 0, NULL);
    for (int c; (c = opts_next(&opts)) != OPTS_END;) {
        switch (c) {
        case 'f': fen = optarg; break;
        case 'p':
            if (!cli_long("--plies", optarg, 1, 200, &plies))
                return 2;
            break;
        case 'l':
            if (!cli_long("--lines", optarg, 0, BOOK_MAX_MOVES, &lines))
                return 2;
            break;
        case 'h': usage(stdout); return 0;
        default: /* OPTS_BAD: the message is out */ opts_see_help("ponder book"); return 2;
        }
    }
    if (optind >= ac || optind < ac - 1) {
        if (optind >= ac)
            fprintf(stderr, "ponder book export: no book FILE given\n");
        else
            fprintf(stderr, "ponder book export: unexpected argument `%s'\n", av[optind + 1]);
        opts_see_help("ponder book");
        return 2;
    }
    const char *path = av[optind];
    Board b;
    board_start(&b);
    if (fen) {
        ParseError pe;
        if (!notation_parse_fen(fen, &b, &pe)) {
            char msg[ERR_LEN];
            parse_error_format(&pe, msg, sizeof msg);
            fprintf(stderr, "ponder book export: bad FEN: %s\n", msg);
            return 2;
        }
    }
    Book *bk = open_book("export", path);
    if (!bk)
        return 1;
    printf("[Event \"%s\"]\n[Annotator \"ponder book export: {score/depth}\"]\n"
           "[GameType \"21\"]\n",
           bk->name);
    if (fen) {
        char f[128];
        notation_format_fen(&b, f, sizeof f);
        printf("[FEN \"%s\"]\n", f);
    }
    printf("[Result \"*\"]\n\n");
    Exporter x = {bk, stdout, (int)lines, 0};
    export_line(&x, &b, b.side == WHITE ? 1 : 0, (int)plies, 2, b.side == WHITE);
    emit(&x, "*");
    fputc('\n', stdout);
    book_free(bk);
    return 0;
}

static int cmd_merge(int argc, char **argv)
{
    static const struct option longs[] = {{"out", required_argument, NULL, 'o'},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
    const char *out = NULL;
    argc--;
    argv++; /* from "merge" on */
    Opts opts;
    opts_begin(&opts, "ponder book merge", argc, argv, "o:h", longs, 0, NULL);
    for (int c; (c = opts_next(&opts)) != OPTS_END;) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'h': usage(stdout); return 0;
        default: /* OPTS_BAD: the message is out */ opts_see_help("ponder book"); return 2;
        }
    }
    if (!out || optind >= argc) {
        fprintf(stderr, "ponder book merge: %s\n",
                !out ? "--out FILE is required" : "no BOOK to merge");
        opts_see_help("ponder book");
        return 2;
    }
    int first = optind;
    Book *all = open_book("merge", argv[first]);
    if (!all)
        return 1;
    for (int i = first + 1; i < argc; i++) {
        Book *b = open_book("merge", argv[i]);
        char err[ERR_LEN];
        if (!b || !book_merge(all, b, err)) {
            if (b)
                fprintf(stderr, "ponder book merge: %s: %s\n", argv[i], err);
            book_free(b);
            book_free(all);
            return 1;
        }
        book_free(b);
    }
    char err[ERR_LEN];
    if (!book_save(all, out, err)) {
        fprintf(stderr, "ponder book merge: %s\n", err);
        book_free(all);
        return 1;
    }
    fprintf(stderr, "book: %s: %zu positions, %zu moves from %d books\n", out, all->npos,
            all->nmoves, argc - first);
    book_free(all);
    return 0;
}

static int cmd_book(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "build") == 0)
        return cmd_build(argc - 1, argv + 1);
    if (strcmp(argv[1], "probe") == 0)
        return cmd_probe(argc, argv);
    if (strcmp(argv[1], "info") == 0)
        return cmd_info(argc, argv);
    if (strcmp(argv[1], "export") == 0)
        return cmd_export(argc, argv);
    if (strcmp(argv[1], "merge") == 0)
        return cmd_merge(argc, argv);
    fprintf(stderr,
            "ponder book: unknown action `%s' (build, probe, info, export, merge)\n"
            "see `ponder book --help'\n",
            argv[1]);
    return 2;
}

PONDER_COMMAND("book", cmd_book, 85, "opening books: build, probe, info, export, merge")
