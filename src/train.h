/*
 * train.h - fitting the network evaluation to self-play positions, for `ponder train'.
 *
 * The model, its quantisation and its file are those of the contract in docs/nnue.md (written
 * from NNUE-SPEC.md): 128 features seen from the side to move (288 with the mobility set, 320
 * with the shot set), a sparse first layer W1 (n1 values, clamped to [0, 1]), then per piece-count
 * bucket two dense clamped layers (n2, n3) and one output, a logit for the side to move; score =
 * logit * S hundredths of a man.
 *
 * The module has three parts:
 *   train_data.c  training files -> samples (features, bucket, target), duplicates merged,
 *                 endgame-database relabelling, a validation share held out by game;
 *   train.c       the float model: initialisation, forward and backward passes, Adam, epochs
 *                 split over threads;
 *   train_net.c   the network file (through nnue.c's quantiser and writer) and
 *                 checkpoints (float weights and Adam state).
 *
 * Every parameter lives in one float array, laid out like the network file: W1 [F][n1],
 * b1 [n1], then for each bucket W2 [n2][m], b2 [n2], W3 [n3][n2], b3 [n3], w4 [n3], b4 (m = n1,
 * or n1/2 for a pairwise first layer).
 * That makes Adam, gradient sums and checkpoints one loop each.
 */
#pragma once

#include "board.h"
#include "nnue.h"
#include "trainfile.h"

typedef struct EgdbSet EgdbSet;

/* The shape limits, the features and the quantisation are the engine's (nnue.h: NNUE_*). */
enum {
    NET_MAX_ACTIVE = 80, /* most active features of a game position: 24 pieces, then in the
                            mobility set up to 24 that cannot move or have no safe move (never
                            both) and 12 in danger, in the shot set up to 12 with a shot (72) */
    TRAIN_SLICES = 16,   /* a minibatch is cut into this many fixed slices (see train.c) */
};

/* Clips applied after every optimiser step (the spec's bounds for quantisation). */
#define NET_CLIP_W1 10.0f                /* W1 and b1: 25 terms of 1270 fit an int16 */
#define NET_CLIP_W1_MOBILITY 4.0f        /* the same for the mobility set: 61 terms of 508 */
#define NET_CLIP_W1_SHOTS 3.5f           /* and for the shot set: 73 terms of 445 */
#define NET_CLIP_HIDDEN (127.0f / 64.0f) /* W2, W3: int8 at scale 64 */
#define NET_CLIP_OUT 127.0f              /* w4: int16 at scale 256 */

/* One training position as the network sees it. */
typedef struct {
    uint16_t feat[NET_MAX_ACTIVE]; /* active feature indices, ascending */
    uint8_t nfeat;                 /* how many */
    uint8_t bucket;                /* output bucket */
    uint8_t valid;                 /* 1: held out for validation */
    uint8_t pad;                   /* zero */
    float target;                  /* t in [0, 1]: expected result for the side to move */
} TrainSample;

/* The shape of a network. */
typedef struct {
    int n1, n2, n3; /* layer widths */
    int buckets;    /* output buckets B */
    int sets;       /* first layers: 1 (shared) or B (one per bucket: --split) */
    int features;   /* the feature set: NNUE_FEATURES (pieces), _MOBILITY or _SHOTS */
    int act;        /* the first layer's activation: NNUE_ACT_CLAMP or _PAIR (--pairwise) */
} NetShape;

/* The float network: every parameter in P (NPARAMS floats, the layout above). */
typedef struct {
    NetShape shape;
    size_t nparams;
    float *p;
} TrainNet;

/* Offsets into TrainNet.p. */
typedef struct {
    size_t w1, b1;          /* set 0's first layer; set s at w1 + s * features * n1, b1 + s * n1 */
    size_t bucket0, stride; /* bucket k starts at bucket0 + k * stride */
    size_t w2, b2, w3, b3, w4, b4; /* within a bucket */
} NetLayout;

/* The layout of SHAPE; returns the parameter count. */
size_t net_layout(const NetShape *shape, NetLayout *l);

/* Checks SHAPE against the file format's limits (nnue_check_shape). False with the reason in
 * ERR. */
bool net_shape_check(const NetShape *shape, char *err);

/* ---- features and samples (train_data.c) ---- */

/* The active features of B in the set FEATURES (nnue_features_of()'s, ascending) into OUT;
 * returns their number. (The output bucket is nnue_bucket()'s.) */
