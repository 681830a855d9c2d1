/*
 * tournament.c - `ponder tournament': a round robin between programs that speak seed 002's
 * middleware protocol. In each round every pair plays the round's opening twice, colours
 * swapped; the standings rank the entrants by their maximum-likelihood Elo rating
 * (match_stats.c) and a crosstable shows every pairing's score.
 *
 * The games are run by match_run.c and refereed by referee.c, as for `ponder match'.
 */
#include "cli.h"
#include "command.h"
#include "match_run.h"
#include "match_stats.h"
#include "opts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TOURNAMENT_MAX_ENTRANTS = 64 };

typedef struct {
    const Entrant *entrants; /* the programs */
    int n;                   /* how many */
    int total;               /* games scheduled */
    int done;                /* games finished */
    double *points;          /* [i*n+j]: points i scored against j */
    int *games;              /* [i*n+j]: games i played against j */
    StatsWdl *wdl;           /* per entrant */
    int (*faults)[END_NB];   /* per entrant: losses by fault, by cause */
    double *max_reply;       /* per entrant: slowest answer */
    int causes[END_NB];      /* games ended by each cause */
    TimeControl tc;          /* the time control (--time or --tc) */
    bool quiet;              /* no progress output */
    bool tty;                /* progress as a live bar */
} TournamentState;

static void usage(FILE *f)
{
    fprintf(f, "usage: ponder tournament [options] NAME=COMMAND NAME=COMMAND...\n"
               "\n"
               "Plays a round robin between programs that play like `ponder player' (one move a\n"
               "line on stdin/stdout):\n"
               "in each round every pair plays the round's opening twice, colours swapped. Ends\n"
               "with the standings (a maximum-likelihood Elo rating for every entrant, mean 0),\n"
               "a crosstable and how the games ended.\n"
               "  --rounds N        rounds to play (default 1); round k uses opening k\n");
    run_usage_options(f);
    fprintf(f, "Example:\n"
               "  ponder tournament --time 0.1 --rounds 10 \\\n"
               "      full='ponder player --time {time} --fen {fen}' \\\n"
               "      d4='ponder player --depth 4 --fen {fen}' \\\n"
               "      baseline='ponder player --baseline --fen {fen}'\n");
}

static bool on_game(void *ctx, const Fixture *f, const RefereeResult *r, const Game *g)
{
    TournamentState *t = ctx;
    int b = f->black, w = f->white, n = t->n;
    double pb = r->winner == BLACK ? 1.0 : r->winner == WHITE ? 0.0 : 0.5;
    t->points[b * n + w] += pb;
    t->points[w * n + b] += 1.0 - pb;
    t->games[b * n + w]++;
    t->games[w * n + b]++;
    if (r->winner < 0) {
        t->wdl[b].draws++;
        t->wdl[w].draws++;
    } else {
        int winner = r->winner == BLACK ? b : w, loser = winner == b ? w : b;
        t->wdl[winner].wins++;
        t->wdl[loser].losses++;
        if (referee_cause_is_fault(r->cause))
            t->faults[loser][r->cause]++;
    }
    t->causes[r->cause]++;
    if (r->max_reply[BLACK] > t->max_reply[b])
        t->max_reply[b] = r->max_reply[BLACK];
    if (r->max_reply[WHITE] > t->max_reply[w])
        t->max_reply[w] = r->max_reply[WHITE];
    t->done++;
    if (!t->quiet && !r->read_back) {
        const char *res = r->winner == BLACK ? "1-0" : r->winner == WHITE ? "0-1" : "1/2-1/2";
        if (t->tty) {
            char text[200];
            snprintf(text, sizeof text, "last: %.20s-%.20s %s (%s)", t->entrants[b].name,
                     t->entrants[w].name, res, referee_cause_key(r->cause));
            run_progress_bar(t->done, t->total, text);
        } else {
            int plies = g->ply - r->opening_plies;
            printf("game %d/%d (round %d): %s (Black) vs %s (White): %s %s: %s (%d %s)\n",
                   f->number, t->total, f->round, t->entrants[b].name, t->entrants[w].name, res,
                   referee_cause_key(r->cause), r->detail, plies, plies == 1 ? "ply" : "plies");
            fflush(stdout);
        }
    }
    return true;
}

static int faults_of(const TournamentState *t, int i)
{
    int sum = 0;
    for (int c = 0; c < END_NB; c++)
        sum += t->faults[i][c];
    return sum;
}

