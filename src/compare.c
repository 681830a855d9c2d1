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
#include "match_run.h"
#include "match_stats.h"
#include "opts.h"
#include "pdn.h"
#include "types.h"
#include "util.h"

#include <errno.h>
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
    fputs("usage: ponder compare [--player NAME] [--json FILE] RUN.pdn BASE.pdn [BASE2.pdn ...]\n"
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
          "  --json FILE     also write the results as JSON to FILE\n"
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

/* Whether game A of one run and B of another are the same fixture; if not, says how on
 * stderr. */
static bool same_fixture(const CmpRun *ra, const CmpGame *a, const CmpRun *rb, const CmpGame *b,
                         const char *player)
{
    const char *what = a->opening != b->opening             ? "the opening"
                       : !board_equal(&a->start, &b->start) ? "the start position"
                       : a->colour != b->colour             ? "the player's colour"
                                                            : NULL;
    if (!what)
        return true;
    complain("game %ld differs in %s: %s (line %d) has `%s' with %s as %s, %s (line %d) `%s' "
             "with %s as %s: not runs of the same games (the same openings and --seed?)",
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

/* The result of a comparison: what the text and the JSON both show. */
typedef struct {
    const char *player;
    int nfiles;
    char *const *paths;
    int games[COMPARE_FILES_MAX]; /* each file's games with the player */
    int paired;                   /* games paired */
    StatsWdl wdl[COMPARE_FILES_MAX];
    StatsElo run_elo[COMPARE_FILES_MAX]; /* each run on the paired games */
    StatsPaired diff;                    /* RUN less BASE (the mean of the BASEs) */
    double base_score;                   /* BASE's (the BASEs' mean) score on the paired games */
    double elo, elo_low, elo_high;       /* the difference in Elo at base_score; NAN when none */
    int same, better, worse;             /* games by the sign of their difference */
    int moved[3][3]; /* [RUN's result][BASE's], 0 win 1 draw 2 loss (one BASE only) */
} Comparison;

/* W/D/L of SCORES[0..N-1] (1, 1/2, 0) into W and their Elo into E. */
static void tally(const double *scores, int n, StatsWdl *w, StatsElo *e)
{
    *w = (StatsWdl){0, 0, 0};
    for (int i = 0; i < n; i++)
        if (scores[i] == 1)
            w->wins++;
        else if (scores[i] == 0)
            w->losses++;
        else
            w->draws++;
    stats_elo(w, e);
}

static void print_text(const Comparison *c)
{
    printf("%s, paired by game number: %d games in all %d files (of ", c->player, c->paired,
           c->nfiles);
    for (int f = 0; f < c->nfiles; f++)
        printf("%s%d", f == 0 ? "" : f == c->nfiles - 1 ? " and " : ", ", c->games[f]);
    printf(")\n");
    for (int f = 0; f < c->nfiles; f++) {
        char label[16], wdl[64];
        snprintf(label, sizeof label, f == 0 ? "RUN" : c->nfiles == 2 ? "BASE" : "BASE%d", f);
        snprintf(wdl, sizeof wdl, "+%d =%d -%d", c->wdl[f].wins, c->wdl[f].draws, c->wdl[f].losses);
        printf("%-5s  %-16s  %.4f  Elo ", label, wdl, c->run_elo[f].score);
        print_elo(c->run_elo[f].elo);
        if (isfinite(c->run_elo[f].elo_error))
            printf(" +- %.1f", c->run_elo[f].elo_error);
        else
            printf(" +- inf");
        printf("  %s\n", c->paths[f]);
    }
    const StatsPaired *d = &c->diff;
    printf("Difference, RUN less %s: %+.4f", c->nfiles == 2 ? "BASE" : "the mean of the BASEs",
           d->mean);
    if (!isfinite(d->error))
        printf(" in score (one game: no interval)\n");
    else if (isnan(c->elo))
        printf(" +- %.4f in score (95%%: %+.4f .. %+.4f); no Elo, the base's score being %g\n",
               d->error, d->mean - d->error, d->mean + d->error, c->base_score);
    else {
        printf(" +- %.4f in score (95%%: %+.4f .. %+.4f); Elo ", d->error, d->mean - d->error,
               d->mean + d->error);
        print_elo(c->elo);
        printf(" (95%%: ");
        print_elo(c->elo_low);
        printf(" .. ");
        print_elo(c->elo_high);
        printf(")\n");
    }
    printf("Results: the same in %d games, RUN better in %d, worse in %d\n", c->same, c->better,
           c->worse);
    if (c->nfiles == 2) {
        static const char *const label[3] = {"win", "draw", "loss"};
        printf("RUN by BASE:  BASE win   draw   loss\n");
        for (int r = 0; r < 3; r++)
            printf("  RUN %-4s   %8d %6d %6d\n", label[r], c->moved[r][0], c->moved[r][1],
                   c->moved[r][2]);
    }
}

/* A number for JSON: null when not finite (an unbounded Elo, no interval). */
static void json_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.6f", v);
    else
        fputs("null", f);
}

static bool write_json(const char *path, const Comparison *c)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        complain("cannot write %s: %s", path, strerror(errno));
        return false;
    }
    fprintf(f, "{\n  \"player\": ");
    run_json_string(f, c->player);
    fprintf(f, ",\n  \"paired_games\": %d,\n  \"runs\": [", c->paired);
    for (int i = 0; i < c->nfiles; i++) {
        fprintf(f, "%s\n    {\"path\": ", i ? "," : "");
        run_json_string(f, c->paths[i]);
        fprintf(f, ", \"games\": %d, \"wins\": %d, \"draws\": %d, \"losses\": %d, \"score\": ",
                c->games[i], c->wdl[i].wins, c->wdl[i].draws, c->wdl[i].losses);
        json_number(f, c->run_elo[i].score);
        fprintf(f, ", \"elo\": ");
        json_number(f, c->run_elo[i].elo);
        fprintf(f, ", \"elo_error\": ");
        json_number(f, c->run_elo[i].elo_error);
        fprintf(f, "}");
    }
    const StatsPaired *d = &c->diff;
    fprintf(f, "\n  ],\n  \"difference\": {\"score\": ");
    json_number(f, d->mean);
    fprintf(f, ", \"error\": ");
    json_number(f, d->error);
    fprintf(f, ", \"low\": ");
    json_number(f, d->mean - d->error);
    fprintf(f, ", \"high\": ");
    json_number(f, d->mean + d->error);
    fprintf(f, ", \"elo\": ");
    json_number(f, c->elo);
    fprintf(f, ", \"elo_low\": ");
    json_number(f, c->elo_low);
    fprintf(f, ", \"elo_high\": ");
    json_number(f, c->elo_high);
    fprintf(f, "},\n  \"same\": %d,\n  \"better\": %d,\n  \"worse\": %d", c->same, c->better,
            c->worse);
    if (c->nfiles == 2) {
        fprintf(f, ",\n  \"results\": [");
        for (int r = 0; r < 3; r++)
            fprintf(f, "%s[%d, %d, %d]", r ? ", " : "", c->moved[r][0], c->moved[r][1],
                    c->moved[r][2]);
        fprintf(f, "]");
    }
    fprintf(f, "\n}\n");
    bool ok = !ferror(f);
    if (fclose(f) != 0 || !ok) {
        complain("cannot write %s: %s", path, strerror(errno));
        return false;
    }
    return true;
}

