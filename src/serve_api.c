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
 *   POST   /api/games/ID/resign        the human resigns       (serve_play.c)
 *   POST   /api/games/ID/draw          the human offers a draw (serve_play.c)
 *   POST   /api/games/ID/analyse       analyse a position of the game, 1-3 lines (serve_review.c)
 *   POST   /api/games/ID/graph         evaluate every position, for the graph (serve_review.c)
 *   POST   /api/pdn                    list the games of a PDN text (serve_review.c)
 *
 * A request comes in as a ServeRequest and leaves as a ServeReply: this file knows nothing of
 * sockets. A reply about a game carries its state (serve_state.c). Bodies are JSON objects read
 * strictly (serve_json.c) (unknown fields, wrong types, out-of-range values are errors that name
 * the field). Every error is a JSON object {"error", "status"} with the status that fits: 400
 * malformed, 404 unknown game or path, 405 wrong method, 409 not now (the engine is thinking, the
 * game is over), 415 not JSON, 422 an illegal move, 503 full. The C library is the only rules
 * authority: the page gets the legal moves from here.
 */
#include "serve.h"

#include "notation.h"
#include "pdn.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The game settings common to new games and PATCH: side, time, depth. */
static bool get_settings(const ServeStore *s, const cJSON *o, ServeHuman *human, double *time,
                         int *depth, ServeReply *rep)
{
    bool bad = false;
    const char *side = serve_api_string(o, "side", &bad, rep);
    if (bad)
        return false;
    if (side) {
        int found = -1;
        for (int i = 0; i < 4; i++)
            if (strcmp(side, serve_human_name((ServeHuman)i)) == 0)
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
    return serve_api_number(o, "time", 0.01, max_time, time, rep) &&
           serve_api_int(o, "depth", 0, SERVE_MAX_DEPTH, depth, rep);
}

/* The strength level of body O into *LEVEL; false with a 400 naming the levels. */
static bool get_level(const cJSON *o, int *level, ServeReply *rep)
{
    bool bad = false;
    const char *name = serve_api_string(o, "level", &bad, rep);
    if (bad)
        return false;
    if (!name)
        return true;
    int k = serve_level_find(name);
    if (k < 0) {
        char list[160] = "";
        for (int i = 0; i < serve_level_count; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s\"%s\"", i ? ", " : "",
                     serve_levels[i].name);
        serve_api_error(rep, 400, "`level' must be one of %s", list);
        return false;
    }
    *level = k;
    return true;
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
    serve_api_reply_json(rep, 200, o);
}

/* Checks a FEN from a user: syntax, then a position the rules can play from. */
bool serve_api_parse_start(const char *fen, Board *b, ServeReply *rep)
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
    static const char *const fields[] = {"side",  "time",   "depth", "fen",  "level",
                                         "clock", "ballot", "pdn",   "game", NULL};
    cJSON *body = serve_api_body(req, rep, fields);
    if (!body)
        return;
    ServeHuman human = SERVE_HUMAN_BLACK;
    double time = 1.0;
    int depth = 0;
    int level = serve_level_count - 1;
    ServeClock clock = {0};
    bool bad = false;
    Board start;
    board_start(&start);
    if (time > serve_store_options(s)->max_time)
        time = serve_store_options(s)->max_time;
    char title[160] = "", pdn_result[8] = "", ballot[64] = "";
    int nmoves = 0;
    Move *moves = malloc(GAME_MAX_PLIES * sizeof *moves);
    if (!moves) {
        serve_api_error(rep, 500, "out of memory");
        cJSON_Delete(body);
        return;
    }
    const char *fen = serve_api_string(body, "fen", &bad, rep);
    if (bad || !get_settings(s, body, &human, &time, &depth, rep) ||
        !get_level(body, &level, rep) || !serve_play_clock_settings(&clock, body, rep) ||
        !serve_review_setup(s, body, &start, moves, &nmoves, title, pdn_result, ballot, rep) ||
        (fen && !serve_api_parse_start(fen, &start, rep))) {
        cJSON_Delete(body);
        free(moves);
        return;
    }
    cJSON_Delete(body);
    ServeGame *g = serve_store_create(s, &RULES_ENGLISH, &start);
    if (!g) {
        free(moves);
        serve_api_error(rep, 503, "too many games in use (at most %d): try again later",
                        serve_store_options(s)->max_games);
        return;
    }
    pthread_mutex_lock(&g->lock);
    g->human = human;
    g->think_time = time;
    g->think_depth = depth;
    g->level = level;
    for (int i = 0; i < nmoves; i++)
        game_play(&g->game, &moves[i]); /* checked legal by the PDN reader or the ballot list */
    free(moves);
    g->clock = clock;
    g->clock.since = serve_now();
    snprintf(g->title, sizeof g->title, "%s", title);
    snprintf(g->pdn_result, sizeof g->pdn_result, "%s", pdn_result);
    if (ballot[0] || serve_ballot_name(s, &start, ballot))
        snprintf(g->ballot, sizeof g->ballot, "%s", ballot);
    serve_api_reply_state(rep, 201, s, g);
    pthread_mutex_unlock(&g->lock);
    snprintf(rep->location, sizeof rep->location, "/api/games/%s", g->id);
    serve_store_release(s, g);
}

