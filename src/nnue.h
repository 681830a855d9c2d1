/*
 * nnue.h - the network evaluation: a small efficiently updatable network read from a .pnet file
 * (docs/nnue.md has the architecture, the quantisation and the file format).
 *
 * 128 binary features (piece kind x oriented square, from the side to move's seat), or 288 with
 * the mobility set (also: which pieces of each side have no simple move, which have no safe one,
 * and which of ours the opponent could take), or 320 with the shot set (also: which of ours have
 * a shot, a move that forces captures and wins material; nnue_features.c), feed a first layer of
 * n1 int16 sums (the accumulator), clamped to 0..127; then, in one of B buckets chosen by the
 * number of pieces, two int8 layers of n2 and n3 neurons and an int16 output neuron. The score is
 * the output times the file's score scale, in hundredths of a man. The first layer is shared by the
 * buckets (a version 1 file) or one per bucket (version 2, "split": then a position's bucket picks
 * its whole network, as in GuiNN's networks by game phase). A "pairwise" network (version 3)
 * feeds the second layer n1/2 products instead: lane j of the clamped accumulator times lane
 * j + n1/2, as Stockfish's networks do since 2023.
 *
 * Three forms of a network: NnueNet, the quantised one the engine runs (integer arithmetic only,
 * an AVX2 path when compiled for it and a portable path that computes the same integers);
 * NnueFloat, the floating-point model the trainer trains and the tests use as a reference; and
 * the file. nnue_quantise() makes an NnueNet from an NnueFloat, nnue_dequantise() the reverse,
 * nnue_write()/nnue_save() write a file, nnue_read()/nnue_load() read one with full validation.
 */
#pragma once

#include "board.h"
#include "nnue_hook.h"

#include <stdio.h>

enum {
    NNUE_FEATURES = 128,          /* the piece set: 4 piece kinds x 32 squares */
    NNUE_FEATURES_MOBILITY = 288, /* the mobility set: the piece set, then 5 x 32 squares */
    NNUE_FEATURES_SHOTS = 320,    /* the shot set: the mobility set, then 32 squares */
    NNUE_MAX_ACTIVE = 96,         /* most features a board can set: in the shot set each
                                     piece once, once more if it cannot move or has no safe
                                     move, once if in danger, once if it has a shot (ours) */
    NNUE_N1_MIN = 32,
    NNUE_N1_MAX = 1024,
    NNUE_N23_MIN = 32,
    NNUE_N23_MAX = 256,
    NNUE_MAX_BUCKETS = 8,
    NNUE_SCALE_MAX = 10000,
    NNUE_NAME_LEN = 24, /* the name field, NUL included */
    NNUE_HEADER_SIZE = 64,
    NNUE_VERSION = 3, /* the newest version read; a net with a shared first layer is
                         written as version 1, which older programs read too, a split one
                         as version 2, a pairwise one as version 3 */
    NNUE_QA = 127,    /* activation 1.0 */
    NNUE_QW = 64,     /* hidden weight 1.0 */
    NNUE_QO = 256,    /* output weight 1.0 */
};

/* The first layer's activation: what the second layer reads of the accumulator a. */
enum {
    NNUE_ACT_CLAMP = 0, /* h[j] = clamp(a[j], 0, 1), n1 inputs */
    NNUE_ACT_PAIR = 1,  /* h[j] = clamp(a[j], 0, 1) * clamp(a[j + n1/2], 0, 1), n1/2 inputs (n1
                           a multiple of 64) */
};

/* The second layer's inputs for a first layer of N1 neurons and activation ACT. */
static inline int nnue_l2_inputs(int act, int n1)
{
    return act == NNUE_ACT_PAIR ? n1 / 2 : n1;
}

/* A quantised network. Arrays are in the file's order (see docs/nnue.md); w1 and w2, w3 are
 * 32-byte aligned. Read-only once made, so several search threads may share one. */
typedef struct {
    int features;             /* the feature set: NNUE_FEATURES, _MOBILITY or _SHOTS */
    int n1, n2, n3;           /* neurons of the three hidden layers */
    int buckets;              /* B: output buckets by piece count */
    int l1_sets;              /* first layers: 1 (shared) or B (one per bucket, "split") */
    int act;                  /* NNUE_ACT_CLAMP or NNUE_ACT_PAIR */
    int scale;                /* S: score = output logit x S */
    char name[NNUE_NAME_LEN]; /* printable ASCII, NUL-terminated */
    int16_t *w1;              /* [l1_sets][features][n1] feature-major */
    int16_t *b1;              /* [l1_sets][n1] */
    int8_t *w2;               /* [B][n2][m] output-major, m = nnue_l2_inputs(act, n1) */
    int32_t *b2;              /* [B][n2] */
    int8_t *w3;               /* [B][n3][n2] */
    int32_t *b3;              /* [B][n3] */
    int16_t *w4;              /* [B][n3] */
    int32_t *b4;              /* [B] */
    void *mem;                /* the one allocation all the arrays live in */
} NnueNet;