/* Standings order: by rating, then by score. */
static const double *sort_ratings;
static const StatsWdl *sort_wdl;
static int by_rating(const void *a, const void *b)
{
    int i = *(const int *)a, j = *(const int *)b;
    if (sort_ratings[i] != sort_ratings[j])
        return sort_ratings[i] > sort_ratings[j] ? -1 : 1;
    double si = sort_wdl[i].wins + 0.5 * sort_wdl[i].draws;
    double sj = sort_wdl[j].wins + 0.5 * sort_wdl[j].draws;
    return si > sj ? -1 : si < sj ? 1 : i - j;
}

/* The error bar of an entrant's rating: the half-width of the 95% interval of the Elo of its
 * whole W/D/L against the field (stats_elo's trinomial model, as `match' prints), "inf" when
 * that is unbounded (too few games, or all won or all lost). */
static void rating_error(const StatsWdl *wdl, char *buf, size_t size)
{
    StatsElo e;
    stats_elo(wdl, &e);
    if (isfinite(e.elo_error))
        snprintf(buf, size, "%.1f", e.elo_error);
    else
        snprintf(buf, size, "inf");
}

static void print_summary(const TournamentState *t, const double *ratings, const int *order)
{
    int n = t->n;
    printf("\n%-4s %-16s %8s %6s %6s %6s %6s %6s %7s %6s %9s\n", "rank", "name", "rating", "+-",
           "games", "wins", "draws", "losses", "score", "faults", "slowest");
    for (int k = 0; k < n; k++) {
        int i = order[k];
        int games = t->wdl[i].wins + t->wdl[i].draws + t->wdl[i].losses;
        double score = games ? (t->wdl[i].wins + 0.5 * t->wdl[i].draws) / games : 0.0;
        char err[16], slow[32];
        rating_error(&t->wdl[i], err, sizeof err);
        printf("%-4d %-16.16s %+8.1f %6s %6d %6d %6d %6d %6.1f%% %6d %9s\n", k + 1,
               t->entrants[i].name, ratings[i], err, games, t->wdl[i].wins, t->wdl[i].draws,
               t->wdl[i].losses, 100.0 * score, faults_of(t, i),
               run_format_seconds(t->max_reply[i], slow, sizeof slow));
    }
    printf("(+-: the 95%% interval's half-width of the entrant's score against the field, in "
           "Elo)\n");
    for (int i = 0; i < n; i++)
        if (fabs(ratings[i]) >= STATS_RATING_CAP) {
            printf("(a rating of +-%d stands for a score with no finite rating, like all wins)\n",
                   STATS_RATING_CAP);
            break;
        }
    printf("\nCrosstable (points/games against each column, in standings order):\n%-20s", "");
    for (int k = 0; k < n; k++)
        printf(" %9d", k + 1);
    printf("\n");
    for (int k = 0; k < n; k++) {
        int i = order[k];
        printf("%2d %-17.17s", k + 1, t->entrants[i].name);
        for (int l = 0; l < n; l++) {
            int j = order[l];
            char cell[32];
            if (i == j)
                snprintf(cell, sizeof cell, "-");
            else
                snprintf(cell, sizeof cell, "%g/%d", t->points[i * n + j], t->games[i * n + j]);
            printf(" %9s", cell);
        }
        printf("\n");
    }
    printf("\nEndings:");
    bool any = false;
    for (int c = 0; c < END_NB; c++)
        if (t->causes[c]) {
            printf("%s %s %d", any ? "," : "", run_cause_text(c), t->causes[c]);
            any = true;
        }
    printf("%s\n", any ? "" : " none");
    for (int k = 0; k < n; k++) {
        int i = order[k];
        if (!faults_of(t, i))
            continue;
        printf("  %s lost by fault:", t->entrants[i].name);
        any = false;
        for (int c = 0; c < END_NB; c++)
            if (t->faults[i][c]) {
                printf("%s %s %d", any ? "," : "", run_cause_text(c), t->faults[i][c]);
                any = true;
            }
        printf("\n");
    }
    fflush(stdout);
}

