/*
 * serve_api.c - the web board's JSON API (see docs/serve.md for the reference).
 *
 *   GET    /api/status                 server figures: games, searches, workers
 *   POST   /api/games                  new game {side, time, depth, fen} -> 201 + state
 *   GET    /api/games/ID               the game's state
 *   PATCH  /api/games/ID               change {side, time, depth}
 *   DELETE /api/games/ID               forget the game -> 204
 *   GET    /api/games/ID/moves         the legal moves, every capture route apart
 *   POST   /api/games/ID/move          play {move: "11x18x25"} or {path: [11, 18, 25]}
 *   POST   /api/games/ID/engine        let the engine move {time, depth, wait} -> 202 (200)
 *   POST   /api/games/ID/stop          make the thinking engine move now
 *   POST   /api/games/ID/undo          take back {plies} moves (default 1), cancelling a search
 *   GET    /api/games/ID/pdn           the game as a PDN file
 *
 * A request comes in as a ServeRequest and leaves as a ServeReply: this file knows nothing of
 * sockets. Bodies are JSON objects read strictly (unknown fields, wrong types, out-of-range
 * values are errors that name the field). Every error is a JSON object {"error", "status"} with
 * the status that fits: 400 malformed, 404 unknown game or path, 405 wrong method, 409 not now
 * (the engine is thinking, the game is over), 415 not JSON, 422 an illegal move, 503 full.
 * The C library is the only rules authority: the page gets the legal moves from here.
 */
#include "serve.h"

#include "notation.h"
#include "pdn.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static const char *const HUMAN_NAMES[] = {"black", "white", "both", "none"};
static const char *const ENGINE_NAMES[] = {"idle", "queued", "thinking"};

/* ---- replies ---- */

static void reply_json(ServeReply *rep, int status, cJSON *json)
{
    rep->status = status;
    rep->content_type = "application/json; charset=utf-8";
    rep->body = json ? cJSON_PrintUnformatted(json) : NULL;
    cJSON_Delete(json);
    if (!rep->body) {
        serve_api_error(rep, 500, "out of memory");
        return;
    }
    rep->body_len = strlen(rep->body);
}

void serve_api_error(ServeReply *rep, int status, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    free(rep->body);
    rep->body = NULL;
    rep->status = status;
    rep->content_type = "application/json; charset=utf-8";
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "error", msg);
    cJSON_AddNumberToObject(o, "status", status);
    rep->body = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!rep->body) { /* out of memory: a fixed body that needs no allocation to send */
        static char fallback[] = "{\"error\":\"out of memory\",\"status\":500}";
        rep->status = 500;
        rep->body = malloc(sizeof fallback);
        if (rep->body)
            memcpy(rep->body, fallback, sizeof fallback);
    }
    rep->body_len = rep->body ? strlen(rep->body) : 0;
}

/* ---- request bodies ---- */

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The body as a JSON object (an empty body is an empty object), or NULL with the error
 * replied. Fields other than the NULL-terminated list ALLOWED are refused. */
