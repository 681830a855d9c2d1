/*
 * match.c - `ponder match': two programs that speak seed 002's middleware protocol play a series
 * of games, each opening twice with colours swapped, and the result is measured: W/D/L, Elo
 * difference with its 95% interval, likelihood of superiority, the same by colour-swapped pairs
 * (the pentanomial counts), how the games ended, optionally an SPRT over the pairs that stops
 * the match once it has an answer.
 *
 * The games are run by match_run.c (threads, processes, PDN, signals) and refereed by
 * referee.c; this file builds the fixture list, keeps the score and prints it.
 */
#include "bitboard.h"
#include "cli.h"
#include "command.h"
#include "match_run.h"
#include "match_stats.h"
#include "opts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const Entrant *entrants; /* [0] the first program, [1] the second */
    int total;               /* games scheduled */
    StatsWdl wdl;            /* from the first program's point of view */
    StatsPenta penta;        /* the rounds with both games played, from the same point of view */
    signed char *half;       /* per round: the first program's half points in the round's game
                                that finished first (0-2), -1 while neither has */
    int causes[END_NB];      /* games ended by each cause */
    int faults[2][END_NB];   /* losses by fault, per program */
    int draw_material[3];    /* draws ending with equal pieces, the first program ahead, the
                                second ahead (men and kings counted alike) */
    int egdb_wins[3];        /* wins by the endgame databases (--adjudicate) with the winner
                                ahead in pieces, even, behind: how much of the adjudicated score
                                a program that played on still had to earn */
    double max_reply[2];     /* each program's slowest answer after its first in a game */
    double max_first[2];     /* each program's slowest first answer (start-up included) */
    long replies[2];         /* answers after each program's first, per program */
    double spent[2];         /* seconds those answers took, per program */
    long late[2];            /* of those, answers over the time per move (within the margin) */
    TimeControl tc;          /* the time control (--time or --tc) */
    double min_clock[2];     /* with a clock: the least each program had left at a game's end
                                (a loss on time counts as 0) */
    bool sprt_on;            /* --sprt given */
    StatsSprt sprt;          /* its parameters */
    SprtDecision decision;   /* the SPRT's verdict so far */
    int read_back;           /* games read back from the PDN file by --resume */
    int decided_games;       /* games played when the verdict came (0: none yet) */
    double decided_llr;      /* the LLR then; games in flight may finish after it */
    bool quiet;              /* no progress output */
    bool tty;                /* progress as a live bar */
} MatchState;

static void usage(FILE *f)
{
    fprintf(f, "usage: ponder match [options] 'COMMAND A' 'COMMAND B'\n"
               "\n"
               "Plays games between two programs speaking the middleware protocol of\n"
               "`ponder player' (one move a line, see `ponder player --help'), each opening\n"
               "twice with colours swapped, and reports W/D/L for A, the Elo difference with\n"
               "its 95%% interval (by games, and by the pairs of an opening's two games), the\n"
               "likelihood of superiority and how the games ended.\n"
               "  --games N         games to play (default: two per opening)\n"
               "  --rounds N        the same as --games 2N\n"
               "  --sprt E0,E1,A,B  stop once the GSPRT over the colour-swapped pairs accepts\n"
               "                    H0 (Elo E0) or H1 (Elo E1) at error rates alpha A and\n"
               "                    beta B, e.g. 0,10,0.05,0.05\n"
               "  --names A,B       names for the PDN tags and tables (default A and B)\n");
    run_usage_options(f);
    fprintf(f, "Example:\n"
               "  ponder match --time 0.1 -j 2 --pdn games.pdn \\\n"
               "      'ponder player --time {time} --fen {fen}' \\\n"
               "      'ponder player --baseline --fen {fen}'\n");
}

