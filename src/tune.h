/*
 * tune.h - fitting the evaluation weights to training positions (the method chess engines call
 * Texel tuning), for `ponder tune'.
 *
 * The model: a position whose evaluation for Black is E is won by Black with probability
 * p = 1 / (1 + exp(-E / s)). The target is lambda * R + (1 - lambda) * sigmoid(S / s), R the
 * game's result for Black (1, 1/2, 0) and S the search score for Black, and the loss is the
 * mean squared difference between p and the target over the positions.
 *
 * The evaluation itself (eval_board) is the model, so every weight of the table is fitted and
 * nothing of eval.c is written twice. Each round linearises it around the current weights: for
 * every position and weight, a central difference of eval_board gives the coefficient of that
 * weight (exact for the terms that are linear in their weight, which is nearly all of them), and
 * Levenberg-Marquardt (Gauss-Newton steps, damped until they lower the loss) fits the
 * real-valued weights of that linear model: the weights are few (about 60), so the 60 x 60
 * system costs nothing beside the pass over the positions, and it copes with weights that are
 * nearly interchangeable, which plain gradient descent crawls along. The weights are rounded at the
 * end of a round and the evaluation re-linearised around them, and the loss reported at the end
 * of a round (and before the first) is the real evaluation's at the rounded weights.
 *
 * Positions are held out for validation in blocks of 256 consecutive records (one block is part
 * of one or two games), so the validation loss says whether the fit generalises. Work is split
 * into fixed chunks whose sums are added in a fixed order: the result does not depend on the
 * number of threads.
 */
#pragma once

#include "trainfile.h"
#include "weights.h"

typedef struct {
    int round;     /* 1-based; 0 for the loss of the starting weights */
    int iteration; /* 1-based step within the round; 0 for an exact loss */
    double train;  /* loss on the training positions */
    double valid;  /* loss on the held-out positions (0 when there are none) */
    bool exact;    /* computed by the evaluation at rounded weights (else: the linear model) */
} TuneStep;

typedef void (*TuneCallback)(const TuneStep *step, void *ctx);

typedef struct {
    int rounds;             /* linearisations (default 3) */
    int iterations;         /* most optimiser steps per round (default 30) */
    double lambda;          /* share of the game result in the target (default 1) */
    double scale;           /* s; 0 (default): fitted to the results at the starting weights,
                               then refitted to the target at the start of every round */
    double l2;              /* loss += l2 * mean squared distance from the start (default 0) */
    double valid_fraction;  /* share of positions held out (default 0.1) */
    int threads;            /* worker threads (default 1) */
    bool frozen[WEIGHT_NB]; /* weights kept at their starting values */
    TuneCallback cb;        /* hears of every step (may be NULL) */
    void *ctx;              /* passed to cb */
} TuneOptions;

typedef struct {
    size_t train, valid;               /* positions fitted and held out */
    double scale_start;                /* s at the starting weights (fitted or given) */
    double scale;                      /* s at the end (refitted each round unless given) */
    double before_train, before_valid; /* exact losses at the starting weights */
    double after_train, after_valid;   /* exact losses at the fitted weights */
    double seconds;                    /* time taken */
} TuneReport;

void tune_default_options(TuneOptions *o);

/* Fits W (the starting weights on entry, the fitted ones on return) to the N records RECS under
 * O. Returns false with the reason in ERR (ERR_LEN bytes): no positions, out of memory, an
 * option out of range. */
bool tune_fit(const TrainRecord *recs, size_t n, const TuneOptions *o, Weights *w,
              TuneReport *report, char *err);

/* The logistic scale s that best predicts the results of RECS from the evaluation at W (the
 * first step of tune_fit when O->scale is 0). */
double tune_fit_scale(const TrainRecord *recs, size_t n, const Weights *w, int threads);
