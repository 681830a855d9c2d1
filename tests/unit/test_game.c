/*
 * test_game.c - the game record and the end-of-game rules of SPEC section 1: a side with no
 * move loses, the third occurrence of a position is a draw, so are 80 plies without a capture
 * or a man move; undo, the full record, and the result names.
 */
#include "bitboard.h"
#include "check.h"
#include "game.h"
#include "notation.h"
#include "rng.h"

static Game game; /* large: not on the stack */

/* Plays the move written TEXT (e.g. "1-6") in G's position. Returns false if it is not legal. */
static bool play(Game *g, const char *text)
{
    Move m;
    ParseError e;
    if (!notation_parse_move(&g->board, g->rules, text, &m, &e)) {
        printf("  move %s: %s\n", text, e.msg);
        return false;
    }
    return game_play(g, &m);
}

static bool start_from(Game *g, const char *fen)
{
    Board b;
    ParseError e;
    if (!notation_parse_fen(fen, &b, &e))
        return false;
    game_init(g, &RULES_ENGLISH, &b);
    return true;
}

static void test_start(void)
{
    bb_init();
    game_init(&game, &RULES_ENGLISH, NULL);
    Board b;
    board_start(&b);
    CHECK(game.ply == 0 && board_equal(&game.board, &b) && board_equal(&game.start, &b));
    CHECK(game_result(&game) == RESULT_NONE);
    CHECK(game_repetitions(&game) == 1);
    CHECK(!game_undo(&game));
}

/* Two kings going back and forth: the start comes back after four plies (second time) and again
 * after eight (third time: a draw, not before). */
static void test_threefold_repetition(void)
{
    bb_init();
    CHECK(start_from(&game, "B:WK32:BK1"));
    const char *cycle[4] = {"1-6", "32-27", "6-1", "27-32"};
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 4; i++) {
            CHECK(game_result(&game) == RESULT_NONE);
            CHECK(play(&game, cycle[i]));
            /* After ply 4k+i+1 the position has been seen round+1 times (round+2 once back at
             * the start). */
            int want = i == 3 ? round + 2 : round + 1;
            CHECK(game_repetitions(&game) == want);
        }
    CHECK(game.ply == 8);
    CHECK(game_result(&game) == RESULT_DRAW_REPETITION);
    /* Taking back the last move: the position before it has been seen twice, no draw. */
    CHECK(game_undo(&game));
    CHECK(game.ply == 7 && game_repetitions(&game) == 2 && game_result(&game) == RESULT_NONE);
    CHECK(game.board.key == board_compute_key(&game.board));
    /* The same squares with the other side to move are another position. */
    CHECK(start_from(&game, "W:WK32:BK1"));
    CHECK(game_repetitions(&game) == 1);
}

/* A man move or a capture in between makes the earlier positions unreachable: no repetition is
 * counted across it. */
static void test_irreversible_move_resets(void)
{
    bb_init();
    CHECK(start_from(&game, "B:WK32:BK1,12"));
    const char *cycle[4] = {"1-6", "32-27", "6-1", "27-32"};
    for (int i = 0; i < 4; i++)
        CHECK(play(&game, cycle[i]));
    CHECK(game_repetitions(&game) == 2 && game.quiet[game.ply] == 4);
    CHECK(play(&game, "12-16")); /* a man move */
    CHECK(game.quiet[game.ply] == 0 && game_repetitions(&game) == 1);
    CHECK(play(&game, "32-28"));
    CHECK(game.quiet[game.ply] == 1);
}

/* The 40-move rule: quiet king moves only (random, from a position with room), checked ply by
 * ply against a count kept here; the draw comes at 80 quiet plies and not one before, unless a
 * threefold repetition came first. */