/* The floating-point model, same shapes and orders as NnueNet. */
typedef struct {
    int features;             /* the feature set, as in NnueNet */
    int n1, n2, n3, buckets;  /* the shape, as in NnueNet */
    int l1_sets;              /* as in NnueNet */
    int act;                  /* as in NnueNet */
    int scale;                /* S: score = y x S */
    char name[NNUE_NAME_LEN]; /* printable ASCII, NUL-terminated */
    float *w1, *b1;           /* [l1_sets][features][n1], [l1_sets][n1]: activation 1.0 is 1.0 */
    float *w2, *b2;           /* [B][n2][m], [B][n2] */
    float *w3, *b3;           /* [B][n3][n2], [B][n3] */
    float *w4, *b4;           /* [B][n3], [B] */
    void *mem;                /* the one allocation all the arrays live in */
} NnueFloat;

/* The active features of B (indices 0-127, from the side to move's seat: our man o, our king
 * 32+o, their man 64+o, their king 96+o, o = s for Black to move and 31-s for White) into OUT,
 * which has room for NNUE_MAX_ACTIVE. Returns how many. */
int nnue_features(const Board *b, uint16_t *out);

/* The active features of B in the set FEATURES (NNUE_FEATURES: nnue_features(); or
 * NNUE_FEATURES_MOBILITY: those, then 128 + o for each piece of ours that has no simple move,
 * 160 + o for each of theirs that has none, 192 + o for each of ours their pieces could jump if
 * they were to move, 224 + o for each of ours that has simple moves but none after which the
 * piece moved could be jumped at once, 256 + o for each of theirs that has none (as if they were
 * to move), o the oriented square; or NNUE_FEATURES_SHOTS: the mobility set's, then 288 + o for
 * each piece of ours with a shot: a simple move after which the other side must capture and,
 * whatever it takes and the captures played out by material, we are at least a man up) into OUT,
 * which has room for NNUE_MAX_ACTIVE. Returns how many. (nnue_features.c) */
int nnue_features_of(int features, const Board *b, uint16_t *out);

/* Whether FEATURES names a feature set (NNUE_FEATURES, _MOBILITY or _SHOTS). */
static inline bool nnue_feature_set_ok(int features)
{
    return features == NNUE_FEATURES || features == NNUE_FEATURES_MOBILITY ||
           features == NNUE_FEATURES_SHOTS;
}

/* The name of a feature set, as `ponder train --features' takes it: "pieces", "mobility" or
 * "shots" ("?" for no set). */
static inline const char *nnue_feature_set_name(int features)
{
    return features == NNUE_FEATURES            ? "pieces"
           : features == NNUE_FEATURES_MOBILITY ? "mobility"
           : features == NNUE_FEATURES_SHOTS    ? "shots"
                                                : "?";
}

/* The output bucket of B for a net of BUCKETS buckets: min(B-1, (pieces-1)*B/24). */
int nnue_bucket(const Board *b, int buckets);

/* The first-layer set of bucket K in a net of SETS first layers (0 when shared). */
static inline int nnue_l1_set(int sets, int k)
{
    return sets > 1 ? k : 0;
}

/* The file size the header fields imply (FEATURES the feature set, SETS first layers: 1 or
 * BUCKETS, ACT the activation). */
size_t nnue_file_size(int features, int n1, int n2, int n3, int buckets, int sets, int act);

/* Checks the shape and the header fields of a net about to be made (ranges of the spec; FEATURES
 * a feature set; SETS is 1 or BUCKETS; ACT an activation, NNUE_ACT_PAIR only with n1 a multiple
 * of 64). Returns false with the first problem in ERR (ERR_LEN bytes). */
bool nnue_check_shape(int features, int n1, int n2, int n3, int buckets, int sets, int act,
                      int scale, const char *name, char *err);

/* A network made from the file image DATA of SIZE bytes, or NULL with the first problem in ERR
 * (ERR_LEN bytes), prefixed with "WHAT: " (a file name; WHAT may be NULL). Validates the magic,
 * the version, every header field, the size and the checksum. */
NnueNet *nnue_read(const void *data, size_t size, const char *what, char *err);

/* nnue_read() of the file PATH. */
NnueNet *nnue_load(const char *path, char *err);

/* The network compiled into the binary (data/nets/default.pnet at build time), or NULL with the
 * reason in ERR when there is none. */
NnueNet *nnue_load_default(char *err);

/* Whether a network was compiled in. */
bool nnue_has_default(void);

/* NET's name and shape in OUT (N bytes), as `ponder --version' and CheckerBoard's "about" give
 * them: "g7m (288 inputs, 256-32-32, 4 output buckets)", with the first layer's sets if more
 * than one. nnue_describe_default() does the same for the built-in network, or says there is
 * none or why it cannot be read. */
