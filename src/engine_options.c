/*
 * engine_options.c - the engine's options by name (see engine.h): one table of names, types,
 * defaults and limits, the lookup by name and the parsing of a value. engine.c applies a value
 * to an engine (engine_option_set) and reads it back (engine_option_get).
 */
#include "engine_options.h"

#include "nnue_hook.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

/* The values of eval, in the order of ENGINE_EVAL_CLASSIC, ENGINE_EVAL_NET. */
static const char *const eval_choices[] = {"classic", "net", NULL};

/* In the order of opts.c's command-line options, which take the same values. */
const EngineOptionInfo engine_option_table[OPT_NB] = {
    [OPT_HASH] = {"hash", ENGINE_OPTION_INT, ENGINE_HASH_MB_DEFAULT, ENGINE_HASH_MB_MIN,
                  ENGINE_HASH_MB_MAX, NULL, "transposition table size in MB"},
    [OPT_THREADS] = {"threads", ENGINE_OPTION_INT, ENGINE_THREADS_DEFAULT, ENGINE_THREADS_MIN,
                     ENGINE_THREADS_MAX, NULL, "search threads"},
    [OPT_WEIGHTS] = {"weights", ENGINE_OPTION_STRING, 0, 0, 0, NULL,
                     "evaluation weights file (none: the built-in weights)"},
    [OPT_EVAL] = {"eval", ENGINE_OPTION_CHOICE, 0, 0, 0, eval_choices,
                  "classic (the formula) or net (the network)"},
    [OPT_NET] = {"net", ENGINE_OPTION_STRING, 0, 0, 0, NULL,
                 "network file (none: the built-in network)"},
    [OPT_EGDB] = {"egdb", ENGINE_OPTION_STRING, 0, 0, 0, NULL,
                  "endgame database directory (none: no databases)"},
    [OPT_BOOK] = {"book", ENGINE_OPTION_STRING, 0, 0, 0, NULL,
                  "opening book file (builtin: the built-in book; none: no book)"},
    [OPT_BOOK_VARIETY] = {"book-variety", ENGINE_OPTION_INT, ENGINE_BOOK_VARIETY_DEFAULT,
                          ENGINE_BOOK_VARIETY_MIN, ENGINE_BOOK_VARIETY_MAX, NULL,
                          "any book move within N hundredths of a man of the best"},
    [OPT_CONTEMPT] = {"contempt", ENGINE_OPTION_INT, ENGINE_CONTEMPT_DEFAULT, ENGINE_CONTEMPT_MIN,
                      ENGINE_CONTEMPT_MAX, NULL,
                      "a draw counts as N hundredths of a man lost, a piece beyond 8 as N/5 won"},
};

const EngineOptionInfo *engine_option_list(int *count)
{
    *count = OPT_NB;
    return engine_option_table;
}

int engine_option_find(const char *name, char *err)
{
    for (int i = 0; i < OPT_NB; i++)
        if (name && strcmp(name, engine_option_table[i].name) == 0)
            return i;
    int n = snprintf(err, ERR_LEN, "unknown engine option `%.40s' (known:", name ? name : "");
    for (int i = 0; i < OPT_NB && n > 0 && n < ERR_LEN; i++)
        n += snprintf(err + n, ERR_LEN - (size_t)n, "%s %s", i ? "," : "",
                      engine_option_table[i].name);
    if (n > 0 && n < ERR_LEN)
        snprintf(err + n, ERR_LEN - (size_t)n, ")");
    return -1;
}

const EngineOptionInfo *engine_option_info(const char *name)
{
    char err[ERR_LEN];
    int id = engine_option_find(name, err);
    return id < 0 ? NULL : &engine_option_table[id];
}

void engine_option_default(const EngineOptionInfo *o, char *out, size_t size)
{
    const NnueDriver *drv = nnue_hook_driver();
    if (o->type == ENGINE_OPTION_INT)
        snprintf(out, size, "%ld", o->def);
    else if (o->type == ENGINE_OPTION_CHOICE) /* eval: what ENGINE_EVAL_DEFAULT comes to */
        snprintf(out, size, "%s", drv && drv->has_default() ? "net" : "classic");
    else
        snprintf(out, size, "none");
}

bool engine_option_parse_info(const EngineOptionInfo *o, const char *value, long *number, char *err)
{
    long n = 0;
    if (!value) {
        snprintf(err, ERR_LEN, "no value given");
        return false;
    }
    switch (o->type) {
    case ENGINE_OPTION_INT:
        /* A protocol's value is the number alone. */
        if (!util_parse_whole(value, o->min, o->max, &n, err, ERR_LEN))
            return false;
        break;
    case ENGINE_OPTION_CHOICE: {
        int i = 0;
        while (o->choices[i] && strcmp(value, o->choices[i]) != 0)
            i++;
        if (!o->choices[i]) {
            int at = snprintf(err, ERR_LEN, "`%.40s' is not", value);
            for (int j = 0; o->choices[j] && at > 0 && at < ERR_LEN; j++)
                at += snprintf(err + at, ERR_LEN - (size_t)at, "%s `%s'",
                               j == 0              ? ""
                               : o->choices[j + 1] ? ","
                                                   : " or",
                               o->choices[j]);
            return false;
        }
        n = i;
        break;
    }
    case ENGINE_OPTION_STRING:
        if (strlen(value) >= ENGINE_PATH_MAX) {
            snprintf(err, ERR_LEN, "a name longer than %d bytes", ENGINE_PATH_MAX - 1);
            return false;
        }
        break;
    }
    if (number)
        *number = n;
    return true;
}

bool engine_option_parse(const char *name, const char *value, long *number, char *err)
{
    int id = engine_option_find(name, err);
    return id >= 0 && engine_option_parse_info(&engine_option_table[id], value, number, err);
}