static int cmd_compare(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"player", required_argument, NULL, 'p'},
        {"json", required_argument, NULL, 'J'},
        {"help", no_argument, NULL, 'h'},
        {0},
    };
    const char *player_opt = NULL, *json = NULL;
    Opts p;
    opts_begin(&p, "ponder compare", argc, argv, "hp:J:", longopts, 0, NULL);
    for (int o; (o = opts_next(&p)) != OPTS_END;) {
        if (o == 'h') {
            usage(stdout);
            return 0;
        }
        if (o == 'J') {
            json = optarg;
            continue;
        }
        if (o == 'p' && *optarg) {
            player_opt = optarg;
            continue;
        }
        if (o == 'p')
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
    Comparison c;
    memset(&c, 0, sizeof c);
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
        complain("out of memory");
        goto out;
    }
    int at[COMPARE_FILES_MAX] = {0};
    int n = 0;
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
        c.same += diff[n] == 0;
        c.better += diff[n] > 0;
        c.worse += diff[n] < 0;
        if (nfiles == 2)
            c.moved[a->score == 1 ? 0 : a->score == 0 ? 2 : 1][base == 1 ? 0 : base == 0 ? 2 : 1]++;
        n++;
    }
    if (n == 0) {
        complain("no game number is in every file with %s: not runs of the same games?", player);
        goto out;
    }

    c.player = player;
    c.nfiles = nfiles;
    c.paths = paths;
    c.paired = n;
    for (int f = 0; f < nfiles; f++) {
        c.games[f] = runs[f].n;
        /* Each run on the paired games alone (score_b is free to reuse: the differences hold
         * what the mean needs). */
        for (int i = 0; i < n; i++)
            score_b[i] = f == 0 ? score_a[i] : runs[f].games[pair_at[f][i]].score;
        tally(score_b, n, &c.wdl[f], &c.run_elo[f]);
    }
    stats_paired(diff, n, &c.diff);
    double sb = 0;
    for (int i = 0; i < n; i++)
        sb += score_a[i] - diff[i];
    c.base_score = sb / n;
    /* In Elo at the base's score: the difference of the two scores' Elo, each end of the
     * interval likewise; none when the base won or lost every game, or with no interval. */
    double e0 = stats_elo_of_score(c.base_score);
    c.elo = c.elo_low = c.elo_high = NAN;
    if (isfinite(e0) && isfinite(c.diff.error)) {
        double lo = c.base_score + c.diff.mean - c.diff.error;
        double hi = c.base_score + c.diff.mean + c.diff.error;
        c.elo = stats_elo_of_score(c.base_score + c.diff.mean) - e0;
        c.elo_low = stats_elo_of_score(lo < 0 ? 0 : lo) - e0;
        c.elo_high = stats_elo_of_score(hi > 1 ? 1 : hi) - e0;
    }
    print_text(&c);
    if (json && !write_json(json, &c))
        goto out;
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