static void api_patch(ServeStore *s, ServeGame *g, const ServeRequest *req, ServeReply *rep)
{
    static const char *const fields[] = {"side", "time", "depth", "level", "clock", NULL};
    cJSON *body = serve_api_game_begin(g, req, rep, fields);
    if (!body)
        return;
    ServeHuman human = g->human;
    double time = g->think_time;
    int depth = g->think_depth;
    int level = g->level;
    ServeClock clock = g->clock;
    if (get_settings(s, body, &human, &time, &depth, rep) && get_level(body, &level, rep) &&
        serve_play_clock_settings(&clock, body, rep)) {
        g->human = human;
        g->think_time = time;
        g->think_depth = depth;
        g->level = level;
        g->clock = clock;
        serve_game_changed(s, g);
        serve_api_reply_state(rep, 200, s, g);
    }
    serve_api_game_end(g, body);
}

static void api_moves(ServeStore *s, ServeGame *g, ServeReply *rep)
{
    (void)s;
    pthread_mutex_lock(&g->lock);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "turn", serve_color_name(g->game.board.side));
    cJSON_AddItemToObject(o, "moves", serve_legal_json(g));
    pthread_mutex_unlock(&g->lock);
    serve_api_reply_json(rep, 200, o);
}

/* 409 when G cannot take a move now (call with G->lock held). An analysis never holds a game
 * up: a move or an engine move cancels it. */
