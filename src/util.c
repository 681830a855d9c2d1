/*
 * util.c - clock, whole-file reading, atomic file writing, number parsing, growing arrays and
 * the FNV-1a checksum under the library (see util.h).
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
#include <unistd.h>
#ifdef _WIN32
#include <io.h>
#define util_fsync _commit /* Windows (the CheckerBoard DLL) has no fsync; _commit is its own */
#else
#define util_fsync fsync
#endif

double util_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Reads all of F (at most MAX bytes) into a malloc'd buffer with a NUL after the data; with TEXT
 * an embedded NUL byte is an error. */
static char *read_stream(FILE *f, size_t max, size_t *len, bool text, char *err, size_t errsize)
{
    size_t cap = 0, n = 0;
    char *buf = NULL;
    for (;;) {
        if (n + 1 >= cap) {
            if (cap > max) {
                free(buf);
                snprintf(err, errsize, "input larger than %zu bytes", max);
                return NULL;
            }
            char *nb = util_grow(buf, &cap, n + 2, 1, 4096);
            if (!nb) {
                free(buf);
                snprintf(err, errsize, "out of memory");
                return NULL;
            }
            buf = nb;
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
    const char *nul = text ? memchr(buf, '\0', n) : NULL;
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

char *util_read_stream(FILE *f, size_t max, size_t *len, char *err, size_t errsize)
{
    return read_stream(f, max, len, true, err, errsize);
}

void *util_read_bytes(const char *path, size_t max, size_t *len, char *err, size_t errsize)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errsize, "cannot open: %s", strerror(errno));
        return NULL;
    }
    char *buf = read_stream(f, max, len, false, err, errsize);
    fclose(f);
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

bool util_parse_whole(const char *text, long min, long max, long *out, char *err, size_t errsize)
{
    if (!((*text >= '0' && *text <= '9') || *text == '-')) {
        snprintf(err, errsize, "`%.40s' is not a whole number from %ld to %ld", text, min, max);
        return false;
    }
    return util_parse_long(text, min, max, out, err, errsize);
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

FILE *util_temp_open(const char *path, char *tmp, size_t tmpsize, char *err, size_t errsize)
{
    if (snprintf(tmp, tmpsize, "%s.tmp%ld", path, (long)getpid()) >= (int)tmpsize) {
        snprintf(err, errsize, "cannot create a file beside %.100s: the path is too long", path);
        return NULL;
    }
    FILE *f = fopen(tmp, "wb");
    if (!f)
        snprintf(err, errsize, "cannot create %.200s: %s", tmp, strerror(errno));
    return f;
}

bool util_temp_commit(FILE *f, const char *tmp, const char *path, bool ok, char *err,
                      size_t errsize)
{
    int saved = ok ? 0 : errno; /* the caller's failed write, when it set errno */
    if (ok && (fflush(f) != 0 || util_fsync(fileno(f)) != 0)) {
        ok = false;
        saved = errno;
    }
    if (fclose(f) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        snprintf(err, errsize, "cannot write %.200s: %s", tmp,
                 saved ? strerror(saved) : "write error");
        remove(tmp);
        return false;
    }
    if (rename(tmp, path) != 0) {
        snprintf(err, errsize, "cannot rename %.200s to %.200s: %s", tmp, path, strerror(errno));
        remove(tmp);
        return false;
    }
    return true;
}

bool util_write_file(const char *path, const void *data, size_t len, char *err, size_t errsize)
{
    char tmp[4096];
    FILE *f = util_temp_open(path, tmp, sizeof tmp, err, errsize);
    if (!f)
        return false;
    errno = 0;
    bool ok = fwrite(data, 1, len, f) == len;
    return util_temp_commit(f, tmp, path, ok, err, errsize);
}

uint32_t util_fnv1a(const void *p, size_t n, uint32_t h)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

uint64_t util_fnv1a64(const void *p, size_t n, uint64_t h)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}
