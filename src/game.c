/*
 * game.c - game records and the end-of-game rules (see game.h).
 */
#include "game.h"

#include <string.h>

void game_init(Game *g, const Rules *r, const Board *start)
{
    g->rules = r;
    if (start)
        g->start = *start;
    else
        board_start(&g->start);
    g->board = g->start;
    g->ply = 0;
    g->keys[0] = g->board.key;
    g->quiet[0] = 0;
}

bool game_play(Game *g, const Move *m)
{
    if (g->ply >= GAME_MAX_PLIES)
        return false;
    bool man = !board_is_king(&g->board, m->from);
    g->moves[g->ply] = *m;
    board_apply(&g->board, m);
    g->ply++;
    g->keys[g->ply] = g->board.key;
    g->quiet[g->ply] = (man || move_is_capture(m)) ? 0 : (uint16_t)(g->quiet[g->ply - 1] + 1);
    return true;
}

bool game_undo(Game *g)
{
    if (g->ply == 0)
        return false;
    int n = g->ply - 1;
    g->board = g->start;
    g->ply = 0;
    for (int i = 0; i < n; i++) {
        Move m = g->moves[i];
        game_play(g, &m);
    }
    return true;
}

int game_repetitions(const Game *g)
{
    int count = 1;
    /* Only positions since the last irreversible move can repeat; keys include the side to move,
     * and positions with the same side to move are two plies apart. */
    for (int i = g->ply - 2; i >= 0 && g->ply - i <= g->quiet[g->ply]; i -= 2)
        if (g->keys[i] == g->keys[g->ply])
            count++;
    return count;
}

GameResult game_result(const Game *g)
{
    MoveList list;
    if (movegen_generate(&g->board, g->rules, false, &list) == 0)
        return g->board.side == BLACK ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
    if (game_repetitions(g) >= DRAW_REPETITIONS)
        return RESULT_DRAW_REPETITION;
    if (g->quiet[g->ply] >= DRAW_QUIET_PLIES)
        return RESULT_DRAW_40_MOVES;
    return RESULT_NONE;
}

const char *game_result_tag(GameResult r)
{
    switch (r) {
    case RESULT_BLACK_WINS: return "1-0";
    case RESULT_WHITE_WINS: return "0-1";
    case RESULT_DRAW_REPETITION:
    case RESULT_DRAW_40_MOVES: return "1/2-1/2";
    default: return "*";
    }
}

const char *game_result_text(GameResult r)
{
    switch (r) {
    case RESULT_BLACK_WINS: return "Black wins";
    case RESULT_WHITE_WINS: return "White wins";
    case RESULT_DRAW_REPETITION: return "draw by threefold repetition";
    case RESULT_DRAW_40_MOVES: return "draw by the 40-move rule";
    default: return "game in progress";
    }
}