static void test_forty_moves(void)
{
    bb_init();
    uint64_t s = 99;
    int reached = 0;
    for (int attempt = 0; attempt < 50 && !reached; attempt++) {
        CHECK(start_from(&game, "B:WK29,K32:BK1,K4"));
        int quiet = 0;
        for (int ply = 0; ply < 200; ply++) {
            GameResult r = game_result(&game);
            if (game_repetitions(&game) >= 3) {
                CHECK(r == RESULT_DRAW_REPETITION);
                break;
            }
            if (quiet >= 80) {
                CHECK(r == RESULT_DRAW_40_MOVES);
                CHECK(quiet == 80);
                reached = 1;
                break;
            }
            CHECK(r == RESULT_NONE);
            MoveList list;
            int n = movegen_generate(&game.board, game.rules, false, &list);
            CHECK(n > 0);
            if (n == 0)
                break;
            const Move *m = &list.moves[rng_splitmix64(&s) % (uint64_t)n];
            quiet = move_is_capture(m) ? 0 : quiet + 1;
            CHECK(game_play(&game, m));
            CHECK(game.quiet[game.ply] == quiet);
            if (move_is_capture(m))
                break; /* a piece is gone: try again from the start */
        }
    }
    CHECK(reached);
}

/* A side with no legal move loses: no pieces, or every piece blocked. */
static void test_no_move_loses(void)
{
    bb_init();
    CHECK(start_from(&game, "B:W10:B"));
    CHECK(game_result(&game) == RESULT_WHITE_WINS);
    CHECK(start_from(&game, "W:W:B10"));
    CHECK(game_result(&game) == RESULT_BLACK_WINS);
    /* White's man on 5, on the edge, can only step to 1; Black holds 1 and there is no square
     * behind it to jump to: White has pieces but no move. */
    CHECK(start_from(&game, "W:W5:B1,14"));
    MoveList list;
    CHECK(movegen_generate(&game.board, game.rules, false, &list) == 0);
    CHECK(game_result(&game) == RESULT_BLACK_WINS);
}

/* The record holds GAME_MAX_PLIES moves; one more is refused and changes nothing. */
static void test_full_record(void)
{
    bb_init();
    CHECK(start_from(&game, "B:WK32:BK1"));
    const char *cycle[4] = {"1-6", "32-27", "6-1", "27-32"};
    bool ok = true;
    for (int i = 0; i < GAME_MAX_PLIES; i++)
        ok &= play(&game, cycle[i % 4]);
    CHECK(ok && game.ply == GAME_MAX_PLIES);
    Board before = game.board;
    MoveList list;
    movegen_generate(&game.board, game.rules, false, &list);
    CHECK(!game_play(&game, &list.moves[0]));
    CHECK(game.ply == GAME_MAX_PLIES && board_equal(&game.board, &before));
    CHECK(game_undo(&game) && game.ply == GAME_MAX_PLIES - 1);
}

static void test_result_names(void)
{
    CHECK_STR(game_result_tag(RESULT_NONE), "*");
    CHECK_STR(game_result_tag(RESULT_BLACK_WINS), "1-0");
    CHECK_STR(game_result_tag(RESULT_WHITE_WINS), "0-1");
    CHECK_STR(game_result_tag(RESULT_DRAW_REPETITION), "1/2-1/2");
    CHECK_STR(game_result_tag(RESULT_DRAW_40_MOVES), "1/2-1/2");
    CHECK_STR(game_result_text(RESULT_BLACK_WINS), "Black wins");
    CHECK_STR(game_result_text(RESULT_WHITE_WINS), "White wins");
    CHECK_STR(game_result_text(RESULT_DRAW_REPETITION), "draw by threefold repetition");
    CHECK_STR(game_result_text(RESULT_DRAW_40_MOVES), "draw by the 40-move rule");
}

int main(void)
{
    RUN("game", test_start);
    RUN("game", test_threefold_repetition);
    RUN("game", test_irreversible_move_resets);
    RUN("game", test_forty_moves);
    RUN("game", test_no_move_loses);
    RUN("game", test_full_record);
    RUN("game", test_result_names);
    return check_total_failed ? 1 : 0;
}
