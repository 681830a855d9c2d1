/*
 * egdb_build.h - building the endgame databases by retrograde analysis.
 */
#pragma once

#include "egdb.h"

typedef struct {
    const char *dir; /* where the slice files go (created if missing) */
    int pieces;      /* build every slice with at most this many pieces (2-8) */
    int threads;     /* worker threads for the first pass of each slice */
    bool quiet;      /* no progress lines */
} EgdbBuildOptions;

/* Called after each slice with a line of progress (slice, positions, time, estimate left). */
typedef void (*EgdbProgress)(const char *line, void *ctx);

/* Builds (or, after an interruption, finishes building) the databases. Slices whose files
 * already exist and check out are loaded instead of built. Returns false with the reason in
 * ERR (ERR_LEN bytes). */
bool egdb_build(const EgdbBuildOptions *opt, EgdbProgress progress, void *ctx, char *err);

/* Checks every position of every slice in DIR up to PIECES pieces: its stored value must agree
 * with the values of its successors. Returns the number of disagreements (0: all good) or -1
 * with the reason in ERR. *CHECKED gets the number of positions checked. */
int64_t egdb_verify(const char *dir, int pieces, int threads, uint64_t *checked,
                    EgdbProgress progress, void *ctx, char *err);
