/*
 * cli.c - option parsing and input helpers for the front ends (see cli.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include "engine.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

bool cli_long(const char *option, const char *text, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (text[0] == '\0' || *end != '\0' || errno == ERANGE || v < min || v > max) {
        fprintf(stderr, "ponder: %s: `%s' is not a whole number from %ld to %ld\n", option, text,
                min, max);
        return false;
    }
    *out = v;
    return true;
}

bool cli_double(const char *option, const char *text, double min, double max, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (text[0] == '\0' || *end != '\0' || errno == ERANGE || !isfinite(v) || v < min || v > max) {
        fprintf(stderr, "ponder: %s: `%s' is not a number from %g to %g\n", option, text, min, max);
        return false;
    }
    *out = v;
    return true;
}

char *cli_read_stream(FILE *f, size_t max, size_t *len, char *err, size_t errsize)
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

char *cli_read_file(const char *path, size_t max, size_t *len, char *err, size_t errsize)
{
    if (strcmp(path, "-") == 0)
        return cli_read_stream(stdin, max, len, err, errsize);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errsize, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    char inner[256];
    char *buf = cli_read_stream(f, max, len, inner, sizeof inner);
    if (!buf)
        snprintf(err, errsize, "%s: %s", path, inner);
    fclose(f);
    return buf;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
