/*
 * nnue_hook.c - the registry through which the engine finds the network driver (see
 * nnue_hook.h): one slot, written by the program at start-up, read by engine_new() and
 * engine_option_set(). The twin of egdb_hook.c.
 */
#include "nnue_hook.h"

#include <stdatomic.h>

static _Atomic(const NnueDriver *) registered_driver;

void nnue_hook_register(const NnueDriver *d)
{
    atomic_store(&registered_driver, d);
}

const NnueDriver *nnue_hook_driver(void)
{
    return atomic_load(&registered_driver);
}
