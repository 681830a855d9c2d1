/*
 * weights.c - the built-in evaluation weights, their names, and the weights-file reader.
 *
 * Names come from the identifiers of WEIGHTS_TABLE, lower-cased once on first use, so the table
 * in weights.h is the only place a weight is declared.
 */
#include "weights.h"

#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const int default_values[WEIGHT_NB] = {
#define WEIGHTS_VALUE(id, value) value,
    WEIGHTS_TABLE(WEIGHTS_VALUE)
#undef WEIGHTS_VALUE
};

static const char *const upper_names[WEIGHT_NB] = {
#define WEIGHTS_STRING(id, value) #id,
    WEIGHTS_TABLE(WEIGHTS_STRING)
#undef WEIGHTS_STRING
};

enum { NAME_MAX_LEN = 32 };
static char lower_names[WEIGHT_NB][NAME_MAX_LEN];
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void names_init(void)
{
    for (int i = 0; i < WEIGHT_NB; i++) {
        size_t j = 0;
        for (; upper_names[i][j] && j < NAME_MAX_LEN - 1; j++)
            lower_names[i][j] = (char)tolower((unsigned char)upper_names[i][j]);
        lower_names[i][j] = '\0';
    }
}

void weights_default(Weights *w) { memcpy(w->v, default_values, sizeof w->v); }

const char *weights_name(int id)
{
    if (id < 0 || id >= WEIGHT_NB)
        return NULL;
    pthread_once(&names_once, names_init);
    return lower_names[id];
}

int weights_find(const char *name)
{
    pthread_once(&names_once, names_init);
    for (int i = 0; i < WEIGHT_NB; i++)
        if (strcmp(lower_names[i], name) == 0)
            return i;
    return -1;
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool weights_parse(Weights *w, const char *text, char *err)
{
    Weights out = *w;
    bool seen[WEIGHT_NB] = {false};
    int line = 0;
    const char *p = text;
    while (*p) {
        line++;
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *q = p, *stop = p + len;
        p = end ? end + 1 : p + len;

        /* 1. Skip leading blanks; blank and comment lines carry nothing. */
        while (q < stop && is_blank(*q))
            q++;
        if (q == stop || *q == '#')
            continue;

        /* 2. The name: letters, digits and underscores. */
        char name[NAME_MAX_LEN];
        size_t n = 0;
        while (q < stop && !is_blank(*q)) {
            if (!(isalnum((unsigned char)*q) || *q == '_')) {
                snprintf(err, ERR_LEN, "line %d: unexpected character '%c' in a weight name", line,
                         *q);
                return false;
            }
            if (n + 1 >= sizeof name) {
                snprintf(err, ERR_LEN, "line %d: weight name too long", line);
                return false;
            }
            name[n++] = *q++;
        }
        name[n] = '\0';
        int id = weights_find(name);
        if (id < 0) {
            snprintf(err, ERR_LEN, "line %d: unknown weight `%s'", line, name);
            return false;
        }
        if (seen[id]) {
            snprintf(err, ERR_LEN, "line %d: weight `%s' given twice", line, name);
            return false;
        }
        seen[id] = true;

        /* 3. The value: one decimal integer within the limit, then nothing but blanks. */
        while (q < stop && is_blank(*q))
            q++;
        if (q == stop) {
            snprintf(err, ERR_LEN, "line %d: weight `%s' has no value", line, name);
            return false;
        }
        char num[24];
        size_t k = 0;
        while (q < stop && !is_blank(*q) && k + 1 < sizeof num)
            num[k++] = *q++;
        num[k] = '\0';
        char *num_end;
        errno = 0;
        long v = strtol(num, &num_end, 10);
        if (num_end == num || *num_end != '\0' || (q < stop && !is_blank(*q))) {
            snprintf(err, ERR_LEN, "line %d: value of `%s' is not an integer", line, name);
            return false;
        }
        if (errno == ERANGE || v < -WEIGHT_LIMIT || v > WEIGHT_LIMIT) {
            snprintf(err, ERR_LEN, "line %d: value %s of `%s' is outside [-%d, %d]", line, num, name,
                     WEIGHT_LIMIT, WEIGHT_LIMIT);
            return false;
        }
        while (q < stop && is_blank(*q))
            q++;
        if (q != stop) {
            snprintf(err, ERR_LEN, "line %d: unexpected text after the value of `%s'", line, name);
            return false;
        }
        out.v[id] = (int)v;
    }
    *w = out;
    return true;
}

/* "weights file PATH" SEP MSG into ERR (ERR_LEN bytes), cut to fit. */
static void file_error(char *err, const char *path, const char *sep, const char *msg)
{
    int n = snprintf(err, ERR_LEN, "weights file %.80s%s", path, sep);
    size_t at = n < 0 ? 0 : (size_t)n;
    while (at + 1 < ERR_LEN && *msg)
        err[at++] = *msg++;
    err[at] = '\0';
}

bool weights_load(Weights *w, const char *path, char *err)
{
    char msg[ERR_LEN];
    size_t len;
    char *text = cli_read_file(path, 1u << 20, &len, msg, sizeof msg);
    if (!text) {
        file_error(err, path, ": ", msg);
        return false;
    }
    bool ok = weights_parse(w, text, msg);
    free(text);
    if (!ok)
        file_error(err, path, ", ", msg);
    return ok;
}

bool weights_write(const Weights *w, FILE *out)
{
    for (int i = 0; i < WEIGHT_NB; i++)
        if (fprintf(out, "%s %d\n", weights_name(i), w->v[i]) < 0)
            return false;
    return fflush(out) == 0;
}
