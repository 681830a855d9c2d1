/*
 * play.c - fuzz harness for the terminal game (`ponder play', seed 003): the bytes are what a
 * user types, the answers to the set-up questions (who plays each side, the time limit, a board
 * file), then moves by number or text and the commands (undo, hint, save FILE, board, help,
 * quit), and the answer to the PDN question at the end. The computer searches 2 plies at most,
 * so a whole game is quick. The program must end with status 0.
 *
 * Two rewrites keep the harness from touching the file system outside its own file: a `/' in
 * a line becomes `_' (a board file named by the input is then read from the current directory
 * at most), and a line starting with `save' saves to a temporary file of the harness.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static char save_line[80]; /* "save /tmp/ponder-fuzz-play-PID.pdn" */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet_stdout();
    snprintf(save_line, sizeof save_line, "save /tmp/ponder-fuzz-play-%ld.pdn", (long)getpid());
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The input with the rewrites: each line may grow to the save line. */
    size_t cap = size + 1 + (size + 1) * sizeof save_line, n = 0;
    uint8_t *in = malloc(cap);
    if (!in)
        return 0;
    for (size_t i = 0; i < size;) {
        size_t end = i;
        while (end < size && data[end] != '\n')
            end++;
        size_t j = i;
        while (j < end && (data[j] == ' ' || data[j] == '\t'))
            j++;
        if (end - j >= 4 && strncasecmp((const char *)data + j, "save", 4) == 0) {
            memcpy(in + n, save_line, strlen(save_line));
            n += strlen(save_line);
        } else
            for (size_t k = i; k < end; k++)
                in[n++] = data[k] == '/' ? '_' : data[k];
        if (end < size)
            in[n++] = '\n';
        i = end + 1;
    }
    char *argv[] = {"play",   "--depth", "2",       "--nodes", "2000",
                    "--hash", "1",       "--color", "never",   NULL};
    int status = fuzz_run_command("play", 9, argv, in, n, NULL, NULL);
    FUZZ_CHECK(status == 0, "ponder play exit status");
    unlink(save_line + 5);
    free(in);
    return 0;
}
