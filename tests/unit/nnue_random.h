/*
 * nnue_random.h - seeded random networks for the tests and the speed measurements of the
 * network evaluation (tests/unit/test_nnue.c, tests/bench/nnue_random.c).
 *
 * The values stay within the trainer's clips (docs/nnue.md) and are spread so that the clamps
 * of every layer are met from both sides on game positions: some neurons dead, some saturated,
 * most in between. WIDE draws the hidden weights from their whole allowed range instead.
 */
#pragma once

#include "nnue.h"
#include "rng.h"

#include <stdint.h>

/* Uniform in [-A, A]. */
static inline float nnue_random_uniform(uint64_t *s, double a)
{
    return (float)(((double)(rng_splitmix64(s) >> 11) / 9007199254740992.0 * 2 - 1) * a);
}

/* Fills F (allocated, any shape) with random values from SEED; score scale 80, name "random". */
static inline void nnue_random_fill(NnueFloat *f, uint64_t seed, bool wide)
{
    uint64_t s = seed;
    size_t b = (size_t)f->buckets, n1 = (size_t)nnue_l2_inputs(f->act, f->n1), n2 = (size_t)f->n2,
           n3 = (size_t)f->n3, sets = (size_t)f->l1_sets, a1 = (size_t)f->n1;
    double hw = wide ? 127.0 / 64 : 0.3;
    f->scale = 80;
    snprintf(f->name, sizeof f->name, "random");
    for (size_t i = 0; i < sets * (size_t)f->features * a1; i++)
        f->w1[i] = nnue_random_uniform(&s, 0.25);
    for (size_t i = 0; i < sets * a1; i++)
        f->b1[i] = nnue_random_uniform(&s, 0.5) + 0.1f;
    for (size_t i = 0; i < b * n2 * n1; i++)
        f->w2[i] = nnue_random_uniform(&s, hw * 32 / (double)n1 * 4);
    for (size_t i = 0; i < b * n2; i++)
        f->b2[i] = nnue_random_uniform(&s, 0.5) + 0.2f;
    for (size_t i = 0; i < b * n3 * n2; i++)
        f->w3[i] = nnue_random_uniform(&s, hw * 32 / (double)n2 * 4);
    for (size_t i = 0; i < b * n3; i++) {
        f->b3[i] = nnue_random_uniform(&s, 0.5) + 0.2f;
        f->w4[i] = nnue_random_uniform(&s, 2.0);
    }
    for (size_t i = 0; i < b; i++)
        f->b4[i] = nnue_random_uniform(&s, 0.5);
    if (wide) {
        for (size_t i = 0; i < b * n2 * n1; i++)
            f->w2[i] = nnue_random_uniform(&s, 127.0 / 64);
        for (size_t i = 0; i < b * n3 * n2; i++)
            f->w3[i] = nnue_random_uniform(&s, 127.0 / 64);
    }
}
