/*
 * openings.c - fuzz harness for opening files (openings_load: a PDN file, or FEN lines), which
 * `ponder match', `tournament' and `selfplay' read with --openings FILE.
 *
 * The bytes become a file. The loader either fails with a message, or returns at least one
 * opening, each from a valid position where the side to move has a legal move, its recorded
 * moves (if any) leading from the standard start to that position.
 */
#include "fuzz.h"

#include "movegen.h"
#include "openings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    snprintf(path, sizeof path, "/tmp/ponder-fuzz-openings-%ld", (long)getpid());
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL, "cannot write the temporary file");
    FUZZ_CHECK(fwrite(data, 1, size, f) == size && fclose(f) == 0, "cannot write the file");
    Opening *list = NULL;
    char err[ERR_LEN];
    memset(err, 0, sizeof err);
    int n = openings_load(path, &list, err);
    unlink(path);
    if (n < 0) {
        FUZZ_CHECK(err[0] != '\0' && memchr(err, '\0', sizeof err), "failure without a message");
        return 0;
    }
    FUZZ_CHECK(n >= 1 && list != NULL, "success without an opening");
    for (int i = 0; i < n; i++) {
        const Opening *o = &list[i];
        FUZZ_CHECK(memchr(o->name, '\0', sizeof o->name), "opening name not terminated");
        char msg[ERR_LEN];
        FUZZ_CHECK(board_valid(&o->start, msg), "opening with an invalid board");
        FUZZ_CHECK(movegen_count(&o->start, &RULES_ENGLISH, false) > 0, "opening without a move");
        FUZZ_CHECK(o->nmoves >= 0 && o->nmoves <= 8, "opening move count");
        if (o->nmoves > 0) {
            Board b;
            board_start(&b);
            for (int k = 0; k < o->nmoves; k++) {
                MoveList legal;
                movegen_generate(&b, &RULES_ENGLISH, true, &legal);
                bool found = false;
                for (int j = 0; j < legal.count && !found; j++)
                    found = move_same(&legal.moves[j], &o->moves[k], true);
                FUZZ_CHECK(found, "an opening's recorded move is not legal");
                board_apply(&b, &o->moves[k]);
            }
            FUZZ_CHECK(board_equal(&b, &o->start), "an opening's moves do not lead to its start");
        }
    }
    free(list);
    return 0;
}
