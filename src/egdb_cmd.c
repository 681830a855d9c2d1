/*
 * egdb_cmd.c - `ponder egdb build|probe|info|verify`: the endgame database tool.
 */
#include "cli.h"
#include "command.h"
#include "egdb_build.h"
#include "notation.h"
#include "opts.h"
#include "rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
    char dir[512];
    fprintf(f,
            "usage: ponder egdb build --pieces N [--dir DIR] [--threads T]\n"
            "       ponder egdb probe [--dir DIR] FEN\n"
            "       ponder egdb info [--dir DIR]\n"
            "       ponder egdb verify [--dir DIR] [--pieces N] [--threads T]\n"
            "       ponder egdb speed [--dir DIR]\n"
            "\n"
            "Endgame databases: win, loss or draw for every position of N pieces or fewer\n"
            "(English rules), built on this machine by retrograde analysis.\n"
            "  build    build every slice up to N pieces (2-%d); an interrupted build resumes\n"
            "           where it stopped (finished slice files are kept)\n"
            "  probe    the value of FEN for its side to move: first word win, loss or draw\n"
            "  info     the slices present, their counts and sizes\n"
            "  verify   check that every stored value agrees with the values of its successors\n"
            "  speed    probes per second on random positions of the present slices\n"
            "  --dir DIR      the database directory (default %s)\n"
            "  --threads T    worker threads (default: the number of cores)\n",
            EGDB_MAX_PIECES, cli_egdb_dir(dir, sizeof dir));
}

/* ---- what a build costs ----
 *
 * Scaled from the measured 6-piece build on this project's machine (docs/egdb.md): 2.72e9
 * indices in 18 min of wall time on 2 threads, 95.7 MB on disk, 2.4 GB resident at the peak,
 * which is about twice the largest slice pair's two bytes per index plus every finished slice's
 * two bits per index. Time and disk are taken as proportional to the indices. */
enum { REF_PIECES = 6 };
static const double REF_SECONDS_2T = 18.0 * 60, REF_DISK = 95.7e6, MEMORY_FACTOR = 2.0;

typedef struct {
    double indices; /* over every slice up to N pieces */
    double memory;  /* peak bytes, estimated */
} BuildCost;

static BuildCost build_cost(int pieces)
{
    BuildCost c = {0, 0};
    double pair = 0, packed = 0;
    for (int n = 2; n <= pieces; n++)
        for (int bm = 0; bm <= n; bm++)
            for (int bk = 0; bm + bk <= n; bk++)
                for (int wm = 0; bm + bk + wm <= n; wm++) {
                    int wk = n - bm - bk - wm;
                    if (bm + bk == 0 || wm + wk == 0)
                        continue;
                    EgdbSlice s, t;
                    egdb_slice_init(&s, bm, bk, wm, wk);
                    egdb_slice_init(&t, wm, wk, bm, bk);
                    c.indices += (double)s.size;
                    packed += (double)s.size / 4;
                    double p = 2.0 * ((double)s.size + (bm == wm && bk == wk ? 0 : (double)t.size));
                    if (p > pair)
                        pair = p;
                }
    c.memory = MEMORY_FACTOR * (pair + packed);
    return c;
}

/* "1.4 GB", "95 MB", "12 kB" */
static const char *bytes_text(double b, char *buf, size_t size)
{
    if (b >= 1e9)
        snprintf(buf, size, "%.1f GB", b / 1e9);
    else if (b >= 1e6)
        snprintf(buf, size, "%.0f MB", b / 1e6);
    else
        snprintf(buf, size, "%.0f kB", b / 1e3);
    return buf;
}

/* "4.4 hours", "18 minutes", "12 seconds" */
static const char *time_text(double s, char *buf, size_t size)
{
    if (s >= 2 * 3600)
        snprintf(buf, size, "%.1f hours", s / 3600);
    else if (s >= 120)
        snprintf(buf, size, "%.0f minutes", s / 60);
    else
        snprintf(buf, size, "%.0f seconds", s);
    return buf;
}

