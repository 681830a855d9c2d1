/*
 * weights.h - every number the evaluation uses, in one named table.
 *
 * The evaluation (eval.c) holds no constants of its own: each term reads its weight from a
 * Weights value, so the tuner can fit all of them and a weights file can replace any of them.
 * Terms that matter differently in the opening and the ending come in pairs, NAME_mg and NAME_eg;
 * eval.c blends them by the number of pieces on the board (24 pieces: all _mg, none: all _eg).
 * All weights are in hundredths of a man, from the point of view of the side that owns the term.
 *
 * A weights file has one `name value` pair per line (value a decimal integer); blank lines and
 * lines starting with '#' are ignored. Names not in the file keep their built-in values; an
 * unknown or repeated name, a missing or malformed value, a value out of range or anything after
 * the value is an error naming its line.
 */
#pragma once

#include "types.h"

#include <stdio.h>

/* The table: X(identifier, default). The identifier, lower-cased, is the name in weights files.
 * Arrays are spelled out element by element so each has its own name. */
#define WEIGHTS_TABLE(X)                                                                           \
    /* material: a man is the unit; a king's worth depends on the phase */                         \
    X(MAN_MG, 100) X(MAN_EG, 166) X(KING_MG, 249) X(KING_EG, 173)                                  \
    /* men by row, counted from their own back row (row 0 is the back-rank pattern below; a man */ \
    /* on row 7 is a king) */                                                                      \
    X(MAN_ROW1_MG, 40) X(MAN_ROW2_MG, 15) X(MAN_ROW3_MG, 3) X(MAN_ROW4_MG, -11)                    \
    X(MAN_ROW5_MG, -19)                                                                            \
    X(MAN_ROW6_MG, -25)                                                                            \
    X(MAN_ROW1_EG, 23) X(MAN_ROW2_EG, 41) X(MAN_ROW3_EG, 54) X(MAN_ROW4_EG, 67) X(MAN_ROW5_EG, 81) \
    X(MAN_ROW6_EG, 75)                                                                             \
    /* own back row: value of each pattern of men on its four squares, bit i set when the i-th */  \
    /* holds a man (Black: squares 1, 2, 3, 4; White: 32, 31, 30, 29); BACK_5: the bridge */       \
    X(BACK_0, 0) X(BACK_1, 40) X(BACK_2, 48) X(BACK_3, 93) X(BACK_4, 40) X(BACK_5, 114)            \
    X(BACK_6, 100)                                                                                 \
    X(BACK_7, 203) X(BACK_8, 21) X(BACK_9, 54) X(BACK_10, 97) X(BACK_11, 151) X(BACK_12, 61)       \
    X(BACK_13, 144) X(BACK_14, 144) X(BACK_15, 215)                                                \
    /* the back-rank guard matters while the opponent has no king: scale in 1/16 once he has */    \
    X(BACK_KING_SCALE, 18)                                                                         \
    /* centre (squares 10-11, 14-15, 18-19, 22-23 seen from Black) and edge (the side columns) */  \
    X(MAN_CENTER_MG, 12) X(MAN_CENTER_EG, -14) X(KING_CENTER_MG, 11) X(KING_CENTER_EG, 2)          \
    X(MAN_EDGE_MG, 6) X(MAN_EDGE_EG, -10) X(KING_EDGE_MG, -36) X(KING_EDGE_EG, 5)                  \
    /* mobility: per empty square a piece can step to */                                          \
    X(MAN_MOB_MG, 3) X(MAN_MOB_EG, 4) X(KING_MOB_MG, -1) X(KING_MOB_EG, 2)                         \
    /* a man that nothing can stop from crowning: base value minus so much per row still to go */  \
    X(RUNAWAY_MG, 40) X(RUNAWAY_EG, 60) X(RUNAWAY_ROW, 5)                                          \
    /* balance: per man of difference between the two halves of the board (left / right) */       \
    X(BALANCE_MG, -7) X(BALANCE_EG, 0)                                                             \
    /* kings that cannot move, and kings whose every move steps onto a capturable square */        \
    X(KING_TRAPPED_MG, -76) X(KING_TRAPPED_EG, 23) X(KING_DOMINATED_MG, -104)                      \
    X(KING_DOMINATED_EG, 32)                                                                       \
    /* endings: the weaker side's kings in a double corner, the stronger side's king distance */   \
    /* to them (per square of distance), and trading down when ahead (per piece off the board) */  \
    X(WEAK_DOUBLE_CORNER, 20) X(CHASE_DISTANCE, -4) X(TRADE_DOWN, 3)                               \
    /* the side to move */                                                                         \
    X(TEMPO, -1)

typedef enum {
#define WEIGHTS_ENUM(id, value) W_##id,
    WEIGHTS_TABLE(WEIGHTS_ENUM)
#undef WEIGHTS_ENUM
        WEIGHT_NB
} WeightId;

enum { WEIGHT_LIMIT = 10000 }; /* |value| allowed in a weights file */

enum { WEIGHT_PHASE_MAX = 24 }; /* pieces on the board at which the _mg weights apply alone */

typedef struct {
    int v[WEIGHT_NB]; /* indexed by WeightId */
    /* Derived from v by weights_refresh() (the evaluation reads only these, so that it adds each
     * term once instead of once per phase): for each phase P (pieces on the board, at most
     * WEIGHT_PHASE_MAX), an _mg weight times P plus its _eg partner times WEIGHT_PHASE_MAX - P,
     * at the _mg weight's index; an _eg weight alone times WEIGHT_PHASE_MAX - P; any other weight
     * times WEIGHT_PHASE_MAX. */
    int blend[WEIGHT_PHASE_MAX + 1][WEIGHT_NB];
} Weights;

/* The built-in weights. */
void weights_default(Weights *w);

/* Recomputes W's blend from its values: call after changing v directly. */
void weights_refresh(Weights *w);

/* Sets weight ID to VALUE, blend included (cheaper than weights_refresh for one weight). */
void weights_set(Weights *w, int id, int value);

/* Sets weight ID to VALUE and refreshes only the blend of PHASE: enough to evaluate positions
 * of that phase (the tuner's small perturbations); setting it back restores a fresh W exactly. */
void weights_set_phase(Weights *w, int id, int value, int phase);

/* Whether W's blend for PHASE (-1: every phase) agrees with its values (for checks in tests
 * and sanitizer builds). */
bool weights_fresh(const Weights *w, int phase);

/* The file name of weight ID ("man_mg"), or NULL when ID is out of range. */
const char *weights_name(int id);

/* The id of the weight called NAME, or -1. */
int weights_find(const char *name);

/* Reads weights-file TEXT over W (starting values stay for names the text does not mention).
 * Returns false with "line N: reason" in ERR (ERR_LEN bytes) on the first error; W is then
 * unchanged. */
bool weights_parse(Weights *w, const char *text, char *err);

/* weights_parse on the contents of file PATH; the message names the file. */
bool weights_load(Weights *w, const char *path, char *err);

/* Writes every weight of W as a weights file (the format weights_parse reads). Returns false on a
 * write error. */
bool weights_write(const Weights *w, FILE *out);
