/*
 * serve_state.c - a web-board game's state as the API replies it (docs/serve.md lists the
 * fields): the settings, the position and the moves that led to it (each with the position
 * after it, formatted once and cached in the game), Black's evaluation after each ply, the
 * result, the legal moves with every capture route apart, and the engine's search (state, job,
 * depth, score, the lines of an analysis, the databases' verdict). Every endpoint about a game
 * (serve_api.c, serve_play.c, serve_review.c) ends by replying it.
 */
#include "serve.h"

#include "egdb_hook.h"
#include "notation.h"
#include "util.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static const char *const HUMAN_NAMES[] = {"black", "white", "both", "none"};
static const char *const ENGINE_NAMES[] = {"idle", "queued", "thinking"};

const char *serve_human_name(ServeHuman h)
{
    return HUMAN_NAMES[h];
}

static cJSON *move_json(const Move *m)
{
    char text[96];
    notation_format_move(m, text, sizeof text);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "move", text);
    cJSON *path = cJSON_AddArrayToObject(o, "path");
    for (int i = 0; i < m->len; i++)
        cJSON_AddItemToArray(path, cJSON_CreateNumber(m->path[i] + 1));
    cJSON *caps = cJSON_AddArrayToObject(o, "captures");
    for (Bitboard c = m->captured; c; c &= c - 1)
        cJSON_AddItemToArray(caps, cJSON_CreateNumber(bb_lsb(c) + 1));
    return o;
}

/* Every legal move of the current position, each capture route apart (so the user can choose
 * the route; they are one move for the engine). */
cJSON *serve_legal_json(const ServeGame *g)
{
    cJSON *a = cJSON_CreateArray();
    if (serve_game_over(g))
        return a;
    MoveList list;
    movegen_generate(&g->game.board, g->game.rules, true, &list);
    for (int i = 0; i < list.count; i++)
        cJSON_AddItemToArray(a, move_json(&list.moves[i]));
    return a;
}

const char *serve_color_name(int c)
{
    return c == BLACK ? "black" : "white";
}

static cJSON *pv_json(const SearchInfo *in)
{
    cJSON *pv = cJSON_CreateArray();
    for (int i = 0; i < in->pv_len && i < MAX_PLY; i++) {
        char text[96];
        notation_format_move(&in->pv[i], text, sizeof text);
        cJSON_AddItemToArray(pv, cJSON_CreateString(text));
    }
    return pv;
}

/* A search score of SIDE (to move in the searched position) into O: "score" as the search gives
 * it, "eval" from Black's side, and for a proven result who wins and in how many plies. */
static void add_score(cJSON *o, int score, int side)
{
    cJSON_AddNumberToObject(o, "score", score);
    cJSON_AddNumberToObject(o, "eval", side == BLACK ? score : -score);
    if (score_is_decisive(score)) {
        cJSON_AddStringToObject(o, "winner", serve_color_name(score > 0 ? side : !side));
        cJSON_AddNumberToObject(o, "plies_to_end", score_plies_to_end(score));
    }
}

static cJSON *engine_json(const ServeGame *g)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "state", ENGINE_NAMES[g->engine]);
    static const char *const kinds[] = {"move", "analyse", "graph"};
    cJSON_AddStringToObject(o, "job", kinds[g->request.kind]);
    if (g->request.kind == SERVE_JOB_GRAPH && g->engine != SERVE_ENGINE_IDLE)
        cJSON_AddNumberToObject(o, "graph_ply", g->graph_ply);
    if (g->engine_error[0])
        cJSON_AddStringToObject(o, "error", g->engine_error);
    if (!g->has_info)
        return o;
    const SearchInfo *in = &g->info;
    cJSON_AddNumberToObject(o, "ply", g->info_ply);
    cJSON_AddStringToObject(o, "side", serve_color_name(g->info_side));
    cJSON_AddNumberToObject(o, "depth", in->depth);
    cJSON_AddNumberToObject(o, "seldepth", in->seldepth);
    add_score(o, in->score, g->info_side);
    cJSON_AddNumberToObject(o, "nodes", (double)in->nodes);
    cJSON_AddNumberToObject(o, "time", in->time);
    cJSON_AddNumberToObject(o, "nps",
                            in->time > 0 ? (double)(uint64_t)((double)in->nodes / in->time) : 0);
    cJSON_AddItemToObject(o, "pv", pv_json(in));
    cJSON_AddBoolToObject(o, "analysis", g->info_analysis);
    cJSON_AddBoolToObject(o, "book", g->info_book);
    /* Every line of an analysis (the first is the one above), each with its own score. */
    cJSON *lines = cJSON_AddArrayToObject(o, "lines");
    for (int k = 0; k < g->info_lines && k < SERVE_MAX_LINES; k++) {
        const SearchInfo *li = k == 0 ? in : &g->more[k - 1];
        cJSON *l = cJSON_CreateObject();
        cJSON_AddNumberToObject(l, "depth", li->depth);
        add_score(l, li->score, g->info_side);
        cJSON_AddItemToObject(l, "pv", pv_json(li));
        cJSON_AddItemToArray(lines, l);
    }
    if (g->database) {
        /* The endgame databases' verdict on the searched position. */
        static const char *const verdict[] = {"", "win", "loss", "draw"};
        int v = g->database;
        const char *text = v == EGDB_DRAW                               ? "draw"
                           : (v == EGDB_WIN) == (g->info_side == BLACK) ? "black wins"
                                                                        : "white wins";
        cJSON_AddStringToObject(o, "database", text);
        cJSON_AddStringToObject(o, "database_mover", verdict[v]);
    }
    return o;
}

