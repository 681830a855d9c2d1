/*
 * util.h - the floor under the library: a monotonic clock, reading a whole file or stream with a
 * size cap, writing a file atomically, strict number parsing, arrays that grow by doubling, and
 * for the binary file formats the FNV-1a checksums and little-endian byte access. Nothing here
 * prints or exits: a failure is a return value with the reason in a buffer the caller owns, so
 * the rules library, the engine and the front ends can all use it (the front ends' printing
 * wrappers are in cli.h).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Seconds on a monotonic clock (CLOCK_MONOTONIC); only differences mean anything. */
double util_now(void);

/* Reads all of F (at most MAX bytes) into a NUL-terminated malloc'd buffer and stores its length
 * in *LEN (when LEN is not NULL). Returns NULL on a read error, an embedded NUL byte, a stream
 * larger than MAX or no memory, with the reason in ERR (ERRSIZE bytes). */
char *util_read_stream(FILE *f, size_t max, size_t *len, char *err, size_t errsize);

/* Opens and reads PATH ("-" for stdin) the same way; the reason in ERR names PATH. */
char *util_read_file(const char *path, size_t max, size_t *len, char *err, size_t errsize);

/* Reads the binary file PATH (NUL bytes allowed, at most MAX bytes) into a malloc'd buffer, its
 * length in *LEN. NULL on failure with the reason alone in ERR ("cannot open: ...", "input
 * larger than MAX bytes", "read error: ...", "out of memory"), for the caller to prefix. */
void *util_read_bytes(const char *path, size_t max, size_t *len, char *err, size_t errsize);

/* Parses all of TEXT as a decimal integer in [MIN, MAX] into *OUT. Returns false, with *OUT
 * unchanged and "`TEXT' is not a whole number from MIN to MAX" in ERR, on anything else (empty
 * text, trailing characters, overflow, out of range). */
bool util_parse_long(const char *text, long min, long max, long *out, char *err, size_t errsize);

/* util_parse_long for a value that a protocol sends (Hub, CheckerBoard, the engine's options by
 * name): the digits alone, a leading '-' allowed, no blank or '+' before them (which strtol
 * would skip or take). The same message (TEXT cut at 40 bytes when its first character is
 * wrong). */
bool util_parse_whole(const char *text, long min, long max, long *out, char *err, size_t errsize);

/* The same for a finite real number in [MIN, MAX] ("`TEXT' is not a number from MIN to MAX"). */
bool util_parse_double(const char *text, double min, double max, double *out, char *err,
                       size_t errsize);

/* Makes room in the malloc'd array ITEMS (*CAP items of SIZE bytes each, NULL when *CAP is 0) for
 * at least NEED items: when NEED exceeds *CAP, the capacity doubles (starting from FIRST, at
 * least 1) until it holds NEED and the array is realloc'd, its items kept. Returns the array to
 * use from now on (ITEMS itself when it had room), or NULL when out of memory or when the size
 * would overflow; then ITEMS is still valid and *CAP unchanged. */
void *util_grow(void *items, size_t *cap, size_t need, size_t size, size_t first);

/* Writing a file so that a reader (or a run killed half-way) sees the old file or the new one,
 * never half of one: util_temp_open creates PATH.tmpPID (its name into TMP, TMPSIZE bytes) for
 * writing; util_temp_commit flushes, syncs to disk and closes F, then renames TMP over PATH when
 * OK is true, or removes TMP when it is false or anything failed. Both return false with the
 * reason in ERR ("cannot create ...", "cannot write ...", "cannot rename ..." and the system's
 * message; when OK came in false, errno as the caller's failed write left it). */
FILE *util_temp_open(const char *path, char *tmp, size_t tmpsize, char *err, size_t errsize);
bool util_temp_commit(FILE *f, const char *tmp, const char *path, bool ok, char *err,
                      size_t errsize);

/* The LEN bytes at DATA written to PATH that way. */
bool util_write_file(const char *path, const void *data, size_t len, char *err, size_t errsize);

/* FNV-1a (Fowler, Noll and Vo) over N bytes at P, continuing from H (UTIL_FNV_BASIS to start):
 * the checksum at the end of the book, network and checkpoint files. */
#define UTIL_FNV_BASIS 2166136261u
uint32_t util_fnv1a(const void *p, size_t n, uint32_t h);

/* The same in 64 bits (UTIL_FNV64_BASIS to start): the endgame database files' checksum. The
 * two widths are different functions with different results; each file format keeps its own. */
#define UTIL_FNV64_BASIS 0xCBF29CE484222325ull
uint64_t util_fnv1a64(const void *p, size_t n, uint64_t h);

/* Little-endian numbers in byte buffers, whatever the machine's order: the fields of the book,
 * network, training-position and checkpoint files. A signed field is read as its unsigned
 * pattern and cast ((int16_t)util_get_u16(p)), and written the other way. */
static inline uint16_t util_get_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t util_get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t util_get_u64(const uint8_t *p)
{
    return util_get_u32(p) | (uint64_t)util_get_u32(p + 4) << 32;
}

static inline void util_put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void util_put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline void util_put_u64(uint8_t *p, uint64_t v)
{
    util_put_u32(p, (uint32_t)v);
    util_put_u32(p + 4, (uint32_t)(v >> 32));
}
