/*
 * test_referee.c - the referee library: placeholders, one game at a time with scripted
 * programs (every way of losing), and a run of real games through run_games() whose PDN file is
 * read back with the PDN reader: every finished game is there, replays legally, and has the
 * moves, result and tags the referee reported.
 *
 * Real games use `$PONDER player --random' ($PONDER as set by tests/run.sh, else ./ponder).
 */
#include "check.h"
#include "match_run.h"
#include "pdn.h"
#include "referee.h"
#include "util.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *ponder(void)
{
    const char *p = getenv("PONDER");
    return p && *p ? p : "./ponder";
}

static void expand(void)
{
    TimeControl per_move = {.per_move = 0.25};
    char *s = referee_expand("x --fen {fen} --time {time} -s {seed} {fen} --tc {tc}", "B:W21:B1",
                             &per_move, 42);
    CHECK(s != NULL);
    if (s)
        CHECK_STR(s, "x --fen B:W21:B1 --time 0.25 -s 42 B:W21:B1 --tc 0.25");
    free(s);
    /* Under a clock {time} is an even share: 60 s over 40 moves plus the increment. */
    TimeControl clock = {.base = 60, .inc = 0.5, .moves = 40};
    s = referee_expand("--time {time} --tc {tc}", "F", &clock, 1);
    if (s)
        CHECK_STR(s, "--time 2 --tc 40/60+0.5");
    free(s);
    TimeControl one = {.per_move = 1};
    s = referee_expand("plain {fe} {", "F", &one, 1);
    if (s)
        CHECK_STR(s, "plain {fe} {");
    free(s);
    CHECK(referee_has("a {fen}", "{fen}"));
    CHECK(!referee_has("a {FEN}", "{fen}"));
    CHECK_STR(referee_cause_key(END_TIMEOUT), "timeout");
    CHECK_STR(referee_cause_key(END_40_MOVES), "40-move");
    CHECK(referee_cause_is_fault(END_CRASH));
    CHECK(!referee_cause_is_fault(END_NO_MOVES));
    CHECK(!referee_cause_is_fault(END_REPETITION));
    CHECK_STR(referee_cause_key(END_EGDB), "egdb");
    CHECK(!referee_cause_is_fault(END_EGDB));
}

/* One game of BLACK_CMD against WHITE_CMD from the standard start. */
static RefereeStatus one_game(const char *black_cmd, const char *white_cmd, RefereeResult *r,
                              Game *g)
{
    /* 2 s for a program's first answer: a loaded machine (or ASan) can take over a second to
     * start `ponder player --random'; the scripted hang still times out well before its
     * `sleep 5' ends (3.1 s). A margin of 1 s keeps the random mover from losing on time. */
    RefereeSetup s = {
        {black_cmd, white_cmd}, NULL, {.per_move = 0.1}, 1.0, 2.0, 200, -1, -1, 1, NULL, 0, false};
    char err[ERR_LEN];
    RefereeStatus st = referee_play(&s, g, r, err);
    if (st == REFEREE_FAILED)
        printf("  referee failed: %s\n", err);
    return st;
}