/* Before a build of 5 pieces or more: what it will take, on stdout; from 7 pieces on, or when
 * the memory exceeds this machine's, a warning on stderr as well (the build goes ahead: the
 * user may interrupt it, and it resumes where it stopped). */
static void print_build_cost(int pieces, int threads, const char *dir)
{
    if (pieces < 5)
        return;
    BuildCost c = build_cost(pieces), ref = build_cost(REF_PIECES);
    double ratio = c.indices / ref.indices;
    double seconds = REF_SECONDS_2T * ratio * 2.0 / (threads < 2 ? threads : 2);
    char t[32], m[32], d[32], have[32];
    printf("estimate: %.3g %s positions to solve, about %s with %d thread%s, %s of memory at the "
           "peak, %s on disk\n(scaled from a 6-piece build: 18 minutes on 2 threads, 2.4 GB, "
           "96 MB)\n",
           c.indices >= 1e9 ? c.indices / 1e9 : c.indices / 1e6,
           c.indices >= 1e9 ? "billion" : "million", time_text(seconds, t, sizeof t), threads,
           threads == 1 ? "" : "s", bytes_text(c.memory, m, sizeof m),
           bytes_text(REF_DISK * ratio, d, sizeof d));
    fflush(stdout);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    double phys = pages > 0 && page > 0 ? (double)pages * (double)page : 0;
    if (phys > 0 && c.memory > phys)
        fprintf(stderr,
                "ponder egdb build: warning: this machine has %s of memory, less than the %s "
                "the largest slices need: the build will run out of memory or swap\n",
                bytes_text(phys, have, sizeof have), m);
    if (pieces >= 7)
        fprintf(stderr,
                "ponder egdb build: warning: %d pieces is a very large job for one machine "
                "(%s, %s of memory, %s of disk in %s); Ctrl-C stops it and running it again "
                "resumes; docs/egdb.md plans it over many machines\n",
                pieces, t, m, d, dir);
}

/* What a slice name such as 1-0-0-2 means, for the tables of `build' and `info'. */
static const char LEGEND[] =
    "slice B-b-W-w: Black men, Black kings, White men, White kings, Black to move (1-0-0-2: a\n"
    "Black man against two White kings)\n";
static const char LEGEND_TWIN[] = "+twin: solved together with its colour-swapped twin\n";

static void print_line(const char *line, void *ctx)
{
    (void)ctx;
    printf("%s\n", line);
    fflush(stdout);
}

