/*
 * command.h - how a `ponder` subcommand plugs into the binary.
 *
 * Each front end (console.c, perft.c, match.c, ...) ends with one PONDER_COMMAND(...) line. The
 * macro registers the command before main() runs, so adding a program means adding a file: no
 * central table to edit. main.c looks commands up by name and lists them, ordered by ORDER, for
 * `ponder help`. An entry point takes the arguments after `ponder` (argv[0] is the command name)
 * and returns the exit status: 0 success, 1 failure at run time, 2 bad arguments or input.
 */
#pragma once

typedef struct {
    const char *name;                  /* what the user types after `ponder` */
    int (*run)(int argc, char **argv); /* the entry point */
    const char *summary;               /* one line for `ponder help` */
    int order;                         /* position in `ponder help` (smaller first) */
} Command;

/* Adds C to the table (called by PONDER_COMMAND before main). */
void command_register(const Command *c);

/* The command called NAME, or NULL. */
const Command *command_find(const char *name);

/* The registered commands sorted by order; their number goes to *COUNT. */
const Command *const *command_all(int *count);

#define PONDER_COMMAND(NAME, FN, ORDER, SUMMARY)                                                   \
    __attribute__((constructor)) static void register_##FN(void)                                   \
    {                                                                                              \
        static const Command c = {NAME, FN, SUMMARY, ORDER};                                       \
        command_register(&c);                                                                      \
    }
