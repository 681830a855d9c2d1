/*
 * weights.c - fuzz harness for evaluation weights files (weights_parse, weights_write), which
 * every engine program reads with --weights FILE.
 *
 * On failure the weights are unchanged and the message says where; on success every value is
 * within the file format's limit, and the writer's text reads back to the same weights.
 */
#define _GNU_SOURCE
#include "fuzz.h"

#include "weights.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    Weights w, before, again;
    weights_default(&w);
    before = w;
    char err[ERR_LEN];
    memset(err, 0, sizeof err);
    if (!weights_parse(&w, text, err)) {
        FUZZ_CHECK(err[0] != '\0' && memchr(err, '\0', sizeof err), "failure without a message");
        FUZZ_CHECK(memcmp(&w, &before, sizeof w) == 0, "a failed parse changed the weights");
        free(text);
        return 0;
    }
    for (int i = 0; i < WEIGHT_NB; i++)
        FUZZ_CHECK(w.v[i] >= -WEIGHT_LIMIT && w.v[i] <= WEIGHT_LIMIT, "weight out of range");

    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    FUZZ_CHECK(f != NULL, "open_memstream");
    FUZZ_CHECK(weights_write(&w, f), "weights_write");
    fclose(f);
    weights_default(&again);
    FUZZ_CHECK(weights_parse(&again, out, err), "written weights unreadable");
    FUZZ_CHECK(memcmp(&w, &again, sizeof w) == 0, "weights round trip changed a value");
    free(out);
    free(text);
    return 0;
}
