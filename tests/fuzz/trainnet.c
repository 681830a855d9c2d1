/*
 * trainnet.c - fuzz harness for the files `ponder train' reads back: network files
 * (nnue_read, with which the trainer checks what it writes) and checkpoints (train_checkpoint_load,
 * given by --checkpoint FILE, so any file a user names).
 *
 * The bytes are parsed as a network file: refused with a message, or a network whose shape is
 * within the format's limits and whose integer forward pass gives a score within
 * +-(SCORE_DECISIVE - 1) on a few positions. Then they become a file loaded as a checkpoint:
 * refused with a message, or a state of a valid shape that saves and loads back unchanged.
 */
#include "fuzz.h"

#include "engine.h"
#include "nnue.h"
#include "train.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[64], again[80];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    snprintf(path, sizeof path, "/tmp/ponder-fuzz-trainnet-%ld", (long)getpid());
    snprintf(again, sizeof again, "%s.again", path);
    return 0;
}

static void check_net(const uint8_t *data, size_t size)
{
    char err[ERR_LEN];
    NnueNet *q = nnue_read(data, size, "fuzz.pnet", err);
    if (!q) {
        FUZZ_CHECK(strncmp(err, "fuzz.pnet: ", 11) == 0, "a refusal that does not name the file");
        return;
    }
    NetShape shape = {q->n1, q->n2, q->n3, q->buckets, q->l1_sets, q->features, q->act};
    size_t want = nnue_file_size(q->features, q->n1, q->n2, q->n3, q->buckets, q->l1_sets, q->act);
    FUZZ_CHECK(net_shape_check(&shape, err) && size == want,
               "a network file accepted with a bad shape or size");
    Board b;
    board_start(&b);
    for (int i = 0; i < 3; i++) {
        TrainSample s;
        memset(&s, 0, sizeof s);
        if (i == 1)
            b.side = WHITE;
        if (i == 2) { /* a king against a man */
            board_clear(&b, BLACK);
            board_set(&b, 9, BLACK, true);
            board_set(&b, 22, WHITE, false);
        }
        s.nfeat = (uint8_t)net_features(q->features, &b, s.feat);
        s.bucket = (uint8_t)nnue_bucket(&b, q->buckets);
        int score = nnue_evaluate_features(q, s.feat, s.nfeat, s.bucket);
        FUZZ_CHECK(score > -SCORE_DECISIVE && score < SCORE_DECISIVE, "a score out of range");
    }
    nnue_free(q);
}

static void check_checkpoint(const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL, "cannot write the temporary file");
    FUZZ_CHECK(fwrite(data, 1, size, f) == size && fclose(f) == 0, "cannot write the file");
    char err[ERR_LEN];
    TrainState st, st2;
    int got = train_checkpoint_load(&st, path, err);
    remove(path);
    FUZZ_CHECK(got == 1 || got == -1, "an existing checkpoint reported missing");
    if (got < 0) {
        FUZZ_CHECK(strstr(err, path) != NULL, "a refusal that does not name the file");
        return;
    }
    FUZZ_CHECK(net_shape_check(&st.net.shape, err), "a checkpoint accepted with a bad shape");
    FUZZ_CHECK(train_checkpoint_save(&st, again, err), "a loaded checkpoint does not save");
    FUZZ_CHECK(train_checkpoint_load(&st2, again, err) == 1, "a saved checkpoint does not load");
    remove(again);
    size_t bytes = st.net.nparams * sizeof(float);
    FUZZ_CHECK(st2.epoch == st.epoch && st2.step == st.step && st2.seed == st.seed &&
                   st2.data_hash == st.data_hash && memcmp(st.net.p, st2.net.p, bytes) == 0 &&
                   memcmp(st.m, st2.m, bytes) == 0 && memcmp(st.v, st2.v, bytes) == 0,
               "a checkpoint changed on its way through save and load");
    train_state_free(&st);
    train_state_free(&st2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_net(data, size);
    check_checkpoint(data, size);
    return 0;
}
