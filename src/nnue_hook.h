/*
 * nnue_hook.h - how the engine runs the network evaluation without depending on it.
 *
 * As with the endgame databases (egdb_hook.h), the engine knows networks only through a driver
 * (nnue_driver, nnue.h) that the program registers at start-up (main.c, as it registers
 * egdb_driver; registering again is harmless). The HackerRank single file, which leaves the
 * nnue module out and registers nothing, therefore builds without it and evaluates
 * classically. With a driver,
 * engine_new() loads the network that EngineOptions ask for (a file, or the built-in one) and the
 * search calls driver->evaluate on it instead of the classic evaluation.
 */
#pragma once

#include "board.h"

typedef struct {
    /* The network in the file PATH, or the built-in one when PATH is NULL; NULL with the reason
     * in ERR (ERR_LEN bytes) on any problem. */
    void *(*load)(const char *path, char *err);
    /* Releases a network from load. */
    void (*free)(void *net);
    /* The score of B for its side to move; safe from several threads on one network. */
    int (*evaluate)(const void *net, const Board *b);
    /* Whether a network is built in (then it is the default evaluation). */
    bool (*has_default)(void);
} NnueDriver;

/* Makes D the driver engine_new() uses (NULL removes it). D must outlive every engine. */
void nnue_hook_register(const NnueDriver *d);

/* The registered driver, or NULL. */
const NnueDriver *nnue_hook_driver(void);
