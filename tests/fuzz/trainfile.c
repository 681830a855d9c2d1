/*
 * trainfile.c - fuzz harness for the training-position files of `ponder selfplay' and
 * `ponder tune --data FILE' (trainfile_load, trainfile_encode, trainfile_decode), and the
 * openings `ponder selfplay --openings FILE' samples from them (trainfile_openings).
 *
 * The bytes become a file. The loader either refuses it with a message (keeping the records it
 * read before the fault, which must be sound too), or gives records that are all valid: a
 * consistent board, a result and a score within range, a ply 0-255. Each record encodes to a
 * block that decodes to the same record. The sampler refuses the same file with a message, or
 * gives distinct positions, each a valid board with a legal move, from the plies asked for.
 */
#include "fuzz.h"

#include "movegen.h"
#include "trainfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    snprintf(path, sizeof path, "/tmp/ponder-fuzz-trainfile-%ld", (long)getpid());
    return 0;
}

static void check_record(const TrainRecord *r)
{
    char err[ERR_LEN];
    FUZZ_CHECK(board_valid(&r->board, err), "a record with an invalid board");
    FUZZ_CHECK(r->result == TRAIN_WHITE_WON || r->result == TRAIN_DRAW ||
                   r->result == TRAIN_BLACK_WON,
               "a record with an unknown result");
    FUZZ_CHECK(r->ply >= 0 && r->ply <= 255, "a record's ply out of range");
    uint8_t block[TRAIN_BLOCK];
    trainfile_encode(r, block);
    TrainRecord again;
    FUZZ_CHECK(trainfile_decode(block, &again, err) == TRAIN_RECORD,
               "an encoded record unreadable");
    FUZZ_CHECK(board_equal(&again.board, &r->board) && again.result == r->result &&
                   again.score == r->score && again.ply == r->ply,
               "record round trip changed it");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL, "cannot write the temporary file");
    FUZZ_CHECK(fwrite(data, 1, size, f) == size && fclose(f) == 0, "cannot write the file");
    TrainRecord *records = NULL;
    size_t n = 0;
    char err[ERR_LEN];
    memset(err, 0, sizeof err);
    bool ok = trainfile_load(path, &records, &n, err);
    Opening *op = NULL;
    char err2[ERR_LEN];
    memset(err2, 0, sizeof err2);
    int nop = trainfile_openings(path, 2, 200, 150, size, 64, &op, err2);
    unlink(path);
    if (nop < 0)
        FUZZ_CHECK(err2[0] != '\0' && memchr(err2, '\0', sizeof err2),
                   "openings without a message");
    else
        FUZZ_CHECK(ok && nop >= 1 && nop <= 64 && (size_t)nop <= n, "openings from a bad file");
    for (int i = 0; i < nop; i++) {
        MoveList moves;
        FUZZ_CHECK(board_valid(&op[i].start, err2), "an opening with an invalid board");
        FUZZ_CHECK(movegen_generate(&op[i].start, &RULES_ENGLISH, false, &moves) > 0,
                   "an opening with no legal move");
        FUZZ_CHECK(op[i].earlier_plies >= 2 && op[i].earlier_plies <= 200 && op[i].nmoves == 0,
                   "an opening from outside the plies asked for");
        for (int j = 0; j < i; j++)
            FUZZ_CHECK(!board_equal(&op[i].start, &op[j].start), "an opening twice");
    }
    free(op);
    if (!ok)
        FUZZ_CHECK(err[0] != '\0' && memchr(err, '\0', sizeof err), "failure without a message");
    FUZZ_CHECK(n <= size / TRAIN_BLOCK, "more records than blocks");
    for (size_t i = 0; i < n; i++)
        check_record(&records[i]);
    free(records);
    return 0;
}
