/*
 * hackerrank.h - `ponder hackerrank`, the program for the HackerRank checkers challenge (seed 001),
 * and the entry point of the single C file `make hackerrank` writes (scripts/amalgamate.sh).
 */
#pragma once

#include "notation.h"

/* ---- The challenge's formats ---- */

/* Reads the challenge input: player letter line, board size line, then the rows ('_' empty,
 * b w B W pieces; row 0 at the top, Black's men start there). */
bool hackerrank_parse_board(const char *text, Board *b, ParseError *e);

/* Row and column (row 0 at the top) of an index, for printing moves. */
static inline void hackerrank_coords(int sq, int *row, int *col)
{
    *row = sq >> 2;
    *col = 2 * (sq & 3) + (((sq >> 2) & 1) ? 0 : 1);
}

/* Writes a move in the challenge's output format: hops, then "row col" per square. */
int hackerrank_format_move(const Move *m, char *buf, size_t size);

/* The `ponder hackerrank` command: reads the challenge input (stdin, or the file named by the one
 * argument), prints one move in the challenge's format on stdout. Returns 0 after printing a
 * move, 1 when there is no move to print (the side to move has lost) or output failed, 2 for bad
 * arguments or malformed input (with the reason on stderr and nothing on stdout). */
int cmd_hackerrank(int argc, char **argv);
