/*
 * middleware.h - the move format of seed 002's middleware protocol, which `ponder player' speaks
 * and `ponder match' referees (referee.h): every square of the route, 1-32, separated by blanks
 * ("2 11 18").
 */
#pragma once

#include "notation.h"

/* Resolves "2 11 18" to the legal move of B with exactly that route. */
bool middleware_parse_move(const Board *b, const Rules *r, const char *text, Move *out,
                           ParseError *e);
int middleware_format_move(const Move *m, char *buf, size_t size);