static bool write_json(const char *path, const TournamentState *t, const double *ratings,
                       const int *order, bool interrupted)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return false;
    }
    int n = t->n;
    char tc[TC_TEXT_LEN];
    tc_format(&t->tc, tc, sizeof tc);
    fprintf(f, "{\n  \"games\": %d,\n  \"time_control\": ", t->done);
    run_json_string(f, tc);
    fprintf(f, ",\n  \"entrants\": [\n");
    for (int k = 0; k < n; k++) {
        int i = order[k];
        int games = t->wdl[i].wins + t->wdl[i].draws + t->wdl[i].losses;
        fprintf(f, "    {\"rank\": %d, \"name\": ", k + 1);
        run_json_string(f, t->entrants[i].name);
        fprintf(f, ", \"command\": ");
        run_json_string(f, t->entrants[i].command);
        fprintf(f, ", \"rating\": ");
        run_json_number(f, ratings[i]);
        StatsElo e;
        stats_elo(&t->wdl[i], &e);
        fprintf(f, ", \"rating_error\": ");
        run_json_number(f, e.elo_error);
        fprintf(f,
                ", \"games\": %d, \"wins\": %d, \"draws\": %d, \"losses\": %d, \"score\": ", games,
                t->wdl[i].wins, t->wdl[i].draws, t->wdl[i].losses);
        run_json_number(f, games ? (t->wdl[i].wins + 0.5 * t->wdl[i].draws) / games : 0.0);
        fprintf(f, ", \"max_reply_seconds\": %.4f, \"faults\": {", t->max_reply[i]);
        bool any = false;
        for (int c = 0; c < END_NB; c++)
            if (referee_cause_is_fault(c)) {
                fprintf(f, "%s\"%s\": %d", any ? ", " : "", referee_cause_key(c), t->faults[i][c]);
                any = true;
            }
        fprintf(f, "}}%s\n", k + 1 < n ? "," : "");
    }
    fprintf(f, "  ],\n  \"crosstable\": {\n");
    for (int k = 0; k < n; k++) {
        int i = order[k];
        fprintf(f, "    ");
        run_json_string(f, t->entrants[i].name);
        fprintf(f, ": {");
        bool any = false;
        for (int l = 0; l < n; l++) {
            int j = order[l];
            if (i == j)
                continue;
            fprintf(f, "%s", any ? ", " : "");
            run_json_string(f, t->entrants[j].name);
            fprintf(f, ": {\"points\": %g, \"games\": %d}", t->points[i * n + j],
                    t->games[i * n + j]);
            any = true;
        }
        fprintf(f, "}%s\n", k + 1 < n ? "," : "");
    }
    fprintf(f, "  },\n  \"causes\": {");
    for (int c = 0; c < END_NB; c++)
        fprintf(f, "%s\"%s\": %d", c ? ", " : "", referee_cause_key(c), t->causes[c]);
    fprintf(f, "},\n  \"interrupted\": %s\n}\n", interrupted ? "true" : "false");
    bool ok = !ferror(f);
    if (fclose(f) != 0 || !ok) {
        perror(path);
        return false;
    }
    return true;
}

/* What tournament's own option and its entrants are read into. */
typedef struct {
    Entrant *entrants;
    int n;
    long rounds;
} TournamentArgs;

enum { OPT_ROUNDS = RUN_OPT_OWN };

static bool tournament_option(void *ctx, int code, const char *v)
{
    TournamentArgs *t = ctx;
    (void)code; /* --rounds is the only one */
    return cli_long("--rounds", v, 1, 1000000, &t->rounds);
}

static bool tournament_argument(void *ctx, const char *a)
{
    TournamentArgs *t = ctx;
    const char *eq = strchr(a, '=');
    if (!eq || eq == a || (size_t)(eq - a) >= RUN_NAME_LEN ||
        eq[1 + strspn(eq + 1, " \t")] == '\0') {
        fprintf(stderr,
                "ponder tournament: `%s' is not NAME=COMMAND (a name under %d "
                "characters, an equals sign, a command)\n",
                a, RUN_NAME_LEN);
        return false;
    }
    if (t->n == TOURNAMENT_MAX_ENTRANTS) {
        fprintf(stderr, "ponder tournament: more than %d entrants\n", TOURNAMENT_MAX_ENTRANTS);
        return false;
    }
    Entrant *e = &t->entrants[t->n];
    snprintf(e->name, RUN_NAME_LEN, "%.*s", (int)(eq - a), a);
    e->command = eq + 1;
    for (int j = 0; j < t->n; j++)
        if (strcmp(t->entrants[j].name, e->name) == 0) {
            fprintf(stderr, "ponder tournament: two entrants are called `%s'\n", e->name);
            return false;
        }
    t->n++;
    return true;
}

