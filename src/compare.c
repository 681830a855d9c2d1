/*
 * compare.c - `ponder compare': two match runs of the same games, compared game by game.
 *
 * `ponder match --seed N' gives game number k the same opening and colours in every run with the
 * same openings and seed, so two engines each matched against one reference (or one engine
 * matched twice, before and after a change) played the same games. Pairing the games by number
 * (the PDN Round tag the runner writes) cancels what each opening and colour is worth, and the
 * mean of the per-game score differences has an interval far tighter than the two runs' Elo
 * intervals: two runs of 1,000 games at 0.1 s a move against ce1f348 have +- 15 and +- 16 Elo
 * each, so about +- 22 for their difference unpaired, but +- 0.019 in score paired, about +- 18
 * Elo; far tighter when most games repeat, as node-limited runs of engines that differ little
 * do (match_stats.h, stats_paired). Against several base runs the first run is compared
 * with their mean, game by game.
 *
 * Every game number in all the files is paired; a pair whose opening, start position or the
 * player's colour differ is an error (the runs were not of the same fixtures), as is a damaged
 * file, a game number twice, or a game without a result.
 */
#include "board.h"
#include "command.h"
#include "match_stats.h"
#include "opts.h"
#include "pdn.h"
#include "types.h"
#include "util.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    COMPARE_FILE_MAX = 1 << 30,     /* the largest PDN file read (a million games or so) */
    COMPARE_NUMBER_MAX = 100000000, /* the largest game number */
    COMPARE_FILES_MAX = 16,         /* the run and its base runs */
    COMPARE_SHOWN = 72,             /* characters of an opening shown in a message */
    COMPARE_NAME_LEN = PDN_TAG_LEN, /* a player's name */
};

/* One game of one run, from the compared player's side. */
typedef struct {
    long number;                   /* the Round tag */
    double score;                  /* 1, 1/2 or 0 for the player */
    int colour;                    /* BLACK or WHITE: the player's */
    int line;                      /* where the game starts in its file */
    uint64_t opening;              /* a hash of the Opening tag (0 without one) */
    Board start;                   /* the start position */
    char shown[COMPARE_SHOWN + 1]; /* the Opening tag's start, for messages */
} CmpGame;

typedef struct {
    const char *path;
    CmpGame *games; /* sorted by number */
    int n;
} CmpRun;