static cJSON *parse_body(const ServeRequest *req, ServeReply *rep, const char *const *allowed)
{
    size_t n = req->body ? req->body_len : 0;
    size_t start = 0;
    while (start < n && is_blank(req->body[start]))
        start++;
    if (start == n)
        return cJSON_CreateObject();
    if (req->content_type) {
        const char *ct = req->content_type;
        while (*ct == ' ')
            ct++;
        size_t len = strcspn(ct, "; ");
        if (!(len == 16 && strncasecmp(ct, "application/json", 16) == 0)) {
            serve_api_error(rep, 415,
                            "the body must be JSON (Content-Type: application/json), "
                            "not `%.*s'",
                            (int)(len > 60 ? 60 : len), ct);
            return NULL;
        }
    } else {
        serve_api_error(rep, 415, "the body must be JSON: send Content-Type: application/json");
        return NULL;
    }
    const char *end = NULL;
    cJSON *json = cJSON_ParseWithLengthOpts(req->body, n, &end, false);
    if (!json) {
        size_t at = end && end >= req->body && end <= req->body + n ? (size_t)(end - req->body) : 0;
        serve_api_error(rep, 400, "bad JSON at byte %zu of the body", at + 1);
        return NULL;
    }
    /* Only blanks may follow the value. */
    for (const char *p = end; p && p < req->body + n; p++)
        if (!is_blank(*p)) {
            serve_api_error(rep, 400, "bad JSON: text after the value at byte %zu of the body",
                            (size_t)(p - req->body) + 1);
            cJSON_Delete(json);
            return NULL;
        }
    if (!cJSON_IsObject(json)) {
        serve_api_error(rep, 400, "the body must be a JSON object");
        cJSON_Delete(json);
        return NULL;
    }
    const cJSON *item;
    cJSON_ArrayForEach(item, json)
    {
        bool known = false;
        for (int i = 0; allowed[i] && !known; i++)
            known = strcmp(item->string, allowed[i]) == 0;
        if (!known) {
            char list[160] = "";
            for (int i = 0; allowed[i]; i++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
                         allowed[i]);
            serve_api_error(rep, 400, "unknown field `%.40s' (known: %s)", item->string,
                            allowed[0] ? list : "none");
            cJSON_Delete(json);
            return NULL;
        }
        for (const cJSON *other = json->child; other != item; other = other->next)
            if (strcmp(other->string, item->string) == 0) {
                serve_api_error(rep, 400, "field `%.40s' given twice", item->string);
                cJSON_Delete(json);
                return NULL;
            }
    }
    return json;
}

/* Reads optional number field NAME of O into *OUT, within [MIN, MAX]. False with the error
 * replied when it is there but wrong. */
static bool get_number(const cJSON *o, const char *name, double min, double max, double *out,
                       ServeReply *rep)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!v)
        return true;
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= min && v->valuedouble <= max)) {
        serve_api_error(rep, 400, "`%s' must be a number from %g to %g", name, min, max);
        return false;
    }
    *out = v->valuedouble;
    return true;
}

static bool get_int(const cJSON *o, const char *name, int min, int max, int *out, ServeReply *rep)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!v)
        return true;
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= min && v->valuedouble <= max) ||
        v->valuedouble != (double)(int)v->valuedouble) {
        serve_api_error(rep, 400, "`%s' must be a whole number from %d to %d", name, min, max);
        return false;
    }
    *out = (int)v->valuedouble;
    return true;
}

static bool get_bool(const cJSON *o, const char *name, bool *out, ServeReply *rep)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!v)
        return true;
    if (!cJSON_IsBool(v)) {
        serve_api_error(rep, 400, "`%s' must be true or false", name);
        return false;
    }
    *out = cJSON_IsTrue(v);
    return true;
}

/* NULL when absent; sets *BAD (with the error replied) when present but not a string. */
static const char *get_string(const cJSON *o, const char *name, bool *bad, ServeReply *rep)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!v)
        return NULL;
    if (!cJSON_IsString(v)) {
        serve_api_error(rep, 400, "`%s' must be a string", name);
        *bad = true;
        return NULL;
    }
    return v->valuestring;
}

/* The game settings common to new games and PATCH: side, time, depth. */
static bool get_settings(const ServeStore *s, const cJSON *o, ServeHuman *human, double *time,
                         int *depth, ServeReply *rep)
{
    bool bad = false;
    const char *side = get_string(o, "side", &bad, rep);
    if (bad)
        return false;
    if (side) {
        int found = -1;
        for (int i = 0; i < 4; i++)
            if (strcmp(side, HUMAN_NAMES[i]) == 0)
                found = i;
        if (found < 0) {
            serve_api_error(rep, 400,
                            "`side' must be \"black\", \"white\", \"both\" or \"none\" "
                            "(the human's side)");
            return false;
        }
        *human = (ServeHuman)found;
    }
    double max_time = serve_store_options(s)->max_time;
    return get_number(o, "time", 0.01, max_time, time, rep) &&
           get_int(o, "depth", 0, SERVE_MAX_DEPTH, depth, rep);
}

