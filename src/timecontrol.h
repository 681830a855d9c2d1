/*
 * timecontrol.h - time controls as cutechess-cli writes them, and the clock of one side under
 * one. The referee (`ponder match', `tournament') keeps a clock per side and decides losses on
 * time with it; a program it starts (`ponder player --tc') keeps the same clock for itself from
 * the same text and searches with what is left on it; the console keeps one from xboard's
 * `level'.
 *
 * Forms (TC_TEXT_LEN at most):
 *   S          S seconds for every move (as --time S; no clock)
 *   BASE+INC   BASE seconds for the game, INC seconds added after each move ("60+0.5")
 *   M/BASE     BASE seconds for every M moves, repeating ("40/60"); "M/BASE+INC" adds INC too
 * BASE may be written minutes:seconds ("1:30" is 90 s). A clock that is not a time per move
 * needs a "/" or a "+": "60+0" is a minute for the game.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

struct SearchLimits; /* the engine facade's (engine.h), which tc_clock_limits fills */

enum { TC_TEXT_LEN = 64 };

typedef struct {
    double per_move; /* seconds for each move (form S); 0 when the control is a clock */
    double base;     /* seconds on the clock at the start and added at each control */
    double inc;      /* seconds added after each move */
    int moves;       /* moves per control ("40/60": 40); 0: the whole game */
} TimeControl;

typedef struct {
    double left; /* seconds on the clock: below 0 after an overrun (the referee's margin
                    covers that much overdraft, in total, not per move) */
    int moves;   /* moves made on it so far */
} TcClock;

/* Parses TEXT into *TC. False with the reason in ERR (ERR_LEN bytes), *TC unchanged, when TEXT
 * is not one of the forms above or a number is out of range (times 0.001 .. 86400 s, except an
 * increment, which may be 0, and at most 1000 moves per control). */
bool tc_parse(const char *text, TimeControl *tc, char *err);

/* TC written back in the form tc_parse reads ("40/60", "60+0.5", "0.1"). */
void tc_format(const TimeControl *tc, char *out, size_t size);

/* TC as a PDN TimeControl tag: "40/60", "60+0.5", or "0.1 s per move". */
void tc_format_pdn(const TimeControl *tc, char *out, size_t size);

/* Whether TC is a clock (rather than a time per move). */
bool tc_is_clock(const TimeControl *tc);

/* A clock at the start of a game under TC. */
void tc_clock_start(const TimeControl *tc, TcClock *c);

/* The seconds the side may spend on its next move before it loses on time (without a margin):
 * the time per move, or what is on the clock (negative after an overdraft). */
double tc_clock_allowed(const TimeControl *tc, const TcClock *c);

/* Fills the time fields of LIMITS (time, or clock, inc, moves_to_go) for the next move. */
void tc_clock_limits(const TimeControl *tc, const TcClock *c, struct SearchLimits *limits);

/* Charges a move that took SECONDS: takes them off the clock (it may go below 0: an overdraft
 * is carried, so a margin is grace for the whole game, not for every move), adds the increment,
 * and at the end of a control (M moves of "M/BASE") adds BASE again. */
void tc_clock_spend(const TimeControl *tc, TcClock *c, double seconds);
