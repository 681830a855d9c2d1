/*
 * rules.h - a rule set is data: a few switches read by the one move generator.
 *
 * Three rule sets are built in: "english" (the reference), "hackerrank" (a man crowned during a
 * capture goes on capturing as a king) and "tower" (seed 004: optional capture, one jump per
 * turn). Families with backward-capturing men or flying kings (Russian, Pool, Brazilian) would
 * add a switch each here, together with the generator code that reads it: a switch nothing
 * reads could only play such rules wrongly.
 */
#pragma once

#include "types.h"

struct Rules {
    const char *name;       /* "english", "hackerrank", "tower" */
    bool capture_mandatory; /* a side that can capture must capture */
    bool multi_jump;        /* a capture goes on while the piece can jump again */
    bool crown_continues;   /* a man crowned mid-capture continues as a king */
};

extern const Rules RULES_ENGLISH;
extern const Rules RULES_HACKERRANK;
extern const Rules RULES_TOWER;

/* The rule set called NAME, or NULL if there is none. */
const Rules *rules_find(const char *name);

/* Writes the names rules_find accepts, comma-separated, into BUF (SIZE bytes, cut short if too
 * small) for usage messages, and returns BUF. */
const char *rules_names(char *buf, size_t size);