static void scripted_losses(void)
{
    static Game g;
    RefereeResult r;
    char random[256];
    snprintf(random, sizeof random, "%s player --random --seed 3", ponder());
    struct {
        const char *cmd; /* Black's program */
        EndCause cause;  /* how Black must lose */
    } cases[] = {
        /* These read the referee's `0 0' first, so that the line they write is their move. */
        {"read x; echo 'Give up!'; sleep 5", END_MALFORMED},
        {"read x; echo '9 18'; sleep 5", END_ILLEGAL},
        {"read x; echo '0 0'", END_MALFORMED},
        {"read x; exit 4", END_EXIT},
        {"read x; kill -KILL $$", END_CRASH},
        {"exec sleep 5", END_TIMEOUT},
        {"exec >&-; sleep 5", END_CLOSED},
        /* Both lines at once (one write, so a loaded machine cannot let the referee take the
         * second for the answer to White's reply), before `0 0' is even read: the second is
         * out of turn. */
        {"printf '9 13\\n10 14\\n'; sleep 5", END_MALFORMED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double t0 = util_now();
        RefereeStatus st = one_game(cases[i].cmd, random, &r, &g);
        CHECK(st == REFEREE_DONE);
        if (r.cause != cases[i].cause || r.winner != WHITE)
            printf("  `%s': cause %s winner %d (%s)\n", cases[i].cmd, referee_cause_key(r.cause),
                   r.winner, r.detail);
        CHECK(r.cause == cases[i].cause);
        CHECK(r.winner == WHITE);
        CHECK(r.detail[0] != '\0');
        CHECK(util_now() - t0 < 4.5); /* never waits for the `sleep 5' */
    }
    /* White failing: the same, mirrored. */
    CHECK(one_game(random, "read x; exit 0", &r, &g) == REFEREE_DONE);
    CHECK(r.cause == END_EXIT && r.winner == BLACK);
    /* A program that cannot start (the shell's exit status 127: not found; 126: not executable)
     * is no game: the referee fails, naming the side and the command, so the match stops. */
    char plain[] = "/tmp/ponder-test-referee-XXXXXX"; /* a file without execute permission */
    int fd = mkstemp(plain);
    CHECK(fd >= 0 && fchmod(fd, 0644) == 0);
    if (fd >= 0)
        close(fd);
    const char *const unstartable[] = {"./no-such-program-here", plain};
    for (int i = 0; i < 2; i++) {
        RefereeSetup s = {{random, unstartable[i]},
                          NULL,
                          {.per_move = 0.1},
                          1.0,
                          2.0,
                          200,
                          -1,
                          -1,
                          1,
                          NULL,
                          0,
                          false};
        char err[ERR_LEN] = "";
        CHECK(referee_play(&s, &g, &r, err) == REFEREE_FAILED);
        CHECK(strstr(err, "White's program could not start") != NULL);
        CHECK(strstr(err, i == 0 ? "127: command not found" : "126: not executable") != NULL);
        CHECK(strstr(err, unstartable[i]) != NULL);
        if (!strstr(err, "could not start"))
            printf("  %s\n", err);
    }
    unlink(plain);
    /* A program that starts and then exits with an error is a lost game, not a failure. */
    CHECK(one_game("exit 3", random, &r, &g) == REFEREE_DONE);
    CHECK(r.cause == END_EXIT && r.winner == WHITE && strstr(r.detail, "exit status 3"));
}

static void full_games(void)
{
    static Game g;
    RefereeResult r;
    char a[256], b[256];
    snprintf(a, sizeof a, "%s player --random --seed 11", ponder());
    snprintf(b, sizeof b, "%s player --random --seed 12", ponder());
    for (int i = 0; i < 3; i++) {
        CHECK(one_game(a, b, &r, &g) == REFEREE_DONE);
        CHECK(!referee_cause_is_fault(r.cause));
        if (referee_cause_is_fault(r.cause))
            printf("  random game ended by %s: %s\n", referee_cause_key(r.cause), r.detail);
        CHECK(g.ply > 0);
        /* The game record agrees with the verdict. */
        GameResult gr = game_result(&g);
        if (r.cause == END_NO_MOVES)
            CHECK(gr == (r.winner == BLACK ? RESULT_BLACK_WINS : RESULT_WHITE_WINS));
        if (r.cause == END_REPETITION)
            CHECK(gr == RESULT_DRAW_REPETITION);
    }
}

/* ---- a run through run_games, PDN read back ---- */

enum { RUN_GAMES = 8 };

typedef struct {
    int reported;              /* games reported */
    int number[RUN_GAMES];     /* their numbers, in the order reported */
    int plies[RUN_GAMES];      /* their lengths */
    Move last[RUN_GAMES];      /* their last moves */
    char result[RUN_GAMES][8]; /* their PDN results */
    EndCause cause[RUN_GAMES]; /* their causes */
} Seen;

static bool seen_game(void *ctx, const Fixture *f, const RefereeResult *r, const Game *g)
{
    Seen *s = ctx;
    if (s->reported < RUN_GAMES) {
        int k = s->reported++;
        s->number[k] = f->number;
        s->plies[k] = g->ply;
        s->last[k] = g->moves[g->ply - 1];
        snprintf(s->result[k], sizeof s->result[k], "%s",
                 r->winner == BLACK   ? "1-0"
                 : r->winner == WHITE ? "0-1"
                                      : "1/2-1/2");
        s->cause[k] = r->cause;
    }
    return true;
}

static void run_and_read_back(void)
{
    char pdn[64], cmd[256];
    snprintf(pdn, sizeof pdn, "/tmp/test_referee_%d.pdn", (int)getpid());
    unlink(pdn);
    snprintf(cmd, sizeof cmd, "%s player --random --seed {seed} --fen {fen}", ponder());
    RunOptions o;
    run_default_options(&o, "test");
    o.tc = (TimeControl){.per_move = 0.2};
    o.margin = 0.5;
    o.concurrency = 2;
    o.pdn = pdn;
    o.quiet = true;
    Entrant e[2] = {{"first", cmd}, {"second", cmd}};
    Opening *open = NULL;
    char err[ERR_LEN];
    int nopen = run_openings(&o, e, 2, &open, err);
    CHECK(nopen == 156);
    Fixture fx[RUN_GAMES];
    for (int i = 0; i < RUN_GAMES; i++)
        fx[i] = (Fixture){i % 2, 1 - i % 2, i / 2, i / 2 + 1, i + 1};
    Seen seen;
    memset(&seen, 0, sizeof seen);
    int sig;
    RunStatus st = run_games(&o, e, fx, RUN_GAMES, open, seen_game, &seen, &sig, err);
    CHECK(st == RUN_COMPLETE);
    CHECK(seen.reported == RUN_GAMES);

    char rerr[256];
    char *text = util_read_file(pdn, 1 << 24, NULL, rerr, sizeof rerr);
    CHECK(text != NULL);
    if (!text) {
        printf("  %s\n", rerr);
        free(open);
        return;
    }
    PdnReader rd;
    pdn_reader_init(&rd, text);
    static PdnGame pg;
    ParseError pe;
    int games = 0, rc;
    while ((rc = pdn_read_game(&rd, &RULES_ENGLISH, &pg, &pe)) == 1) {
        games++;
        const char *round = pdn_tag(&pg, "Round");
        int number = round ? atoi(round) : -1;
        int k = 0;
        while (k < seen.reported && seen.number[k] != number)
            k++;
        CHECK(k < seen.reported);
        if (k == seen.reported)
            continue;
        /* The same moves (the ballot's three first), the same result and cause. */
        CHECK(pg.nmoves == seen.plies[k]);
        CHECK(pg.nmoves > 3 && move_same(&pg.moves[pg.nmoves - 1], &seen.last[k], true));
        CHECK_STR(pg.result, seen.result[k]);
        const char *term = pdn_tag(&pg, "Termination");
        CHECK(term && strcmp(term, referee_cause_key(seen.cause[k])) == 0);
        const char *black = pdn_tag(&pg, "Black");
        CHECK(black && strcmp(black, number % 2 ? "first" : "second") == 0);
        const char *opening = pdn_tag(&pg, "Opening");
        CHECK(opening && strcmp(opening, open[(number - 1) / 2].name) == 0);
    }
    if (rc < 0)
        printf("  PDN error: %s at line %d\n", pe.msg, pe.line);
    CHECK(rc == 0);
    CHECK(games == RUN_GAMES);
    free(text);
    free(open);
    unlink(pdn);
}

static void openings_rule(void)
{
    RunOptions o;
    run_default_options(&o, "test");
    o.quiet = true;
    Opening *open = NULL;
    char err[ERR_LEN];
    Entrant with[2] = {{"a", "p --fen {fen}"}, {"b", "q --fen {fen}"}};
    Entrant without[2] = {{"a", "p"}, {"b", "q"}};
    Entrant mixed[2] = {{"a", "p --fen {fen}"}, {"b", "q"}};
    CHECK(run_openings(&o, with, 2, &open, err) == 156);
    free(open);
    o.all_ballots = true;
    CHECK(run_openings(&o, with, 2, &open, err) == 174);
    free(open);
    o.all_ballots = false;
    CHECK(run_openings(&o, without, 2, &open, err) == 0);
    CHECK(run_openings(&o, mixed, 2, &open, err) == -1);
    CHECK(strstr(err, "`b'") != NULL);
    o.openings_given = true;
    CHECK(run_openings(&o, without, 2, &open, err) == -1);
    /* --seed shuffles, the same way every time. */
    Opening *a, *b, *plain;
    RunOptions s;
    run_default_options(&s, "test");
    CHECK(run_openings(&s, with, 2, &plain, err) == 156);
    s.seed_given = true;
    s.seed = 9;
    CHECK(run_openings(&s, with, 2, &a, err) == 156);
    CHECK(run_openings(&s, with, 2, &b, err) == 156);
    int same_ab = 0, same_plain = 0;
    for (int i = 0; i < 156; i++) {
        same_ab += strcmp(a[i].name, b[i].name) == 0;
        same_plain += strcmp(a[i].name, plain[i].name) == 0;
    }
    CHECK(same_ab == 156);
    CHECK(same_plain < 20);
    free(a);
    free(b);
    free(plain);
}

int main(void)
{
    /* As run_games() does while a run lasts: a program that is gone before the referee writes to
     * it (one that cannot start) must not kill the referee with SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);
    RUN("referee", expand);
    RUN("referee", openings_rule);
    RUN("referee", scripted_losses);
    RUN("referee", full_games);
    RUN("referee", run_and_read_back);
    return check_total_failed ? 1 : 0;
}
