/*
 * serve_play.c - playing against the engine on the web board: strength levels, the game clock,
 * resigning and draw offers.
 *
 * Levels. A level limits the engine's search by depth (and nodes) within its thinking time, and
 * at the weak end adds a little randomness: the engine searches its three best moves (multi-PV,
 * by leaving the lines found out of the next search) and plays any of them that scores within
 * the level's margin of the best. "full" is the engine at full strength: the thinking time or
 * the clock alone.
 *
 * Clocks. A game on the clock gives each side BASE seconds plus INCREMENT after every move. The
 * clock of the side to move runs from the previous move (or from when the clock was set);
 * serve_game_play charges it. A side whose time has run out loses as soon as anyone looks
 * (a request about the game, or the engine finishing its search): the page asks when its own
 * countdown reaches zero. On the clock the engine gets the clock itself (SearchLimits.clock,
 * inc: timeman.c shares it out), less a reserve for the reply to reach the page.
 *
 * Resigning and draws. The human resigns for their side (the side to move when two humans play);
 * a draw offer to the engine is accepted when the engine's latest evaluation of the game, from
 * its side, is no better than a small margin, and declined with the reason otherwise.
 */
#include "serve.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

enum {
    DRAW_ACCEPT_MAX = 15,   /* the engine accepts a draw when it scores at most this */
    CLOCK_MAX_BASE = 10800, /* three hours */
    CLOCK_MAX_INC = 600,
};

/* name, depth, nodes, margin (hundredths of a man) */
// clang-format off
const ServeLevel serve_levels[] = {
    {"beginner", 2, 2000, 150},
    {"casual", 4, 20000, 60},
    {"club", 8, 200000, 20},
    {"expert", 14, 0, 0},
    {"full", 0, 0, 0},
};
// clang-format on
const int serve_level_count = (int)(sizeof serve_levels / sizeof serve_levels[0]);

int serve_level_find(const char *name)
{
    for (int i = 0; i < serve_level_count; i++)
        if (strcmp(name, serve_levels[i].name) == 0)
            return i;
    return -1;
}

double serve_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool serve_play_clock_settings(ServeClock *clock, const cJSON *body, ServeReply *rep)
{
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(body, "clock");
    if (!c)
        return true;
    if (cJSON_IsNull(c)) {
        memset(clock, 0, sizeof *clock);
        return true;
    }
    if (!cJSON_IsObject(c)) {
        serve_api_error(rep, 400,
                        "`clock' must be {\"base\": SECONDS, \"increment\": SECONDS} or null");
        return false;
    }
    const cJSON *item;
    cJSON_ArrayForEach(item, c)
    {
        if (strcmp(item->string, "base") != 0 && strcmp(item->string, "increment") != 0) {
            serve_api_error(rep, 400, "unknown field `clock.%.40s' (known: base, increment)",
                            item->string);
            return false;
        }
    }
    double base = -1, inc = 0;
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(c, "base");
    if (!b || !cJSON_IsNumber(b) || !(b->valuedouble >= 1 && b->valuedouble <= CLOCK_MAX_BASE)) {
        serve_api_error(rep, 400, "`clock.base' must be a number of seconds from 1 to %d",
                        CLOCK_MAX_BASE);
        return false;
    }
    base = b->valuedouble;
    const cJSON *i = cJSON_GetObjectItemCaseSensitive(c, "increment");
    if (i && (!cJSON_IsNumber(i) || !(i->valuedouble >= 0 && i->valuedouble <= CLOCK_MAX_INC))) {
        serve_api_error(rep, 400, "`clock.increment' must be a number of seconds from 0 to %d",
                        CLOCK_MAX_INC);
        return false;
    }
    if (i)
        inc = i->valuedouble;
    clock->on = true;
    clock->base = base;
    clock->increment = inc;
    clock->left[BLACK] = clock->left[WHITE] = base;
    clock->since = serve_now();
    return true;
}

/* The time left of side C as of now. */
static double clock_left(const ServeGame *g, int c)
{
    double left = g->clock.left[c];
    if (c == g->game.board.side && !serve_game_over(g))
        left -= serve_now() - g->clock.since;
    return left;
}

bool serve_clock_check(ServeStore *s, ServeGame *g)
{
    if (!g->clock.on || serve_game_over(g))
        return false;
    int side = g->game.board.side;
    double left = clock_left(g, side);
    if (left > 0)
        return false;
    /* Flag fall: charge the time, stop any search, and end the game. */
    g->clock.left[side] = 0;
    snprintf(g->outcome, sizeof g->outcome, "%s", side == BLACK ? "0-1" : "1-0");
    snprintf(g->outcome_text, sizeof g->outcome_text, "%s lost on time",
             side == BLACK ? "Black" : "White");
    serve_game_cancel_search(s, g);
    serve_game_changed(s, g);
    return true;
}

