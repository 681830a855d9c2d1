/*
 * egdb_hook.c - the registry through which the engine finds the endgame-database driver (see
 * egdb_hook.h): one slot, written by the database module, read by engine_new().
 */
#include "egdb_hook.h"

#include <stdatomic.h>

static _Atomic(const EgdbDriver *) registered_driver;

void egdb_hook_register(const EgdbDriver *d)
{
    atomic_store(&registered_driver, d);
}

const EgdbDriver *egdb_hook_driver(void)
{
    return atomic_load(&registered_driver);
}