static int cmd_tournament(int argc, char **argv)
{
    RunOptions opt;
    run_default_options(&opt, "ponder tournament");
    Entrant entrants[TOURNAMENT_MAX_ENTRANTS];
    static const struct option longopts[] = {{"rounds", required_argument, NULL, OPT_ROUNDS}, {0}};
    TournamentArgs args = {entrants, 0, 1};
    RunCommand cmd = {"ponder tournament", longopts, tournament_option,
                      tournament_argument, usage,    &args};
    int parsed = run_parse_args(&opt, argc, argv, &cmd);
    if (parsed >= 0)
        return parsed;
    int n = args.n;
    long rounds = args.rounds;
    if (n < 2) {
        fprintf(stderr, "ponder tournament: at least two entrants (NAME=COMMAND) are needed\n");
        goto bad;
    }

    char err[ERR_LEN];
    Opening *openings = NULL;
    int nopen = run_openings(&opt, entrants, n, &openings, err);
    if (nopen < 0) {
        fprintf(stderr, "ponder tournament: %s\n", err);
        return 2;
    }
    long pairs = (long)n * (n - 1) / 2, total = rounds * pairs * 2;
    if (total > 10000000) {
        fprintf(stderr, "ponder tournament: %ld games is too many\n", total);
        free(openings);
        return 2;
    }
    TournamentState t;
    memset(&t, 0, sizeof t);
    Fixture *fixtures = calloc((size_t)total, sizeof *fixtures);
    t.points = calloc((size_t)(n * n), sizeof *t.points);
    t.games = calloc((size_t)(n * n), sizeof *t.games);
    t.wdl = calloc((size_t)n, sizeof *t.wdl);
    t.faults = calloc((size_t)n, sizeof *t.faults);
    t.max_reply = calloc((size_t)n, sizeof *t.max_reply);
    double *ratings = calloc((size_t)n, sizeof *ratings);
    int *order = calloc((size_t)n, sizeof *order);
    int status = 0;
    if (!fixtures || !t.points || !t.games || !t.wdl || !t.faults || !t.max_reply || !ratings ||
        !order) {
        fprintf(stderr, "ponder tournament: out of memory\n");
        status = 1;
        goto out;
    }
    /* Round r: every pair plays opening r twice, the first-named entrant Black first. */
    long k = 0;
    for (long r = 0; r < rounds; r++)
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                for (int c = 0; c < 2; c++, k++) {
                    Fixture *f = &fixtures[k];
                    f->black = c == 0 ? i : j;
                    f->white = c == 0 ? j : i;
                    f->opening = nopen > 0 ? (int)(r % nopen) : -1;
                    f->round = (int)(r + 1);
                    f->number = (int)(k + 1);
                }

    t.entrants = entrants;
    t.n = n;
    t.tc = opt.tc;
    t.total = (int)total;
    t.quiet = opt.quiet;
    t.tty = run_progress_is_tty();
    int sig = 0;
    RunStatus st =
        run_games(&opt, entrants, fixtures, (int)total, openings, on_game, &t, &sig, err);
    if (!t.quiet)
        run_progress_end();
    if (st == RUN_INTERRUPTED)
        fprintf(stderr,
                "ponder tournament: interrupted by signal %d: games in progress abandoned\n", sig);
    stats_ratings(n, t.points, t.games, ratings);
    for (int i = 0; i < n; i++)
        order[i] = i;
    sort_ratings = ratings;
    sort_wdl = t.wdl;
    qsort(order, (size_t)n, sizeof *order, by_rating);
    if (st != RUN_FAILED || t.done > 0) /* no table when no game ended (one cannot start) */
        print_summary(&t, ratings, order);
    if (st == RUN_FAILED) {
        fprintf(stderr, "ponder tournament: %s\n", err);
        status = 1;
    }
    if (opt.json && !write_json(opt.json, &t, ratings, order, st == RUN_INTERRUPTED))
        status = 1;
    if (st == RUN_INTERRUPTED)
        status = 128 + sig;
out:
    free(fixtures);
    free(t.points);
    free(t.games);
    free(t.wdl);
    free(t.faults);
    free(t.max_reply);
    free(ratings);
    free(order);
    free(openings);
    return status;
bad:
    opts_see_help("ponder tournament");
    return 2;
}

PONDER_COMMAND("tournament", cmd_tournament, 42,
               "round robin between programs (crosstable, ratings)")