static void format_elo(double v, char *buf, size_t size)
{
    if (fabs(v) < 0.05)
        snprintf(buf, size, "0.0");
    else if (isfinite(v))
        snprintf(buf, size, "%+.1f", v);
    else
        snprintf(buf, size, "%sinf", v > 0 ? "+" : "-");
}

/* "A +12 =30 -8  Elo +17.4 +- 40.2" for progress lines. */
static void running_score(const MatchState *m, char *buf, size_t size)
{
    StatsElo e;
    stats_elo(&m->wdl, &e);
    char elo[32], err[32];
    format_elo(e.elo, elo, sizeof elo);
    if (isfinite(e.elo_error))
        snprintf(err, sizeof err, "%.1f", e.elo_error);
    else
        snprintf(err, sizeof err, "inf");
    int n = snprintf(buf, size, "%s +%d =%d -%d  Elo %s +- %s", m->entrants[0].name, m->wdl.wins,
                     m->wdl.draws, m->wdl.losses, elo, err);
    if (m->sprt_on && n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, "  LLR %.2f [%.2f, %.2f]",
                 stats_penta_llr(&m->penta, &m->sprt), stats_sprt_lower(&m->sprt),
                 stats_sprt_upper(&m->sprt));
}

static bool on_game(void *ctx, const Fixture *f, const RefereeResult *r, const Game *g)
{
    MatchState *m = ctx;
    /* Program 0 is A: it had Black when f->black == 0. */
    int a_color = f->black == 0 ? BLACK : WHITE;
    int half = r->winner < 0 ? 1 : r->winner == a_color ? 2 : 0;
    signed char *first = &m->half[f->round - 1];
    bool pair_done = *first >= 0;
    if (pair_done)
        m->penta.pairs[*first + half]++;
    else
        *first = (signed char)half;
    if (r->winner < 0) {
        m->wdl.draws++;
        int a = bb_popcount(g->board.pieces[a_color]);
        int b = bb_popcount(g->board.pieces[a_color == BLACK ? WHITE : BLACK]);
        m->draw_material[a == b ? 0 : a > b ? 1 : 2]++;
    } else {
        if (r->winner == a_color)
            m->wdl.wins++;
        else
            m->wdl.losses++;
        if (r->cause == END_EGDB) {
            int w = bb_popcount(g->board.pieces[r->winner]);
            int l = bb_popcount(g->board.pieces[r->winner ^ 1]);
            m->egdb_wins[w > l ? 0 : w == l ? 1 : 2]++;
        }
    }
    m->causes[r->cause]++;
    if (referee_cause_is_fault(r->cause)) {
        int loser = r->winner == BLACK ? f->white : f->black;
        m->faults[loser][r->cause]++;
    }
    for (int c = 0; c < COLOR_NB; c++) {
        int who = c == BLACK ? f->black : f->white;
        if (r->max_reply[c] > m->max_reply[who])
            m->max_reply[who] = r->max_reply[c];
        if (r->first_reply[c] > m->max_first[who])
            m->max_first[who] = r->first_reply[c];
        m->replies[who] += r->replies[c];
        m->spent[who] += r->spent[c];
        m->late[who] += r->late[c];
        if (r->clock[c] < m->min_clock[who])
            m->min_clock[who] = r->clock[c];
    }
    int done = m->wdl.wins + m->wdl.draws + m->wdl.losses;
    if (m->sprt_on && m->decision == SPRT_CONTINUE && pair_done) {
        double llr = stats_penta_llr(&m->penta, &m->sprt);
        m->decision = stats_sprt_decide(llr, &m->sprt);
        if (m->decision != SPRT_CONTINUE) {
            m->decided_games = done;
            m->decided_llr = llr;
        }
    }
    m->read_back += r->read_back;
    if (!m->quiet && !r->read_back) {
        char score[160];
        running_score(m, score, sizeof score);
        if (m->tty)
            run_progress_bar(done, m->total, score);
        else {
            const char *res = r->winner == BLACK ? "1-0" : r->winner == WHITE ? "0-1" : "1/2-1/2";
            int plies = g->ply - r->opening_plies;
            printf("game %d/%d: %s (Black) vs %s (White): %s %s: %s (%d %s) | %s\n", f->number,
                   m->total, m->entrants[f->black].name, m->entrants[f->white].name, res,
                   referee_cause_key(r->cause), r->detail, plies, plies == 1 ? "ply" : "plies",
                   score);
            fflush(stdout);
        }
    }
    return m->decision == SPRT_CONTINUE;
}

