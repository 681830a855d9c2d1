/*
 * egdb.h - endgame databases: win/loss/draw for every English-rules position with few pieces,
 * built on the user's machine by retrograde analysis (egdb_build.c) and probed by the engine.
 *
 * On disk a database is a directory of slice files, one per (black men, black kings, white men,
 * white kings) with Black to move; White-to-move positions are probed through their colour-flipped
 * image. A slice file holds a header, a table of block offsets and run-length coded blocks of
 * BLOCK positions, so one probe decodes at most one block. Files are mapped read-only, shared by
 * every engine and thread of the process. See docs/egdb.md.
 */
#pragma once

#include "egdb_hook.h"
#include "egdb_index.h"

typedef struct EgdbSet EgdbSet;

enum { EGDB_BLOCK = 1024 }; /* positions per coded block */

/* Opens the slice files in DIR. Fails (NULL, reason in ERR) only when DIR cannot be read or holds
 * no slice file; a file that is damaged is left out and named in egdb_warnings(). */
EgdbSet *egdb_open(const char *dir, char *err);
void egdb_close(EgdbSet *s);

/* The largest N such that every slice of N or fewer pieces is present. */
int egdb_complete_pieces(const EgdbSet *s);

/* Warnings gathered while opening (damaged or unreadable files), or "" if none. */
const char *egdb_warnings(const EgdbSet *s);

/* The value of B for the side to move (captures pending or not): EGDB_UNKNOWN when its slice is
 * missing or damaged. Thread-safe. */
EgdbValue egdb_probe(const EgdbSet *s, const Board *b);

/* The value of B computed with STORED answering positions that have no capture pending: a
 * position with captures takes the best value of its captures (each has fewer pieces), a side
 * with no pieces has lost. Shared by the probe and the builder. */
EgdbValue egdb_resolve(const Board *b, EgdbValue (*stored)(const void *ctx, const Board *b),
                       const void *ctx);

/* ---- slice files (used by the builder and the tools) ---- */

typedef struct {
    EgdbSlice slice;     /* the counts and index radices */
    uint32_t nblocks;    /* coded blocks */
    uint64_t data_bytes; /* bytes of coded data */
    uint64_t counts[4];  /* true values per index: no position, win, loss, draw */
    uint64_t checksum;   /* FNV-1a of the offsets and the data */
    uint64_t file_bytes; /* size of the whole file */
} EgdbFileInfo;

/* The file name of a slice ("db-2-1-1-0.egdb" for 2 black men, 1 black king, 1 white man). */
void egdb_file_name(const EgdbSlice *s, char *buf, size_t size);

/* Writes VALUES (one byte per index of S, EgdbValue; 0 for indices that are no position) coded
 * to DIR/name via a temporary file that is synced and renamed, so a half-written file is never
 * read. Capture positions are stored as don't-cares (see egdb.c). Returns false with ERR. */
bool egdb_write_slice(const char *dir, const EgdbSlice *s, const uint8_t *values, char *err);

/* Reads and checks a whole slice file (header, sizes, checksum, every block decodes to exactly
 * BLOCK values) into INFO; with VALUES non-NULL also decodes every stored value into it (s.size
 * bytes; don't-cares hold arbitrary values). Returns false with the reason in ERR. */
bool egdb_read_slice(const char *path, EgdbFileInfo *info, uint8_t *values, char *err);

/* ---- the engine hook ---- */

/* The EgdbDriver over egdb_open/egdb_probe. A program that wants databases registers it with
 * egdb_hook_register() (main.c does); nothing is registered or opened when the library loads. */
extern const EgdbDriver egdb_driver;

/* Whether DIR holds at least one slice file (db-*.egdb); false when DIR cannot be read. Reads the
 * directory's names only. */
bool egdb_holds(const char *dir);