int net_features(int features, const Board *b, uint16_t out[NET_MAX_ACTIVE]);

/* The result of R's game for its side to move: 1 win, 0.5 draw, 0 loss. */
double train_result(const TrainRecord *r);

/* e^X from basic arithmetic only (within 2 ulps), so that training gives the same bits on
 * every processor: the C library picks other code paths for exp() on other processors. */
double train_exp(double x);

/* B^N by repeated squaring (the same bits everywhere, unlike pow()). */
double train_pow(double b, uint64_t n);

/* The logistic function. */
static inline double train_sigmoid(double x)
{
    return 1.0 / (1.0 + train_exp(-x));
}

typedef struct {
    double lambda;         /* share of the result in the target (default 0.25) */
    double scale;          /* S: score = logit * S (default 80) */
    int buckets;           /* output buckets (default 4) */
    int features;          /* the feature set (default NNUE_FEATURES, the pieces) */
    double valid_fraction; /* share of games held out (default 0.05) */
    uint64_t seed;         /* chooses the held-out games */
    bool dedup;            /* merge identical positions, averaging their targets (default) */
    const EgdbSet *egdb;   /* databases relabelling the results they cover, or NULL */
    double egdb_score;     /* > 0: where the databases know the position, its search score
                              follows them too: at least this for a win, at most minus this
                              for a loss, 0 for a draw (0: the search's score kept) */
    double td;             /* MU in [0, 1): the score term looks ahead along the game,
                              G = (1 - MU) sigmoid(score / S) + MU G', G' that of the game's
                              next record (seen from this side), the result after the last
                              (0, the default: the record's own score alone) */
} TrainDataOptions;

typedef struct {
    size_t records;    /* records read */
    size_t games;      /* games told apart (a new game starts where the ply does not grow,
                          except at 255: the stored ply of every record past it) */
    size_t relabelled; /* results replaced by the databases' exact value */
    size_t disagreed;  /* ... of which the game had ended otherwise */
    size_t rescored;   /* search scores the databases changed (egdb_score) */
    size_t merged;     /* records merged into an identical position of the same set */
    size_t ntrain;     /* training samples */
    size_t nvalid;     /* held-out samples */
} TrainDataReport;

void train_data_default_options(TrainDataOptions *o);

/* The search score R's target blends in under O: R's own, or with O->egdb_score the one the
 * database value EXACT implies (EGDB_UNKNOWN: none). */
double train_score(const TrainRecord *r, const TrainDataOptions *o, int exact);

/* The sample of R under O (EXACT: the database value, EGDB_UNKNOWN if none). */
void train_sample(const TrainRecord *r, const TrainDataOptions *o, int exact, TrainSample *s);

/* Reads every record of the NPATHS files PATHS into samples: *TRAIN (then *NTRAIN) and *VALID
 * (*NVALID), malloc'd, caller frees. Returns false with the reason in ERR (a damaged file is
 * named with its block and byte offset; no position at all; out of memory); nothing is then
 * allocated. */
bool train_data_load(const char *const *paths, int npaths, const TrainDataOptions *o,
                     TrainSample **train, TrainSample **valid, TrainDataReport *rep, char *err);

/* A fingerprint (FNV-1a 64) of the N samples S: a checkpoint is resumed only on the same
 * samples (same files, options and seed give the same samples and the same fingerprint). */
uint64_t train_data_hash(const TrainSample *s, size_t n, uint64_t h);

/* Merges samples with identical features within each set (valid or not), averaging targets;
 * sorts S by (valid, features). Returns the new count. */
size_t train_dedup(TrainSample *s, size_t n);

/* ---- the float model and its training (train.c) ---- */

typedef enum { TRAIN_LOSS_MSE = 0, TRAIN_LOSS_CE = 1 } TrainLoss;

/* Allocates NET of SHAPE with He (Kaiming) uniform weights drawn from SEED and zero biases.
 * False with the reason in ERR (bad shape, out of memory). */
bool train_net_init(TrainNet *net, const NetShape *shape, uint64_t seed, char *err);
void train_net_free(TrainNet *net);

/* Clips the parameters to the spec's bounds (NET_CLIP_*). */
void train_net_clip(TrainNet *net);

/* The logit of S (float model). */
float train_forward(const TrainNet *net, const TrainSample *s);

/* Adds to GRAD (nparams floats) the gradient of WEIGHT * loss(S) and returns the loss of S
 * (the chosen kind). */
double train_backward(const TrainNet *net, const TrainSample *s, TrainLoss kind, float weight,
                      float *grad);