/* ---- the game state ---- */

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
static cJSON *legal_json(const ServeGame *g)
{
    cJSON *a = cJSON_CreateArray();
    if (game_result(&g->game) != RESULT_NONE)
        return a;
    MoveList list;
    movegen_generate(&g->game.board, g->game.rules, true, &list);
    for (int i = 0; i < list.count; i++)
        cJSON_AddItemToArray(a, move_json(&list.moves[i]));
    return a;
}

static const char *color_name(int c)
{
    return c == BLACK ? "black" : "white";
}

static cJSON *engine_json(const ServeGame *g)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "state", ENGINE_NAMES[g->engine]);
    if (g->engine_error[0])
        cJSON_AddStringToObject(o, "error", g->engine_error);
    if (!g->has_info)
        return o;
    const SearchInfo *in = &g->info;
    cJSON_AddNumberToObject(o, "ply", g->info_ply);
    cJSON_AddStringToObject(o, "side", color_name(g->info_side));
    cJSON_AddNumberToObject(o, "depth", in->depth);
    cJSON_AddNumberToObject(o, "seldepth", in->seldepth);
    cJSON_AddNumberToObject(o, "score", in->score);
    cJSON_AddNumberToObject(o, "eval", g->info_side == BLACK ? in->score : -in->score);
    if (score_is_decisive(in->score)) {
        /* Who wins, and in how many plies from the searched position. */
        bool mover_wins = in->score > 0;
        cJSON_AddStringToObject(o, "winner", color_name(mover_wins ? g->info_side : !g->info_side));
        cJSON_AddNumberToObject(o, "plies_to_end", score_plies_to_end(in->score));
    }
    cJSON_AddNumberToObject(o, "nodes", (double)in->nodes);
    cJSON_AddNumberToObject(o, "time", in->time);
    cJSON_AddNumberToObject(o, "nps",
                            in->time > 0 ? (double)(uint64_t)((double)in->nodes / in->time) : 0);
    cJSON *pv = cJSON_AddArrayToObject(o, "pv");
    for (int i = 0; i < in->pv_len && i < MAX_PLY; i++) {
        char text[96];
        notation_format_move(&in->pv[i], text, sizeof text);
        cJSON_AddItemToArray(pv, cJSON_CreateString(text));
    }
    return o;
}

/* Brings G's history cache up to the current ply: entries past history_valid are formatted
 * from a replay of the moves (board_apply costs nothing next to printf). False without memory. */
