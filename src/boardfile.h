/*
 * boardfile.h - the board files of seed 003 (`ponder play --board FILE'): the 32 squares, the
 * player to move and the time limit.
 */
#pragma once

#include "notation.h"

/* Reads 32 digits in square order (0 empty, 1/2 player-1/2 man, 3/4 player-1/2 king; player 1 is
 * Black), then the player to move (1 or 2), then the time limit in seconds (> 0). Any blanks and
 * CRLF line ends are allowed. */
bool boardfile_parse(const char *text, Board *b, double *time_limit, ParseError *e);

/* Writes B and TIME_LIMIT in the same format (LF line ends). */
int boardfile_format(const Board *b, double time_limit, char *buf, size_t size);