/* The games played in this sitting, which the answer times cover: a PDN read back by --resume
 * does not keep them. */
static int timed_games(const MatchState *m)
{
    return m->wdl.wins + m->wdl.draws + m->wdl.losses - m->read_back;
}

/* The least clock program WHO had left at a game's end (0 before any game ended). */
static double least_clock(const MatchState *m, int who)
{
    return isfinite(m->min_clock[who]) ? m->min_clock[who] : 0.0;
}

static void print_causes(FILE *f, const MatchState *m)
{
    fprintf(f, "Endings:");
    bool any = false;
    for (int c = 0; c < END_NB; c++) {
        if (!m->causes[c])
            continue;
        fprintf(f, "%s %s %d", any ? "," : "", run_cause_text(c), m->causes[c]);
        if (referee_cause_is_fault(c))
            fprintf(f, " (%s %d, %s %d)", m->entrants[0].name, m->faults[0][c], m->entrants[1].name,
                    m->faults[1][c]);
        any = true;
    }
    fprintf(f, "%s\n", any ? "" : " none");
}

/* The pairs line: the pentanomial counts and the Elo difference they give. */
static void print_pairs(const MatchState *m)
{
    StatsElo p;
    stats_penta_elo(&m->penta, &p);
    const int *n = m->penta.pairs;
    printf("Pairs: %d with both colours played, %s scoring 0, 1/2, 1, 3/2, 2: [%d, %d, %d, %d, %d]",
           p.games / 2, m->entrants[0].name, n[0], n[1], n[2], n[3], n[4]);
    if (p.games == 0) {
        printf("\n");
        return;
    }
    char elo[32], lo[32], hi[32];
    format_elo(p.elo, elo, sizeof elo);
    format_elo(p.elo_low, lo, sizeof lo);
    format_elo(p.elo_high, hi, sizeof hi);
    if (isfinite(p.elo_error))
        printf("; Elo %s +- %.1f (95%%: %s .. %s)\n", elo, p.elo_error, lo, hi);
    else
        printf("; Elo %s (95%% interval unbounded)\n", elo);
}

