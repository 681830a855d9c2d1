/*
 * console.c - fuzz harness for the engine console (`ponder console', seed 000): the bytes are
 * its standard input, command lines and moves, read by its own line reader and carried out by
 * console_execute, drawing the board, printing errors, thinking and pondering.
 *
 * A final line `quit' is added so that every search the input starts is interrupted by a line
 * already waiting (a search never begins when input is waiting): each run is short and does not
 * depend on timing. The program must end with status 0.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet_stdout();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char quit[] = "\nquit\n";
    uint8_t *in = malloc(size + sizeof quit);
    if (!in)
        return 0;
    if (size > 0)
        memcpy(in, data, size);
    memcpy(in + size, quit, sizeof quit - 1);
    char *argv[] = {"console", "--hash", "1", NULL};
    int status = fuzz_run_command("console", 3, argv, in, size + sizeof quit - 1, NULL, NULL);
    FUZZ_CHECK(status == 0, "ponder console exit status");
    free(in);
    return 0;
}