static bool check_can_move(ServeStore *s, ServeGame *g, ServeReply *rep)
{
    if (g->engine != SERVE_ENGINE_IDLE && g->request.kind == SERVE_JOB_ANALYSE)
        serve_game_cancel_search(s, g);
    if (g->engine != SERVE_ENGINE_IDLE) {
        serve_api_error(rep, 409, "the engine is thinking: wait for its move, stop it, or undo");
        return false;
    }
    if (serve_game_over(g)) {
        serve_api_error(rep, 409, "the game is over (%s)",
                        g->outcome[0] ? g->outcome_text : game_result_text(game_result(&g->game)));
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
                illegal_move(
                    g,
                    notation_parse_squares(text->valuestring, sq, (int)sizeof sq, &capture, &se) > 0
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
    char what[160];
    snprintf(what, sizeof what, "illegal move: no legal move follows the path %s", shown);
    illegal_move(g, sq[0], what, rep);
    return false;
}

static void api_move(ServeStore *s, ServeGame *g, const ServeRequest *req, ServeReply *rep)
{
    static const char *const fields[] = {"move", "path", NULL};
    cJSON *body = serve_api_game_begin(g, req, rep, fields);
    if (!body)
        return;
    Move m;
    serve_clock_check(s, g);
    if (check_can_move(s, g, rep) && find_move(g, body, &m, rep)) {
        if (!serve_game_play(g, &m))
            serve_api_error(rep, 409, "the game is too long to record another move");
        else {
            serve_game_changed(s, g);
            serve_api_reply_state(rep, 200, s, g);
        }
    }
    serve_api_game_end(g, body);
}

static void api_engine(ServeStore *s, ServeGame *g, const ServeRequest *req, ServeReply *rep)
{
    static const char *const fields[] = {"time", "depth", "wait", NULL};
    cJSON *body = serve_api_game_begin(g, req, rep, fields);
    if (!body)
        return;
    double time = g->think_time;
    int depth = g->think_depth;
    bool wait = false;
    double max_time = serve_store_options(s)->max_time;
    if (serve_api_number(body, "time", 0.01, max_time, &time, rep) &&
        serve_api_int(body, "depth", 0, SERVE_MAX_DEPTH, &depth, rep) &&
        serve_api_bool(body, "wait", &wait, rep) &&
        (serve_clock_check(s, g), check_can_move(s, g, rep))) {
        ServeJob job;
        serve_play_move_job(g, time, depth, &job);
        time = job.limits.time > 0 ? job.limits.time : job.limits.clock;
        int status = serve_game_start_search(s, g, &job);
        if (status != 0)
            serve_api_error(rep, status, "the server is shutting down");
        else if (!wait)
            serve_api_reply_state(rep, 202, s, g);
        else {
            /* Wait for the move: the search's time and a margin for a full queue. */
            uint64_t id = g->job;
            if (serve_game_wait_search(s, g, id, time + 30.0))
                serve_api_reply_state(rep, 200, s, g);
            else if (serve_store_stopping(s))
                serve_api_error(rep, 503, "the server is shutting down");
            else
                serve_api_reply_state(rep, 202, s, g);
        }
    }
    serve_api_game_end(g, body);
}

static void api_stop(ServeStore *s, ServeGame *g, const ServeRequest *req, ServeReply *rep)
{
    static const char *const fields[] = {NULL};
    cJSON *body = serve_api_game_begin(g, req, rep, fields);
    if (!body)
        return;
    if (!serve_game_stop_search(s, g))
        serve_api_error(rep, 409, "the engine is not thinking");
    else
        serve_api_reply_state(rep, 200, s, g);
    serve_api_game_end(g, body);
}

static void api_undo(ServeStore *s, ServeGame *g, const ServeRequest *req, ServeReply *rep)
{
    static const char *const fields[] = {"plies", NULL};
    cJSON *body = serve_api_game_begin(g, req, rep, fields);
    if (!body)
        return;
    int plies = 1;
    if (serve_api_int(body, "plies", 1, GAME_MAX_PLIES, &plies, rep)) {
        if (g->game.ply == 0 && g->engine == SERVE_ENGINE_IDLE && !g->outcome[0])
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
            g->outcome[0] = '\0'; /* taking back after resigning, a draw or the flag */
            g->notice[0] = '\0';
            if (g->clock.on) { /* the clock goes on from here: nobody is charged the undo */
                for (int c = 0; c < 2; c++)
                    if (g->clock.left[c] <= 0)
                        g->clock.left[c] = 1;
                g->clock.since = serve_now();
            }
            serve_game_changed(s, g);
            serve_api_reply_state(rep, 200, s, g);
        }
    }
    serve_api_game_end(g, body);
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
    bool ok = pdn_write_game(f, &g->game, tags, n,
                             g->outcome[0] ? g->outcome : game_result_tag(game_result(&g->game)));
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
    if (strcmp(p, "pdn") == 0) {
        if (!method_is(req, "POST"))
            return not_allowed(req, rep, "POST");
        return serve_api_pdn_list(s, req, rep);
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
                  {"pdn", "GET, HEAD"},
                  {"resign", "POST"},
                  {"draw", "POST"},
                  {"analyse", "POST"},
                  {"graph", "POST"}};
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
            serve_api_reply_state(rep, 200, s, g);
            pthread_mutex_unlock(&g->lock);
        }
        break;
    case 1: api_moves(s, g, rep); break;
    case 2: api_move(s, g, req, rep); break;
    case 3: api_engine(s, g, req, rep); break;
    case 4: api_stop(s, g, req, rep); break;
    case 5: api_undo(s, g, req, rep); break;
    case 6: api_pdn(s, g, rep); break;
    case 7: serve_api_resign(s, g, req, rep); break;
    case 8: serve_api_draw(s, g, req, rep); break;
    case 9: serve_api_analyse(s, g, req, rep); break;
    default: serve_api_graph(s, g, req, rep); break;
    }
    serve_store_release(s, g);
}
