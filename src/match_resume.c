/*
 * match_resume.c - `--resume' for match and tournament: a long run goes on where it stopped.
 *
 * The runner appends every finished game to the PDN file at once, with its game number (the
 * Round tag), the two names, the opening and the time control, and how it ended (Termination,
 * TerminationDetails, and the clocks under a clock). Since the fixture list is a function of the
 * command line (the openings, --seed, --games), the same command run again with --resume reads
 * those games back, checks that each one is the game this run would play under that number,
 * counts it as played, and leaves only the others to play. A file of another run (other names,
 * openings, seed or time control) is refused before anything is played, as is a damaged one.
 *
 * What a PDN does not keep, the answer times, is missing from the timing lines for the games
 * read back; the score, the Elo, the SPRT and the endings count every game.
 */
#include "match_run.h"

#include "pdn.h"
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { RESUME_FILE_MAX = 1 << 30 }; /* largest PDN file read back (a million games or so) */

/* A message into ERR (ERR_LEN bytes), cut at its end when a file name or a tag value makes it
 * long: the file and the game come first, so what is cut is the least useful part. */
__attribute__((format(printf, 2, 3))) static void say(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, ERR_LEN, fmt, ap);
    va_end(ap);
}

/* The cause whose key (referee_cause_key) is KEY, or -1. */
static int cause_of(const char *key)
{
    for (int c = 0; c < END_NB; c++)
        if (strcmp(referee_cause_key((EndCause)c), key) == 0)
            return c;
    return -1;
}

/* Checks tag NAME of G against WANT ("" when the tag must be absent or empty). False with the
 * problem in ERR. */
static bool tag_is(const PdnGame *g, const char *name, const char *want, const char *path,
                   long number, char *err)
{
    const char *v = pdn_tag(g, name);
    if (strcmp(v ? v : "", want) == 0)
        return true;
    say(err,
        "%.100s: game %ld (line %d): %s `%.60s', this run's `%.60s' (a file "
        "of another run?)",
        path, number, g->line, name, v ? v : "", want);
    return false;
}

/* A seconds value from tag NAME of G into *OUT. */
static bool clock_tag(const PdnGame *g, const char *name, double *out, const char *path, char *err)
{
    const char *v = pdn_tag(g, name);
    char msg[ERR_LEN];
    if (v && util_parse_double(v, -1e9, 1e9, out, msg, sizeof msg))
        return true;
    say(err, "%.60s: the game at line %d has no valid %s tag (%.100s)", path, g->line, name,
        v ? msg : "missing");
    return false;
}

/* One pass over TEXT: checks every game and marks it in DONE; with ON_GAME, also reports each.
 * Returns the count, or -1 with ERR. */