/* Brings G's history cache up to the current ply: entries past history_valid are formatted
 * from a replay of the moves (board_apply costs nothing next to printf). False without memory. */
static bool update_history(ServeGame *g)
{
    const Game *gm = &g->game;
    if (gm->ply > 0) {
        ServeHistory *h = util_grow(g->history, &g->history_cap, (size_t)gm->ply, sizeof *h, 64);
        if (!h)
            return false;
        g->history = h;
    }
    if (g->history_valid > gm->ply)
        g->history_valid = gm->ply;
    Board b = gm->start;
    for (int i = 0; i < gm->ply; i++) {
        board_apply(&b, &gm->moves[i]);
        if (i >= g->history_valid) {
            notation_format_move(&gm->moves[i], g->history[i].move, sizeof g->history[i].move);
            notation_format_fen(&b, g->history[i].fen, sizeof g->history[i].fen);
        }
    }
    g->history_valid = gm->ply;
    return true;
}

char *serve_api_state_json(ServeStore *s, ServeGame *g)
{
    serve_clock_check(s, g);
    const Game *gm = &g->game;
    char fen[200];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", g->id);
    cJSON_AddNumberToObject(o, "version", (double)g->version);
    cJSON_AddStringToObject(o, "rules", gm->rules->name);
    cJSON_AddStringToObject(o, "side", serve_human_name(g->human));
    cJSON_AddNumberToObject(o, "time", g->think_time);
    cJSON_AddNumberToObject(o, "depth", g->think_depth);
    cJSON_AddStringToObject(o, "level", serve_levels[g->level].name);
    cJSON_AddItemToObject(o, "clock", serve_clock_json(g));
    if (g->ballot[0])
        cJSON_AddStringToObject(o, "ballot", g->ballot);
    if (g->title[0]) {
        cJSON_AddStringToObject(o, "title", g->title);
        cJSON_AddStringToObject(o, "pdn_result", g->pdn_result);
    }
    if (g->notice[0])
        cJSON_AddStringToObject(o, "notice", g->notice);
    notation_format_fen(&gm->start, fen, sizeof fen);
    cJSON_AddStringToObject(o, "start_fen", fen);
    notation_format_fen(&gm->board, fen, sizeof fen);
    cJSON_AddStringToObject(o, "fen", fen);
    cJSON_AddStringToObject(o, "turn", serve_color_name(gm->board.side));
    cJSON_AddNumberToObject(o, "ply", gm->ply);

    /* The moves with the position after each, for reviewing earlier positions. */
    cJSON *hist = cJSON_AddArrayToObject(o, "moves");
    if (!update_history(g)) {
        cJSON_Delete(o);
        return NULL;
    }
    for (int i = 0; i < gm->ply; i++) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "move", g->history[i].move);
        cJSON_AddStringToObject(m, "fen", g->history[i].fen);
        cJSON_AddItemToArray(hist, m);
    }

    /* Black's view of the position after each ply (0: the start), null where not evaluated. */
    cJSON *evals = cJSON_AddArrayToObject(o, "evals");
    for (int i = 0; i <= gm->ply; i++)
        cJSON_AddItemToArray(evals, g->evals[i] == SERVE_NO_EVAL ? cJSON_CreateNull()
                                                                 : cJSON_CreateNumber(g->evals[i]));

    GameResult r = game_result(gm);
    cJSON_AddBoolToObject(o, "over", serve_game_over(g));
    cJSON_AddStringToObject(o, "result", g->outcome[0] ? g->outcome : game_result_tag(r));
    cJSON_AddStringToObject(o, "status", g->outcome[0] ? g->outcome_text : game_result_text(r));
    cJSON_AddItemToObject(o, "legal", serve_legal_json(g));
    cJSON_AddItemToObject(o, "engine", engine_json(g));
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return text;
}

void serve_api_reply_state(ServeReply *rep, int status, ServeStore *s, ServeGame *g)
{
    rep->status = status;
    rep->content_type = "application/json; charset=utf-8";
    rep->body = serve_api_state_json(s, g);
    if (!rep->body)
        serve_api_error(rep, 500, "out of memory");
    else
        rep->body_len = strlen(rep->body);
}
