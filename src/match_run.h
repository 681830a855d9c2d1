/*
 * match_run.h - what `ponder match' and `ponder tournament' share: their common options, the
 * openings and the rule about `{fen}', and the runner that plays a list of fixtures on N worker
 * threads, appends each finished game to the PDN file (flushed at once) and hands it to the
 * caller, and stops cleanly on SIGINT, SIGTERM or SIGHUP: the games in progress are abandoned,
 * their programs killed and reaped, and the run returns so the caller can print what was
 * played. A second Ctrl-C is never needed.
 */
#pragma once

#include "openings.h"
#include "referee.h"

#include <getopt.h>
#include <stdio.h>

enum { RUN_NAME_LEN = 64 };

typedef struct {
    char name[RUN_NAME_LEN]; /* as shown in tables and PDN tags */
    const char *command;     /* the command line, placeholders not yet replaced */
} Entrant;

typedef struct {
    int black, white; /* entrant indices */
    int opening;      /* index into the openings, or -1 for the standard start */
    int round;        /* 1-based: the opening pair (match) or the round (tournament) */
    int number;       /* 1-based game number */
} Fixture;

/* --adjudicate-wins: every database win at once, or only once the winner is ahead in pieces. */
enum { RUN_WINS_ANY = 1, RUN_WINS_AHEAD };

typedef struct {
    TimeControl tc;          /* --time S (a time per move) or --tc */
    double margin;           /* grace per move (--margin) */
    double startup;          /* extra time for each program's first move (--startup) */
    long max_plies;          /* draw after this many plies (--max-plies, 0: none) */
    const char *adjudicate;  /* --adjudicate DIR: the endgame databases that end games, or NULL */
    long adjudicate_pieces;  /* --adjudicate-pieces N (0: what DIR holds complete) */
    int adjudicate_wins;     /* --adjudicate-wins: RUN_WINS_ANY or _AHEAD (0: not given) */
    long concurrency;        /* games at once (-j) */
    const char *openings;    /* --openings FILE, or NULL for the built-in ballots */
    bool openings_given;     /* --openings was on the command line */
    bool all_ballots;        /* --all-ballots: all 174 instead of the 156 in use */
    const char *pdn;         /* --pdn FILE (appended), or NULL */
    const char *json;        /* --json FILE, or NULL */
    const char *stderr_path; /* --stderr FILE for the programs' stderr, or NULL (discarded) */
    const char *event;       /* the PDN Event tag */
    unsigned long seed;      /* --seed */
    bool seed_given;         /* whether --seed was given (then openings are shuffled) */
    bool quiet;              /* --quiet: no progress output */
    bool resume;             /* --resume: go on from the games already in the --pdn file */
} RunOptions;

typedef enum {
    RUN_COMPLETE = 0, /* every fixture was played, or the caller asked to stop */
    RUN_INTERRUPTED,  /* a signal stopped the run */
    RUN_FAILED,       /* the referee could not go on (see the message) */
} RunStatus;

/* Called, under the runner's lock and in the order games finish, for each finished game (after
 * it is in the PDN file). Returns false to start no further games (the games in progress still
 * finish and are reported). */
typedef bool (*RunGameFn)(void *ctx, const Fixture *f, const RefereeResult *r, const Game *g);

/* Defaults: 1 s per move, 0.1 s margin, 1 s startup, 400 plies, one game per core. */
void run_default_options(RunOptions *o, const char *event);

/* Codes of a command's own long options start here (the common ones are below). */
enum { RUN_OPT_OWN = 0x180 };

/* What a command adds to the common options for run_parse_args(). */
typedef struct {
    const char *prog;              /* "ponder match", for messages */
    const struct option *longopts; /* its own long options (vals from RUN_OPT_OWN), zero-ended */
    bool (*option)(void *ctx, int code, const char *value); /* reads one; false: bad (printed) */
    bool (*argument)(void *ctx, const char *arg); /* reads an argument that is not an option */
    void (*usage)(FILE *f);                       /* prints its usage */
    void *ctx;                                    /* handed to option() and argument() */
} RunCommand;

/* Reads the command line of match or tournament (getopt_long; ARGV[0] is the command): the
 * common options into O (defaults set by run_default_options), the command's own through CMD.
 * Returns -1 when the run can go on, 0 after printing the usage for --help, 2 after a bad option
 * or argument (the message and "see `PROG --help'" printed on stderr). */
int run_parse_args(RunOptions *o, int argc, char **argv, const RunCommand *cmd);

/* Opens the databases of --adjudicate (O->adjudicate set) and sets *PIECES (when not NULL) to the
 * most pieces a position they adjudicate may have. NULL with the reason in ERR (ERR_LEN bytes)
 * when DIR holds no databases, not every 2-piece slice, or fewer than --adjudicate-pieces asks. */
EgdbSet *run_open_databases(const RunOptions *o, int *pieces, char *err);

/* Usage lines of the common options, for the commands' --help. */
void run_usage_options(FILE *f);

/* The openings for a run whose commands are ENTRANTS. When every command contains {fen}, loads
 * the openings (the ballots or --openings FILE), shuffled when --seed was given, and returns
 * their count with the array in *OUT (caller frees). When none does, games start from the
 * standard position: returns 0 and prints a note if the ballots were only the default, or fails
 * if --openings was asked for. A mix fails. Returns -1 with the reason in ERR (ERR_LEN bytes). */
int run_openings(const RunOptions *o, const Entrant *e, int n, Opening **out, char *err);

/* Plays FIXTURES with up to O->concurrency games at once (adjudicated by the databases of
 * --adjudicate, when given) and calls ON_GAME for each finished game. Returns the status; on
 * RUN_INTERRUPTED *SIGNAL is the signal, on RUN_FAILED ERR holds the reason. */
RunStatus run_games(const RunOptions *o, const Entrant *e, const Fixture *fixtures, int n,
                    const Opening *openings, RunGameFn on_game, void *ctx, int *signal_number,
                    char *err);

/* --resume (match_resume.c): reads the games already in O->pdn (none when the file does not
 * exist), checks that each is the game FIXTURES (numbered 1..N in order) has under its number
 * (Round) with these entrants' names, this opening and time control, marks it in DONE and
 * reports it to ON_GAME with RefereeResult.read_back set; *STOP is set when ON_GAME asked to
 * stop. Returns how many games were read back, or -1 with the reason in ERR (a damaged file, a
 * game twice, or a file of another run). */
int run_read_back(const RunOptions *o, const Entrant *e, const Fixture *fixtures, int n,
                  const Opening *openings, bool *done, RunGameFn on_game, void *ctx, bool *stop,
                  char *err);

/* Writes TEXT as a JSON string (quoted and escaped). */
void run_json_string(FILE *f, const char *text);

/* A JSON number, or null when it is not finite. */
void run_json_number(FILE *f, double v);

/* Whether progress goes to a terminal (a live bar) rather than to a pipe or file (lines). */
bool run_progress_is_tty(void);

/* Redraws the live progress line on a terminal: a bar for DONE of TOTAL and TEXT after it. */
void run_progress_bar(int done, int total, const char *text);

/* Ends the live line (a newline) if one was drawn. */
void run_progress_end(void);

/* The name of an end cause for people ("time overrun", "40-move rule", ...). */
const char *run_cause_text(EndCause c);

/* SECONDS for the tables, precise enough to tell fast programs apart: "0.052 ms" below a
 * millisecond, "53.2 ms" below a second, "1.234 s" above. Returns BUF. */
const char *run_format_seconds(double seconds, char *buf, size_t size);
