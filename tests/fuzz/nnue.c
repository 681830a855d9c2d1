/*
 * nnue.c - fuzz harness for network files (nnue_read, nnue_write, nnue_evaluate), which every
 * engine program reads with --net FILE.
 *
 * Byte 0 of the input chooses how the rest is read: when its low bit is set, the last four bytes
 * (the checksum) are first made right, so the fuzzer's changes reach the checks and the numbers
 * behind the checksum instead of stopping at it. The reader either refuses the bytes with a
 * message naming the file, or gives a net whose header fields are within the format's ranges and
 * that writes back to exactly the same bytes. Every net read is then run on the fuzz positions
 * through both inference paths, which must agree and stay within the score limits.
 */
#include "fuzz.h"

#include "engine.h"
#include "nnue.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    size_t n = size - 1;
    uint8_t *buf = malloc(n + 1);
    FUZZ_CHECK(buf != NULL, "malloc");
    memcpy(buf, data + 1, n);
    if ((data[0] & 1) && n >= 4) {
        uint32_t h = 2166136261u;
        for (size_t i = 0; i < n - 4; i++)
            h = (h ^ buf[i]) * 16777619u;
        for (int i = 0; i < 4; i++)
            buf[n - 4 + i] = (uint8_t)(h >> 8 * i);
    }
    char err[ERR_LEN];
    memset(err, 0, sizeof err);
    NnueNet *net = nnue_read(buf, n, "fuzz.pnet", err);
    if (!net) {
        FUZZ_CHECK(memchr(err, '\0', sizeof err) && strncmp(err, "fuzz.pnet: ", 11) == 0 &&
                       err[11] != '\0',
                   "failure without a message naming the file");
        free(buf);
        return 0;
    }
    FUZZ_CHECK(nnue_feature_set_ok(net->features) && net->n1 >= NNUE_N1_MIN &&
                   net->n1 <= NNUE_N1_MAX && net->n1 % 32 == 0 && net->n2 >= NNUE_N23_MIN &&
                   net->n2 <= NNUE_N23_MAX && net->n2 % 32 == 0 && net->n3 >= NNUE_N23_MIN &&
                   net->n3 <= NNUE_N23_MAX && net->n3 % 32 == 0 && net->buckets >= 1 &&
                   net->buckets <= NNUE_MAX_BUCKETS && net->scale >= 1 &&
                   net->scale <= NNUE_SCALE_MAX,
               "a header field out of range was accepted");
    FUZZ_CHECK(nnue_write(net, NULL, 0) == n, "size of the written net differs");
    uint8_t *out = malloc(n);
    FUZZ_CHECK(out != NULL, "malloc");
    FUZZ_CHECK(nnue_write(net, out, n) == n && memcmp(out, buf, n) == 0,
               "the net does not write back to the same bytes");
    for (int i = 0;; i++) {
        Board b;
        const Rules *rules;
        int count = fuzz_position(i, &b, &rules);
        int q = nnue_evaluate(net, &b), p = nnue_evaluate_portable(net, &b), v;
        FUZZ_CHECK(q == p, "the fastest and the portable paths differ");
        for (int path = 0; path < NNUE_PATHS; path++)
            FUZZ_CHECK(!nnue_evaluate_path(net, &b, path, &v) || v == p,
                       "a SIMD path and the portable one differ");
        FUZZ_CHECK(q > -SCORE_DECISIVE && q < SCORE_DECISIVE, "score out of range");
        if (i + 1 >= count)
            break;
    }
    free(out);
    nnue_free(net);
    free(buf);
    return 0;
}