static int read_games(const char *text, const RunOptions *o, const Entrant *e, const Fixture *fx,
                      int n, const Opening *openings, bool *done, RunGameFn on_game, void *ctx,
                      bool *stop, char *err)
{
    char msg[ERR_LEN];
    PdnGame *pg = malloc(sizeof *pg);
    Game *g = malloc(sizeof *g);
    int count = -1;
    if (!pg || !g) {
        say(err, "out of memory");
        goto out;
    }
    char tc[TC_TEXT_LEN];
    tc_format_pdn(&o->tc, tc, sizeof tc);
    PdnReader rd;
    pdn_reader_init(&rd, text);
    ParseError pe;
    int got, read = 0;
    while ((got = pdn_read_game(&rd, &RULES_ENGLISH, pg, &pe)) != 0) {
        if (got < 0) {
            say(err, "%.60s: line %d, column %d: %.60s", o->pdn, pe.line, pe.col, pe.msg);
            goto out;
        }
        const char *round = pdn_tag(pg, "Round");
        long number;
        if (!round || !util_parse_long(round, 1, n, &number, msg, sizeof msg)) {
            say(err,
                "%.60s: the game at line %d has Round `%.40s', not a game number of this "
                "run (1-%d)",
                o->pdn, pg->line, round ? round : "(none)", n);
            goto out;
        }
        const Fixture *f = &fx[number - 1];
        if (done[number - 1]) {
            say(err, "%.60s: game %ld is in the file twice (again at line %d)", o->pdn, number,
                pg->line);
            goto out;
        }
        const Opening *op = f->opening >= 0 ? &openings[f->opening] : NULL;
        if (!tag_is(pg, "Event", o->event, o->pdn, number, err) ||
            !tag_is(pg, "Black", e[f->black].name, o->pdn, number, err) ||
            !tag_is(pg, "White", e[f->white].name, o->pdn, number, err) ||
            !tag_is(pg, "Opening", op ? op->name : "", o->pdn, number, err) ||
            !tag_is(pg, "TimeControl", tc, o->pdn, number, err))
            goto out;

        RefereeResult r;
        memset(&r, 0, sizeof r);
        r.read_back = true;
        if (strcmp(pg->result, "1-0") == 0)
            r.winner = BLACK;
        else if (strcmp(pg->result, "0-1") == 0)
            r.winner = WHITE;
        else if (strcmp(pg->result, "1/2-1/2") == 0)
            r.winner = -1;
        else {
            say(err, "%.60s: game %ld (line %d) has no result", o->pdn, number, pg->line);
            goto out;
        }
        const char *term = pdn_tag(pg, "Termination");
        int cause = term ? cause_of(term) : -1;
        if (cause < 0) {
            say(err,
                "%.60s: game %ld (line %d): Termination `%.40s' is not one "
                "the referee writes",
                o->pdn, number, pg->line, term ? term : "(none)");
            goto out;
        }
        r.cause = (EndCause)cause;
        snprintf(r.detail, sizeof r.detail, "%s",
                 pdn_tag(pg, "TerminationDetails") ? pdn_tag(pg, "TerminationDetails") : "");
        if (tc_is_clock(&o->tc) && (!clock_tag(pg, "BlackClock", &r.clock[BLACK], o->pdn, err) ||
                                    !clock_tag(pg, "WhiteClock", &r.clock[WHITE], o->pdn, err)))
            goto out;
        game_init(g, &RULES_ENGLISH, &pg->start);
        for (int i = 0; i < pg->nmoves; i++)
            game_play(g, &pg->moves[i]);
        /* The opening's moves open the record when the game started from the standard
         * position (as the referee plays them). */
        Board standard;
        board_start(&standard);
        r.opening_plies =
            op && op->nmoves > 0 && pg->nmoves >= op->nmoves && board_equal(&pg->start, &standard)
                ? op->nmoves
                : 0;
        done[number - 1] = true;
        read++;
        if (on_game && !on_game(ctx, f, &r, g))
            *stop = true;
    }
    count = read;
out:
    free(pg);
    free(g);
    return count;
}

int run_read_back(const RunOptions *o, const Entrant *e, const Fixture *fx, int n,
                  const Opening *openings, bool *done, RunGameFn on_game, void *ctx, bool *stop,
                  char *err)
{
    *stop = false;
    FILE *probe = fopen(o->pdn, "r");
    if (!probe) {
        if (errno == ENOENT)
            return 0; /* nothing played yet: the run starts from its first game */
        say(err, "cannot read %.60s: %s", o->pdn, strerror(errno));
        return -1;
    }
    fclose(probe);
    char *text = util_read_file(o->pdn, RESUME_FILE_MAX, NULL, err, ERR_LEN);
    if (!text)
        return -1;
    /* Fixture numbers are 1..n in order; the index of number k is k - 1 (checked). */
    for (int i = 0; i < n; i++)
        if (fx[i].number != i + 1) {
            say(err, "internal error: fixture %d is numbered %d", i + 1, fx[i].number);
            free(text);
            return -1;
        }
    /* Every game is checked before any is counted, so a bad file leaves no score behind. */
    int count = read_games(text, o, e, fx, n, openings, done, NULL, NULL, stop, err);
    if (count >= 0) {
        memset(done, 0, (size_t)n * sizeof *done);
        count = read_games(text, o, e, fx, n, openings, done, on_game, ctx, stop, err);
    }
    free(text);
    return count;
}