static bool update_history(ServeGame *g)
{
    const Game *gm = &g->game;
    if (gm->ply > g->history_cap) {
        int cap = g->history_cap ? g->history_cap : 64;
        while (cap < gm->ply)
            cap *= 2;
        ServeHistory *h = realloc(g->history, (size_t)cap * sizeof *h);
        if (!h)
            return false;
        g->history = h;
        g->history_cap = cap;
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
    (void)s;
    const Game *gm = &g->game;
    char fen[200];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", g->id);
    cJSON_AddNumberToObject(o, "version", (double)g->version);
    cJSON_AddStringToObject(o, "rules", gm->rules->name);
    cJSON_AddStringToObject(o, "side", HUMAN_NAMES[g->human]);
    cJSON_AddNumberToObject(o, "time", g->think_time);
    cJSON_AddNumberToObject(o, "depth", g->think_depth);
    notation_format_fen(&gm->start, fen, sizeof fen);
    cJSON_AddStringToObject(o, "start_fen", fen);
    notation_format_fen(&gm->board, fen, sizeof fen);
    cJSON_AddStringToObject(o, "fen", fen);
    cJSON_AddStringToObject(o, "turn", color_name(gm->board.side));
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

    GameResult r = game_result(gm);
    cJSON_AddBoolToObject(o, "over", r != RESULT_NONE);
    cJSON_AddStringToObject(o, "result", game_result_tag(r));
    cJSON_AddStringToObject(o, "status", game_result_text(r));
    cJSON_AddItemToObject(o, "legal", legal_json(g));
    cJSON_AddItemToObject(o, "engine", engine_json(g));
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return text;
}

static void reply_state(ServeReply *rep, int status, ServeStore *s, ServeGame *g)
{
    rep->status = status;
    rep->content_type = "application/json; charset=utf-8";
    rep->body = serve_api_state_json(s, g);
    if (!rep->body)
        serve_api_error(rep, 500, "out of memory");
    else
        rep->body_len = strlen(rep->body);
}

/* ---- endpoints ---- */

static void api_status(ServeStore *s, ServeReply *rep)
{
    ServeStoreStats st;
    serve_store_stats(s, &st);
    const ServeStoreOptions *opt = serve_store_options(s);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "program", "ponder serve");
    cJSON_AddNumberToObject(o, "games", st.games);
    cJSON_AddNumberToObject(o, "max_games", opt->max_games);
    cJSON_AddNumberToObject(o, "workers", opt->workers);
    cJSON_AddNumberToObject(o, "thinking", st.thinking);
    cJSON_AddNumberToObject(o, "queued", st.queued);
    cJSON_AddNumberToObject(o, "searches", (double)st.searches);
    cJSON_AddNumberToObject(o, "evicted", (double)st.evicted);
    cJSON_AddNumberToObject(o, "allocated", (double)st.allocated);
    cJSON_AddNumberToObject(o, "max_time", opt->max_time);
    reply_json(rep, 200, o);
}

/* Checks a FEN from a user: syntax, then a position the rules can play from. */
static bool parse_start(const char *fen, Board *b, ServeReply *rep)
{
    ParseError e;
    if (!notation_parse_fen(fen, b, &e)) {
        char msg[256];
        parse_error_format(&e, msg, sizeof msg);
        serve_api_error(rep, 400, "bad FEN: %s", msg);
        return false;
    }
    char err[ERR_LEN];
    if (!board_valid(b, err)) {
        serve_api_error(rep, 400, "bad FEN: %s", err);
        return false;
    }
    if (!board_reachable(b, err)) { /* the rule every program applies to a set-up position */
        serve_api_error(rep, 400, "bad FEN: %s", err);
        return false;
    }
    return true;
}

static void api_create(ServeStore *s, const ServeRequest *req, ServeReply *rep)
{
    static const char *const fields[] = {"side", "time", "depth", "fen", NULL};
    cJSON *body = parse_body(req, rep, fields);
    if (!body)
        return;
    ServeHuman human = SERVE_HUMAN_BLACK;
    double time = 1.0;
    int depth = 0;
    bool bad = false;
    Board start;
    board_start(&start);
    if (time > serve_store_options(s)->max_time)
        time = serve_store_options(s)->max_time;
    const char *fen = get_string(body, "fen", &bad, rep);
    if (bad || !get_settings(s, body, &human, &time, &depth, rep) ||
        (fen && !parse_start(fen, &start, rep))) {
        cJSON_Delete(body);
        return;
    }
    cJSON_Delete(body);
    ServeGame *g = serve_store_create(s, &RULES_ENGLISH, &start);
    if (!g) {
        serve_api_error(rep, 503, "too many games in use (at most %d): try again later",
                        serve_store_options(s)->max_games);
        return;
    }
    pthread_mutex_lock(&g->lock);
    g->human = human;
    g->think_time = time;
    g->think_depth = depth;
    reply_state(rep, 201, s, g);
    pthread_mutex_unlock(&g->lock);
    snprintf(rep->location, sizeof rep->location, "/api/games/%s", g->id);
    serve_store_release(s, g);
}

