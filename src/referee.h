/*
 * referee.h - one refereed game between two programs that speak the middleware protocol of
 * seed 002 (`ponder match' and `ponder tournament' run many of these at once).
 *
 * Each program is started for the game (match_proc.h), told the opening through `{fen}' in its
 * command line, and sent "0 0" (you move first) or its opponent's last move; its answer must be
 * one line holding a legal move as a full path ("2 11 18") within the time per move, or what is
 * left on its clock, plus the margin (a clock per side under a clock time control: the time an
 * answer took comes off it, the increment and each control's base go onto it). The library
 * checks every move. A program loses by an illegal or malformed answer (`Give up!' included), by
 * exiting, crashing or closing its pipes, by overrunning the time, or by printing when it is not
 * its turn; the game is drawn by the rules of SPEC section 1 (third repetition, 40-move rule) or
 * by reaching the maximum length; a side with no legal move loses. With endgame databases given,
 * a position of few enough pieces that they hold ends the game with their result (adjudication,
 * as cutechess-cli's -tb), so drawn king endings are not played out to the 40-move rule.
 */
#pragma once

#include "game.h"
#include "openings.h"
#include "timecontrol.h"

#include <stdint.h>

typedef struct EgdbSet EgdbSet; /* egdb.h */

typedef enum {
    END_NO_MOVES = 0, /* the side to move had no legal move: it lost */
    END_REPETITION,   /* third occurrence of a position: draw */
    END_40_MOVES,     /* 40 moves each without a capture or a man move: draw */
    END_MAX_PLIES,    /* the maximum game length: draw */
    END_EGDB,         /* few enough pieces for the endgame databases: their result */
    END_ILLEGAL,      /* a well-formed move that is not legal: loss */
    END_MALFORMED,    /* an answer that is not a move, or output out of turn: loss */
    END_TIMEOUT,      /* no answer within the time per move plus the margin: loss */
    END_EXIT,         /* the program exited: loss */
    END_CRASH,        /* the program was killed by a signal: loss */
    END_CLOSED,       /* the program closed its input or output but kept running: loss */
    END_NB
} EndCause;

enum { REFEREE_DETAIL_LEN = 320 };

typedef struct {
    const char *command[COLOR_NB]; /* the command lines of Black's and White's programs, with
                                      {fen}, {time}, {tc} and {seed} still in them */
    const Opening *opening;        /* where the game starts; NULL: the standard position */
    TimeControl tc;                /* a time per move, or a clock per side (timecontrol.h) */
    double margin;                 /* seconds of grace on top of every move (past an empty
                                      clock too; the time used within it is not carried over) */
    double startup;                /* extra seconds for each program's first move */
    int max_plies;                 /* draw after this many plies of the programs (0: none) */
    int stderr_fd;                 /* where the programs' stderr goes (-1: /dev/null) */
    int stop_fd;                   /* readable once the run is being stopped (-1: none) */
    uint64_t seed;                 /* the game's seed, for {seed} */
    const EgdbSet *egdb;           /* adjudicate by these databases (NULL: none)... */
    int egdb_pieces;               /* ...a position of at most this many pieces they hold */
    bool egdb_wins_ahead;          /* a win only once the winner is ahead in pieces (a win on
                                      even or fewer pieces is played on; draws end at once) */
} RefereeSetup;

typedef struct {
    EndCause cause;                  /* how the game ended */
    int winner;                      /* BLACK, WHITE, or -1 for a draw */
    char detail[REFEREE_DETAIL_LEN]; /* one line saying what happened */
    int opening_plies;               /* moves of the game that came from the opening */
    double first_reply[COLOR_NB];    /* each side's first answer (it includes the start-up) */
    double max_reply[COLOR_NB];      /* each side's slowest answer after its first, in seconds */
    int replies[COLOR_NB];           /* answers each side gave in time after its first */
    double spent[COLOR_NB];          /* seconds each side took over those answers */
    int late[COLOR_NB];              /* of those, how many took longer than the time per move
                                        (accepted thanks to the margin) */
    double clock[COLOR_NB];          /* seconds left on each side's clock at the end (with a
                                        clock; below 0 for a side that overran it) */
    bool read_back;                  /* not played now: read back from the PDN file by
                                        --resume (match_resume.c; no answer times) */
} RefereeResult;

typedef enum {
    REFEREE_DONE = 0, /* the game finished; the result and the Game are filled in */
    REFEREE_STOPPED,  /* the stop descriptor fired: the game was abandoned, its programs killed */
    REFEREE_FAILED,   /* the referee could not go on (no pipe, no fork), or a program could not
                         start (not found, not executable): see ERR */
} RefereeStatus;

/* Plays one game as set up by S, recording the moves in G (the opening's moves first). Every
 * process it starts has ended and been reaped when it returns, whatever the status. On
 * REFEREE_FAILED, ERR (ERR_LEN bytes) says why: the referee itself could not go on, or a program
 * could not start at all (the shell's exit status 126 or 127 before its first answer). The
 * caller ignores SIGPIPE meanwhile (run_games does): a program may be gone before it is written
 * to. */
RefereeStatus referee_play(const RefereeSetup *s, Game *g, RefereeResult *r, char *err);

/* Short name of a cause for counts and JSON keys ("timeout", "40-move", ...). */
const char *referee_cause_key(EndCause c);

/* Whether a cause is a loss by the side at fault (rather than a draw or a loss on the board). */
bool referee_cause_is_fault(EndCause c);

/* The seconds {time} stands for under TC: the time per move, or under a clock an even share of
 * it (BASE over the moves per control, or over ENGINE_MOVES_LEFT_GUESS, the engine's own guess,
 * plus the increment), for a program that knows only a time per move. */
double referee_move_time(const TimeControl *tc);

/* COMMAND with every {fen}, {time} (referee_move_time), {tc} (TC as tc_format writes it) and
 * {seed} replaced. Returns a malloc'd string, or NULL when out of memory. */
char *referee_expand(const char *command, const char *fen, const TimeControl *tc, uint64_t seed);

/* Whether COMMAND contains the placeholder NAME (given with its braces, e.g. "{fen}"). */
bool referee_has(const char *command, const char *name);