static void print_summary(const MatchState *m)
{
    StatsElo e;
    stats_elo(&m->wdl, &e);
    const char *a = m->entrants[0].name, *b = m->entrants[1].name;
    char elo[32], lo[32], hi[32];
    format_elo(e.elo, elo, sizeof elo);
    format_elo(e.elo_low, lo, sizeof lo);
    format_elo(e.elo_high, hi, sizeof hi);
    printf("\nScore of %s vs %s: %d - %d - %d  [%.3f]  %d games\n", a, b, m->wdl.wins,
           m->wdl.losses, m->wdl.draws, e.score, e.games);
    printf("%-12s %6s %6s %6s %8s\n", "", "wins", "draws", "losses", "score");
    printf("%-12.12s %6d %6d %6d %7.1f%%\n", a, m->wdl.wins, m->wdl.draws, m->wdl.losses,
           100.0 * e.score);
    printf("%-12.12s %6d %6d %6d %7.1f%%\n", b, m->wdl.losses, m->wdl.draws, m->wdl.wins,
           100.0 * (1.0 - e.score));
    if (isfinite(e.elo_error))
        printf("Elo difference: %s +- %.1f (95%%: %s .. %s)\n", elo, e.elo_error, lo, hi);
    else
        printf("Elo difference: %s (95%% interval unbounded: too few or one-sided games)\n", elo);
    printf("Likelihood of superiority: %.1f%%\n", 100.0 * e.los);
    print_pairs(m);
    if (m->sprt_on) {
        double llr = stats_penta_llr(&m->penta, &m->sprt);
        bool decided = m->decision != SPRT_CONTINUE;
        printf("SPRT (pairs): elo0 %g, elo1 %g, alpha %g, beta %g: LLR %.3f [%.3f, %.3f]: %s",
               m->sprt.elo0, m->sprt.elo1, m->sprt.alpha, m->sprt.beta,
               decided ? m->decided_llr : llr, stats_sprt_lower(&m->sprt),
               stats_sprt_upper(&m->sprt),
               m->decision == SPRT_H1   ? "H1 accepted"
               : m->decision == SPRT_H0 ? "H0 accepted"
                                        : "no decision yet");
        /* Games already under way when the test decided are played out and scored above; the
         * verdict is the one at the deciding game. */
        if (decided && m->decided_games != e.games)
            printf(" after %d games (all %d games: LLR %.3f)", m->decided_games, e.games, llr);
        printf("\n");
    }
    print_causes(stdout, m);
    if (m->wdl.draws > 0)
        printf("Draws by material at the end: even %d, %s ahead %d, %s ahead %d\n",
               m->draw_material[0], a, m->draw_material[1], b, m->draw_material[2]);
    const int *ew = m->egdb_wins;
    if (ew[0] + ew[1] + ew[2] > 0)
        printf("Wins by the endgame databases: %d, the winner ahead in pieces %d, even %d, "
               "behind %d\n",
               ew[0] + ew[1] + ew[2], ew[0], ew[1], ew[2]);
    char t[4][32];
    int games = timed_games(m);
    if (m->read_back > 0)
        printf("Read back by --resume: %d games (in the score and the clocks, not in the answer "
               "times)\n",
               m->read_back);
    if (games > 0)
        printf("Slowest answer: %s %s, %s %s (first answers, start-up included: %s, %s)\n", a,
               run_format_seconds(m->max_reply[0], t[0], sizeof t[0]), b,
               run_format_seconds(m->max_reply[1], t[1], sizeof t[1]),
               run_format_seconds(m->max_first[0], t[2], sizeof t[2]),
               run_format_seconds(m->max_first[1], t[3], sizeof t[3]));
    char tc[TC_TEXT_LEN], over[TC_TEXT_LEN + 16];
    tc_format(&m->tc, tc, sizeof tc);
    if (tc_is_clock(&m->tc)) {
        snprintf(over, sizeof over, "the clock");
        printf("Time control %s: least left on the clock at a game's end: %s %.3f s, %s %.3f s\n",
               tc, a, least_clock(m, 0), b, least_clock(m, 1));
    } else
        snprintf(over, sizeof over, "%s s", tc);
    if (games > 0) {
        printf("Answers over %s, saved by the margin: %s %ld of %ld, %s %ld of %ld\n", over, a,
               m->late[0], m->replies[0], b, m->late[1], m->replies[1]);
        printf(
            "Time a game (answers after the first): %s %.2f s, %s %.2f s; a move: %s %s, %s "
            "%s\n",
            a, m->spent[0] / games, b, m->spent[1] / games, a,
            run_format_seconds(m->replies[0] ? m->spent[0] / m->replies[0] : 0, t[0], sizeof t[0]),
            b,
            run_format_seconds(m->replies[1] ? m->spent[1] / m->replies[1] : 0, t[1], sizeof t[1]));
    }
    fflush(stdout);
}

/* The JSON lines PREFIXelo, PREFIXelo_error, PREFIXelo_low and PREFIXelo_high of E. */
static void json_elo(FILE *f, const char *prefix, const StatsElo *e)
{
    const char *key[4] = {"elo", "elo_error", "elo_low", "elo_high"};
    const double v[4] = {e->elo, e->elo_error, e->elo_low, e->elo_high};
    for (int i = 0; i < 4; i++) {
        fprintf(f, "  \"%s%s\": ", prefix, key[i]);
        run_json_number(f, v[i]);
        fprintf(f, ",\n");
    }
}