static void api_patch(ServeStore *s, ServeGame *g, const ServeRequest *req, ServeReply *rep)
{
    static const char *const fields[] = {"side", "time", "depth", NULL};
    cJSON *body = parse_body(req, rep, fields);
    if (!body)
        return;
    pthread_mutex_lock(&g->lock);
    ServeHuman human = g->human;
    double time = g->think_time;
    int depth = g->think_depth;
    if (get_settings(s, body, &human, &time, &depth, rep)) {
        g->human = human;
        g->think_time = time;
        g->think_depth = depth;
        serve_game_changed(s, g);
        reply_state(rep, 200, s, g);
    }
    pthread_mutex_unlock(&g->lock);
    cJSON_Delete(body);
}

static void api_moves(ServeStore *s, ServeGame *g, ServeReply *rep)
{
    (void)s;
    pthread_mutex_lock(&g->lock);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "turn", color_name(g->game.board.side));
    cJSON_AddItemToObject(o, "moves", legal_json(g));
    pthread_mutex_unlock(&g->lock);
    reply_json(rep, 200, o);
}

/* 409 when G cannot take a move now (call with G->lock held). */
static bool check_can_move(ServeGame *g, ServeReply *rep)
{
    if (g->engine != SERVE_ENGINE_IDLE) {
        serve_api_error(rep, 409, "the engine is thinking: wait for its move, stop it, or undo");
        return false;
    }
    GameResult r = game_result(&g->game);
    if (r != RESULT_NONE) {
        serve_api_error(rep, 409, "the game is over (%s)", game_result_text(r));
        return false;
    }
    return true;
}

/* Replies 422 for a move that is not legal and starts on square FROM (0-31): "White is to move"
 * when FROM holds a piece of the side not on move (the usual slip: a move for the wrong side),
 * else WHAT. Every illegal move's message is built here. */
static void illegal_move(const ServeGame *g, int from, const char *what, ServeReply *rep)
{
    const Board *b = &g->game.board;
    int c = from >= 0 && from < SQUARE_NB ? board_color_at(b, from) : -1;
    if (c >= 0 && c != b->side)
        serve_api_error(rep, 422, "%s is to move (square %d holds a %s piece)",
                        b->side == BLACK ? "Black" : "White", from + 1,
                        c == BLACK ? "Black" : "White");
    else
        serve_api_error(rep, 422, "%s", what);
}

/* The legal move (with the route) that BODY names, or false with the error replied. */
static bool find_move(const ServeGame *g, const cJSON *body, Move *out, ServeReply *rep)
{
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(body, "move");
    const cJSON *path = cJSON_GetObjectItemCaseSensitive(body, "path");
    if (!text == !path) {
        serve_api_error(rep, 400,
                        "give the move as \"move\" (\"11x18x25\") or as \"path\" "
                        "([11, 18, 25]), one of them");
        return false;
    }
    if (text) {
        if (!cJSON_IsString(text)) {
            serve_api_error(rep, 400, "`move' must be a string such as \"11-15\" or \"15x24\"");
            return false;
        }
        ParseError e;
        if (!notation_parse_move(&g->game.board, g->game.rules, text->valuestring, out, &e)) {
            char msg[256];
            parse_error_format(&e, msg, sizeof msg);
            bool syntax = strstr(e.msg, "illegal") == NULL && strstr(e.msg, "ambiguous") == NULL;
            uint8_t sq[MAX_JUMPS + 4];
            bool capture;
            ParseError se;
            char what[320];
            snprintf(what, sizeof what, "move `%.40s': %s", text->valuestring, msg);
            if (syntax || strstr(e.msg, "ambiguous"))
                serve_api_error(rep, syntax ? 400 : 422, "%s", what);
            else
                illegal_move(g,
                             notation_parse_squares(text->valuestring, sq, (int)sizeof sq,
                                                    &capture, &se) > 0
                                 ? sq[0]
                                 : -1,
                             what, rep);
            return false;
        }
        return true;
    }
    /* A path names one route exactly. */
    int n = cJSON_GetArraySize(path);
    if (!cJSON_IsArray(path) || n < 2 || n > MAX_JUMPS + 1) {
        serve_api_error(rep, 400, "`path' must be an array of 2 to %d square numbers",
                        MAX_JUMPS + 1);
        return false;
    }
    uint8_t sq[MAX_JUMPS + 1];
    int i = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, path)
    {
        if (!cJSON_IsNumber(v) || !(v->valuedouble >= 1 && v->valuedouble <= 32) ||
            v->valuedouble != (double)(int)v->valuedouble) {
            serve_api_error(rep, 400, "`path' entry %d is not a square number from 1 to 32", i + 1);
            return false;
        }
        sq[i++] = (uint8_t)(v->valueint - 1);
    }
    MoveList list;
    movegen_generate(&g->game.board, g->game.rules, true, &list);
    for (int k = 0; k < list.count; k++) {
        const Move *m = &list.moves[k];
        if (m->len == n && memcmp(m->path, sq, (size_t)n) == 0) {
            *out = *m;
            return true;
        }
    }
    char shown[96] = "";
    for (int k = 0; k < n; k++)
        snprintf(shown + strlen(shown), sizeof shown - strlen(shown), "%s%d", k ? " " : "",
                 sq[k] + 1);
    char what[128];
    snprintf(what, sizeof what, "illegal move: no legal move follows the path %s", shown);
    illegal_move(g, sq[0], what, rep);
    return false;
}

