/*
 * referee.c - one refereed game (referee.h).
 *
 * The loop, each turn: (1) the game may already be over by the rules (no legal move,
 * repetition, 40-move rule), by the endgame databases (when given) or by length; (2) the program to
 * move must not have printed anything since its last move; (3) it is sent "0 0" on the first turn
 * of the game, else the opponent's last move; (4) its answer is read against the deadline; (5) the
 * answer is checked: something that is not a list of 2 or more squares 1-32 is malformed, a list
 * that is not a legal move is illegal, otherwise the move is played. A program that fails to take
 * its input, answers nothing or reaches end-of-file is asked how it ended (waitid without reaping):
 * exited, killed by a signal (a crash), or still running with a pipe closed.
 */
#include "referee.h"

#include "bitboard.h"
#include "cli.h"
#include "egdb.h"
#include "engine.h"
#include "match_proc.h"
#include "middleware.h"
#include "movegen.h"
#include "notation.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How long a program whose pipe has closed is given to finish exiting, so that the cause can be
 * told apart (exit, crash) from a program that closed its stdout and goes on running. */
static const double DEATH_WAIT = 0.25;
/* How long a program is given to exit by itself once its game is over (end of input). */
static const double END_GRACE = 0.1;

static const char *const CAUSE_KEYS[END_NB] = {
    "no-moves",  "repetition", "40-move", "max-plies", "egdb",   "illegal",
    "malformed", "timeout",    "exit",    "crash",     "closed",
};

const char *referee_cause_key(EndCause c)
{
    return c >= 0 && c < END_NB ? CAUSE_KEYS[c] : "?";
}

bool referee_cause_is_fault(EndCause c)
{
    return c >= END_ILLEGAL && c < END_NB;
}

bool referee_has(const char *command, const char *name)
{
    return strstr(command, name) != NULL;
}

double referee_move_time(const TimeControl *tc)
{
    if (!tc_is_clock(tc))
        return tc->per_move;
    int moves = tc->moves > 0 ? tc->moves : ENGINE_MOVES_LEFT_GUESS;
    return tc->base / moves + tc->inc;
}

char *referee_expand(const char *command, const char *fen, const TimeControl *tc, uint64_t seed)
{
    enum { NAMES = 4 };
    char time_text[32], seed_text[32], tc_text[TC_TEXT_LEN];
    snprintf(time_text, sizeof time_text, "%g", referee_move_time(tc));
    snprintf(seed_text, sizeof seed_text, "%llu", (unsigned long long)seed);
    tc_format(tc, tc_text, sizeof tc_text);
    const char *names[NAMES] = {"{fen}", "{time}", "{seed}", "{tc}"};
    const char *values[NAMES] = {fen, time_text, seed_text, tc_text};
    size_t cap = strlen(command) + 1;
    for (const char *p = command; *p; p++)
        for (int k = 0; k < NAMES; k++)
            if (strncmp(p, names[k], strlen(names[k])) == 0)
                cap += strlen(values[k]);
    char *out = malloc(cap), *o = out;
    if (!out)
        return NULL;
    for (const char *p = command; *p;) {
        int k = 0;
        while (k < NAMES && strncmp(p, names[k], strlen(names[k])) != 0)
            k++;
        if (k < NAMES) {
            size_t n = strlen(values[k]);
            memcpy(o, values[k], n);
            o += n;
            p += strlen(names[k]);
        } else
            *o++ = *p++;
    }
    *o = '\0';
    return out;
}

/* Whether LINE is blanks and 2 or more square numbers 1-32: the shape of a move. */
static bool looks_like_path(const char *line)
{
    int count = 0;
    const char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0')
            break;
        if (!isdigit((unsigned char)*p))
            return false;
        int v = 0, digits = 0;
        while (isdigit((unsigned char)*p) && digits < 3) {
            v = v * 10 + (*p++ - '0');
            digits++;
        }
        if (isdigit((unsigned char)*p) || (*p != '\0' && *p != ' ' && *p != '\t') || v < 1 ||
            v > 32)
            return false;
        count++;
    }
    return count >= 2;
}