static bool write_json(const char *path, const MatchState *m, bool interrupted)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return false;
    }
    StatsElo e;
    stats_elo(&m->wdl, &e);
    fprintf(f, "{\n  \"first\": ");
    run_json_string(f, m->entrants[0].name);
    fprintf(f, ",\n  \"second\": ");
    run_json_string(f, m->entrants[1].name);
    fprintf(f, ",\n  \"games\": %d,\n  \"wins\": %d,\n  \"draws\": %d,\n  \"losses\": %d,\n",
            e.games, m->wdl.wins, m->wdl.draws, m->wdl.losses);
    fprintf(f, "  \"read_back\": %d,\n", m->read_back);
    fprintf(f, "  \"score\": %.6f,\n", e.score);
    json_elo(f, "", &e);
    fprintf(f, "  \"los\": %.6f,\n", e.los);
    StatsElo pe;
    stats_penta_elo(&m->penta, &pe);
    const int *n = m->penta.pairs;
    fprintf(f, "  \"pairs\": %d,\n  \"pentanomial\": [%d, %d, %d, %d, %d],\n", pe.games / 2, n[0],
            n[1], n[2], n[3], n[4]);
    json_elo(f, "pair_", &pe);
    fprintf(f, "  \"causes\": {");
    for (int c = 0; c < END_NB; c++)
        fprintf(f, "%s\"%s\": %d", c ? ", " : "", referee_cause_key(c), m->causes[c]);
    fprintf(f,
            "},\n  \"draws_by_material\": {\"even\": %d, \"first_ahead\": %d, "
            "\"second_ahead\": %d},\n  \"egdb_wins_by_material\": {\"ahead\": %d, "
            "\"even\": %d, \"behind\": %d},\n  \"faults\": {",
            m->draw_material[0], m->draw_material[1], m->draw_material[2], m->egdb_wins[0],
            m->egdb_wins[1], m->egdb_wins[2]);
    for (int p = 0; p < 2; p++) {
        fprintf(f, "%s\"%s\": {", p ? ", " : "", p ? "second" : "first");
        bool any = false;
        for (int c = 0; c < END_NB; c++)
            if (referee_cause_is_fault(c)) {
                fprintf(f, "%s\"%s\": %d", any ? ", " : "", referee_cause_key(c), m->faults[p][c]);
                any = true;
            }
        fprintf(f, "}");
    }
    fprintf(f, "},\n  \"timed_games\": %d,\n", timed_games(m));
    fprintf(f, "  \"max_reply_seconds\": {\"first\": %.4f, \"second\": %.4f},\n", m->max_reply[0],
            m->max_reply[1]);
    fprintf(f, "  \"max_first_reply_seconds\": {\"first\": %.4f, \"second\": %.4f},\n",
            m->max_first[0], m->max_first[1]);
    fprintf(f, "  \"replies\": {\"first\": %ld, \"second\": %ld},\n", m->replies[0], m->replies[1]);
    fprintf(f, "  \"spent_seconds\": {\"first\": %.4f, \"second\": %.4f},\n", m->spent[0],
            m->spent[1]);
    fprintf(f, "  \"late_replies\": {\"first\": %ld, \"second\": %ld},\n", m->late[0], m->late[1]);
    char tc[TC_TEXT_LEN];
    tc_format(&m->tc, tc, sizeof tc);
    fprintf(f, "  \"time_control\": ");
    run_json_string(f, tc);
    if (tc_is_clock(&m->tc))
        fprintf(f, ",\n  \"min_clock_seconds\": {\"first\": %.4f, \"second\": %.4f}",
                least_clock(m, 0), least_clock(m, 1));
    fprintf(f, ",\n");
    if (m->sprt_on) {
        fprintf(
            f,
            "  \"sprt\": {\"model\": \"pentanomial\", \"elo0\": %g, \"elo1\": %g, \"alpha\": %g, "
            "\"beta\": %g, "
            "\"llr\": %.6f, \"llr_trinomial\": %.6f, \"lower\": %.6f, \"upper\": %.6f, "
            "\"result\": \"%s\", \"decided_games\": %d, \"decided_llr\": %.6f},\n",
            m->sprt.elo0, m->sprt.elo1, m->sprt.alpha, m->sprt.beta,
            stats_penta_llr(&m->penta, &m->sprt), stats_sprt_llr(&m->wdl, &m->sprt),
            stats_sprt_lower(&m->sprt), stats_sprt_upper(&m->sprt),
            m->decision == SPRT_H1   ? "H1"
            : m->decision == SPRT_H0 ? "H0"
                                     : "continue",
            m->decided_games, m->decided_llr);
    }
    fprintf(f, "  \"interrupted\": %s\n}\n", interrupted ? "true" : "false");
    bool ok = !ferror(f);
    if (fclose(f) != 0 || !ok) {
        perror(path);
        return false;
    }
    return true;
}

