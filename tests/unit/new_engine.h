/*
 * new_engine.h - the engine the facade's tests search with (test_engine.c, test_search.c): the
 * default options with a small table, no endgame databases, THREADS threads. A failure to make
 * one is a failed check with engine_new's message.
 */
#pragma once

#include "check.h"
#include "engine.h"

static inline Engine *new_engine(int threads)
{
    EngineOptions opt;
    engine_default_options(&opt);
    opt.hash_mb = 8;
    opt.threads = threads;
    opt.egdb_dir = NULL;
    char err[ERR_LEN];
    Engine *e = engine_new(&opt, err);
    if (!e)
        printf("  engine_new: %s\n", err);
    CHECK(e != NULL);
    return e;
}
