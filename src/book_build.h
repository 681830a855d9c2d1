/*
 * book_build.h - growing an opening book by drop-out expansion (Lincke, "Strategies for the
 * automatic construction of opening books", 2000), with the engine searching every new position.
 *
 * The book is a graph of positions. A leaf has a value from a search; an expanded position has
 * all its moves, and its value is the best of its children's (negamax). Each position gets a
 * priority: the cheapest path to it from a root, where a path costs one per ply plus, for each
 * move on it, how much worse that move is than the best move there (in units of DROP hundredths
 * of a man). The leaves of lowest priority are expanded next: the best lines grow deep, and
 * second-best moves get their turn once the best line is DROP plies deeper per man they lose.
 * Roots are the start position and the three-move ballots, all of priority zero.
 *
 * The build is resumable: the book file it writes every few seconds is its whole state (an
 * expanded position is one with moves; a move to a position that is not in the book leads to a
 * leaf whose value is the move's score), so a run given an existing file goes on from it.
 */
#pragma once

#include "book.h"
#include "engine.h"

#include <stdatomic.h>

enum { BOOK_BUILD_MAX_THREADS = 256 };

typedef struct {
    EngineOptions engine;   /* options of every worker's engine (threads is forced to 1) */
    int threads;            /* workers searching at once */
    int batch;              /* leaves expanded per round (the book does not depend on threads) */
    uint64_t nodes;         /* nodes per leaf search (deterministic) */
    int depth;              /* or plies per leaf search when nodes is 0 */
    size_t positions;       /* stop when the book holds this many positions */
    int drop;               /* hundredths of a man that cost as much as one ply */
    int shard, shards;      /* build only roots r with r % shards == shard (0-based) */
    bool ballots;           /* the 156 ballots are roots too (the start position always is) */
    double save_every;      /* seconds between saves of the book file */
    const atomic_int *stop; /* when it becomes non-zero, save and return */
} BookBuildOptions;

typedef struct {
    size_t positions;  /* expanded positions (the book's size) */
    size_t leaves;     /* positions searched but not expanded */
    uint64_t searches; /* leaf searches made by this run */
    uint64_t nodes;    /* nodes they took */
    double seconds;    /* since the run started */
    int deepest;       /* the most plies from a root to an expanded position */
} BookBuildStatus;

/* Called after every batch and every save, from the caller's thread. */
typedef void (*BookBuildProgress)(const BookBuildStatus *st, bool saved, void *ctx);

/* Grows the book in PATH (started afresh when PATH does not exist, resumed otherwise) until it
 * holds OPT->positions positions or *OPT->stop is set, saving it as it goes and at the end.
 * NAME is stored in the book. Returns false with the reason in ERR (unreadable or damaged book,
 * no memory, an engine that cannot start, a file that cannot be written). */
bool book_build(const char *path, const char *name, const BookBuildOptions *opt,
                BookBuildProgress progress, void *ctx, BookBuildStatus *status, char *err);
