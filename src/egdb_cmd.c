/*
 * egdb_cmd.c - `ponder egdb build|probe|info|verify`: the endgame database tool.
 */
#include "cli.h"
#include "command.h"
#include "egdb_build.h"
#include "notation.h"
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
            EGDB_MAX_PIECES, egdb_default_dir(dir, sizeof dir));
}

static void print_line(const char *line, void *ctx)
{
    (void)ctx;
    printf("%s\n", line);
    fflush(stdout);
}

static int cmd_egdb(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *verb = argv[1];
    if (strcmp(verb, "build") && strcmp(verb, "probe") && strcmp(verb, "info") &&
        strcmp(verb, "verify") && strcmp(verb, "speed")) {
        fprintf(stderr, "ponder egdb: unknown action `%s'\n", verb);
        usage(stderr);
        return 2;
    }
    char defdir[512];
    const char *dir = egdb_default_dir(defdir, sizeof defdir), *fen = NULL;
    long pieces = -1, threads = sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1)
        threads = 1;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--dir") == 0) {
            if (!(dir = cli_value(argc, argv, &i)))
                goto bad;
        } else if (strcmp(a, "--pieces") == 0) {
            if (!(v = cli_value(argc, argv, &i)) || !cli_long("--pieces", v, 2, EGDB_MAX_PIECES, &pieces))
                goto bad;
        } else if (strcmp(a, "--threads") == 0) {
            if (!(v = cli_value(argc, argv, &i)) || !cli_long("--threads", v, 1, 64, &threads))
                goto bad;
        } else if (a[0] == '-' && a[1] == '-') {
            fprintf(stderr, "ponder egdb: unknown option `%s'\n", a);
            goto bad;
        } else if (strcmp(verb, "probe") == 0 && !fen) {
            fen = a;
        } else {
            fprintf(stderr, "ponder egdb %s: unexpected argument `%s'\n", verb, a);
            goto bad;
        }
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
        double t0 = cli_now();
        if (!egdb_build(&opt, print_line, NULL, err)) {
            fprintf(stderr, "ponder egdb build: %s\n", err);
            return 1;
        }
        printf("done in %.1f s\n", cli_now() - t0);
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
        double t0 = cli_now();
        int64_t bad = egdb_verify(dir, n, (int)threads, &checked, print_line, NULL, err);
        if (bad < 0) {
            fprintf(stderr, "ponder egdb verify: %s\n", err);
            return 1;
        }
        printf("%s: %llu positions of up to %d pieces checked in %.1f s, %lld wrong\n",
               bad ? "FAILED" : "ok", (unsigned long long)checked, n, cli_now() - t0,
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
                printf("%s (%s to move %s)\n", v == EGDB_WIN ? "win" : v == EGDB_LOSS ? "loss" : "draw",
                       side, v == EGDB_WIN ? "wins" : v == EGDB_LOSS ? "loses" : "draws");
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
                double t0 = cli_now();
                for (int i = 0; i < N; i++)
                    sum += egdb_probe(set, &boards[i]);
                double dt = cli_now() - t0;
                printf("%s: %d probes of %d-piece positions in %.3f s: %.0f probes/s (checksum %llu)\n",
                       pass ? "warm" : "cold", N, n, dt, N / dt, (unsigned long long)sum);
            }
            free(boards);
        }
    } else {
        /* info */
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
                               (unsigned long long)info.counts[1], (unsigned long long)info.counts[2],
                               (unsigned long long)info.counts[3], (unsigned long long)info.file_bytes);
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
    usage(stderr);
    return 2;
}

PONDER_COMMAND("egdb", cmd_egdb, 90, "endgame databases: build, probe, info, verify")
