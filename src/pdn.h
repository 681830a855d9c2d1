/*
 * pdn.h - Portable Draughts Notation games: reading real-world files (tags, numbered and
 * line-wrapped movetext, comments, variations, NAGs, results that look like moves, FEN set-up)
 * and writing games that other programs read back.
 *
 * Results follow the PDN convention for English checkers: "1-0" Black (the first player) wins,
 * "0-1" White wins, "1/2-1/2" draw, "*" unknown.
 */
#pragma once

#include "game.h"
#include "notation.h"

#include <stdio.h>

enum { PDN_MAX_TAGS = 32, PDN_TAG_LEN = 256 };

typedef struct {
    char name[32];           /* tag name, e.g. "Event" */
    char value[PDN_TAG_LEN]; /* its value without the quotes */
} PdnTag;

typedef struct {
    int ntags;                  /* tags in tags[] */
    PdnTag tags[PDN_MAX_TAGS];  /* the tags in file order */
    Board start;                /* the start position (the FEN tag, or the standard one); a FEN
                                   tag is read by notation_parse_setup, so a man on its own
                                   crowning row is an error */
    int nmoves;                 /* moves in moves[] */
    Move moves[GAME_MAX_PLIES]; /* the moves, each checked legal in turn */
    char result[8];             /* "1-0", "0-1", "1/2-1/2" or "*" (from the movetext, else the
                                   Result tag, else "*") */
    int line;                   /* line of the file where the game starts */
} PdnGame;

/* Reads the games of one text in turn, keeping its place and line count between games. */
typedef struct {
    const char *text;  /* the whole text, NUL-terminated; not copied, must outlive the reader */
    size_t pos;        /* offset of the next byte to read */
    size_t line_start; /* offset where the line holding pos starts */
    int line;          /* 1-based line of pos */
} PdnReader;

/* Starts reading TEXT (a leading UTF-8 byte order mark is skipped). */
void pdn_reader_init(PdnReader *rd, const char *text);

/* Parses the next game under rule set R, replaying every move to check it. Returns 1 with the
 * game in G, 0 at the end of the text (only blanks and comments left), or -1 on an error: E says
 * what and where (line and column), and the reader has moved on to the next line that starts a
 * tag section, so the caller can go on with the next game. */
int pdn_read_game(PdnReader *rd, const Rules *r, PdnGame *g, ParseError *e);

/* The same for one game of TEXT at offset *POS, which it advances. Lines are counted from the
 * start of TEXT on every call: loops over many games should use a PdnReader. */
int pdn_next_game(const char *text, size_t *pos, const Rules *r, PdnGame *g, ParseError *e);

/* Resolves TEXT (blanks around it allowed) to a legal move of B under R, the way PDN files write
 * moves: squares separated by `-' or `x', the squares deciding which (real files write `x' for
 * simple moves and `-' for captures), only the first and last squares needed unless that is
 * ambiguous, `!' and `?' marks allowed after it. Returns false with E filled otherwise. */
bool pdn_parse_move(const Board *b, const Rules *r, const char *text, Move *out, ParseError *e);

/* The value of tag NAME in G, or NULL. */
const char *pdn_tag(const PdnGame *g, const char *name);

/* Writes G's moves as a PDN game to F and flushes it: the NTAGS tags given (Result, FEN and
 * SetUp among them are left out: this function writes those), SetUp and FEN tags when G did not
 * start from the standard position, a Result tag, then numbered movetext wrapped at 80 columns
 * ending with RESULT ("1-0", "0-1", "1/2-1/2" or "*"; NULL means "*"), and an empty line. Line
 * breaks in tag values are written as blanks. Returns false with errno set on a write error, and
 * (EINVAL, nothing written) for another result, a tag name that is not letters, digits and `_',
 * a name given twice, or more than PDN_MAX_TAGS - 4 tags. It writes the GameType ("21"), SetUp,
 * FEN and Result tags itself (the caller's of those names are left out). */
bool pdn_write_game(FILE *f, const Game *g, const PdnTag *tags, int ntags, const char *result);
