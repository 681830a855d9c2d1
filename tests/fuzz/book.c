/*
 * book.c - fuzz harness for opening-book files (book_parse, book_probe, book_serialize).
 *
 * The bytes are a book file. The reader either refuses them with a message that names an
 * offset, or gives a book whose every promise holds: keys strictly increasing, each a position
 * with a side to move that has pieces; probing each position returns only legal moves, best
 * first; and the book serialises back to exactly the bytes it came from.
 */
#include "fuzz.h"

#include "book.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[ERR_LEN] = "";
    Book *bk = book_parse(data, size, "fuzz.pbk", err);
    if (!bk) {
        FUZZ_CHECK(strncmp(err, "fuzz.pbk: ", 10) == 0 && strstr(err, "offset") != NULL,
                   "a refusal without the file and offset");
        return 0;
    }
    for (size_t i = 0; i < bk->npos; i++) {
        if (i > 0)
            FUZZ_CHECK(book_key_cmp(&bk->pos[i - 1].key, &bk->pos[i].key) < 0,
                       "keys out of order accepted");
        Board b;
        book_key_board(&bk->pos[i].key, &b);
        FUZZ_CHECK(board_valid(&b, err), "a book position that is no board");
        FUZZ_CHECK(book_find(bk, &b) == (long)i, "a position not found where it is");
        BookHit hits[BOOK_MAX_MOVES];
        int n = book_probe(bk, &b, hits, BOOK_MAX_MOVES);
        FUZZ_CHECK(n >= 0 && n <= (int)bk->pos[i].n, "more hits than book moves");
        MoveList list;
        movegen_generate(&b, &RULES_ENGLISH, false, &list);
        for (int h = 0; h < n; h++) {
            bool legal = false;
            for (int k = 0; k < list.count && !legal; k++)
                legal = move_same(&hits[h].move, &list.moves[k], false);
            FUZZ_CHECK(legal, "an illegal book move returned");
            FUZZ_CHECK(h == 0 || hits[h - 1].score >= hits[h].score, "hits not best first");
        }
    }
    size_t len;
    uint8_t *again = book_serialize(bk, &len);
    FUZZ_CHECK(again && len == size && memcmp(again, data, size) == 0,
               "an accepted book does not serialise to its own bytes");
    free(again);
    book_free(bk);
    return 0;
}
