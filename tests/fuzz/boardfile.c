/*
 * boardfile.c - fuzz harness for the seed-003 board files of `ponder play'
 * (boardfile_parse).
 *
 * The parser either says no (message, line) or gives a valid board and a positive, finite time
 * limit; the writer then writes both back to text that the parser reads as the same board and
 * exactly the same time limit.
 */
#include "fuzz.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    Board b;
    double t = 0;
    ParseError e;
    memset(&e, 0, sizeof e);
    if (!boardfile_parse(text, &b, &t, &e)) {
        fuzz_check_error(&e, strlen(text), false);
        free(text);
        return 0;
    }
    char err[ERR_LEN];
    FUZZ_CHECK(board_valid(&b, err), "the parser accepted an invalid board");
    FUZZ_CHECK(isfinite(t) && t > 0, "time limit not positive and finite");

    char buf[512];
    int len = boardfile_format(&b, t, buf, sizeof buf);
    FUZZ_CHECK(len > 0 && (size_t)len < sizeof buf, "board file writer length");
    Board again;
    double t2 = 0;
    memset(&e, 0, sizeof e);
    FUZZ_CHECK(boardfile_parse(buf, &again, &t2, &e), "written board file unreadable");
    FUZZ_CHECK(board_equal(&b, &again), "board file round trip changed the board");
    FUZZ_CHECK(t2 == t, "board file round trip changed the time limit");
    free(text);
    return 0;
}
