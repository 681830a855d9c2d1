/*
 * tower.c - fuzz harness for `ponder tower' (seed 004): the bytes are its standard input, lines
 * of actions (G6-F5) and maybe a final A or P command, read by the program's own line reader,
 * checked by tower_parse_line and tower_check_action, and searched by plain minimax of depth 3.
 * The program must finish with status 0 or 1 (an error message ends a run), whatever the input;
 * the sanitizers watch the rest.
 */
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet_stdout();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[] = {"tower", NULL};
    int status = fuzz_run_command("tower", 1, argv, data, size, NULL, NULL);
    FUZZ_CHECK(status == 0 || status == 1, "ponder tower exit status");
    return 0;
}
