/*
 * openings.h - start positions for matches, self-play and tests: the built-in three-move ballots
 * (the ACF/USACF list of 174, 156 of them in current use), positions read from a PDN or FEN
 * file (one game or one FEN per start position). trainfile.h's trainfile_openings samples
 * them from the games of an earlier self-play run.
 */
#pragma once

#include "game.h"

typedef struct {
    char name[64];     /* "ballot 004: 9-13 22-17 13-22", "FILE:LINE" or "FILE block N" */
    Board start;       /* the position to play from */
    int nmoves;        /* moves played from the standard start to reach START: a ballot's three,
                          or a PDN game's when it has no FEN and at most 8; else 0 */
    Move moves[8];     /* those moves, so a PDN of the game can show them */
    int earlier_plies; /* plies before START that MOVES does not hold (a position sampled
                          from a training file: its ply in its game), else 0 */
} Opening;

/* One line of data/three-move-ballots.txt, compiled into the binary by mk/openings.mk. */
typedef struct {
    int number;        /* 1-174, the ACF/USACF numbering */
    bool in_use;       /* one of the 156 in current use (false: one of the 18 barred) */
    const char *moves; /* the three moves, e.g. "9-13 22-17 13-22" */
} BallotRecord;

extern const BallotRecord openings_ballot_records[];
extern const int openings_ballot_record_count;

/* The built-in ballots: the 156 in use, or all 174 when ALL. Stores a malloc'd array in *OUT
 * (caller frees) and returns the count, or -1 with the reason in ERR (ERR_LEN bytes). */
int openings_ballots(bool all, Opening **out, char *err);

/* Start positions from PATH: a PDN file (each game's FEN tag or the standard start, then its
 * moves), or a text file of FEN lines (blank lines and lines starting with # ignored). A file
 * whose first line that is not blank or a # comment starts with B or W (or a quote) is read as
 * FEN lines, any other as PDN. Every move is checked legal under English rules, every start
 * position must leave the side to move a legal move, and no man may stand on its own crowning
 * row (notation_parse_setup: the rule every program applies to a set-up position). Returns the
 * count (at least 1) with a malloc'd array in *OUT, or -1 with the reason (file, line and column)
 * in ERR. */
int openings_load(const char *path, Opening **out, char *err);