static void api_move(ServeStore *s, ServeGame *g, const ServeRequest *req, ServeReply *rep)
{
    static const char *const fields[] = {"move", "path", NULL};
    cJSON *body = parse_body(req, rep, fields);
    if (!body)
        return;
    pthread_mutex_lock(&g->lock);
    Move m;
    if (check_can_move(g, rep) && find_move(g, body, &m, rep)) {
        if (!game_play(&g->game, &m))
            serve_api_error(rep, 409, "the game is too long to record another move");
        else {
            g->engine_error[0] = '\0';
            serve_game_changed(s, g);
            reply_state(rep, 200, s, g);
        }
    }
    pthread_mutex_unlock(&g->lock);
    cJSON_Delete(body);
}

static void api_engine(ServeStore *s, ServeGame *g, const ServeRequest *req, ServeReply *rep)
{
    static const char *const fields[] = {"time", "depth", "wait", NULL};
    cJSON *body = parse_body(req, rep, fields);
    if (!body)
        return;
    pthread_mutex_lock(&g->lock);
    double time = g->think_time;
    int depth = g->think_depth;
    bool wait = false;
    double max_time = serve_store_options(s)->max_time;
    if (get_number(body, "time", 0.01, max_time, &time, rep) &&
        get_int(body, "depth", 0, SERVE_MAX_DEPTH, &depth, rep) &&
        get_bool(body, "wait", &wait, rep) && check_can_move(g, rep)) {
        /* A search always has a time limit: a depth alone could run for hours. */
        SearchLimits limits = {.depth = depth, .time = time};
        int status = serve_game_start_search(s, g, &limits);
        if (status != 0)
            serve_api_error(rep, status, "the server is shutting down");
        else if (!wait)
            reply_state(rep, 202, s, g);
        else {
            /* Wait for the move: the search's time and a margin for a full queue. */
            uint64_t job = g->job;
            if (serve_game_wait_search(s, g, job, time + 30.0))
                reply_state(rep, 200, s, g);
            else if (serve_store_stopping(s))
                serve_api_error(rep, 503, "the server is shutting down");
            else
                reply_state(rep, 202, s, g);
        }
    }
    pthread_mutex_unlock(&g->lock);
    cJSON_Delete(body);
}

static void api_stop(ServeStore *s, ServeGame *g, const ServeRequest *req, ServeReply *rep)
{
    static const char *const fields[] = {NULL};
    cJSON *body = parse_body(req, rep, fields);
    if (!body)
        return;
    cJSON_Delete(body);
    pthread_mutex_lock(&g->lock);
    if (!serve_game_stop_search(s, g))
        serve_api_error(rep, 409, "the engine is not thinking");
    else
        reply_state(rep, 200, s, g);
    pthread_mutex_unlock(&g->lock);
}