static int cmd_egdb(int argc, char **argv)
{
    char defdir[512];
    const char *dir = cli_egdb_dir(defdir, sizeof defdir), *fen = NULL;
    long pieces = -1, threads = sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1)
        threads = 1;
    if (threads > ENGINE_THREADS_MAX)
        threads = ENGINE_THREADS_MAX;
    enum { OPT_DIR = OPTS_LONG, OPT_PIECES, OPT_THREADS };
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {"dir", required_argument, NULL, OPT_DIR},
        {"pieces", required_argument, NULL, OPT_PIECES},
        {"threads", required_argument, NULL, OPT_THREADS},
        {0},
    };
    Opts p;
    opts_begin(&p, "ponder egdb", argc, argv, "h", longopts, 0, NULL);
    for (int c; (c = opts_next(&p)) != OPTS_END;) {
        switch (c) {
        case 'h': usage(stdout); return 0;
        case OPT_DIR: dir = optarg; break;
        case OPT_PIECES:
            if (!cli_long("--pieces", optarg, 2, EGDB_MAX_PIECES, &pieces))
                goto bad;
            break;
        case OPT_THREADS:
            /* The builder's own workers, under the engine's limit like every --threads. */
            if (!cli_long("--threads", optarg, ENGINE_THREADS_MIN, ENGINE_THREADS_MAX, &threads))
                goto bad;
            break;
        default: goto bad;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "ponder egdb: an action is needed: build, probe, info, verify or speed\n");
        goto bad;
    }
    const char *verb = argv[optind++];
    if (strcmp(verb, "build") && strcmp(verb, "probe") && strcmp(verb, "info") &&
        strcmp(verb, "verify") && strcmp(verb, "speed")) {
        fprintf(stderr,
                "ponder egdb: unknown action `%s' (the actions: build, probe, info, verify, "
                "speed)\n",
                verb);
        goto bad;
    }
    if (strcmp(verb, "probe") == 0 && optind < argc)
        fen = argv[optind++];
    if (optind < argc) {
        fprintf(stderr, "ponder egdb %s: unexpected argument `%s'\n", verb, argv[optind]);
        goto bad;
    }
    char err[ERR_LEN];
    if (strcmp(verb, "build") == 0) {
        if (pieces < 0) {
            fprintf(stderr, "ponder egdb build: --pieces N is required\n");
            goto bad;
        }
        EgdbBuildOptions opt = {dir, (int)pieces, (int)threads, false};
        printf("building every position of up to %ld pieces in %s with %ld threads\n", pieces, dir,
               threads);
        print_build_cost((int)pieces, (int)threads, dir);
        printf("%s%s", LEGEND, LEGEND_TWIN);
        double t0 = util_now();
        if (!egdb_build(&opt, print_line, NULL, err)) {
            fprintf(stderr, "ponder egdb build: %s\n", err);
            return 1;
        }
        printf("done in %.1f s\n", util_now() - t0);
        return 0;
    }
    if (strcmp(verb, "verify") == 0) {
        EgdbSet *set = egdb_open(dir, err);
        if (!set) {
            fprintf(stderr, "ponder egdb verify: %s\n", err);
            return 1;
        }
        int n = pieces > 0 ? (int)pieces : egdb_complete_pieces(set);
        egdb_close(set);
        uint64_t checked = 0;
        double t0 = util_now();
        int64_t bad = egdb_verify(dir, n, (int)threads, &checked, print_line, NULL, err);
        if (bad < 0) {
            fprintf(stderr, "ponder egdb verify: %s\n", err);
            return 1;
        }
        printf("%s: %llu positions of up to %d pieces checked in %.1f s, %lld wrong\n",
               bad ? "FAILED" : "ok", (unsigned long long)checked, n, util_now() - t0,
               (long long)bad);
        return bad ? 1 : 0;
    }
    EgdbSet *set = egdb_open(dir, err);
    if (!set) {
        fprintf(stderr, "ponder egdb %s: %s\n", verb, err);
        return 1;
    }
    if (egdb_warnings(set)[0])
        fprintf(stderr, "ponder egdb: warning: %s\n", egdb_warnings(set));
    int status = 0;
    if (strcmp(verb, "probe") == 0) {
        Board b;
        ParseError pe;
        char reason[ERR_LEN];
        if (!fen) {
            fprintf(stderr, "ponder egdb probe: FEN missing\n");
            egdb_close(set);
            goto bad;
        }
        if (!notation_parse_fen(fen, &b, &pe)) {
            char msg[256];
            parse_error_format(&pe, msg, sizeof msg);
            fprintf(stderr, "ponder egdb probe: bad FEN: %s\n", msg);
            status = 2;
        } else if (!board_reachable(&b, reason)) {
            fprintf(stderr, "ponder egdb probe: bad FEN: %s\n", reason);
            status = 2;
        } else {
            EgdbValue v = egdb_probe(set, &b);
            const char *side = b.side == BLACK ? "Black" : "White";
            int count = __builtin_popcount(b.pieces[0] | b.pieces[1]);
            if (v == EGDB_UNKNOWN) {
                printf("unknown (%d pieces; the databases in %s cover up to %d)\n", count, dir,
                       egdb_complete_pieces(set));
                status = 1;
            } else
                printf("%s (%s to move %s)\n",
                       v == EGDB_WIN    ? "win"
                       : v == EGDB_LOSS ? "loss"
                                        : "draw",
                       side,
                       v == EGDB_WIN    ? "wins"
                       : v == EGDB_LOSS ? "loses"
                                        : "draws");
        }
    } else if (strcmp(verb, "speed") == 0) {
        /* Random positions of the complete piece count, decoded first so that only probing is
         * timed; the same positions probed twice, the second pass from a warm cache. */
        enum { N = 1 << 20 };
        Board *boards = malloc(N * sizeof *boards);
        int n = egdb_complete_pieces(set), have = 0;
        uint64_t x = 0x9E3779B97F4A7C15ull;
        while (boards && have < N) {
            rng_xorshift64(&x);
            int bm = (int)(x % (unsigned)(n + 1)), bk = (int)((x >> 8) % (unsigned)(n - bm + 1));
            int wm = (int)((x >> 16) % (unsigned)(n - bm - bk + 1)), wk = n - bm - bk - wm;
            if (bm + bk == 0 || wm + wk == 0)
                continue;
            EgdbSlice sl;
            egdb_slice_init(&sl, bm, bk, wm, wk);
            if (egdb_index_decode(&sl, (x >> 24) % sl.size, &boards[have]))
                have++;
        }
        if (!boards) {
            fprintf(stderr, "ponder egdb speed: out of memory\n");
            status = 1;
        } else {
            for (int pass = 0; pass < 2; pass++) {
                uint64_t sum = 0;
                double t0 = util_now();
                for (int i = 0; i < N; i++)
                    sum += egdb_probe(set, &boards[i]);
                double dt = util_now() - t0;
                printf("%s: %d probes of %d-piece positions in %.3f s: %.0f probes/s "
                       "(checksum %llu)\n",
                       pass ? "warm" : "cold", N, n, dt, N / dt, (unsigned long long)sum);
            }
            free(boards);
        }
    } else {
        /* info */
        printf("%s", LEGEND);
        printf("%-14s %14s %14s %14s %14s %12s\n", "slice", "positions", "wins", "losses", "draws",
               "bytes");
        uint64_t tot[4] = {0, 0, 0, 0}, bytes = 0;
        int files = 0;
        for (int n = 2; n <= EGDB_MAX_PIECES; n++)
            for (int bm = 0; bm <= n; bm++)
                for (int bk = 0; bm + bk <= n; bk++)
                    for (int wm = 0; bm + bk + wm <= n; wm++) {
                        EgdbSlice s;
                        egdb_slice_init(&s, bm, bk, wm, n - bm - bk - wm);
                        char name[64], path[4200];
                        egdb_file_name(&s, name, sizeof name);
                        snprintf(path, sizeof path, "%s/%s", dir, name);
                        if (access(path, F_OK) != 0)
                            continue;
                        EgdbFileInfo info;
                        if (!egdb_read_slice(path, &info, NULL, err)) {
                            printf("%-14s damaged: %s\n", name, err);
                            status = 1;
                            continue;
                        }
                        files++;
                        uint64_t pos = info.counts[1] + info.counts[2] + info.counts[3];
                        printf("%d-%d-%d-%-8d %14llu %14llu %14llu %14llu %12llu\n", bm, bk, wm,
                               n - bm - bk - wm, (unsigned long long)pos,
                               (unsigned long long)info.counts[1],
                               (unsigned long long)info.counts[2],
                               (unsigned long long)info.counts[3],
                               (unsigned long long)info.file_bytes);
                        for (int k = 1; k < 4; k++)
                            tot[k] += info.counts[k];
                        bytes += info.file_bytes;
                    }
        printf("%-14s %14llu %14llu %14llu %14llu %12llu\n", "total",
               (unsigned long long)(tot[1] + tot[2] + tot[3]), (unsigned long long)tot[1],
               (unsigned long long)tot[2], (unsigned long long)tot[3], (unsigned long long)bytes);
        printf("%d slice files in %s; complete up to %d pieces\n", files, dir,
               egdb_complete_pieces(set));
    }
    egdb_close(set);
    return status;
bad:
    opts_see_help("ponder egdb");
    return 2;
}

PONDER_COMMAND("egdb", cmd_egdb, 90, "endgame databases: build, probe, info, verify")
