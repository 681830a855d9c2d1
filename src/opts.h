/*
 * opts.h - command-line options for every front end: glibc's getopt_long with Ponder's own
 * messages, and the one table of the engine options (--hash, --threads, --weights, --egdb,
 * --eval, --net, --contempt, --book, --book-variety) and of their help lines.
 *
 * A program lists its own options (a getopt short-option string and a struct option table) and
 * the engine options it takes (a set of OPTS_* bits); opts_begin() joins the two tables and
 * resets getopt, and opts_next() returns the program's options one at a time. It reads the
 * engine options into an EngineOptions itself, within the limits engine.h exports, so every
 * program accepts the same values and says the same thing about a bad one. What users of C
 * programs expect then holds everywhere: `--opt=value' and `--opt value', bundled short
 * options (`-qj2'), unambiguous abbreviations of long options, and `--' ending the options.
 * Arguments that are not options are left, in order, in argv[optind..argc-1]. The help lines of
 * the engine options come from the same table (opts_help), so every --help words them alike.
 *
 * Errors (an unknown or ambiguous option, a missing value, a value given to a flag, a bad engine
 * option value) are printed on stderr as `PROG: ...' naming the option; the caller then prints
 * "see `PROG --help'" (opts_see_help) and exits 2. getopt's own messages are turned off
 * (opterr = 0).
 */
#pragma once

#include "engine.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/* The engine options a program takes (bits for opts_begin). */
enum {
    OPTS_HASH = 1 << 0,     /* --hash MB: transposition table size */
    OPTS_THREADS = 1 << 1,  /* --threads N: search threads */
    OPTS_WEIGHTS = 1 << 2,  /* --weights FILE: evaluation weights */
    OPTS_EGDB = 1 << 3,     /* --egdb DIR: endgame databases */
    OPTS_EVAL = 1 << 4,     /* --eval classic|net: which evaluation */
    OPTS_NET = 1 << 5,      /* --net FILE: the network */
    OPTS_CONTEMPT = 1 << 7, /* --contempt N: what a draw costs */
    OPTS_ENGINE =
        OPTS_HASH | OPTS_THREADS | OPTS_WEIGHTS | OPTS_EGDB | OPTS_EVAL | OPTS_NET | OPTS_CONTEMPT,
    OPTS_BOOK = 1 << 6, /* --book FILE|none and --book-variety N: the opening book (for the
                           programs that play games; not part of OPTS_ENGINE) */
};

enum {
    OPTS_END = -1,     /* opts_next: no more options */
    OPTS_BAD = -2,     /* opts_next: a bad option (message printed) */
    OPTS_LONG = 0x100, /* first code for a program's long-only options (above any char) */
    OPTS_MAX = 48,     /* long options of a program, engine options included */
};

typedef struct {
    const char *prog;                 /* names the program in messages: "ponder match" */
    int argc;                         /* the arguments being read */
    char **argv;                      /* (getopt_long permutes them: options first) */
    char shortopts[64];               /* ':' then the program's short options */
    struct option longopts[OPTS_MAX]; /* the program's long options, the engine's, zeros */
    EngineOptions *engine;            /* where engine options go (NULL: the program takes none) */
} Opts;

/* Starts reading ARGV (ARGV[0] is the program name) for PROG. SHORTOPTS are the program's short
 * options in getopt's syntax ("hqj:"), LONGOPTS its long options, ended by a zeroed entry; each
 * long option's flag is NULL and its val is a short option letter or a code from OPTS_LONG up.
 * ENGINE (a set of OPTS_* bits) adds those engine options, read into *EO (which the caller has
 * filled with its defaults; may be NULL when ENGINE is 0). Resets getopt, so several parsers may
 * run in one process. A table too large for OPTS_MAX is a programming error (abort). */
void opts_begin(Opts *p, const char *prog, int argc, char **argv, const char *shortopts,
                const struct option *longopts, unsigned engine, EngineOptions *eo);

/* The next option of the program's own: its letter or code, with its value (if it takes one) in
 * optarg. Engine options are read on the way. Returns OPTS_END when the options end (optind is
 * then the first other argument) or OPTS_BAD after printing what was wrong. */
int opts_next(Opts *p);

/* After a bad option or argument, once its message is out: the line "see `PROG --help'" on
 * stderr, rather than the whole usage, which would scroll the message away. */
void opts_see_help(const char *prog);

/* The help lines of the engine options in ENGINE (OPTS_* bits: those the program gives
 * opts_begin, less any whose line it words itself because the option means more there), on F,
 * one option a line in the table's order: INDENT spaces, `--hash MB', and its text from column
 * COLUMN on (counted from 0, so after COLUMN characters; two spaces after a name that reaches
 * that far), a text's further lines indented to COLUMN too.
 * DEFAULTS are the values the program starts from, which the --hash and --threads lines print;
 * NULL: the engine's (engine_default_options). */
void opts_help(FILE *f, unsigned engine, const EngineOptions *defaults, int indent, int column);
