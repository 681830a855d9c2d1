/*
 * cli.h - small helpers every front end shares: strict number parsing for options, reading a
 * whole file or stream with a size cap, a monotonic clock, and the usage convention (bad
 * arguments print the problem and "see `ponder CMD --help'" on stderr, opts_see_help, and exit
 * 2).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Parses all of TEXT as a decimal integer in [MIN, MAX]. On failure writes a message naming
 * OPTION to stderr and returns false. */
bool cli_long(const char *option, const char *text, long min, long max, long *out);

/* The same for a real number in [MIN, MAX] (no inf or nan). */
bool cli_double(const char *option, const char *text, double min, double max, double *out);

/* Reads all of F (at most MAX bytes) into a NUL-terminated malloc'd buffer. Returns NULL on a
 * read error, an embedded NUL byte, or a stream larger than MAX, with the reason in ERR. */
char *cli_read_stream(FILE *f, size_t max, size_t *len, char *err, size_t errsize);

/* Opens and reads PATH ("-" for stdin) the same way. */
char *cli_read_file(const char *path, size_t max, size_t *len, char *err, size_t errsize);

/* Seconds on a monotonic clock. */
double cli_now(void);
