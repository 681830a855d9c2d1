/*
 * moves.c - fuzz harness for the move notations: square moves (notation_parse_squares and
 * notation_parse_move: 11-15, 15x24x31), PDN movetext moves (pdn_parse_move: x for - and the
 * other way round, ! and ? marks), middleware paths (middleware_parse_move: 2 11 18) and the
 * HackerRank output format (hackerrank_format_move).
 *
 * The first byte picks one of the positions of fuzz_position (with its rule set); the rest is
 * the text. Whatever a parser accepts must be one of the generator's legal moves, and the writer
 * of the same notation must write it back to text that the parser resolves to the same move.
 */
#include "fuzz.h"

#include "movegen.h"
#include "pdn.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    return 0;
}

static bool is_legal(const MoveList *legal, const Move *m)
{
    for (int i = 0; i < legal->count; i++)
        if (move_same(&legal->moves[i], m, true))
            return true;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    Board b;
    const Rules *r;
    fuzz_position(data[0], &b, &r);
    char *text = fuzz_text(data + 1, size - 1);
    size_t len = strlen(text);
    MoveList legal;
    movegen_generate(&b, r, true, &legal);
    ParseError e;
    Move m, again;
    char buf[256];

    /* Squares alone. */
    uint8_t squares[MAX_JUMPS + 4];
    bool capture;
    memset(&e, 0, sizeof e);
    int n = notation_parse_squares(text, squares, MAX_JUMPS + 4, &capture, &e);
    if (n == 0)
        fuzz_check_error(&e, len, true);
    else {
        FUZZ_CHECK(n >= 2 && n <= MAX_JUMPS + 4, "square count out of range");
        for (int i = 0; i < n; i++)
            FUZZ_CHECK(squares[i] < SQUARE_NB, "square index out of range");
    }

    /* Square notation resolved against the position. */
    memset(&e, 0, sizeof e);
    if (notation_parse_move(&b, r, text, &m, &e)) {
        FUZZ_CHECK(is_legal(&legal, &m), "notation_parse_move gave an illegal move");
        int w = notation_format_move(&m, buf, sizeof buf);
        FUZZ_CHECK(w > 0 && (size_t)w < sizeof buf, "notation_format_move length");
        memset(&e, 0, sizeof e);
        FUZZ_CHECK(notation_parse_move(&b, r, buf, &again, &e), "formatted move does not parse");
        FUZZ_CHECK(move_same(&m, &again, true), "square-move round trip changed the move");
        w = hackerrank_format_move(&m, buf, sizeof buf);
        FUZZ_CHECK(w > 0 && (size_t)w < sizeof buf, "hackerrank_format_move length");
    } else
        fuzz_check_error(&e, len, true);

    /* PDN movetext. */
    memset(&e, 0, sizeof e);
    if (pdn_parse_move(&b, r, text, &m, &e))
        FUZZ_CHECK(is_legal(&legal, &m), "pdn_parse_move gave an illegal move");
    else
        fuzz_check_error(&e, len, true);

    /* Middleware path. */
    memset(&e, 0, sizeof e);
    if (middleware_parse_move(&b, r, text, &m, &e)) {
        FUZZ_CHECK(is_legal(&legal, &m), "middleware_parse_move gave an illegal move");
        int w = middleware_format_move(&m, buf, sizeof buf);
        FUZZ_CHECK(w > 0 && (size_t)w < sizeof buf, "middleware_format_move length");
        memset(&e, 0, sizeof e);
        FUZZ_CHECK(middleware_parse_move(&b, r, buf, &again, &e), "formatted path does not parse");
        FUZZ_CHECK(move_same(&m, &again, true), "path round trip changed the move");
    } else
        fuzz_check_error(&e, len, true);

    free(text);
    return 0;
}
