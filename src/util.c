/*
 * util.c - clock, whole-file reading, number parsing and growing arrays under the library (see
 * util.h).
 *
 * A stream is read into a buffer that doubles as it fills, so a file of N bytes costs O(N)
 * copying; the cap is checked before every doubling, so an endless stream (a pipe, /dev/zero)
 * stops at MAX bytes instead of exhausting memory.
 */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double util_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

char *util_read_stream(FILE *f, size_t max, size_t *len, char *err, size_t errsize)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    for (;;) {
        if (n + 1 >= cap) {
            if (cap > max) {
                free(buf);
                snprintf(err, errsize, "input larger than %zu bytes", max);
                return NULL;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                snprintf(err, errsize, "out of memory");
                return NULL;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        snprintf(err, errsize, "read error: %s", strerror(errno));
        return NULL;
    }
    if (n > max) {
        free(buf);
        snprintf(err, errsize, "input larger than %zu bytes", max);
        return NULL;
    }
    buf[n] = '\0';
    const char *nul = memchr(buf, '\0', n);
    if (nul) {
        size_t at = (size_t)(nul - buf);
        free(buf);
        snprintf(err, errsize, "input contains a NUL byte at offset %zu", at);
        return NULL;
    }
    if (len)
        *len = n;
    return buf;
}

char *util_read_file(const char *path, size_t max, size_t *len, char *err, size_t errsize)
{
    if (strcmp(path, "-") == 0)
        return util_read_stream(stdin, max, len, err, errsize);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errsize, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    char inner[256];
    char *buf = util_read_stream(f, max, len, inner, sizeof inner);
    if (!buf)
        snprintf(err, errsize, "%s: %s", path, inner);
    fclose(f);
    return buf;
}

bool util_parse_long(const char *text, long min, long max, long *out, char *err, size_t errsize)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (text[0] == '\0' || *end != '\0' || errno == ERANGE || v < min || v > max) {
        snprintf(err, errsize, "`%s' is not a whole number from %ld to %ld", text, min, max);
        return false;
    }
    *out = v;
    return true;
}

bool util_parse_double(const char *text, double min, double max, double *out, char *err,
                       size_t errsize)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (text[0] == '\0' || *end != '\0' || errno == ERANGE || !isfinite(v) || v < min || v > max) {
        snprintf(err, errsize, "`%s' is not a number from %g to %g", text, min, max);
        return false;
    }
    *out = v;
    return true;
}

void *util_grow(void *items, size_t *cap, size_t need, size_t size, size_t first)
{
    if (need <= *cap)
        return items;
    size_t ncap = *cap ? *cap : first ? first : 1;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return NULL;
        ncap *= 2;
    }
    if (size && ncap > SIZE_MAX / size)
        return NULL;
    void *p = realloc(items, ncap * size);
    if (!p)
        return NULL;
    *cap = ncap;
    return p;
}
