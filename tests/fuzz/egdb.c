/*
 * egdb.c - fuzz harness for endgame database files (egdb_read_slice, egdb_open, egdb_probe),
 * which every engine program reads with --egdb DIR: a damaged or hostile file must be refused
 * or answered with `unknown', never read out of bounds.
 *
 * The bytes become one slice file in a directory of the harness's own, named after the piece
 * counts in its header (bytes 12-15) so that egdb_open maps it. egdb_read_slice checks the whole
 * file (a failure says why); egdb_open maps it after checking only the header, so then every
 * position of the slice (a slice of at most 65536 indices) is probed with each side to move:
 * each probe must return one of the four values without reading outside the file. The seeds
 * are the 2- and 3-piece files `ponder egdb build' writes.
 */
#include "fuzz.h"

#include "egdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

static void remove_dir(void)
{
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    snprintf(dir, sizeof dir, "/tmp/ponder-fuzz-egdb-XXXXXX");
    if (!mkdtemp(dir))
        fuzz_fail(__FILE__, __LINE__, "cannot make a temporary directory");
    atexit(remove_dir);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 16)
        return 0;
    int bm = data[12], bk = data[13], wm = data[14], wk = data[15];
    char path[128];
    snprintf(path, sizeof path, "%s/db-%d-%d-%d-%d.egdb", dir, bm, bk, wm, wk);
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL, "cannot write the slice file");
    FUZZ_CHECK(fwrite(data, 1, size, f) == size && fclose(f) == 0, "cannot write the slice file");

    EgdbFileInfo info;
    char err[ERR_LEN];
    memset(err, 0, sizeof err);
    if (!egdb_read_slice(path, &info, NULL, err))
        FUZZ_CHECK(err[0] != '\0' && memchr(err, '\0', sizeof err), "failure without a message");

    EgdbSet *set = egdb_open(dir, err);
    if (set && bm + bk + wm + wk <= EGDB_MAX_PIECES) {
        EgdbSlice s;
        egdb_slice_init(&s, bm, bk, wm, wk);
        for (uint64_t i = 0; s.size <= 65536 && i < s.size; i++) {
            Board b;
            if (!egdb_index_decode(&s, i, &b))
                continue;
            for (int side = BLACK; side <= WHITE; side++) {
                b.side = side;
                b.key = board_compute_key(&b);
                EgdbValue v = egdb_probe(set, &b);
                FUZZ_CHECK(v == EGDB_UNKNOWN || v == EGDB_WIN || v == EGDB_LOSS || v == EGDB_DRAW,
                           "a probe returned something else than a value");
            }
        }
    }
    egdb_close(set);
    unlink(path);
    return 0;
}
