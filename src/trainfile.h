/*
 * trainfile.h - the file of training positions that `ponder selfplay' writes and `ponder tune'
 * reads.
 *
 * A file is a sequence of 16-byte blocks, every number little-endian. The first block is a
 * header; each later block is a record or another header, so files concatenate: `cat a b >
 * all' merges the shards of a self-play run into one valid file.
 *
 *   header  bytes 0-7   the magic "PONDTRN" and a zero byte
 *           bytes 8-9   format version (TRAIN_VERSION)
 *           bytes 10-11 block size (16)
 *           bytes 12-15 zero (reserved)
 *   record  bytes 0-3   Black's pieces, bit i = square i+1
 *           bytes 4-7   White's pieces
 *           bytes 8-11  the kings of both colours
 *           bytes 12-13 the search score, signed, from the side to move's point of view, in
 *                       hundredths of a man (a proven result is near +-SCORE_WIN)
 *           byte 14     bit 0: side to move (0 Black, 1 White); bits 1-2: the game's result
 *                       (0 White won, 1 draw, 2 Black won); bits 3-7 zero
 *           byte 15     plies played from the standard start to this position (255: 255 or more)
 *
 * The magic's first eight bytes, read as a record, give Black and White shared squares, so no
 * valid record is ever mistaken for a header. The reader checks every block: a record must be a
 * position of English checkers (no square of both colours, kings on occupied squares, no man on
 * its crowning row, 1-12 pieces a side) with its score and result in range.
 */
#pragma once

#include "board.h"
#include "openings.h"

#include <stdio.h>

enum {
    TRAIN_BLOCK = 16,  /* bytes in a header or a record */
    TRAIN_VERSION = 1, /* the format this program reads and writes */
};

typedef enum {
    TRAIN_WHITE_WON = 0,
    TRAIN_DRAW = 1,
    TRAIN_BLACK_WON = 2,
} TrainResult;

typedef struct {
    Board board;        /* the position (its key computed) */
    TrainResult result; /* how the game it comes from ended */
    int score;          /* search score for the side to move, within +-SCORE_WIN */
    int ply;            /* plies from the standard start, 0-255 */
} TrainRecord;

typedef enum { TRAIN_BAD = -1, TRAIN_HEADER = 0, TRAIN_RECORD = 1 } TrainBlockKind;

/* The header block. */
void trainfile_header(uint8_t out[TRAIN_BLOCK]);

/* The record block of R, which must be valid (the score is clamped to the range). */
void trainfile_encode(const TrainRecord *r, uint8_t out[TRAIN_BLOCK]);

/* What block IN is: a header (of a version this program reads), a record (decoded into *R), or
 * bad, with the reason in ERR (ERR_LEN bytes). */
TrainBlockKind trainfile_decode(const uint8_t in[TRAIN_BLOCK], TrainRecord *r, char *err);

/* Whether the file PATH starts with the header's magic (false too when it cannot be read). */
bool trainfile_sniff(const char *path);

/* A reader of one file, block by block. */
typedef struct {
    FILE *f;          /* the open file */
    char path[256];   /* its name, for messages */
    uint64_t block;   /* blocks read so far */
    uint64_t records; /* records among them */
} TrainReader;

/* Opens PATH for reading. Returns false with the reason in ERR (ERR_LEN bytes). */
bool trainfile_open(TrainReader *rd, const char *path, char *err);

/* The next record of the file: 1 with *R filled, 0 at the end of the file, -1 on a bad block, a
 * truncated file, a file that does not start with a header, or a read error, with the reason
 * (file, block number and byte offset) in ERR. */
int trainfile_next(TrainReader *rd, TrainRecord *r, char *err);

void trainfile_close(TrainReader *rd);

/* Every record of PATH in a malloc'd array (*OUT, caller frees; *N records), appended to what
 * *OUT already holds (*N of them, *OUT may be NULL with *N == 0). Returns false with the reason
 * in ERR; *OUT and *N then still describe the records read before the error. */
bool trainfile_load(const char *path, TrainRecord **out, size_t *n, char *err);

/* Start positions sampled from the training-position file PATH (the quiet positions of an
 * earlier self-play run): the records from plies LO to HI of their game whose search score is
 * within MAX_SCORE hundredths of a man of even, each position once (its first record), in an
 * order shuffled by SEED, at most LIMIT of them; an opening's earlier_plies is its record's ply.
 * Returns the count (at least 1) with a malloc'd array in *OUT (caller frees), or -1 with the
 * reason (file and block) in ERR. */
int trainfile_openings(const char *path, int lo, int hi, int max_score, uint64_t seed, int limit,
                       Opening **out, char *err);