/* Reads "A,B" into the two names. */
static bool parse_names(const char *text, Entrant *e)
{
    const char *comma = strchr(text, ',');
    if (!comma || comma == text || comma[1] == '\0' || strchr(comma + 1, ',') ||
        (size_t)(comma - text) >= RUN_NAME_LEN || strlen(comma + 1) >= RUN_NAME_LEN) {
        fprintf(stderr,
                "ponder match: --names wants two names separated by a comma, each "
                "under %d characters\n",
                RUN_NAME_LEN);
        return false;
    }
    snprintf(e[0].name, RUN_NAME_LEN, "%.*s", (int)(comma - text), text);
    snprintf(e[1].name, RUN_NAME_LEN, "%s", comma + 1);
    return true;
}

/* What match's own options and its two commands are read into. */
typedef struct {
    MatchState *m;
    Entrant *entrants;
    long games, rounds;
    int ncommands;
} MatchArgs;

enum { OPT_GAMES = RUN_OPT_OWN, OPT_ROUNDS, OPT_SPRT, OPT_NAMES };

static bool match_option(void *ctx, int code, const char *v)
{
    MatchArgs *a = ctx;
    char err[ERR_LEN];
    switch (code) {
    case OPT_GAMES: return cli_long("--games", v, 1, 10000000, &a->games);
    case OPT_ROUNDS: return cli_long("--rounds", v, 1, 5000000, &a->rounds);
    case OPT_SPRT:
        if (!stats_sprt_parse(v, &a->m->sprt, err)) {
            fprintf(stderr, "ponder match: --sprt: %s\n", err);
            return false;
        }
        a->m->sprt_on = true;
        return true;
    default: return parse_names(v, a->entrants);
    }
}

static bool match_argument(void *ctx, const char *arg)
{
    MatchArgs *a = ctx;
    if (a->ncommands == 2) {
        fprintf(stderr, "ponder match: more than two commands (`%s')\n", arg);
        return false;
    }
    if (arg[strspn(arg, " \t")] == '\0') {
        fprintf(stderr, "ponder match: empty command\n");
        return false;
    }
    a->entrants[a->ncommands++].command = arg;
    return true;
}

