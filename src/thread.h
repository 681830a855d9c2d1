/*
 * thread.h - a search thread that lives as long as its engine: it sleeps between searches and
 * runs one function at a time when told to (Stockfish's Thread, idle_loop).
 *
 * Creating and joining a thread costs 30-90 microseconds on the development machine under load,
 * and a job of engine_start with 2 threads needs two: 4-12% of a 1.5 ms search. So the engine
 * keeps its threads; docs/engine.md has the measurement.
 */
#pragma once

#include <stdbool.h>

typedef struct SearchThread SearchThread;

/* A new idle thread, or NULL with the reason in ERR (ERR_LEN bytes). */
SearchThread *thread_new(char *err);

/* Ends T (waiting for the function it runs, if any) and frees it. NULL is allowed. */
void thread_free(SearchThread *t);

/* Has T run FN(ARG). T must be idle (waited for since its last thread_run). */
void thread_run(SearchThread *t, void (*fn)(void *), void *arg);

/* Waits until T has finished the function it was given (returns at once when idle). */
void thread_wait(SearchThread *t);
