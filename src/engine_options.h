/*
 * engine_options.h - private to the engine facade: the options-by-name table of
 * engine_options.c and the lookups engine.c's engine_option_set/get share with it.
 */
#pragma once

#include "engine.h"

/* The options, in the table's order. */
enum {
    OPT_HASH,
    OPT_THREADS,
    OPT_WEIGHTS,
    OPT_EVAL,
    OPT_NET,
    OPT_EGDB,
    OPT_BOOK,
    OPT_BOOK_VARIETY,
    OPT_CONTEMPT,
    OPT_NB
};

/* The table: names, types, defaults and limits (engine.h's ENGINE_*_MIN/MAX/DEFAULT). */
extern const EngineOptionInfo engine_option_table[OPT_NB];

/* The index of option NAME, or -1 with the table's names in ERR (ERR_LEN bytes). */
int engine_option_find(const char *name, char *err);

/* Reads VALUE for option O into *NUMBER (when not NULL): engine_option_parse by entry. */
bool engine_option_parse_info(const EngineOptionInfo *o, const char *value, long *number,
                              char *err);
