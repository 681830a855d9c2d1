/*
 * util.h - the floor under the library: a monotonic clock, reading a whole file or stream with a
 * size cap, strict number parsing, and arrays that grow by doubling. Nothing here prints or exits:
 * a failure is a return value with the reason in a buffer the caller owns, so the rules library,
 * the engine and the front ends can all use it (the front ends' printing wrappers are in cli.h).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Seconds on a monotonic clock (CLOCK_MONOTONIC); only differences mean anything. */
double util_now(void);

/* Reads all of F (at most MAX bytes) into a NUL-terminated malloc'd buffer and stores its length
 * in *LEN (when LEN is not NULL). Returns NULL on a read error, an embedded NUL byte, a stream
 * larger than MAX or no memory, with the reason in ERR (ERRSIZE bytes). */
char *util_read_stream(FILE *f, size_t max, size_t *len, char *err, size_t errsize);

/* Opens and reads PATH ("-" for stdin) the same way; the reason in ERR names PATH. */
char *util_read_file(const char *path, size_t max, size_t *len, char *err, size_t errsize);

/* Parses all of TEXT as a decimal integer in [MIN, MAX] into *OUT. Returns false, with *OUT
 * unchanged and "`TEXT' is not a whole number from MIN to MAX" in ERR, on anything else (empty
 * text, trailing characters, overflow, out of range). */
bool util_parse_long(const char *text, long min, long max, long *out, char *err, size_t errsize);

/* The same for a finite real number in [MIN, MAX] ("`TEXT' is not a number from MIN to MAX"). */
bool util_parse_double(const char *text, double min, double max, double *out, char *err,
                       size_t errsize);

/* Makes room in the malloc'd array ITEMS (*CAP items of SIZE bytes each, NULL when *CAP is 0) for
 * at least NEED items: when NEED exceeds *CAP, the capacity doubles (starting from FIRST, at
 * least 1) until it holds NEED and the array is realloc'd, its items kept. Returns the array to
 * use from now on (ITEMS itself when it had room), or NULL when out of memory or when the size
 * would overflow; then ITEMS is still valid and *CAP unchanged. */
void *util_grow(void *items, size_t *cap, size_t need, size_t size, size_t first);