/* Says what went wrong on stderr, as `ponder compare: ...'. */
__attribute__((format(printf, 1, 2))) static void complain(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ponder compare: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static void usage(FILE *f)
{
    fputs("usage: ponder compare [--player NAME] RUN.pdn BASE.pdn [BASE2.pdn ...]\n"
          "\n"
          "Compares two runs of `ponder match' that played the same games (the same\n"
          "openings and --seed, so game number k had the same opening and colours in\n"
          "both), game by game: each run's result for one player, then the mean of the\n"
          "per-game score differences (RUN less BASE) with its 95% interval and the\n"
          "Elo it stands for, and how the games' results moved. Pairing cancels what\n"
          "each opening is worth, so the interval is tighter than the runs' own:\n"
          "the way to tell whether a change of an engine moved its score against one\n"
          "reference. With several BASE files, RUN is compared with their mean.\n"
          "Games are paired by number (the Round tag); those not in every file are left\n"
          "out, and a pair whose opening, start position or player's colour differ is\n"
          "an error.\n"
          "  --player NAME   whose results (default: RUN's first program, the one\n"
          "                  `ponder match' gives Black in the odd-numbered games)\n"
          "Example (two engines each against ce1f348, `scripts/strength.sh'):\n"
          "  ponder compare build/strength/NEW-vs-ce1f348-0.1s-1000g.pdn \\\n"
          "      build/strength/OLD-vs-ce1f348-0.1s-1000g.pdn\n",
          f);
}

/* FNV-1a of TEXT. */
static uint64_t hash_text(const char *text)
{
    uint64_t h = 1469598103934665603ULL;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        h = (h ^ *p) * 1099511628211ULL;
    return h;
}

static int by_number(const void *a, const void *b)
{
    long x = ((const CmpGame *)a)->number, y = ((const CmpGame *)b)->number;
    return (x > y) - (x < y);
}

/* The player a run compares by default: the first program of the match, Black in odd-numbered
 * games, read from the lowest-numbered game of TEXT. False, said on stderr, when TEXT has none. */
static bool first_program(const char *path, const char *text, char *name)
{
    PdnGame *g = malloc(sizeof *g);
    if (!g) {
        complain("out of memory");
        return false;
    }
    PdnReader rd;
    pdn_reader_init(&rd, text);
    ParseError pe;
    long best = 0;
    int got;
    while ((got = pdn_read_game(&rd, &RULES_ENGLISH, g, &pe)) != 0) {
        if (got < 0)
            continue; /* reported by read_run */
        const char *round = pdn_tag(g, "Round");
        long k;
        char msg[ERR_LEN];
        if (!round || !util_parse_long(round, 1, COMPARE_NUMBER_MAX, &k, msg, sizeof msg))
            continue;
        if (best && k >= best)
            continue;
        const char *who = pdn_tag(g, k % 2 ? "Black" : "White");
        if (!who || !*who)
            continue;
        best = k;
        snprintf(name, COMPARE_NAME_LEN, "%s", who);
    }
    free(g);
    if (!best)
        complain("%s: no game with a game number (Round tag) and players", path);
    return best != 0;
}

/* Reads the games that PLAYER played in TEXT, the contents of PATH, into RUN. False when it
 * cannot, said on stderr. */
static bool read_run(const char *path, const char *text, const char *player, CmpRun *run)
{
    memset(run, 0, sizeof *run);
    run->path = path;
    char msg[ERR_LEN];
    PdnGame *g = malloc(sizeof *g);
    bool ok = false;
    int cap = 0, all = 0;
    if (!g) {
        complain("out of memory");
        goto out;
    }
    PdnReader rd;
    pdn_reader_init(&rd, text);
    ParseError pe;
    int got;
    while ((got = pdn_read_game(&rd, &RULES_ENGLISH, g, &pe)) != 0) {
        if (got < 0) {
            parse_error_format(&pe, msg, sizeof msg);
            complain("%s: %s", path, msg);
            goto out;
        }
        all++;
        const char *round = pdn_tag(g, "Round");
        long k;
        if (!round || !util_parse_long(round, 1, COMPARE_NUMBER_MAX, &k, msg, sizeof msg)) {
            complain("%s: the game at line %d has Round `%.40s', not a game number "
                     "(1-%d): not a file of ponder match?",
                     path, g->line, round ? round : "(none)", COMPARE_NUMBER_MAX);
            goto out;
        }
        const char *black = pdn_tag(g, "Black"), *white = pdn_tag(g, "White");
        int colour = black && strcmp(black, player) == 0   ? BLACK
                     : white && strcmp(white, player) == 0 ? WHITE
                                                           : -1;
        if (colour < 0)
            continue; /* a game of other players (a tournament's file) */
        double black_score;
        if (strcmp(g->result, "1-0") == 0)
            black_score = 1;
        else if (strcmp(g->result, "0-1") == 0)
            black_score = 0;
        else if (strcmp(g->result, "1/2-1/2") == 0)
            black_score = 0.5;
        else {
            complain("%s: game %ld (line %d) has no result", path, k, g->line);
            goto out;
        }
        if (run->n == cap) {
            int ncap = cap ? 2 * cap : 1024;
            CmpGame *more = realloc(run->games, (size_t)ncap * sizeof *more);
            if (!more) {
                complain("out of memory for %d games", ncap);
                goto out;
            }
            run->games = more;
            cap = ncap;
        }
        CmpGame *c = &run->games[run->n++];
        memset(c, 0, sizeof *c);
        c->number = k;
        c->colour = colour;
        c->score = colour == BLACK ? black_score : 1 - black_score;
        c->line = g->line;
        c->start = g->start;
        const char *op = pdn_tag(g, "Opening");
        c->opening = op && *op ? hash_text(op) : 0;
        snprintf(c->shown, sizeof c->shown, "%s", op && *op ? op : "(none)");
    }
    if (run->n == 0) {
        complain("%s: %s plays in none of its %d games (--player NAME?)", path, player, all);
        goto out;
    }
    qsort(run->games, (size_t)run->n, sizeof *run->games, by_number);
    for (int i = 1; i < run->n; i++)
        if (run->games[i].number == run->games[i - 1].number) {
            const CmpGame *a = &run->games[i - 1], *b = &run->games[i];
            complain("%s: game %ld is in the file twice (lines %d and %d)", path, a->number,
                     a->line < b->line ? a->line : b->line, a->line < b->line ? b->line : a->line);
            goto out;
        }
    ok = true;
out:
    free(g);
    if (!ok) {
        free(run->games);
        run->games = NULL;
        run->n = 0;
    }
    return ok;
}

/* Whether game A of one run and B of another are the same fixture; if not, says how on stderr
 * (a message longer than ERR_LEN: two openings and two file names). */
static bool same_fixture(const CmpRun *ra, const CmpGame *a, const CmpRun *rb, const CmpGame *b,
                         const char *player)
{
    const char *what = a->opening != b->opening             ? "the opening"
                       : !board_equal(&a->start, &b->start) ? "the start position"
                       : a->colour != b->colour             ? "the player's colour"
                                                            : NULL;
    if (!what)
        return true;
    fprintf(stderr,
            "ponder compare: game %ld differs in %s: %s (line %d) has `%s' with %s as %s, %s "
            "(line %d) `%s' with %s as %s: not runs of the same games (the same openings and "
            "--seed?)\n",
            a->number, what, ra->path, a->line, a->shown, player,
            a->colour == BLACK ? "Black" : "White", rb->path, b->line, b->shown, player,
            b->colour == BLACK ? "Black" : "White");
    return false;
}

static void print_elo(double elo)
{
    if (isfinite(elo))
        printf("%+.1f", elo);
    else
        printf("%sinf", elo > 0 ? "+" : "-");
}

/* One run's line: its W/D/L over the paired games, score and Elo. */
static void print_run(const char *label, const char *path, const double *scores, int n)
{
    StatsWdl w = {0, 0, 0};
    for (int i = 0; i < n; i++)
        if (scores[i] == 1)
            w.wins++;
        else if (scores[i] == 0)
            w.losses++;
        else
            w.draws++;
    StatsElo e;
    stats_elo(&w, &e);
    char wdl[64];
    snprintf(wdl, sizeof wdl, "+%d =%d -%d", w.wins, w.draws, w.losses);
    printf("%-5s  %-16s  %.4f  Elo ", label, wdl, e.score);
    print_elo(e.elo);
    if (isfinite(e.elo_error))
        printf(" +- %.1f", e.elo_error);
    else
        printf(" +- inf");
    printf("  %s\n", path);
}

static int cmd_compare(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"player", required_argument, NULL, 'p'},
        {"help", no_argument, NULL, 'h'},
        {0},
    };
    const char *player_opt = NULL;
    Opts p;
    opts_begin(&p, "ponder compare", argc, argv, "hp:", longopts, 0, NULL);
    for (int c; (c = opts_next(&p)) != OPTS_END;) {
        if (c == 'h') {
            usage(stdout);
            return 0;
        }
        if (c == 'p' && *optarg) {
            player_opt = optarg;
            continue;
        }
        if (c == 'p')
            fprintf(stderr, "ponder compare: --player needs a name\n");
        opts_see_help("ponder compare");
        return 2;
    }
    int nfiles = argc - optind;
    if (nfiles < 2 || nfiles > COMPARE_FILES_MAX) {
        fprintf(stderr, "ponder compare: %s (RUN.pdn and 1-%d BASE files)\n",
                nfiles < 2 ? "two PDN files are needed" : "too many files", COMPARE_FILES_MAX - 1);
        opts_see_help("ponder compare");
        return 2;
    }
    char **paths = argv + optind;

    CmpRun runs[COMPARE_FILES_MAX];
    memset(runs, 0, sizeof runs);
    char *texts[COMPARE_FILES_MAX] = {NULL};
    int status = 1;
    double *diff = NULL, *score_a = NULL, *score_b = NULL;
    int *pair_at[COMPARE_FILES_MAX] = {NULL}; /* [f][pair]: the pair's game in run f */
    int moved[3][3] = {{0}}; /* [RUN's result][BASE's], 0 win 1 draw 2 loss (one BASE) */
    for (int f = 0; f < nfiles; f++) {
        for (int e = 0; e < f; e++)
            if (strcmp(paths[f], "-") == 0 && strcmp(paths[e], "-") == 0) {
                complain("standard input (`-') can be only one of the files");
                goto out;
            }
        char msg[ERR_LEN];
        if (!(texts[f] = util_read_file(paths[f], COMPARE_FILE_MAX, NULL, msg, sizeof msg))) {
            complain("%s", msg); /* it names the file */
            goto out;
        }
    }
    char player[COMPARE_NAME_LEN];
    if (player_opt)
        snprintf(player, sizeof player, "%s", player_opt);
    else if (!first_program(paths[0], texts[0], player))
        goto out;
    for (int f = 0; f < nfiles; f++)
        if (!read_run(paths[f], texts[f], player, &runs[f]))
            goto out;

    /* Walk the sorted runs together: a number in every run is a pair. */
    diff = malloc((size_t)runs[0].n * sizeof *diff);
    score_a = malloc((size_t)runs[0].n * sizeof *score_a);
    score_b = malloc((size_t)runs[0].n * sizeof *score_b);
    bool got_all = diff && score_a && score_b;
    for (int f = 1; f < nfiles && got_all; f++)
        got_all = (pair_at[f] = malloc((size_t)runs[0].n * sizeof *pair_at[f])) != NULL;
    if (!got_all) {
        fprintf(stderr, "ponder compare: out of memory\n");
        goto out;
    }
    int at[COMPARE_FILES_MAX] = {0};
    int n = 0, same = 0, better = 0, worse = 0;
    for (int i = 0; i < runs[0].n; i++) {
        const CmpGame *a = &runs[0].games[i];
        bool everywhere = true;
        double base = 0;
        for (int f = 1; f < nfiles && everywhere; f++) {
            while (at[f] < runs[f].n && runs[f].games[at[f]].number < a->number)
                at[f]++;
            if (at[f] == runs[f].n || runs[f].games[at[f]].number != a->number) {
                everywhere = false;
                break;
            }
            const CmpGame *b = &runs[f].games[at[f]];
            if (!same_fixture(&runs[0], a, &runs[f], b, player))
                goto out;
            base += b->score;
            pair_at[f][n] = at[f];
        }
        if (!everywhere)
            continue;
        base /= nfiles - 1;
        score_a[n] = a->score;
        diff[n] = a->score - base;
        same += diff[n] == 0;
        better += diff[n] > 0;
        worse += diff[n] < 0;
        if (nfiles == 2)
            moved[a->score == 1 ? 0 : a->score == 0 ? 2 : 1][base == 1 ? 0 : base == 0 ? 2 : 1]++;
        n++;
    }
    if (n == 0) {
        fprintf(stderr,
                "ponder compare: no game number is in every file with %s: not runs of the "
                "same games?\n",
                player);
        goto out;
    }

    printf("%s, paired by game number: %d games in all %d files (of ", player, n, nfiles);
    for (int f = 0; f < nfiles; f++)
        printf("%s%d", f == 0 ? "" : f == nfiles - 1 ? " and " : ", ", runs[f].n);
    printf(")\n");
    print_run("RUN", paths[0], score_a, n);
    for (int f = 1; f < nfiles; f++) {
        /* Each base run on the paired games alone (score_b is free once the mean is known). */
        for (int i = 0; i < n; i++)
            score_b[i] = runs[f].games[pair_at[f][i]].score;
        char label[16];
        snprintf(label, sizeof label, nfiles == 2 ? "BASE" : "BASE%d", f);
        print_run(label, paths[f], score_b, n);
    }
    StatsPaired d;
    stats_paired(diff, n, &d);
    double sb = 0; /* the base's mean score */
    for (int i = 0; i < n; i++)
        sb += score_a[i] - diff[i];
    sb /= n;
    printf("Difference, RUN less %s: %+.4f", nfiles == 2 ? "BASE" : "the mean of the BASEs",
           d.mean);
    /* In Elo at the base's score: the difference of the two scores' Elo, each end of the
     * interval likewise (none when the base won or lost every game). */
    double e0 = stats_elo_of_score(sb);
    if (isfinite(d.error) && !isfinite(e0))
        printf(" +- %.4f in score (95%%: %+.4f .. %+.4f); no Elo, the base's score being %g\n",
               d.error, d.mean - d.error, d.mean + d.error, sb);
    else if (isfinite(d.error)) {
        printf(" +- %.4f in score (95%%: %+.4f .. %+.4f); Elo ", d.error, d.mean - d.error,
               d.mean + d.error);
        print_elo(stats_elo_of_score(sb + d.mean) - e0);
        printf(" (95%%: ");
        print_elo(stats_elo_of_score(fmin(1, fmax(0, sb + d.mean - d.error))) - e0);
        printf(" .. ");
        print_elo(stats_elo_of_score(fmin(1, fmax(0, sb + d.mean + d.error))) - e0);
        printf(")\n");
    } else
        printf(" in score (one game: no interval)\n");
    printf("Results: the same in %d games, RUN better in %d, worse in %d\n", same, better, worse);
    if (nfiles == 2) {
        static const char *const label[3] = {"win", "draw", "loss"};
        printf("RUN by BASE:  BASE win   draw   loss\n");
        for (int r = 0; r < 3; r++)
            printf("  RUN %-4s   %8d %6d %6d\n", label[r], moved[r][0], moved[r][1], moved[r][2]);
    }
    status = 0;
out:
    for (int f = 0; f < nfiles; f++) {
        free(runs[f].games);
        free(pair_at[f]);
        free(texts[f]);
    }
    free(diff);
    free(score_a);
    free(score_b);
    return status;
}

PONDER_COMMAND("compare", cmd_compare, 43, "compare two match runs of the same games, game by game")