static void api_undo(ServeStore *s, ServeGame *g, const ServeRequest *req, ServeReply *rep)
{
    static const char *const fields[] = {"plies", NULL};
    cJSON *body = parse_body(req, rep, fields);
    if (!body)
        return;
    int plies = 1;
    if (get_int(body, "plies", 1, GAME_MAX_PLIES, &plies, rep)) {
        pthread_mutex_lock(&g->lock);
        if (g->game.ply == 0 && g->engine == SERVE_ENGINE_IDLE)
            serve_api_error(rep, 409, "nothing to undo: no move has been played");
        else {
            /* A search is cancelled first: it was for the position being taken back. */
            serve_game_cancel_search(s, g);
            for (int i = 0; i < plies && game_undo(&g->game); i++)
                ;
            if (g->history_valid > g->game.ply)
                g->history_valid = g->game.ply; /* the cache beyond is of moves taken back */
            g->has_info = false;
            g->engine_error[0] = '\0';
            serve_game_changed(s, g);
            reply_state(rep, 200, s, g);
        }
        pthread_mutex_unlock(&g->lock);
    }
    cJSON_Delete(body);
}

static const char *player_name(ServeHuman h, int color)
{
    bool human = h == SERVE_HUMAN_BOTH || (h == SERVE_HUMAN_BLACK && color == BLACK) ||
                 (h == SERVE_HUMAN_WHITE && color == WHITE);
    return human ? "Human" : "Ponder";
}

static void api_pdn(ServeStore *s, ServeGame *g, ServeReply *rep)
{
    (void)s;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        serve_api_error(rep, 500, "out of memory");
        return;
    }
    PdnTag tags[5];
    int n = 0;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    snprintf(tags[n].name, sizeof tags[n].name, "Event");
    snprintf(tags[n++].value, sizeof tags[0].value, "Ponder web game");
    snprintf(tags[n].name, sizeof tags[n].name, "Site");
    snprintf(tags[n++].value, sizeof tags[0].value, "ponder serve");
    snprintf(tags[n].name, sizeof tags[n].name, "Date");
    snprintf(tags[n++].value, sizeof tags[0].value, "%04d.%02d.%02d", tm.tm_year + 1900,
             tm.tm_mon + 1, tm.tm_mday);
    pthread_mutex_lock(&g->lock);
    snprintf(tags[n].name, sizeof tags[n].name, "Black");
    snprintf(tags[n++].value, sizeof tags[0].value, "%s", player_name(g->human, BLACK));
    snprintf(tags[n].name, sizeof tags[n].name, "White");
    snprintf(tags[n++].value, sizeof tags[0].value, "%s", player_name(g->human, WHITE));
    bool ok = pdn_write_game(f, &g->game, tags, n, game_result_tag(game_result(&g->game)));
    snprintf(rep->disposition, sizeof rep->disposition, "attachment; filename=\"ponder-%s.pdn\"",
             g->id);
    pthread_mutex_unlock(&g->lock);
    if (fclose(f) != 0 || !ok) {
        free(buf);
        rep->disposition[0] = '\0';
        serve_api_error(rep, 500, "cannot write the PDN (out of memory)");
        return;
    }
    rep->status = 200;
    rep->content_type = "application/x-pdn; charset=utf-8";
    rep->body = buf;
    rep->body_len = len;
}

/* ---- routing ---- */

static bool method_is(const ServeRequest *req, const char *m)
{
    return strcmp(req->method, m) == 0 ||
           (strcmp(m, "GET") == 0 && strcmp(req->method, "HEAD") == 0);
}

static void not_allowed(const ServeRequest *req, ServeReply *rep, const char *allow)
{
    serve_api_error(rep, 405, "%s is not allowed here (allowed: %s)", req->method, allow);
    rep->allow = allow;
}

