/*
 * game.h - a game record: the moves played from a start position, with what the draw rules
 * need (position keys for repetition, the count of plies without a capture or a man move).
 *
 * The console, the terminal game, the match referee and the web board all keep their games in a
 * Game, so they all end games by the same rules (SPEC section 1): a side with no legal move loses;
 * the third occurrence of a position with the same side to move is a draw; so are 40 moves by
 * each side (80 plies) without a capture or a man move.
 */
#pragma once

#include "movegen.h"

enum {
    GAME_MAX_PLIES = 2048, /* longest game a Game records */
    DRAW_QUIET_PLIES = 80, /* the 40-move rule, in plies */
    DRAW_REPETITIONS = 3,  /* occurrences of a position that make a draw */
};

typedef enum {
    RESULT_NONE = 0,   /* the game goes on */
    RESULT_BLACK_WINS, /* White has no legal move */
    RESULT_WHITE_WINS, /* Black has no legal move */
    RESULT_DRAW_REPETITION,
    RESULT_DRAW_40_MOVES,
} GameResult;

struct Game {
    const Rules *rules;                 /* the rule set every move is checked against */
    Board start;                        /* the position the game began from */
    Board board;                        /* the current position */
    int ply;                            /* moves played so far */
    Move moves[GAME_MAX_PLIES];         /* the moves, in order */
    uint64_t keys[GAME_MAX_PLIES + 1];  /* keys[i]: the key before move i (keys[ply] = now) */
    uint16_t quiet[GAME_MAX_PLIES + 1]; /* plies without capture or man move, at each point */
};

/* Starts a game from START (NULL: the standard start) under R. */
void game_init(Game *g, const Rules *r, const Board *start);

/* Plays M, which must be legal in the current position. Returns false (and changes nothing) when
 * the record is full. */
bool game_play(Game *g, const Move *m);

/* Takes back the last move. Returns false at the start of the game. */
bool game_undo(Game *g);

/* How many times the current position has occurred (1 the first time). */
int game_repetitions(const Game *g);

/* Whether the game has ended, and how. */
GameResult game_result(const Game *g);

/* The PDN result tag of R: "1-0" (Black wins), "0-1", "1/2-1/2" or "*". */
const char *game_result_tag(GameResult r);

/* A short English description: "Black wins", "draw by repetition", ... */
const char *game_result_text(GameResult r);
