/*
 * console.h - what the files of the engine console (console.c, console_cmd.c) share: its state
 * and the functions one file calls in the other. Not a library interface: nothing outside the
 * console includes it.
 *
 * console.c runs the main loop, the output and the searches; console_cmd.c carries out the
 * lines the user types. See console.c for how the two threads work together.
 */
#pragma once

#include "console_input.h"
#include "engine.h"
#include "timecontrol.h"

#include <pthread.h>
#include <stdatomic.h>

enum {
    CONSOLE_DEFAULT_TIME = 5,         /* seconds per move until `st' says otherwise */
    CONSOLE_MAX_DEPTH = MAX_PLY - 1,  /* deepest `sd' */
    CONSOLE_PATH_MAX = MAX_JUMPS + 1, /* squares in the longest capture path */
};

/* What the search thread is doing. */
typedef enum {
    CONSOLE_IDLE,    /* no search */
    CONSOLE_THINK,   /* choosing the engine's move */
    CONSOLE_ANALYZE, /* `analyze': a search that plays nothing */
    CONSOLE_PONDER,  /* thinking on the user's time, until the user's next line */
} ConsoleTask;

/* One search. The main thread fills the fields up to `done' before starting the search thread
 * and reads the rest after joining it; in between the search thread owns the struct. */
typedef struct {
    Game game;           /* the position searched, with its history for repetitions */
    SearchLimits limits; /* depth, time, or infinite */
    bool print;          /* print a table row for each finished iteration */
    bool shifted;        /* pondering after REPLY: rows show it first, value negated */
    Move reply;          /* the expected reply a ponder search assumes */
    int wake_fd;         /* written once when the search has ended */
    EngineJob job;       /* the engine's job for it */
    atomic_bool done;    /* set when the job has ended */
    SearchResult result; /* what it returned */
    SearchInfo last;     /* the last finished iteration */
    bool have_last;      /* whether any iteration finished */
} ConsoleSearch;

/* The console's state, owned by the main thread. */
typedef struct {
    Engine *engine;                  /* the engine playing */
    Game game;                       /* the moves played (whole moves only) */
    uint16_t splits[GAME_MAX_PLIES]; /* per move: path indices where the typed input broke it */
    uint8_t part[CONSOLE_PATH_MAX];  /* a multi-jump typed one jump at a time, so far */
    int part_len;                    /* squares in part (0: none under way) */
    uint16_t part_splits;            /* where the typed input broke part */
    bool force;                      /* the engine plays neither side */
    int engine_side;                 /* the side it plays otherwise */
    int depth;                       /* `sd' (0: no limit) */
    double time;                     /* `st' in seconds (0: no limit) */
    bool has_clock;                  /* `level' set a clock: searches use clock, not time */
    TimeControl tc;                  /* that clock's control (xboard's level MPS BASE INC) */
    TcClock clock;                   /* the engine's clock: set by `time', charged per move */
    double opp_clock;                /* the user's clock from `otim' (seconds; -1: not told) */
    double think_start;              /* util_now() when the engine's current think began */
    bool ponder;                     /* think on the user's time (`hard', the default; `easy') */
    bool verbose;                    /* print the thinking table while thinking and pondering */
    bool flipped;                    /* draw Black's side (squares 1-4) at the bottom, as the
                                        original program did, instead of at the top as PDN
                                        diagrams (and `play' and the web board) do */
    bool have_expected;              /* whether the engine expects a reply, for pondering */
    Move expected;                   /* that reply */
    LineReader in;                   /* stdin */
    char held[CONSOLE_LINE_MAX];     /* a line read but not yet carried out */
    bool held_valid;                 /* whether held holds one */
    LineStatus held_status;          /* its status */
    ConsoleSearch *search;           /* the search (one, reused) */
    ConsoleTask task;                /* what it is doing */
    bool announced;                  /* started by a command (prompt when it ends) */
    bool running;                    /* a search job was started and not yet waited for */
    int wake[2];                     /* the search's wake-up pipe: read end, write end */
} Console;

/* Prints a block of text under the output lock and flushes it (safe from either thread). */
void console_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* `Error (REASON): INPUT'. */
void console_error(const char *reason, const char *input);

/* The FEN line and the board as shown: the game's position, with a multi-jump under way. */
void console_show_position(const Console *c);

/* `  *** Black ***' or `  *** White ***': the side on move. */
void console_prompt(const Console *c);

/* Prints the result tag and comment when the game is over; returns whether it is. */
bool console_announce_result(const Console *c);

/* Whether the game is over (a side cannot move, or a draw). */
bool console_game_over(const Console *c);

/* Starts a search of TASK (CONSOLE_THINK, CONSOLE_ANALYZE or CONSOLE_PONDER), ANNOUNCED when a
 * command asked for it: the prompt follows its end. If input is already waiting, the search ends
 * before it begins, as if that input had come at once. */
void console_start_search(Console *c, ConsoleTask task, bool announced);

/* What follows every prompt: unless in force mode, with a jump under way or the game over, the
 * engine thinks if it is on move, and ponders if not. */
void console_auto_search(Console *c);

/* Whether LINE is a well-formed `ping N', with N in *ARG. */
bool console_is_ping(const char *line, const char **arg);

/* Carries out one input line of status STATUS (LINE may be changed). Returns false to quit. */
bool console_execute(Console *c, char *line, LineStatus status);
