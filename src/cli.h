/*
 * cli.h - small helpers every front end shares: strict number parsing for options that reports
 * on stderr, the usage convention (bad arguments print the problem and "see `ponder CMD
 * --help'" on stderr, opts_see_help, and exit 2), and where the endgame databases live by
 * default. The non-printing half (clock, file reading, parsing into a message) is util.h, below
 * the library; this file is above it, and no library file includes it.
 */
#pragma once

#include "engine.h"

#include "util.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* Names the program in the messages of cli_long and cli_double ("ponder serve"; NULL or "":
 * "ponder"). PROG must live as long as those calls may come. main() sets "ponder CMD" before it
 * runs a command, and opts_begin() the name the program gives it. */
void cli_set_prog(const char *prog);

/* Parses all of TEXT as a decimal integer in [MIN, MAX] (util_parse_long). On failure writes
 * `PROG: OPTION: what is wrong' to stderr (PROG as cli_set_prog left it) and returns false. */
bool cli_long(const char *option, const char *text, long min, long max, long *out);

/* The same for a real number in [MIN, MAX] (no inf or nan). */
bool cli_double(const char *option, const char *text, double min, double max, double *out);

/* Finds TEXT among the N WORDS (N >= 2) and sets *OUT to its index. On failure writes
 * `PROG: OPTION: `TEXT' is neither A nor B' (or `is none of A, B, C') and returns false. */
bool cli_word(const char *option, const char *text, const char *const *words, int n, int *out);

/* Parses TEXT as I/N, the I-th of N slices of a job (1 <= I <= N <= 1000000), for OPTION
 * (`--shard'). On failure writes what is wrong to stderr and returns false. */
bool cli_shard(const char *option, const char *text, long *shard, long *shards);

/* Ctrl-C and kill for a long job that stops cleanly: cli_catch_stop() sends SIGINT and SIGTERM
 * to HANDLER (which only sets a flag the job polls) until cli_release_stop() puts back what was
 * there before; releasing twice, or without a catch, does nothing. */
typedef struct {
    struct sigaction old_int, old_term; /* the handlers before */
    bool caught;                        /* ours are in */
} CliStop;
void cli_catch_stop(CliStop *s, void (*handler)(int));
void cli_release_stop(CliStop *s);

/* The end of a long job that writes one file through util_temp_commit() (selfplay, rescore):
 * says on stderr, after PROG ("ponder selfplay"), why the file is not in place if it is not.
 * INTERRUPTED is the signal that stopped the job (0: none), DONE how far it got then ("12
 * games"); COMPLETE whether all the work is in (ERR: why not, "" for "failed"); WRITTEN whether
 * the file at PATH is in place (MSG: why not). Returns 0 when it is, else the exit status: 128
 * plus the signal, or 1. */
int cli_job_end(const char *prog, int interrupted, const char *done, bool complete, const char *err,
                const char *path, bool written, const char *msg);

enum { CLI_PATH_MAX = 4096 }; /* room for a directory name from the environment */

/* Where the endgame databases live when no directory is given (docs/egdb.md): $PONDER_EGDB (the
 * value `none': nowhere, BUF is then ""), else $XDG_DATA_HOME/ponder/egdb, else
 * ~/.local/share/ponder/egdb. Reads the environment, nothing else. Returns BUF. */
const char *cli_egdb_dir(char *buf, size_t size);

/* The directory an engine program uses when no --egdb is given: cli_egdb_dir() when a database
 * driver is registered (egdb_hook.h) and the directory holds databases, else NULL (search without
 * them). The front end stores it in EngineOptions.egdb_dir; BUF must live as long as that. */
const char *cli_engine_egdb(char *buf, size_t size);

/* The opening book an engine program plays from when no --book is given (docs/book.md):
 * $PONDER_BOOK (a file; `none': no book), else $XDG_DATA_HOME/ponder/book.pbk or
 * ~/.local/share/ponder/book.pbk when that file exists, else the book built into the binary.
 * Sets EO->book (in BUF, which must live as long as EO) or EO->book_builtin. */
void cli_engine_book(EngineOptions *eo, char *buf, size_t size);