static int cmd_match(int argc, char **argv)
{
    RunOptions opt;
    run_default_options(&opt, "ponder match");
    MatchState m;
    memset(&m, 0, sizeof m);
    Entrant entrants[2];
    memset(entrants, 0, sizeof entrants);
    snprintf(entrants[0].name, RUN_NAME_LEN, "A");
    snprintf(entrants[1].name, RUN_NAME_LEN, "B");
    static const struct option longopts[] = {
        {"games", required_argument, NULL, OPT_GAMES},
        {"rounds", required_argument, NULL, OPT_ROUNDS},
        {"sprt", required_argument, NULL, OPT_SPRT},
        {"names", required_argument, NULL, OPT_NAMES},
        {0},
    };
    MatchArgs args = {&m, entrants, -1, -1, 0};
    RunCommand cmd = {"ponder match", longopts, match_option, match_argument, usage, &args};
    int parsed = run_parse_args(&opt, argc, argv, &cmd);
    if (parsed >= 0)
        return parsed;
    long games = args.games, rounds = args.rounds;
    int ncommands = args.ncommands;
    if (ncommands < 2) {
        fprintf(stderr, "ponder match: two commands are needed\n");
        goto bad;
    }
    if (games > 0 && rounds > 0) {
        fprintf(stderr, "ponder match: --games and --rounds say the same thing: give one\n");
        goto bad;
    }
    if (strcmp(entrants[0].name, entrants[1].name) == 0) {
        fprintf(stderr, "ponder match: the two names must differ\n");
        goto bad;
    }

    /* Openings and fixtures: pair k plays opening k (cycling), A Black in its first game. */
    char err[ERR_LEN];
    Opening *openings = NULL;
    int nopen = run_openings(&opt, entrants, 2, &openings, err);
    if (nopen < 0) {
        fprintf(stderr, "ponder match: %s\n", err);
        return 2;
    }
    if (rounds > 0)
        games = 2 * rounds;
    if (games < 0)
        games = 2L * (nopen > 0 ? nopen : 1);
    Fixture *fixtures = calloc((size_t)games, sizeof *fixtures);
    if (!fixtures) {
        fprintf(stderr, "ponder match: out of memory for %ld games\n", games);
        free(openings);
        return 1;
    }
    for (long g = 0; g < games; g++) {
        Fixture *f = &fixtures[g];
        f->black = (int)(g % 2);
        f->white = 1 - f->black;
        f->opening = nopen > 0 ? (int)((g / 2) % nopen) : -1;
        f->round = (int)(g / 2 + 1);
        f->number = (int)(g + 1);
    }

    m.half = malloc((size_t)(games + 1) / 2);
    if (!m.half) {
        fprintf(stderr, "ponder match: out of memory for %ld games\n", games);
        free(fixtures);
        free(openings);
        return 1;
    }
    memset(m.half, -1, (size_t)(games + 1) / 2);
    m.entrants = entrants;
    m.total = (int)games;
    m.tc = opt.tc;
    m.min_clock[0] = m.min_clock[1] = INFINITY;
    m.quiet = opt.quiet;
    m.tty = run_progress_is_tty();
    int sig = 0;
    RunStatus st =
        run_games(&opt, entrants, fixtures, (int)games, openings, on_game, &m, &sig, err);
    if (!m.quiet)
        run_progress_end();
    if (st == RUN_INTERRUPTED)
        fprintf(stderr, "ponder match: interrupted by signal %d: games in progress abandoned\n",
                sig);
    /* A run that failed before any game ended (a program that cannot start) has no score to
     * show: the error alone. */
    if (st != RUN_FAILED || m.wdl.wins + m.wdl.draws + m.wdl.losses > 0)
        print_summary(&m);
    int status = 0;
    if (st == RUN_FAILED) {
        fprintf(stderr, "ponder match: %s\n", err);
        status = 1;
    }
    if (opt.json && !write_json(opt.json, &m, st == RUN_INTERRUPTED))
        status = 1;
    if (st == RUN_INTERRUPTED)
        status = 128 + sig;
    free(m.half);
    free(fixtures);
    free(openings);
    return status;
bad:
    opts_see_help("ponder match");
    return 2;
}

PONDER_COMMAND("match", cmd_match, 41, "referee games between two programs (Elo, SPRT, PDN)")
