/*
 * serve_review.c - reviewing games on the web board: the engine's analysis of any position of a
 * game (up to three lines), the evaluation graph over a whole game, PDN files read into games
 * (a file may hold many: they are listed first, then one is opened), and games started from a
 * three-move ballot.
 *
 *   POST /api/games/ID/analyse   {ply, lines, time, depth} -> 202: a search of the position
 *                                after PLY (default: the current one) that plays nothing
 *   POST /api/games/ID/graph     {time, depth} -> 202: every position evaluated in turn
 *   POST /api/pdn                {pdn} -> the games of a PDN text, listed
 *   POST /api/games              {pdn, game} or {ballot} (serve_api.c) -> a game set up here
 *
 * An analysis or a graph uses the game's one search slot, like an engine move: it is cancelled
 * by undo and delete and stopped by /stop. Its lines and evaluations come in the game's state
 * (engine.lines, evals), live as the search goes.
 */
#include "serve.h"

#include "pdn.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    PDN_LIST_MAX = 1000, /* games listed from one text */
    PDN_TEXT_MAX = 4 * 1024 * 1024,
};

/* 409 unless G's engine is idle; an analysis under way is cancelled for a new one (the page
 * asks for the position it shows, which may have changed). */
static bool check_idle(ServeStore *s, ServeGame *g, bool analysis, ServeReply *rep)
{
    if (analysis && g->engine != SERVE_ENGINE_IDLE && g->request.kind == SERVE_JOB_ANALYSE)
        serve_game_cancel_search(s, g);
    if (g->engine != SERVE_ENGINE_IDLE) {
        serve_api_error(rep, 409, "the engine is busy with this game: wait, or stop it");
        return false;
    }
    return true;
}

/* Starts JOB with TIME and DEPTH as its limits (G->lock held): 202 with the state, or 503 when
 * the server is shutting down. */
static void start_job(ServeStore *s, ServeGame *g, ServeJob *job, double time, int depth,
                      ServeReply *rep)
{
    job->limits.time = time;
    job->limits.depth = depth;
    if (serve_game_start_search(s, g, job) != 0)
        serve_api_error(rep, 503, "the server is shutting down");
    else
        serve_api_reply_state(rep, 202, s, g);
}

void serve_api_analyse(ServeStore *s, ServeGame *g, const ServeRequest *req, ServeReply *rep)
{
    static const char *const fields[] = {"ply", "lines", "time", "depth", NULL};
    cJSON *body = serve_api_game_begin(g, req, rep, fields);
    if (!body)
        return;
    ServeJob job = {.kind = SERVE_JOB_ANALYSE, .lines = 1, .ply = g->game.ply};
    double time = g->think_time;
    int depth = 0;
    if (serve_api_int(body, "ply", 0, g->game.ply, &job.ply, rep) &&
        serve_api_int(body, "lines", 1, SERVE_MAX_LINES, &job.lines, rep) &&
        serve_api_number(body, "time", 0.01, serve_store_options(s)->max_time, &time, rep) &&
        serve_api_int(body, "depth", 0, SERVE_MAX_DEPTH, &depth, rep) &&
        check_idle(s, g, true, rep))
        start_job(s, g, &job, time, depth, rep);
    serve_api_game_end(g, body);
}

void serve_api_graph(ServeStore *s, ServeGame *g, const ServeRequest *req, ServeReply *rep)
{
    static const char *const fields[] = {"time", "depth", NULL};
    cJSON *body = serve_api_game_begin(g, req, rep, fields);
    if (!body)
        return;
    double max_time = serve_store_options(s)->max_time < 5 ? serve_store_options(s)->max_time : 5;
    double time = max_time < 0.05 ? max_time : 0.05;
    int depth = 10;
    ServeJob job = {.kind = SERVE_JOB_GRAPH, .lines = 1, .ply = g->game.ply};
    if (serve_api_number(body, "time", 0.01, max_time, &time, rep) &&
        serve_api_int(body, "depth", 1, SERVE_MAX_DEPTH, &depth, rep) &&
        check_idle(s, g, false, rep))
        start_job(s, g, &job, time, depth, rep);
    serve_api_game_end(g, body);
}

/* The PDN text of BODY, or NULL with the error replied. */
static const char *pdn_text(const cJSON *body, ServeReply *rep)
{
    bool bad = false;
    const char *text = serve_api_string(body, "pdn", &bad, rep);
    if (bad)
        return NULL;
    if (!text) {
        serve_api_error(rep, 400, "`pdn' is missing: the text of a PDN file");
        return NULL;
    }
    return text;
}

static void add_tag(cJSON *o, const PdnGame *pg, const char *tag, const char *key)
{
    const char *v = pdn_tag(pg, tag);
    cJSON_AddStringToObject(o, key, v ? v : "");
}