void nnue_describe(const NnueNet *net, char *out, size_t n);
void nnue_describe_default(char *out, size_t n);

void nnue_free(NnueNet *net);

/* The file image of NET into BUF (CAP bytes). Returns the file's size (nnue_file_size()); when
 * that exceeds CAP nothing is written, so nnue_write(net, NULL, 0) asks for the size. */
size_t nnue_write(const NnueNet *net, void *buf, size_t cap);

/* Writes NET to the file PATH (through a temporary file renamed into place). Returns false with
 * the reason in ERR. */
bool nnue_save(const NnueNet *net, const char *path, char *err);

/* The evaluation of B for the side to move, in hundredths of a man, clamped to
 * +-(SCORE_DECISIVE - 1). nnue_evaluate takes the fastest path (below) this build has and this
 * machine runs; nnue_evaluate_portable is plain C; both return the same value for every net and
 * board. */
int nnue_evaluate(const NnueNet *net, const Board *b);
int nnue_evaluate_portable(const NnueNet *net, const Board *b);

/* The paths of nnue_evaluate, slowest first: every build has the portable one; an x86 build has
 * AVX2 when compiled for it (or for any x86, chosen at run time), and AVX-512 when compiled for it
 * (or for any x86, chosen at run time when the CPU has AVX-512 with VNNI). */
enum { NNUE_PATH_PORTABLE, NNUE_PATH_AVX2, NNUE_PATH_AVX512, NNUE_PATHS };

/* nnue_evaluate() of B by PATH into *SCORE, for the tests that compare the paths: false (*SCORE
 * untouched) when this build lacks PATH or this machine cannot run it. */
bool nnue_evaluate_path(const NnueNet *net, const Board *b, int path, int *score);

/* Which path nnue_evaluate takes on this machine, in words ("avx512 with vnni", "avx2, chosen
 * at run time", "portable", ...): for version and about texts. */
const char *nnue_simd(void);

/* nnue_evaluate() of a position given by its NF active features FEAT (nnue_features_of()'s
 * indices for the net's set, any order) and its output bucket BUCKET (nnue_bucket()'s): how the
 * trainer scores its samples. At most NNUE_MAX_ACTIVE features are read; an index past the set's
 * last counts as 0 and a
 * bucket outside 0..buckets-1 as the nearest one (no input can read out of bounds). */
int nnue_evaluate_features(const NnueNet *net, const uint16_t *feat, int nf, int bucket);

/* Incremental evaluation. An accumulator block holds the first layer's sums of a position from
 * both seats (Black's view and White's view: the side to move, hence the orientation, changes
 * every ply, so both are kept and the side to move's is used), nnue_acc_size() bytes, 32-byte
 * aligned. nnue_acc_refresh computes it from scratch; nnue_acc_update makes TO's block from
 * FROM's (TO a position one move after FROM, or any position: the difference of the two boards'
 * pieces is applied); nnue_evaluate_acc scores B from its block, the same value as
 * nnue_evaluate(net, B). A split net's block holds the sums of its position's bucket's first
 * layer, so an update across buckets recomputes TO's block. (The search recomputes instead:
 * docs/nnue.md has the measurements.) */
size_t nnue_acc_size(const NnueNet *net);
void nnue_acc_refresh(const NnueNet *net, const Board *b, int16_t *acc);
void nnue_acc_update(const NnueNet *net, const Board *from, const Board *to, const int16_t *pacc,
                     int16_t *cacc);
int nnue_evaluate_acc(const NnueNet *net, const Board *b, const int16_t *acc);

/* The engine's driver for these networks: nnue_hook_register(&nnue_driver) lets engine_new()
 * load them (the program does it at start-up, as with egdb_driver: the library registers
 * nothing by itself, so a program built without this module evaluates classically). */
extern const NnueDriver nnue_driver;

/* A float model of the given shape (FEATURES a feature set, SETS first layers: 1 or BUCKETS, ACT
 * the activation), all values 0. False (ERR) on a bad shape or no memory. */
bool nnue_float_alloc(NnueFloat *f, int features, int n1, int n2, int n3, int buckets, int sets,
                      int act, char *err);
void nnue_float_free(NnueFloat *f);

/* The quantised network of F (values rounded half away from zero, saturated to their integer
 * type), or NULL with the reason in ERR. */
NnueNet *nnue_quantise(const NnueFloat *f, char *err);

/* The float model whose quantisation is NET exactly (allocates F). False (ERR) if no memory. */
bool nnue_dequantise(const NnueNet *net, NnueFloat *f, char *err);

/* The float model's output logit y for B (side to move); the score is y * f->scale. Computed in
 * double: the reference the quantised inference is tested against. */
double nnue_float_forward(const NnueFloat *f, const Board *b);
