/*
 * command.c - the table of subcommands that PONDER_COMMAND fills (see command.h).
 */
#include "command.h"

#include <string.h>

enum { COMMAND_MAX = 64 };

static const Command *table[COMMAND_MAX];
static int table_count;

void command_register(const Command *c)
{
    if (table_count >= COMMAND_MAX)
        return;
    /* Insertion sort by order, then name: the table is tiny and filled once. */
    int i = table_count++;
    while (i > 0 && (table[i - 1]->order > c->order || (table[i - 1]->order == c->order &&
                                                        strcmp(table[i - 1]->name, c->name) > 0))) {
        table[i] = table[i - 1];
        i--;
    }
    table[i] = c;
}

const Command *command_find(const char *name)
{
    for (int i = 0; i < table_count; i++)
        if (strcmp(table[i]->name, name) == 0)
            return table[i];
    return NULL;
}

const Command *const *command_all(int *count)
{
    *count = table_count;
    return table;
}