/* The loss of one prediction P = sigmoid(logit) against T. */
double train_loss_of(double p, double t, TrainLoss kind);

/* Mean losses of NET over N samples: *MSE and *CE (either may be NULL), on THREADS threads;
 * the result does not depend on THREADS. */
void train_eval(const TrainNet *net, const TrainSample *s, size_t n, int threads, double *mse,
                double *ce);

/* Float weights plus the optimiser's state: what a checkpoint holds. */
typedef struct {
    TrainNet net;
    float *m, *v;            /* Adam's first and second moments (nparams each) */
    uint64_t step;           /* Adam steps taken */
    int epoch;               /* epochs completed */
    uint64_t seed;           /* the run's seed (initialisation, held-out games, shuffles) */
    uint64_t ntrain, nvalid; /* sample counts of the data it was trained on */
    uint64_t data_hash;      /* train_data_hash of those samples */
} TrainState;

/* A new state: the network initialised from SEED, moments zero, epoch 0. */
bool train_state_init(TrainState *st, const NetShape *shape, uint64_t seed, char *err);
void train_state_free(TrainState *st);

typedef struct {
    int epochs;     /* total epochs of the run (the learning-rate schedule needs it) */
    int batch;      /* samples per step (default 4096) */
    double lr;      /* Adam's base learning rate (default 1e-3) */
    TrainLoss loss; /* the loss optimised (default cross-entropy: see docs/training.md) */
    int threads;    /* worker threads (default 1); the result does not depend on it */
    float bucket_weight[NNUE_MAX_BUCKETS]; /* each sample's loss times its bucket's weight
                                              (default 1: train_balance_weights for others) */
} TrainOptions;

void train_default_options(TrainOptions *o);

/* The weights by which `--balance A' evens out the BUCKETS output buckets of the N samples S,
 * A = QUARTERS / 4 (0, 0.25, 0.5, 0.75 or 1: quarters keep the weights the same bits on every
 * processor): a bucket holding n_k of them weighs (n_k / mean n_k)^-A, the mean taken over the
 * buckets that hold any, then all are scaled so that the samples' weights add up to N (the
 * mean weight stays 1, and with it the learning rate's meaning). A = 0 leaves every weight 1;
 * A = 1 gives every bucket the same total. Into W[0..BUCKETS-1]. */
void train_balance_weights(const TrainSample *s, size_t n, int buckets, int quarters, float *w);

/* The learning rate of epoch E (0-based) of EPOCHS: the base rate, times 0.3 from 60% of the
 * epochs, times 0.3 again from 85%. */
double train_lr(double base, int e, int epochs);

/* Runs epoch ST->epoch over the N training samples S (shuffled by the seed and the epoch
 * number), one Adam step per batch, clipping after each; increments ST->epoch. *LOSS gets the
 * mean training loss seen during the epoch. False with the reason in ERR (out of memory, a
 * thread could not start). */
bool train_epoch(TrainState *st, const TrainSample *s, size_t n, const TrainOptions *o,
                 double *loss, char *err);

/* ---- the quantised network and checkpoints (train_net.c) ---- */

/* The network file of NET (scale S, NAME: printable ASCII, at most 23 characters) in a malloc'd
 * buffer (*OUT, *LEN bytes): the engine's quantisation and writer (nnue_quantise, nnue_write)
 * of the float weights. False with the reason in ERR. */
bool net_export(const TrainNet *net, int scale, const char *name, uint8_t **out, size_t *len,
                char *err);

/* The float network whose export is Q exactly (nnue_dequantise), allocated into NET: the
 * starting point of a run that goes on from a network (`ponder train --init'). FEATURES is the
 * run's input set: Q's own, or NNUE_FEATURES_MOBILITY for a piece network Q, which is grown
 * (the new inputs' weights zero, so it scores as Q does). False with the reason in ERR (out of
 * memory, or a set Q cannot grow into). */
bool net_import(TrainNet *net, const NnueNet *q, int features, char *err);

/* (The file is read back with nnue_read() and scored with nnue_evaluate_features(), nnue.h.) */

/* Saves ST to PATH (atomically). False with ERR. */
bool train_checkpoint_save(const TrainState *st, const char *path, char *err);

/* Loads PATH into ST (allocated here): 1 loaded, 0 PATH does not exist, -1 damaged or
 * unreadable (reason in ERR). */
int train_checkpoint_load(TrainState *st, const char *path, char *err);
