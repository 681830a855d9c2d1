/*
 * fen.c - fuzz harness for FEN (notation_parse_fen).
 *
 * Any bytes: the parser either says no with a message and a column inside the text, or gives a
 * consistent board (board_valid) that its writer writes back to a FEN the parser reads as the
 * same position. The move generator then runs on that board under every rule set, and every
 * move it gives leaves a consistent board: a parser that says yes must hand over a position the
 * rest of the program can use.
 */
#include "fuzz.h"

#include "movegen.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    return 0;
}

static void check_moves(const Board *b)
{
    const Rules *rules[] = {&RULES_ENGLISH, &RULES_HACKERRANK, &RULES_TOWER};
    for (int r = 0; r < 3; r++)
        for (int all = 0; all < 2; all++) {
            MoveList list;
            int n = movegen_generate(b, rules[r], all, &list);
            FUZZ_CHECK(n == list.count && n >= 0 && n <= MAX_MOVES, "move count out of range");
            FUZZ_CHECK(n == movegen_count(b, rules[r], all), "movegen_count disagrees");
            for (int i = 0; i < n; i++) {
                Board next = *b;
                board_apply(&next, &list.moves[i]);
                char err[ERR_LEN];
                FUZZ_CHECK(board_valid(&next, err), "a move leaves an invalid board");
            }
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    Board b;
    ParseError e;
    memset(&e, 0, sizeof e);
    if (!notation_parse_fen(text, &b, &e)) {
        fuzz_check_error(&e, strlen(text), true);
        free(text);
        return 0;
    }
    char err[ERR_LEN];
    FUZZ_CHECK(board_valid(&b, err), "the parser accepted an invalid board");

    char fen[256];
    int len = notation_format_fen(&b, fen, sizeof fen);
    FUZZ_CHECK(len > 0 && (size_t)len < sizeof fen && strlen(fen) == (size_t)len,
               "FEN writer length");
    Board again;
    memset(&e, 0, sizeof e);
    FUZZ_CHECK(notation_parse_fen(fen, &again, &e), "the writer's FEN does not parse");
    FUZZ_CHECK(board_equal(&b, &again) && b.key == again.key, "FEN round trip changed the board");

    check_moves(&b);
    free(text);
    return 0;
}
