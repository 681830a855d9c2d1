/*
 * rules.h - a rule set is data: a few switches read by the one move generator.
 *
 * Three rule sets are built in: "english" (the reference), "hackerrank" (a man crowned during a
 * capture goes on capturing as a king) and "tower" (seed 004: optional capture, one jump per
 * turn). The switches for backward-capturing men and flying kings (Russian, Pool, Brazilian) are
 * part of the struct so those families fit the same design; the generator rejects them for now
 * (rules_supported() says so) rather than playing them wrongly.
 */
#pragma once

#include "types.h"

struct Rules {
    const char *name;           /* "english", "hackerrank", "tower" */
    bool capture_mandatory;     /* a side that can capture must capture */
    bool multi_jump;            /* a capture goes on while the piece can jump again */
    bool crown_continues;       /* a man crowned mid-capture continues as a king */
    bool men_capture_backward;  /* men may jump backwards (Russian, Pool): not yet generated */
    bool flying_kings;          /* kings move and jump along whole diagonals: not yet generated */
};

extern const Rules RULES_ENGLISH;
extern const Rules RULES_HACKERRANK;
extern const Rules RULES_TOWER;

/* The rule set called NAME, or NULL if there is none. */
const Rules *rules_find(const char *name);

/* Writes the names rules_find accepts, comma-separated, into BUF (SIZE bytes, cut short if too
 * small) for usage messages, and returns BUF. */
const char *rules_names(char *buf, size_t size);

/* Whether the move generator implements every switch of R. */
bool rules_supported(const Rules *r);