/* LINE for a message: at most 60 characters, control characters shown as `?'. */
static void quote(const char *line, char *out, size_t size)
{
    size_t n = 0, max = size - 4 < 60 ? size - 4 : 60;
    for (const char *p = line; *p && n < max; p++)
        out[n++] = (unsigned char)*p < 32 || *p == 127 ? '?' : *p;
    if (strlen(line) > max)
        out[n++] = '.', out[n++] = '.', out[n++] = '.';
    out[n] = '\0';
}

static const char *color_name(int c)
{
    return c == BLACK ? "Black" : "White";
}

/* Whether the databases of S know the position of G: then the game ends with their result in R.
 * Only a quiet position is adjudicated (the side to move has no capture): a capture pending is
 * played, so the position judged, and the material the summary counts in it, is the one the
 * exchange leaves. With S->egdb_wins_ahead a win is adjudicated only once the winner is ahead in
 * pieces: a win on even or fewer pieces, which the programs still have to convert, is played on
 * (the next quiet positions are judged again; a slip into a draw ends the game as a draw). */
static bool adjudicate(const RefereeSetup *s, const Game *g, RefereeResult *r)
{
    const Board *b = &g->board;
    int pieces = bb_popcount(b->pieces[BLACK] | b->pieces[WHITE]);
    if (!s->egdb || pieces > s->egdb_pieces || movegen_must_capture(b, g->rules))
        return false;
    EgdbValue v = egdb_probe(s->egdb, b);
    if (v == EGDB_UNKNOWN)
        return false;
    int winner = v == EGDB_DRAW ? -1 : v == EGDB_WIN ? b->side : b->side ^ 1;
    if (winner >= 0 && s->egdb_wins_ahead &&
        bb_popcount(b->pieces[winner]) <= bb_popcount(b->pieces[winner ^ 1]))
        return false;
    r->cause = END_EGDB;
    r->winner = winner;
    snprintf(r->detail, sizeof r->detail, "the endgame databases: %s%s (%d pieces, %s to move)",
             r->winner < 0 ? "a draw" : color_name(r->winner), r->winner < 0 ? "" : " wins", pieces,
             color_name(b->side));
    return true;
}

/* Ends the game with SIDE losing by CAUSE. */
static void lose(RefereeResult *r, int side, EndCause cause)
{
    r->cause = cause;
    r->winner = side ^ 1;
}

/* SIDE's program stopped taking part (a pipe closed or a write failed): exited, crashed or
 * closed a pipe. HOW says what we saw. */
static void classify_gone(RefereeResult *r, Proc *p, int side, const char *how)
{
    char end[96];
    if (proc_wait_exit(p, DEATH_WAIT)) {
        bool crashed = proc_crashed(p, NULL);
        proc_describe_end(p, end, sizeof end);
        lose(r, side, crashed ? END_CRASH : END_EXIT);
        snprintf(r->detail, sizeof r->detail, "%s %s (%s)", color_name(side),
                 crashed ? "crashed" : "exited", end);
    } else {
        lose(r, side, END_CLOSED);
        snprintf(r->detail, sizeof r->detail, "%s %s but kept running", color_name(side), how);
    }
}

/* Whether SIDE's program, gone before its first answer, could not be started at all: the shell
 * says so with exit status 127 (command not found) or 126 (not executable), and a program that
 * rejects its command line exits 2 (the usage-error convention Ponder's programs follow). Such a
 * match cannot be played, so it stops with ERR saying which command failed, rather than score
 * games that were never played. */