cJSON *serve_clock_json(const ServeGame *g)
{
    if (!g->clock.on)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "base", g->clock.base);
    cJSON_AddNumberToObject(o, "increment", g->clock.increment);
    double b = clock_left(g, BLACK), w = clock_left(g, WHITE);
    cJSON_AddNumberToObject(o, "black", b > 0 ? (double)(long)(b * 1000) / 1000 : 0);
    cJSON_AddNumberToObject(o, "white", w > 0 ? (double)(long)(w * 1000) / 1000 : 0);
    if (serve_game_over(g))
        cJSON_AddNullToObject(o, "running");
    else
        cJSON_AddStringToObject(o, "running", serve_color_name(g->game.board.side));
    return o;
}

void serve_play_move_job(const ServeGame *g, double time, int depth, ServeJob *job)
{
    memset(job, 0, sizeof *job);
    job->kind = SERVE_JOB_MOVE;
    job->lines = 1;
    const ServeLevel *lv = &serve_levels[g->level];
    /* A search always has a time limit: a depth alone could run for hours. On the clock it is
     * the clock, less the reserve the reply needs to reach the page (never "no clock"). */
    if (g->clock.on) {
        double left = clock_left(g, g->game.board.side) - SERVE_CLOCK_RESERVE;
        job->limits.clock = left > SERVE_CLOCK_LEAST ? left : SERVE_CLOCK_LEAST;
        job->limits.inc = g->clock.increment;
    } else
        job->limits.time = time;
    job->limits.depth = depth;
    if (lv->depth && (depth == 0 || lv->depth < depth))
        job->limits.depth = lv->depth;
    job->limits.nodes = lv->nodes;
    if (lv->margin > 0) {
        job->lines = SERVE_MAX_LINES;
        job->margin = lv->margin;
    }
}

/* The side the requester plays in G: its only human side, or the side to move for two humans;
 * -1 when the engine plays both. */
static int human_color(const ServeGame *g)
{
    switch (g->human) {
    case SERVE_HUMAN_BLACK: return BLACK;
    case SERVE_HUMAN_WHITE: return WHITE;
    case SERVE_HUMAN_BOTH: return g->game.board.side;
    default: return -1;
    }
}

/* The start of a resignation or a draw offer (a body with no fields): the body (for
 * serve_api_game_end) with G locked, going on and with a human in it; or NULL with the error
 * (400, 409, 415) replied and G unlocked. */
static cJSON *begin_playing(ServeStore *s, ServeGame *g, const ServeRequest *req, ServeReply *rep)
{
    static const char *const fields[] = {NULL};
    cJSON *body = serve_api_game_begin(g, req, rep, fields);
    if (!body)
        return NULL;
    serve_clock_check(s, g);
    if (serve_game_over(g))
        serve_api_error(rep, 409, "the game is over (%s)",
                        g->outcome[0] ? g->outcome_text : game_result_text(game_result(&g->game)));
    else if (human_color(g) < 0)
        serve_api_error(rep, 409,
                        "the engine plays both sides: no player can resign or offer a draw");
    else
        return body;
    serve_api_game_end(g, body);
    return NULL;
}

void serve_api_resign(ServeStore *s, ServeGame *g, const ServeRequest *req, ServeReply *rep)
{
    cJSON *body = begin_playing(s, g, req, rep);
    if (!body)
        return;
    int c = human_color(g);
    serve_game_cancel_search(s, g);
    snprintf(g->outcome, sizeof g->outcome, "%s", c == BLACK ? "0-1" : "1-0");
    snprintf(g->outcome_text, sizeof g->outcome_text, "%s resigned",
             c == BLACK ? "Black" : "White");
    serve_game_changed(s, g);
    serve_api_reply_state(rep, 200, s, g);
    serve_api_game_end(g, body);
}

/* The engine's latest evaluation of G from colour C's side, or false when it has none. */
static bool engine_view(const ServeGame *g, int c, int *score)
{
    for (int p = g->game.ply; p >= 0 && p >= g->game.ply - 2; p--)
        if (g->evals[p] != SERVE_NO_EVAL) {
            *score = c == BLACK ? g->evals[p] : -g->evals[p];
            return true;
        }
    return false;
}

void serve_api_draw(ServeStore *s, ServeGame *g, const ServeRequest *req, ServeReply *rep)
{
    cJSON *body = begin_playing(s, g, req, rep);
    if (!body)
        return;
    int score = 0;
    bool accept = true;
    if (g->human != SERVE_HUMAN_BOTH) {
        int engine = !human_color(g);
        if (!engine_view(g, engine, &score)) {
            accept = false;
            snprintf(g->notice, sizeof g->notice,
                     "The engine declines: it has not judged this position yet. "
                     "Offer again after its next move.");
        } else if (score > DRAW_ACCEPT_MAX) {
            accept = false;
            snprintf(g->notice, sizeof g->notice,
                     "The engine declines the draw: it sees itself ahead (%+.2f).", score / 100.0);
        }
    }
    if (accept) {
        serve_game_cancel_search(s, g);
        snprintf(g->outcome, sizeof g->outcome, "1/2-1/2");
        snprintf(g->outcome_text, sizeof g->outcome_text, "drawn by agreement");
        g->notice[0] = '\0';
    }
    serve_game_changed(s, g);
    serve_api_reply_state(rep, 200, s, g);
    serve_api_game_end(g, body);
}
