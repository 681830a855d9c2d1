/*
 * egdb_hook.h - how the engine consults endgame databases without depending on them.
 *
 * The engine knows databases only through an EgdbDriver: a few function pointers that the
 * program registers at start-up (egdb_hook_register(&egdb_driver) in main.c), so a program built
 * without egdb.c (the HackerRank single file) has no databases and no code for them. When no
 * driver is registered, or EngineOptions.egdb_dir is NULL, the engine searches without
 * databases and nothing else changes. With a driver and a directory, engine_new() opens the
 * databases once; the search then probes every position with at most max_pieces pieces and no
 * capture pending for the side to move, and scores a won position as a win a long way off
 * (below every proven win by search), a lost one as the reverse, a draw as 0.
 */
#pragma once

#include "board.h"

typedef enum {
    EGDB_UNKNOWN = 0, /* not in the databases (too many pieces, not loaded, capture pending) */
    EGDB_WIN,         /* the side to move wins */
    EGDB_LOSS,        /* the side to move loses */
    EGDB_DRAW,
} EgdbValue;

typedef struct {
    /* Opens the databases in DIR; returns a handle, or NULL with the reason in ERR (ERR_LEN). */
    void *(*open)(const char *dir, char *err);
    /* Releases a handle from open. */
    void (*close)(void *handle);
    /* The most pieces (both sides) any open database covers. */
    int (*max_pieces)(void *handle);
    /* The value of B for its side to move; must be safe to call from several threads at once. */
    EgdbValue (*probe)(void *handle, const Board *b);
    /* Files of the open set that were left out (damaged, unreadable), or "" if none. */
    const char *(*warnings)(void *handle);
    /* Whether DIR holds databases (at least one slice file); false when it cannot be read. */
    bool (*holds)(const char *dir);
} EgdbDriver;

/* Makes D the driver engine_new() uses (NULL removes it). D must outlive every engine. */
void egdb_hook_register(const EgdbDriver *d);

/* The registered driver, or NULL. */
const EgdbDriver *egdb_hook_driver(void);
