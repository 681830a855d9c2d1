/*
 * main.c - the `ponder` multi-call binary: finds the subcommand (registered by its own file, see
 * command.h) and runs it. With no arguments, or only options, it runs the engine console;
 * `ponder help` lists the commands and `ponder help CMD` is `ponder CMD --help`; `ponder
 * --version` is `ponder version`.
 */
#include "cli.h"
#include "command.h"
#include "egdb.h"
#include "nnue.h"
#include "ponder.h"

#include <stdio.h>
#include <string.h>

static void help(FILE *f)
{
    int n;
    const Command *const *all = command_all(&n);
    fprintf(f, "Ponder - a checkers (English draughts) engine and toolset.\n\n"
               "usage: ponder [COMMAND [ARGS...]]   (no command: the engine console)\n\n"
               "commands:\n");
    for (int i = 0; i < n; i++)
        fprintf(f, "  %-12s %s\n", all[i]->name, all[i]->summary);
    fprintf(f, "  %-12s %s\n\n`ponder COMMAND --help' describes each command.\n", "help",
            "this list");
}

int main(int argc, char **argv)
{
    /* The library does nothing when it loads: its tables are filled here, and this program is
     * the one that has the endgame databases and the network evaluation (the HackerRank single
     * file, built without egdb.c and the nnue module, has neither). */
    ponder_init();
    egdb_hook_register(&egdb_driver);
    nnue_hook_register(&nnue_driver);
    if (argc < 2) {
        const Command *console = command_find("console");
        if (console)
            return console->run(1, (char *[]){"console", NULL});
        help(stdout);
        return 0;
    }
    const char *name = argv[1];
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
        const Command *v = command_find("version");
        if (v)
            return v->run(argc - 1, (char *[]){"version", NULL});
    }
    if (strcmp(name, "help") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        if (argc > 2) {
            const Command *c = command_find(argv[2]);
            if (!c) {
                fprintf(stderr, "ponder: unknown command `%s'\n", argv[2]);
                return 2;
            }
            return c->run(2, (char *[]){argv[2], "--help", NULL});
        }
        help(stdout);
        return 0;
    }
    /* Options alone belong to the console: `ponder --threads 2'. */
    const Command *console = command_find("console");
    if (name[0] == '-' && console)
        return console->run(argc, argv);
    const Command *c = command_find(name);
    if (c) {
        /* Number errors name the command even where it reads arguments without opts_begin. */
        static char prog[64];
        snprintf(prog, sizeof prog, "ponder %s", c->name);
        cli_set_prog(prog);
        return c->run(argc - 1, argv + 1);
    }
    fprintf(stderr, "ponder: unknown command `%s' (`ponder help' lists them)\n", name);
    return 2;
}
