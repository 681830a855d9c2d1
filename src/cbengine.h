/*
 * cbengine.h - the CheckerBoard engine API (protocol version 2) that libponder-cb.so and
 * ponder64.dll export, for the library itself and for host programs (tests/cb/host.c).
 *
 * The facts come from CheckerBoard's API reference and its header (eygilbert/CheckerBoard,
 * cb_api_reference.htm and source/cb_interface.h); the names and values here are the ones
 * CheckerBoard uses, so a host written against its header and one written against this file see
 * the same ABI. On Windows every function is __stdcall (CheckerBoard's WINAPI); elsewhere the
 * platform's default convention. docs/cbengine.md describes what Ponder does with each call.
 */
#pragma once

#ifdef _WIN32
#define CB_CALL __stdcall
#define CB_EXPORT __declspec(dllexport)
#else
#define CB_CALL
#define CB_EXPORT __attribute__((visibility("default")))
#endif

/* Board8x8 entries: a colour bit and a kind bit (CB_BLACK | CB_KING is a black king). */
enum {
    CB_FREE = 0,
    CB_WHITE = 1,
    CB_BLACK = 2,
    CB_MAN = 4,
    CB_KING = 8,
};

/* What getmove() returns: its judgement of the game after its move. */
enum {
    CB_DRAW = 0,
    CB_WIN = 1,
    CB_LOSS = 2,
    CB_UNKNOWN = 3,
};

/* getmove()'s INFO bits. Bits 2-3 (CB_INCR_TIME_SHIFT) hold the unit of incremental time:
 * 0 none, 1 ms, 2 10 ms, 3 100 ms; MOREINFO then holds the remaining time in its high 16 bits and
 * the increment in its low 16 bits, both in that unit. */
enum {
    CB_RESET_MOVES = 1,
    CB_EXACT_TIME = 2,
    CB_INCR_TIME_SHIFT = 2,
};

enum {
    CB_GT_ENGLISH = 21,   /* "get gametype" */
    CB_REPLY_SIZE = 1024, /* enginecommand's reply buffer */
    CB_STR_SIZE = 1024,   /* getmove's status string */
};

typedef struct {
    int x; /* column 0-7 */
    int y; /* row 0-7 */
} CBcoor;

typedef struct CBmove {
    int jumps;        /* pieces taken */
    int newpiece;     /* the piece that lands on `to' (a man that crowns lands as a king) */
    int oldpiece;     /* the piece that leaves `from' */
    CBcoor from, to;  /* origin and destination */
    CBcoor path[12];  /* path[1..jumps-1]: the landing squares between from and to */
    CBcoor del[12];   /* del[0..jumps-1]: the squares of the pieces taken, in order */
    int delpiece[12]; /* the pieces taken */
} CBmove;

/* Plays a move for COLOR (CB_BLACK or CB_WHITE) in BOARD and writes the position after it back
 * into BOARD and the move into MOVE. Thinks for about MAXTIME seconds (exactly, at most, with
 * CB_EXACT_TIME in INFO), writes its thinking into STR as it goes, and answers at once when
 * *PLAYNOW becomes non-zero. Returns CB_WIN, CB_LOSS or CB_DRAW when it knows the outcome,
 * otherwise CB_UNKNOWN; with no legal move it returns CB_LOSS and leaves BOARD as it was; with a
 * board it cannot read it returns CB_UNKNOWN, leaves BOARD as it was and says why in STR. */
CB_EXPORT int CB_CALL getmove(int board[8][8], int color, double maxtime, char str[1024],
                              int *playnow, int info, int moreinfo, struct CBmove *move);

/* Answers COMMAND ("name", "get hashsize", "set hashsize 128", ...) in REPLY (1024 bytes).
 * Returns 1 when it handled the command, 0 when it did not (REPLY then holds "?" for a command
 * it does not know, or the reason a value was refused). */
CB_EXPORT int CB_CALL enginecommand(const char *command, char reply[1024]);

/* Whether moving from square FROM to square TO (1-32) is a legal move of COLOR in BOARD; fills
 * MOVE with it when it is (a capture is found by its two ends; when two captures share them,
 * the first in generation order). */
CB_EXPORT int CB_CALL islegal(int board[8][8], int color, int from, int to, struct CBmove *move);

/* The legacy name query: the engine's name into STR (at most 255 bytes); returns 1. */
CB_EXPORT int CB_CALL enginename(char str[255]);
