/*
 * nnue_random.c - writes a seeded random network file, for measuring the network evaluation's
 * speed (`ponder bench --net FILE') before a trained network exists (docs/nnue.md).
 *
 *   build/release/nnue-random N1 OUT [SEED] [split|mobility|shots|pair]
 *       n2 = n3 = 32, 4 buckets, score scale 80; split: a first layer per bucket; mobility: the
 *       mobility feature set (288 inputs); shots: the shot set (320 inputs); pair: a pairwise
 *       first layer (N1 a multiple of 64)
 */
#include "nnue_random.h"
#include "nnue.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    bool split = argc == 5 && strcmp(argv[4], "split") == 0,
         mobility = argc == 5 && strcmp(argv[4], "mobility") == 0,
         shots = argc == 5 && strcmp(argv[4], "shots") == 0,
         pair = argc == 5 && strcmp(argv[4], "pair") == 0;
    if (argc < 3 || argc > 5 || (argc == 5 && !split && !mobility && !shots && !pair)) {
        fprintf(stderr, "usage: nnue-random N1 OUT [SEED] [split|mobility|shots|pair]\n");
        return 2;
    }
    char *end;
    long n1 = strtol(argv[1], &end, 10);
    unsigned long long seed = argc >= 4 ? strtoull(argv[3], NULL, 10) : 1;
    char err[ERR_LEN];
    NnueFloat f;
    if (*end || n1 < NNUE_N1_MIN || n1 > NNUE_N1_MAX ||
        !nnue_float_alloc(&f,
                          shots      ? NNUE_FEATURES_SHOTS
                          : mobility ? NNUE_FEATURES_MOBILITY
                                     : NNUE_FEATURES,
                          (int)n1, 32, 32, 4, split ? 4 : 1, pair ? NNUE_ACT_PAIR : NNUE_ACT_CLAMP,
                          err)) {
        fprintf(stderr, "nnue-random: bad N1 `%s'\n", argv[1]);
        return 2;
    }
    nnue_random_fill(&f, seed, false);
    NnueNet *n = nnue_quantise(&f, err);
    if (!n || !nnue_save(n, argv[2], err)) {
        fprintf(stderr, "nnue-random: %s\n", err);
        return 1;
    }
    nnue_free(n);
    nnue_float_free(&f);
    return 0;
}
