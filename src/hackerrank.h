/*
 * hackerrank.h - `ponder hackerrank`, the program for the HackerRank checkers challenge (seed 001),
 * and the entry point of the single C file `make hackerrank` writes (scripts/amalgamate.sh).
 */
#pragma once

/* The `ponder hackerrank` command: reads the challenge input (stdin, or the file named by the one
 * argument), prints one move in the challenge's format on stdout. Returns 0 after printing a
 * move, 1 when there is no move to print (the side to move has lost) or output failed, 2 for bad
 * arguments or malformed input (with the reason on stderr and nothing on stdout). */
int cmd_hackerrank(int argc, char **argv);