void serve_api_pdn_list(ServeStore *s, const ServeRequest *req, ServeReply *rep)
{
    (void)s;
    static const char *const fields[] = {"pdn", NULL};
    cJSON *body = serve_api_body(req, rep, fields);
    if (!body)
        return;
    const char *text = pdn_text(body, rep);
    PdnGame *pg = text ? malloc(sizeof *pg) : NULL;
    if (text && !pg)
        serve_api_error(rep, 500, "out of memory");
    if (!pg) {
        cJSON_Delete(body);
        return;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON *games = cJSON_AddArrayToObject(o, "games");
    cJSON *errors = cJSON_AddArrayToObject(o, "errors");
    PdnReader rd;
    pdn_reader_init(&rd, text);
    int index = 0, listed = 0, rc;
    ParseError e;
    while (listed < PDN_LIST_MAX && (rc = pdn_read_game(&rd, &RULES_ENGLISH, pg, &e)) != 0) {
        index++;
        if (rc < 0) {
            char msg[256];
            parse_error_format(&e, msg, sizeof msg);
            char line[300];
            snprintf(line, sizeof line, "game %d: %s", index, msg);
            cJSON_AddItemToArray(errors, cJSON_CreateString(line));
            continue;
        }
        cJSON *g = cJSON_CreateObject();
        cJSON_AddNumberToObject(g, "game", index);
        add_tag(g, pg, "Event", "event");
        add_tag(g, pg, "Date", "date");
        add_tag(g, pg, "Black", "black");
        add_tag(g, pg, "White", "white");
        cJSON_AddStringToObject(g, "result", pg->result);
        cJSON_AddNumberToObject(g, "moves", pg->nmoves);
        cJSON_AddNumberToObject(g, "line", pg->line);
        cJSON_AddItemToArray(games, g);
        listed++;
    }
    free(pg);
    cJSON_Delete(body);
    if (listed == 0) {
        cJSON *first = cJSON_GetArrayItem(errors, 0);
        serve_api_error(rep, 422, "no game could be read from the PDN%s%s",
                        first ? ": " : " (it is empty)", first ? first->valuestring : "");
        cJSON_Delete(o);
        return;
    }
    serve_api_reply_json(rep, 200, o);
}

bool serve_ballot_name(const ServeStore *s, const Board *b, char *out)
{
    int n;
    const Opening *v = serve_store_ballots(s, &n);
    for (int i = 0; i < n; i++)
        if (memcmp(&v[i].start, b, sizeof *b) == 0) {
            snprintf(out, 64, "%s", v[i].name);
            return true;
        }
    return false;
}

int serve_ballot_random(uint64_t seed)
{
    int in_use = 0;
    for (int i = 0; i < openings_ballot_record_count; i++)
        in_use += openings_ballot_records[i].in_use;
    if (in_use == 0)
        return 0;
    int pick = (int)(seed % (uint64_t)in_use);
    for (int i = 0; i < openings_ballot_record_count; i++)
        if (openings_ballot_records[i].in_use && pick-- == 0)
            return openings_ballot_records[i].number;
    return 0;
}

/* The title of a PDN game: "Black - White, Event". */
static void pdn_title(const PdnGame *pg, char *title)
{
    const char *b = pdn_tag(pg, "Black"), *w = pdn_tag(pg, "White"), *ev = pdn_tag(pg, "Event");
    snprintf(title, 160, "%s - %s%s%s", b && *b ? b : "?", w && *w ? w : "?", ev && *ev ? ", " : "",
             ev && *ev ? ev : "");
}

bool serve_review_setup(ServeStore *s, const cJSON *body, Board *start, Move *moves, int *nmoves,
                        char *title, char *pdn_result, char *ballot, ServeReply *rep)
{
    *nmoves = 0;
    const cJSON *pdn = cJSON_GetObjectItemCaseSensitive(body, "pdn");
    const cJSON *bal = cJSON_GetObjectItemCaseSensitive(body, "ballot");
    const cJSON *fen = cJSON_GetObjectItemCaseSensitive(body, "fen");
    if ((pdn != NULL) + (bal != NULL) + (fen != NULL) > 1) {
        serve_api_error(rep, 400, "give one of `fen', `pdn' and `ballot', not several");
        return false;
    }
    if (!pdn && cJSON_GetObjectItemCaseSensitive(body, "game")) {
        serve_api_error(rep, 400, "`game' picks a game of `pdn': give the PDN text too");
        return false;
    }
    if (bal) {
        int n, k = -1;
        const Opening *v = serve_store_ballots(s, &n);
        if (!serve_api_int(body, "ballot", 0, n, &k, rep))
            return false;
        if (k == 0) /* any ballot in current use */
            k = serve_ballot_random((uint64_t)(serve_now() * 1e6));
        if (k < 1 || k > n) { /* cannot happen: the list has ballots in use */
            serve_api_error(rep, 500, "no ballot in use to pick from");
            return false;
        }
        const Opening *o = &v[k - 1];
        board_start(start);
        for (int i = 0; i < o->nmoves; i++)
            moves[i] = o->moves[i];
        *nmoves = o->nmoves;
        snprintf(ballot, 64, "%s", o->name);
        return true;
    }
    if (!pdn)
        return true;
    const char *text = pdn_text(body, rep);
    if (!text)
        return false;
    int want = 1;
    if (!serve_api_int(body, "game", 1, PDN_LIST_MAX, &want, rep))
        return false;
    PdnGame *pg = malloc(sizeof *pg);
    if (!pg) {
        serve_api_error(rep, 500, "out of memory");
        return false;
    }
    PdnReader rd;
    pdn_reader_init(&rd, text);
    ParseError e;
    int rc = 0;
    for (int i = 1; i <= want; i++) {
        rc = pdn_read_game(&rd, &RULES_ENGLISH, pg, &e);
        if (rc <= 0 && (i == want || rc == 0))
            break;
    }
    bool ok = rc > 0;
    if (rc < 0) {
        char msg[256];
        parse_error_format(&e, msg, sizeof msg);
        serve_api_error(rep, 422, "game %d of the PDN cannot be read: %s", want, msg);
    } else if (rc == 0)
        serve_api_error(rep, 422, "the PDN has no game %d", want);
    else {
        *start = pg->start;
        memcpy(moves, pg->moves, (size_t)pg->nmoves * sizeof *moves);
        *nmoves = pg->nmoves;
        pdn_title(pg, title);
        snprintf(pdn_result, 8, "%s", pg->result);
    }
    free(pg);
    return ok;
}
