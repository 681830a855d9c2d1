/*
 * hackerrank.c - fuzz harness for the HackerRank challenge input (hackerrank_parse_board)
 * and the whole `ponder hackerrank' program.
 *
 * The parser either says no (message, line) or gives a valid board. Then the program runs on
 * the same bytes as its standard input, with a node limit so that each run is short and always
 * the same: it must exit 2 exactly when the parser said no (or the input is too large to read),
 * 1 when the side to move has no legal move, and otherwise 0 with one legal move on stdout in
 * the challenge's format ("N" hops, then N+1 lines "row col").
 */
#include "fuzz.h"

#include "movegen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet_stdout();
    return 0;
}

/* Whether OUT is the challenge's text for one of LEGAL's moves. */
static bool prints_legal_move(const char *out, const MoveList *legal)
{
    for (int i = 0; i < legal->count; i++) {
        char want[32 * (MAX_JUMPS + 4)];
        hackerrank_format_move(&legal->moves[i], want, sizeof want);
        if (strcmp(out, want) == 0)
            return true;
    }
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    Board b;
    ParseError e;
    memset(&e, 0, sizeof e);
    bool ok = hackerrank_parse_board(text, &b, &e);
    if (!ok)
        fuzz_check_error(&e, strlen(text), false);
    else {
        char err[ERR_LEN];
        FUZZ_CHECK(board_valid(&b, err), "the parser accepted an invalid board");
    }

    char *argv[] = {"hackerrank", "--nodes", "300", "--hash", "1", NULL};
    char *out = NULL;
    size_t out_len = 0;
    int status = fuzz_run_command("hackerrank", 5, argv, data, size, &out, &out_len);
    if (!ok || memchr(data, '\0', size) != NULL) {
        /* A NUL ends the text for the parser above but not for the program. */
        FUZZ_CHECK(ok || status == 2, "the program accepted input the parser rejects");
    } else if (status != 2) {
        MoveList legal;
        movegen_generate(&b, &RULES_HACKERRANK, true, &legal);
        if (legal.count == 0)
            FUZZ_CHECK(status == 1 && out_len == 0, "no legal move: status 1, no output");
        else {
            FUZZ_CHECK(status == 0, "a legal move exists: status 0");
            FUZZ_CHECK(prints_legal_move(out, &legal), "the move printed is not legal");
        }
    }
    free(out);
    free(text);
    return 0;
}
