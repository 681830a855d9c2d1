/*
 * play.h - the parts of `ponder play' (the terminal game of seed 003) that its files share: the
 * game's state, and the set-up and input functions of play_setup.c that the game loop in play.c
 * calls. Nothing outside the play_*.c files uses it.
 */
#pragma once

#include <signal.h>

#include "engine.h"
#include "play_view.h"

#include <stdio.h>

enum {
    LINE_MAX_LEN = 1024,      /* longest answer read; longer lines are refused */
    BOARD_FILE_MAX = 1 << 16, /* a board file is ~150 bytes; anything past this is not one */
};

#define TIME_DEFAULT 3.0 /* the computer's default time per move, seconds */
#define TIME_MAX 86400.0 /* a day per move is more than anyone means */

typedef enum { HUMAN, COMPUTER } Player;

typedef struct {
    Player player[COLOR_NB];     /* who plays each colour */
    bool player_given[COLOR_NB]; /* set by --black / --white (no question) */
    double time;                 /* the computer's time per move, seconds */
    bool time_given;             /* set by --time (no question; a board file does not change it) */
    const char *board_path;      /* --board FILE, or NULL */
    int depth;                   /* --depth: search depth limit (0: none) */
    uint64_t nodes;              /* --nodes: node limit (0: none) */
    int color;                   /* --color: -1 auto, 0 never, 1 always */
    EngineOptions engine;        /* --hash, --threads, --weights, --egdb */
} PlayOptions;

typedef enum { ASK_OK, ASK_EOF } AskStatus;

/* Set by Ctrl-C (SIGINT) during a game: the question being asked returns ASK_EOF, a search
 * stops, and the program offers to save the game before it leaves. */
extern volatile sig_atomic_t play_interrupted;

typedef struct {
    PlayOptions opt;     /* the options, completed by the answers to the set-up questions */
    PlayViewStyle style; /* colours or plain text */
    bool echo;           /* echo answers (stdin is not a terminal) */
    bool live;           /* show the search's progress on one line (stdout is a terminal) */
    Engine *engine;      /* the engine for computer moves and hints */
    Game game;           /* the game so far */
} Play;

static inline const char *play_color_name(int color)
{
    return color == BLACK ? "Black" : "White";
}

/* "human" or "computer". */
const char *play_player_name(Player pl);

/* Removes leading and trailing blanks (and a CR before the newline) from S in place; returns the
 * first character kept. */
char *play_trim(char *s);

/* Prints PROMPT (and DEFAULT in brackets, if any) and reads one answer into BUF (SIZE bytes). An
 * empty answer becomes DEFAULT. Returns ASK_EOF at the end of input. A line too long for BUF, or
 * holding a NUL byte, is refused and the question asked again. *OUT points at the trimmed answer
 * inside BUF. The answer is echoed when stdin is not a terminal. */
AskStatus play_ask(Play *p, const char *prompt, const char *dflt, char *buf, size_t size,
                   char **out);

/* 1 for yes (y, ye, yes, any case), 0 for no, -1 for anything else. */
int play_yes_no(const char *a);

/* Prints MSG as a complaint (in the warning colour). */
void play_complain(const Play *p, const char *msg);

/* Reads board file PATH into P's game as its start position (and its time limit into the
 * options if SET_TIME). Returns false with the reason (what was wrong and where) in MSG. */
bool play_load_board(Play *p, const char *path, bool set_time, char *msg, size_t size);

/* Asks every set-up question the options did not answer, in order: Black, White, the time limit
 * (only if the computer plays and --time was not given), a board file (unless --board). */
AskStatus play_setup(Play *p);

/* The usage text, to F. */
void play_usage(FILE *f);

/* Parses the command line into O (which holds the defaults). Returns 0 after --help, 2 on a bad
 * argument (with the reason on stderr), -1 to go on and play. */
int play_parse_options(int argc, char **argv, PlayOptions *o);

/* Colours, the live search line and echoing, from the options, the terminal and NO_COLOR. */
void play_choose_style(Play *p);
