/*
 * endgames.c - start positions for the endgame-database match (docs/egdb.md): from every game
 * of a PDN file, the first position with at most MAX pieces in which the side to move has no
 * capture pending, and which is not already decided inside the databases' reach (more pieces
 * than PROBE). Writes one FEN per line.
 *   usage: endgames FILE.pdn MAX PROBE      (make build/release/endgames)
 */
#include "notation.h"
#include "pdn.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: endgames FILE.pdn MAX PROBE\n");
        return 2;
    }
    int max = atoi(argv[2]), probe = atoi(argv[3]);
    char err[256];
    char *text = util_read_file(argv[1], 1 << 26, NULL, err, sizeof err);
    if (!text) {
        fprintf(stderr, "endgames: %s\n", err);
        return 1;
    }
    PdnReader rd;
    pdn_reader_init(&rd, text);
    static PdnGame g;
    ParseError e;
    int r, found = 0;
    while ((r = pdn_read_game(&rd, &RULES_ENGLISH, &g, &e)) != 0) {
        if (r < 0)
            continue;
        Board b = g.start;
        for (int i = 0; i <= g.nmoves; i++) {
            int n = __builtin_popcount(b.pieces[0] | b.pieces[1]);
            if (n <= max && n > probe && !movegen_jumpers(&b)) {
                char fen[128];
                notation_format_fen(&b, fen, sizeof fen);
                printf("%s\n", fen);
                found++;
                break;
            }
            if (i < g.nmoves)
                board_apply(&b, &g.moves[i]);
        }
    }
    fprintf(stderr, "endgames: %d positions\n", found);
    free(text);
    return 0;
}