static bool valid_id(const char *id, size_t len)
{
    if (len != SERVE_ID_LEN)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!strchr("0123456789abcdef", id[i]) || id[i] == '\0')
            return false;
    return true;
}

void serve_api_handle(ServeStore *s, const ServeRequest *req, ServeReply *rep)
{
    memset(rep, 0, sizeof *rep);
    const char *p = req->path;
    if (strncmp(p, "/api/", 5) != 0) {
        serve_api_error(rep, 404, "no such path: %.100s", p);
        return;
    }
    p += 5;
    if (strcmp(p, "status") == 0) {
        if (!method_is(req, "GET"))
            return not_allowed(req, rep, "GET, HEAD");
        return api_status(s, rep);
    }
    if (strcmp(p, "games") == 0 || strcmp(p, "games/") == 0) {
        if (!method_is(req, "POST"))
            return not_allowed(req, rep, "POST");
        return api_create(s, req, rep);
    }
    if (strncmp(p, "games/", 6) != 0) {
        serve_api_error(rep, 404, "no such path: %.100s", req->path);
        return;
    }
    p += 6;
    size_t idlen = strcspn(p, "/");
    const char *action = p[idlen] == '/' ? p + idlen + 1 : "";
    char id[SERVE_ID_LEN + 1];
    static const struct {
        const char *name;  /* the path after the id */
        const char *allow; /* methods, for 405 */
    } routes[] = {{"", "GET, HEAD, PATCH, DELETE"},
                  {"moves", "GET, HEAD"},
                  {"move", "POST"},
                  {"engine", "POST"},
                  {"stop", "POST"},
                  {"undo", "POST"},
                  {"pdn", "GET, HEAD"}};
    int route = -1;
    for (int i = 0; i < (int)(sizeof routes / sizeof routes[0]); i++)
        if (strcmp(action, routes[i].name) == 0)
            route = i;
    if (route < 0) {
        serve_api_error(rep, 404, "no such path: %.100s", req->path);
        return;
    }
    if (!valid_id(p, idlen)) {
        serve_api_error(rep, 404, "no game `%.*s' (ids are %d lowercase hex digits)",
                        (int)(idlen > 40 ? 40 : idlen), p, SERVE_ID_LEN);
        return;
    }
    memcpy(id, p, SERVE_ID_LEN);
    id[SERVE_ID_LEN] = '\0';

    /* Method before existence: a wrong method is wrong for any id. */
    const char *allow = routes[route].allow;
    bool ok = route == 0
                  ? method_is(req, "GET") || method_is(req, "PATCH") || method_is(req, "DELETE")
                  : method_is(req, strncmp(allow, "GET", 3) == 0 ? "GET" : "POST");
    if (!ok)
        return not_allowed(req, rep, allow);

    if (route == 0 && method_is(req, "DELETE")) {
        if (!serve_store_delete(s, id))
            serve_api_error(rep, 404, "no game `%s' (it may have ended or been evicted)", id);
        else
            rep->status = 204;
        return;
    }
    ServeGame *g = serve_store_get(s, id);
    if (!g) {
        serve_api_error(rep, 404, "no game `%s' (it may have been deleted or evicted)", id);
        return;
    }
    switch (route) {
    case 0:
        if (method_is(req, "PATCH"))
            api_patch(s, g, req, rep);
        else {
            pthread_mutex_lock(&g->lock);
            reply_state(rep, 200, s, g);
            pthread_mutex_unlock(&g->lock);
        }
        break;
    case 1: api_moves(s, g, rep); break;
    case 2: api_move(s, g, req, rep); break;
    case 3: api_engine(s, g, req, rep); break;
    case 4: api_stop(s, g, req, rep); break;
    case 5: api_undo(s, g, req, rep); break;
    default: api_pdn(s, g, rep); break;
    }
    serve_store_release(s, g);
}
