/*
 * weights.c - the built-in evaluation weights, their names, and the weights-file reader.
 *
 * Names come from the identifiers of WEIGHTS_TABLE, lower-cased once on first use, so the table
 * in weights.h is the only place a weight is declared. The blend the evaluation reads is made
 * here too: pairs are found by name (NAME_MG with NAME_EG), once.
 */
#include "weights.h"

#include "util.h"

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

/* The _eg partner of each _mg weight and the _mg partner of each _eg weight (-1 for the
 * others), and which weights are _eg ones. */
static int eg_partner[WEIGHT_NB], mg_partner[WEIGHT_NB];
static bool is_eg[WEIGHT_NB];
static pthread_once_t pairs_once = PTHREAD_ONCE_INIT;

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

static void pairs_init(void)
{
    for (int i = 0; i < WEIGHT_NB; i++)
        mg_partner[i] = -1;
    for (int i = 0; i < WEIGHT_NB; i++) {
        eg_partner[i] = -1;
        is_eg[i] = ends_with(upper_names[i], "_EG");
        if (!ends_with(upper_names[i], "_MG"))
            continue;
        char eg[NAME_MAX_LEN];
        snprintf(eg, sizeof eg, "%s", upper_names[i]);
        eg[strlen(eg) - 2] = 'E';
        for (int j = 0; j < WEIGHT_NB; j++)
            if (strcmp(upper_names[j], eg) == 0) {
                eg_partner[i] = j;
                mg_partner[j] = i;
            }
    }
}

/* Blend entry of weight I at phase P. */
static int blend_of(const Weights *w, int i, int p)
{
    if (eg_partner[i] >= 0)
        return w->v[i] * p + w->v[eg_partner[i]] * (WEIGHT_PHASE_MAX - p);
    if (is_eg[i])
        return w->v[i] * (WEIGHT_PHASE_MAX - p);
    return w->v[i] * WEIGHT_PHASE_MAX;
}

void weights_refresh(Weights *w)
{
    pthread_once(&pairs_once, pairs_init);
    for (int p = 0; p <= WEIGHT_PHASE_MAX; p++)
        for (int i = 0; i < WEIGHT_NB; i++)
            w->blend[p][i] = blend_of(w, i, p);
}

void weights_set(Weights *w, int id, int value)
{
    pthread_once(&pairs_once, pairs_init);
    w->v[id] = value;
    int mg = mg_partner[id]; /* its entry holds this weight too */
    for (int p = 0; p <= WEIGHT_PHASE_MAX; p++) {
        w->blend[p][id] = blend_of(w, id, p);
        if (mg >= 0)
            w->blend[p][mg] = blend_of(w, mg, p);
    }
}

void weights_set_phase(Weights *w, int id, int value, int phase)
{
    pthread_once(&pairs_once, pairs_init);
    w->v[id] = value;
    w->blend[phase][id] = blend_of(w, id, phase);
    if (mg_partner[id] >= 0)
        w->blend[phase][mg_partner[id]] = blend_of(w, mg_partner[id], phase);
}

bool weights_fresh(const Weights *w, int phase)
{
    pthread_once(&pairs_once, pairs_init);
    for (int p = phase < 0 ? 0 : phase; p <= (phase < 0 ? WEIGHT_PHASE_MAX : phase); p++)
        for (int i = 0; i < WEIGHT_NB; i++)
            if (w->blend[p][i] != blend_of(w, i, p))
                return false;
    return true;
}

void weights_default(Weights *w)
{
    memcpy(w->v, default_values, sizeof w->v);
    weights_refresh(w);
}

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

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

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
            snprintf(err, ERR_LEN, "line %d: value %s of `%s' is outside [-%d, %d]", line, num,
                     name, WEIGHT_LIMIT, WEIGHT_LIMIT);
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
    weights_refresh(&out);
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
    char *text = util_read_file(path, 1u << 20, &len, msg, sizeof msg);
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
