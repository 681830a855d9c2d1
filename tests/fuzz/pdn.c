/*
 * pdn.c - fuzz harness for PDN files (pdn_reader_init, pdn_read_game, pdn_write_game).
 *
 * The bytes are a PDN file read game after game under English rules, as `ponder' reads opening
 * files and game collections. Every call must move the reader forward (or say the text is
 * finished), so a caller's loop always ends. A failure carries a message and a line; a game
 * read has a valid start position and moves the library accepts in turn. Each game read is
 * written back with pdn_write_game and read again: the same start, the same moves, the same
 * result, and nothing else in the text.
 */
#define _GNU_SOURCE
#include "fuzz.h"

#include "game.h"
#include "pdn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static PdnGame *game, *reread; /* large: allocated once */
static Game *record;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    game = malloc(sizeof *game);
    reread = malloc(sizeof *reread);
    record = malloc(sizeof *record);
    if (!game || !reread || !record)
        fuzz_fail(__FILE__, __LINE__, "out of memory");
    return 0;
}

/* Writes G (as read) back to PDN and checks that it reads back the same. */
static void round_trip(const PdnGame *g)
{
    game_init(record, &RULES_ENGLISH, &g->start);
    for (int i = 0; i < g->nmoves; i++)
        FUZZ_CHECK(game_play(record, &g->moves[i]), "a move read cannot be recorded");

    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    FUZZ_CHECK(f != NULL, "open_memstream");
    bool wrote = pdn_write_game(f, record, g->tags, g->ntags, g->result);
    fclose(f);
    FUZZ_CHECK(wrote, "pdn_write_game refused a game pdn_read_game accepted");

    PdnReader rd;
    pdn_reader_init(&rd, text);
    ParseError e;
    memset(&e, 0, sizeof e);
    FUZZ_CHECK(pdn_read_game(&rd, &RULES_ENGLISH, reread, &e) == 1, "written game unreadable");
    FUZZ_CHECK(board_equal(&reread->start, &g->start), "round trip changed the start");
    FUZZ_CHECK(reread->nmoves == g->nmoves, "round trip changed the number of moves");
    for (int i = 0; i < g->nmoves; i++)
        FUZZ_CHECK(move_same(&reread->moves[i], &g->moves[i], true), "round trip changed a move");
    FUZZ_CHECK(strcmp(reread->result, g->result) == 0, "round trip changed the result");
    FUZZ_CHECK(pdn_read_game(&rd, &RULES_ENGLISH, reread, &e) == 0, "written text holds more");
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    size_t len = strlen(text);
    PdnReader rd;
    pdn_reader_init(&rd, text);
    for (;;) {
        size_t before = rd.pos;
        ParseError e;
        memset(&e, 0, sizeof e);
        int rc = pdn_read_game(&rd, &RULES_ENGLISH, game, &e);
        FUZZ_CHECK(rc >= -1 && rc <= 1, "pdn_read_game status");
        FUZZ_CHECK(rd.pos <= len, "the reader went past the end of the text");
        if (rc == 0)
            break;
        if (rc < 0) {
            fuzz_check_error(&e, len, false);
            FUZZ_CHECK(e.line >= 1, "an error without its line");
        } else {
            char err[ERR_LEN];
            FUZZ_CHECK(board_valid(&game->start, err), "a game read starts from an invalid board");
            FUZZ_CHECK(game->nmoves >= 0 && game->nmoves <= GAME_MAX_PLIES, "move count");
            FUZZ_CHECK(game->ntags >= 0 && game->ntags <= PDN_MAX_TAGS, "tag count");
            round_trip(game);
        }
        /* A call that does not move on would make a caller's loop run for ever. */
        FUZZ_CHECK(rd.pos > before, "pdn_read_game did not move on");
    }
    free(text);
    return 0;
}