static bool failed_to_start(const RefereeSetup *s, Proc *p, int side, char *err)
{
    if (!proc_wait_exit(p, DEATH_WAIT) || proc_crashed(p, NULL) ||
        (p->exit_code != 2 && p->exit_code != 126 && p->exit_code != 127))
        return false;
    snprintf(err, ERR_LEN, "%s's program could not start (exit status %d: %s): %.60s",
             color_name(side), p->exit_code,
             p->exit_code == 127   ? "command not found"
             : p->exit_code == 126 ? "not executable"
                                   : "a usage error; --stderr FILE keeps its message",
             s->command[side]);
    return true;
}

RefereeStatus referee_play(const RefereeSetup *s, Game *g, RefereeResult *r, char *err)
{
    memset(r, 0, sizeof *r);
    r->winner = -1;
    Proc proc[COLOR_NB];
    for (int c = 0; c < COLOR_NB; c++)
        proc_init(&proc[c]);
    RefereeStatus status = REFEREE_DONE;

    /* The start: the opening's moves from the standard position, or its position. */
    const Opening *o = s->opening;
    if (o && o->nmoves > 0) {
        game_init(g, &RULES_ENGLISH, NULL);
        for (int i = 0; i < o->nmoves; i++)
            game_play(g, &o->moves[i]);
        if (!board_equal(&g->board, &o->start))
            game_init(g, &RULES_ENGLISH, &o->start);
    } else
        game_init(g, &RULES_ENGLISH, o ? &o->start : NULL);
    r->opening_plies = g->ply;

    char fen[128];
    notation_format_fen(&g->board, fen, sizeof fen);
    for (int c = 0; c < COLOR_NB; c++) {
        char *cmd = referee_expand(s->command[c], fen, &s->tc, s->seed);
        if (!cmd) {
            snprintf(err, ERR_LEN, "out of memory");
            status = REFEREE_FAILED;
            goto done;
        }
        bool ok = proc_start(&proc[c], cmd, s->stderr_fd, err);
        free(cmd);
        if (!ok) {
            status = REFEREE_FAILED;
            goto done;
        }
    }

    bool first_turn[COLOR_NB] = {true, true};
    TcClock clock[COLOR_NB];
    for (int c = 0; c < COLOR_NB; c++) {
        tc_clock_start(&s->tc, &clock[c]);
        r->clock[c] = clock[c].left;
    }
    bool has_clock = tc_is_clock(&s->tc);
    for (;;) {
        /* 1. The rules and the length limit. */
        GameResult gr = game_result(g);
        if (gr == RESULT_BLACK_WINS || gr == RESULT_WHITE_WINS) {
            r->cause = END_NO_MOVES;
            r->winner = gr == RESULT_BLACK_WINS ? BLACK : WHITE;
            snprintf(r->detail, sizeof r->detail, "%s has no legal move",
                     color_name(r->winner ^ 1));
            break;
        }
        if (gr == RESULT_DRAW_REPETITION) {
            r->cause = END_REPETITION;
            snprintf(r->detail, sizeof r->detail, "third repetition of the position");
            break;
        }
        if (gr == RESULT_DRAW_40_MOVES) {
            r->cause = END_40_MOVES;
            snprintf(r->detail, sizeof r->detail, "40 moves each without a capture or a man move");
            break;
        }
        if (adjudicate(s, g, r))
            break;
        if ((s->max_plies > 0 && g->ply - r->opening_plies >= s->max_plies) ||
            g->ply >= GAME_MAX_PLIES) {
            r->cause = END_MAX_PLIES;
            snprintf(r->detail, sizeof r->detail, "maximum length of %d plies reached",
                     g->ply - r->opening_plies);
            break;
        }
        int side = g->board.side;
        Proc *p = &proc[side];

        /* 2. Nothing may have been printed out of turn. */
        if (proc_pending_output(p)) {
            char line[PROC_LINE_MAX], shown[80];
            size_t n = p->len < 60 ? p->len : 60;
            memcpy(line, p->buf, n);
            line[n] = '\0';
            char *nl = strchr(line, '\n');
            if (nl)
                *nl = '\0';
            quote(line, shown, sizeof shown);
            lose(r, side, END_MALFORMED);
            snprintf(r->detail, sizeof r->detail, "%s printed `%s' when it was not its turn",
                     color_name(side), shown);
            break;
        }

        /* 3. Its input: "0 0" to open the game, else the opponent's move. */
        char msg[128];
        if (g->ply == r->opening_plies)
            snprintf(msg, sizeof msg, "0 0");
        else
            middleware_format_move(&g->moves[g->ply - 1], msg, sizeof msg);
        double t0 = util_now();
        if (!proc_send(p, msg)) {
            if (first_turn[side] && failed_to_start(s, p, side, err)) {
                status = REFEREE_FAILED;
                break;
            }
            classify_gone(r, p, side, "closed its input");
            break;
        }

        /* 4. Its answer, on time. */
        bool first = first_turn[side];
        double budget = tc_clock_allowed(&s->tc, &clock[side]);
        double allowed = budget + s->margin + (first ? s->startup : 0.0);
        first_turn[side] = false;
        char line[PROC_LINE_MAX];
        ProcStatus ps = proc_read_line(p, t0 + allowed, s->stop_fd, line);
        double took = util_now() - t0;
        if (ps == PROC_STOPPED) {
            status = REFEREE_STOPPED;
            break;
        }
        if (ps == PROC_FAILED) {
            snprintf(err, ERR_LEN, "reading from %s's program failed", color_name(side));
            status = REFEREE_FAILED;
            break;
        }
        if (ps == PROC_CLOSED) {
            if (first && failed_to_start(s, p, side, err)) {
                status = REFEREE_FAILED;
                break;
            }
            classify_gone(r, p, side, "closed its output");
            break;
        }
        if (ps == PROC_TIMEOUT) {
            if (proc_wait_exit(p, 0)) { /* dead, with a grandchild holding the pipe open */
                classify_gone(r, p, side, "stopped answering");
                break;
            }
            lose(r, side, END_TIMEOUT);
            r->clock[side] = clock[side].left - took;
            snprintf(r->detail, sizeof r->detail,
                     "%s did not answer within %.3f s (%s%.3f + %g margin%s)", color_name(side),
                     allowed, has_clock ? "clock " : "", budget, s->margin,
                     first ? " + startup" : "");
            break;
        }
        if (ps == PROC_TOO_LONG) {
            lose(r, side, END_MALFORMED);
            snprintf(r->detail, sizeof r->detail,
                     "%s printed %d characters without ending the line", color_name(side),
                     PROC_LINE_MAX);
            break;
        }
        if (first)
            r->first_reply[side] = took;
        else {
            if (took > r->max_reply[side])
                r->max_reply[side] = took;
            r->replies[side]++;
            r->spent[side] += took;
            r->late[side] += took > budget;
        }
        /* The start-up allowance is not charged to the clock. */
        tc_clock_spend(&s->tc, &clock[side], first ? fmax(0.0, took - s->startup) : took);
        r->clock[side] = clock[side].left;

        /* 5. The move. */
        Move m;
        ParseError pe;
        char shown[80];
        quote(line, shown, sizeof shown);
        if (!looks_like_path(line)) {
            lose(r, side, END_MALFORMED);
            snprintf(r->detail, sizeof r->detail, "%s answered `%s', which is not a move",
                     color_name(side), shown);
            break;
        }
        if (!middleware_parse_move(&g->board, g->rules, line, &m, &pe)) {
            lose(r, side, END_ILLEGAL);
            snprintf(r->detail, sizeof r->detail, "%s played `%s', not a legal move here",
                     color_name(side), shown);
            break;
        }
        game_play(g, &m);
    }

done:
    for (int c = 0; c < COLOR_NB; c++)
        proc_end(&proc[c], status == REFEREE_DONE ? END_GRACE : 0.0);
    return status;
}
