/*
 * serve.h - the parts of `ponder serve` (the web board) that its files share.
 *
 *   serve.c        the command: options, the civetweb HTTP server, routing, the page's files
 *                  (compiled into the binary, see scripts/embed-assets.sh) and the WebSocket
 *                  channel that pushes game states to the browser as they change
 *   serve_api.c    the JSON API: a request (method, path, body) in, a reply (status, JSON) out;
 *                  it knows nothing of HTTP connections, so it can be tested on its own
 *   serve_json.c   its plumbing: request bodies read strictly, fields checked, replies written
 *   serve_state.c  a game's state as the API replies it (position, moves, clock, engine)
 *   serve_games.c  the game store (games by random id, capped, least recently used evicted) and
 *                  the pool of engine workers that search for them (moves, analysis, the graph)
 *   serve_play.c   playing against the engine: strength levels, clocks, resigning, draw offers
 *   serve_review.c reviewing: analysis of any position of a game (multi-PV), the evaluation
 *                  graph, reading PDN files into games, ballots
 *
 * Threads. civetweb runs each connection on one of its own threads; a request only ever holds a
 * game's lock for the time it takes to read or change that game, never for a search. Searches
 * run on a fixed pool of worker threads, each with its own Engine (and so its own
 * transposition table): a game asks for an engine move by joining the pool's queue, and the
 * worker that takes it copies the game, searches without holding any lock, reports every
 * finished iteration into the game (the live depth, score and line) and plays the move at the
 * end unless the search was cancelled meanwhile (undo, delete, shutdown). Every change bumps the
 * game's version and wakes whoever waits for it: a request with "wait", the WebSocket pusher.
 *
 * Lock order: store lock, then a game's lock, then the pool lock, then the notify lock. Never
 * the other way round.
 */
#pragma once

#include "engine.h"
#include "openings.h"

#include <pthread.h>
#include <stdatomic.h>

enum {
    SERVE_ID_LEN = 16,      /* hex digits of a game id */
    SERVE_BODY_MAX = 16384, /* the largest request body accepted (413 beyond) */
    SERVE_MAX_DEPTH = 99,   /* the deepest search a request may ask for */
    SERVE_MAX_LINES = 3,    /* engine lines of one analysis (multi-PV) */
    SERVE_NO_EVAL = -32768, /* evals[] entry of a position not evaluated yet */
};

/* What a search is for. */
typedef enum {
    SERVE_JOB_MOVE,    /* find the engine's move and play it */
    SERVE_JOB_ANALYSE, /* analyse one position of the game (1-3 lines); play nothing */
    SERVE_JOB_GRAPH,   /* evaluate every position of the game in turn, for the graph */
} ServeJobKind;

/* A search asked for: its kind, its limits and what the kind needs. */
typedef struct {
    ServeJobKind kind;
    SearchLimits limits; /* of the whole search (ANALYSE: shared by its lines) */
    int ply;             /* ANALYSE: the ply of the game to analyse (the position after it) */
    int lines;           /* ANALYSE, and MOVE at a weak level: lines to search, 1-3 */
    int margin;          /* MOVE: play any line scoring within MARGIN of the best (0: the best) */
} ServeJob;

/* The game clock (a time control with increment; all seconds). */
typedef struct {
    bool on;          /* whether the game is played on the clock */
    double base;      /* each side's time at the start */
    double increment; /* added after each move */
    double left[2];   /* time left by colour (BLACK, WHITE), as of `since' */
    double since;     /* monotonic time when the side to move's clock started */
} ServeClock;

/* Who plays each side (the page's choice; the server does not move on its own). */
typedef enum {
    SERVE_HUMAN_BLACK, /* the human plays Black, the engine White */
    SERVE_HUMAN_WHITE, /* the human plays White */
    SERVE_HUMAN_BOTH,  /* two humans, or analysis: the engine moves only when asked */
    SERVE_HUMAN_NONE,  /* the engine plays itself */
} ServeHuman;

typedef enum {
    SERVE_ENGINE_IDLE,     /* no search asked for */
    SERVE_ENGINE_QUEUED,   /* waiting for a free worker */
    SERVE_ENGINE_THINKING, /* a worker is searching */
} ServeEngineState;

/* One move of a game as the state JSON shows it (cached: formatting FENs with printf was a
 * third of the server's time under load). */
typedef struct {
    char move[48]; /* "15x24x31" */
    char fen[176]; /* the position after it */
} ServeHistory;

typedef struct ServeGame {
    char id[SERVE_ID_LEN + 1]; /* lowercase hex, the key of the store */

    atomic_int refs; /* holders: the table, requests, the queue, a worker, sockets */
    /* Guarded by the store lock. */
    bool listed;        /* in the table (false once deleted or evicted) */
    uint64_t last_used; /* store tick of the latest lookup, for eviction */

    /* Guarded by lock. */
    pthread_mutex_t lock;
    pthread_cond_t changed;  /* broadcast whenever version grows */
    uint64_t version;        /* grows with every change, starting at 1 */
    Game game;               /* moves, positions, draw rules */
    ServeHuman human;        /* who plays which side */
    double think_time;       /* the engine's seconds per move for this game */
    int think_depth;         /* and its depth limit (0: none) */
    ServeEngineState engine; /* whether a search is queued or running */
    uint64_t job;            /* id of the latest search asked for; bumped to cancel it */
    ServeJob request;        /* that search: kind, limits */
    bool stop_requested;     /* "move now" arrived while the search was still queued */
    bool has_info;           /* info holds a search's latest iteration */
    SearchInfo info;         /* the latest finished iteration (live while thinking) */
    int info_lines;          /* lines of an analysis in info and more[] (1-3) */
    SearchInfo more[SERVE_MAX_LINES - 1]; /* an analysis's 2nd and 3rd lines */
    int database;          /* the analysed position's endgame-database value (EgdbValue) */
    bool info_analysis;    /* info is an analysis (nothing played), not a move search */
    bool info_book;        /* info's move came from the opening book (no search) */
    int graph_ply;         /* a graph job: the ply being evaluated */
    int16_t *evals;        /* GAME_MAX_PLIES + 1 entries: Black's view of the position after
                              each ply (0 = the start), SERVE_NO_EVAL where unknown */
    int level;             /* strength level (index into serve_levels) */
    ServeClock clock;      /* the game clock */
    char outcome[8];       /* the result when the game ended off the board (resigned, drawn by
                              agreement, lost on time): "1-0", "0-1", "1/2-1/2"; else "" */
    char outcome_text[64]; /* and how it ended */
    char notice[96];       /* a message for the players (a declined draw offer), or "" */
    char ballot[64];       /* the ballot the game started from, or "" */
    char title[160];       /* a game read from PDN: "Black - White, Event", else "" */
    char pdn_result[8];    /* and the result its PDN gives */
    int info_ply;          /* the game ply that search started from */
    int info_side;         /* the side to move when it started (scores are its view) */
    char engine_error[96]; /* why the last search played nothing, or "" */
    ServeHistory *history; /* text and FEN of each move played, a cache for the state JSON */
    size_t history_cap;    /* entries allocated */
    int history_valid;     /* entries [0, history_valid) are right; <= game.ply always */
} ServeGame;

typedef struct ServeStore ServeStore;

typedef struct {
    int max_games;        /* games kept at once; the least recently used goes beyond */
    int workers;          /* engine threads, the cap on searches at once */
    double max_time;      /* the longest search a request may ask for, seconds */
    EngineOptions engine; /* options of every worker's engine */
} ServeStoreOptions;

/* A store with its worker pool started, or NULL with the reason in ERR (ERR_LEN bytes). */
ServeStore *serve_store_new(const ServeStoreOptions *opt, char *err);

/* Stops every search, drops the queue, wakes every waiter and refuses new searches. Idempotent;
 * call before stopping the HTTP server so that no request stays blocked. */
void serve_store_shutdown(ServeStore *s);

/* Joins the workers and frees every game (whatever references remain). */
void serve_store_free(ServeStore *s);

const ServeStoreOptions *serve_store_options(const ServeStore *s);

/* A new game from START under R, listed and returned with a reference held (release it).
 * Evicts the least recently used idle game when the store is full; returns NULL when every game
 * is in use or memory runs out. */
ServeGame *serve_store_create(ServeStore *s, const Rules *r, const Board *start);

/* The game with ID, with a reference held, or NULL. */
ServeGame *serve_store_get(ServeStore *s, const char *id);

/* Adds a reference to G (which the caller already holds one of). */
void serve_store_retain(ServeStore *s, ServeGame *g);

/* Drops a reference; the last one frees G. */
void serve_store_release(ServeStore *s, ServeGame *g);

/* Unlists the game with ID and cancels its search. Returns false if there is no such game. */
bool serve_store_delete(ServeStore *s, const char *id);

typedef struct {
    int games;         /* listed games */
    int queued;        /* searches waiting for a worker */
    int thinking;      /* searches running */
    uint64_t searches; /* searches finished since start */
    uint64_t evicted;  /* games evicted since start */
    long allocated;    /* games in memory: listed, or unlisted but still held (a leak check) */
} ServeStoreStats;

void serve_store_stats(ServeStore *s, ServeStoreStats *st);

/* ---- Operations on one game: call with G->lock held ---- */

/* Records a change: bumps the version and wakes waiters and the WebSocket pusher. */
void serve_game_changed(ServeStore *s, ServeGame *g);

/* Queues search JOB of G (a move, an analysis, the graph). Returns 0, or 503 when the store is
 * shutting down. The caller has checked that G is idle (and, for a move, not over). */
int serve_game_start_search(ServeStore *s, ServeGame *g, const ServeJob *job);

/* Records the evaluation (Black's view) of the position after PLY of G, when it is a game ply. */
void serve_game_set_eval(ServeGame *g, int ply, int black_view);

/* Plays M in G (legal, checked by the caller) with the clock, the history and the evaluations
 * kept right. Returns false when the game is too long to record another move. */
bool serve_game_play(ServeGame *g, const Move *m);

/* Whether G is over, on the board or off it (outcome). */
bool serve_game_over(const ServeGame *g);

/* The built-in ballots (all 174, in ACF order), loaded once by the store. */
const Opening *serve_store_ballots(const ServeStore *s, int *count);

/* Cancels G's search, if any: a queued one is dropped, a running one stopped, and its move is
 * not played. */
void serve_game_cancel_search(ServeStore *s, ServeGame *g);

/* Asks G's running search to end now and play the best move it has; a queued search will end
 * after its first iteration. Returns false when no search is queued or running. */
bool serve_game_stop_search(ServeStore *s, ServeGame *g);

/* Waits (releasing G->lock meanwhile) until search JOB of G is no longer queued or running, the
 * store shuts down, or TIMEOUT seconds pass. Returns true if the search ended. */
bool serve_game_wait_search(ServeStore *s, ServeGame *g, uint64_t job, double timeout);

/* ---- Change notification (for the WebSocket pusher) ---- */

/* Blocks until some game changed after tick SEEN, the store shuts down, or TIMEOUT seconds
 * pass; returns the current tick. */
uint64_t serve_store_wait_change(ServeStore *s, uint64_t seen, double timeout);

/* Whether serve_store_shutdown has been called. */
bool serve_store_stopping(ServeStore *s);

/* ---- The JSON API (serve_api.c) ---- */

typedef struct {
    const char *method; /* "GET", "POST", ... */
    const char *path;   /* decoded path, starting with "/api/" */
    const char *query;  /* after '?', or NULL */
    const char *body;   /* the body (NUL-terminated), or NULL */
    size_t body_len;
    const char *content_type; /* the Content-Type header, or NULL */
} ServeRequest;

typedef struct {
    int status;               /* HTTP status */
    const char *content_type; /* of body */
    char *body;               /* malloc'd, or NULL for none */
    size_t body_len;
    char location[64];    /* Location header, or "" */
    char disposition[96]; /* Content-Disposition header, or "" */
    const char *allow;    /* Allow header (with 405), or NULL */
} ServeReply;

/* Answers one API request into REP (always filled: an error is a JSON {"error": ...} with its
 * 4xx or 5xx status). Free REP->body afterwards. */
void serve_api_handle(ServeStore *s, const ServeRequest *req, ServeReply *rep);

/* G's state as JSON (malloc'd, NUL-terminated), or NULL when out of memory (serve_state.c).
 * Call with G->lock held. */
char *serve_api_state_json(ServeStore *s, ServeGame *g);

/* Fills REP with a JSON error {"error": MESSAGE, "status": STATUS}. */
void serve_api_error(ServeReply *rep, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- Helpers of the API files (serve_json.c, and serve_state.c for the state) ---- */

/* The body as a JSON object (an empty body is an empty object), or NULL with the error replied.
 * Fields other than the NULL-terminated list ALLOWED are refused, as are fields given twice. */
struct cJSON *serve_api_body(const ServeRequest *req, ServeReply *rep, const char *const *allowed);

/* The start of a request about game G: reads REQ's body as serve_api_body does (fields ALLOWED),
 * then locks G. Returns the body, to hand to serve_api_game_end when done, or NULL with the error
 * replied and G not locked. */
struct cJSON *serve_api_game_begin(ServeGame *g, const ServeRequest *req, ServeReply *rep,
                                   const char *const *allowed);

/* The end of a request that serve_api_game_begin started: unlocks G, then frees BODY. */
void serve_api_game_end(ServeGame *g, struct cJSON *body);

/* Optional fields of O: each returns true when absent or right (stored in *OUT), false with a
 * 400 replied that names the field and what it must be. */
bool serve_api_number(const struct cJSON *o, const char *name, double min, double max, double *out,
                      ServeReply *rep);
bool serve_api_int(const struct cJSON *o, const char *name, int min, int max, int *out,
                   ServeReply *rep);
bool serve_api_bool(const struct cJSON *o, const char *name, bool *out, ServeReply *rep);
/* NULL when absent; sets *BAD (with the error replied) when present but not a string. */
const char *serve_api_string(const struct cJSON *o, const char *name, bool *bad, ServeReply *rep);

/* Replies G's state with STATUS (G->lock held). */
void serve_api_reply_state(ServeReply *rep, int status, ServeStore *s, ServeGame *g);

/* Replies JSON (consumed) with STATUS. */
void serve_api_reply_json(ServeReply *rep, int status, struct cJSON *json);

/* A FEN from a user checked as a start position, or false with a 400 replied. */
bool serve_api_parse_start(const char *fen, Board *b, ServeReply *rep);

/* "black" or "white". */
const char *serve_color_name(int c);

/* The name of H in the API's `side' field: "black", "white", "both" or "none". */
const char *serve_human_name(ServeHuman h);

/* The legal moves of G's position as a JSON array, each capture route apart (an empty array when
 * the game is over). */
struct cJSON *serve_legal_json(const ServeGame *g);

/* ---- Playing (serve_play.c) ---- */

typedef struct {
    const char *name; /* "beginner", ... "full" */
    int depth;        /* depth limit (0: none, the thinking time alone) */
    uint64_t nodes;   /* node limit (0: none) */
    int margin;       /* randomness: any of 3 lines within MARGIN of the best may be played */
} ServeLevel;

extern const ServeLevel serve_levels[];
extern const int serve_level_count;

/* The level named NAME, or -1. */
int serve_level_find(const char *name);

/* On the clock, the engine's search is given what is left less SERVE_CLOCK_RESERVE (the reply's
 * way to the page), and at least SERVE_CLOCK_LEAST (seconds). */
#define SERVE_CLOCK_RESERVE 0.5
#define SERVE_CLOCK_LEAST 0.01

/* Monotonic seconds. */
double serve_now(void);

/* The clock a body sets (clock: {base, increment}, started now, or null: none) into *CLOCK;
 * left alone when the body has no clock; false with a 400. */
bool serve_play_clock_settings(ServeClock *clock, const struct cJSON *body, ServeReply *rep);

/* Ends G on time when the side to move's clock has run out (G->lock held). Returns true if it
 * did now. */
bool serve_clock_check(ServeStore *s, ServeGame *g);

/* The clock's JSON, time left as of now. */
struct cJSON *serve_clock_json(const ServeGame *g);

/* The limits of the engine's next move in G: thinking time TIME, or on the clock the clock of
 * the side to move (limits.clock, inc), and the level. */
void serve_play_move_job(const ServeGame *g, double time, int depth, ServeJob *job);

void serve_api_resign(ServeStore *s, ServeGame *g, const ServeRequest *req, ServeReply *rep);
void serve_api_draw(ServeStore *s, ServeGame *g, const ServeRequest *req, ServeReply *rep);

/* ---- Reviewing (serve_review.c) ---- */

void serve_api_analyse(ServeStore *s, ServeGame *g, const ServeRequest *req, ServeReply *rep);
void serve_api_graph(ServeStore *s, ServeGame *g, const ServeRequest *req, ServeReply *rep);
/* POST /api/pdn: the games of a PDN text, listed. */
void serve_api_pdn_list(ServeStore *s, const ServeRequest *req, ServeReply *rep);
/* New games from a PDN text's game or a ballot: fills G (fresh, lock held) from BODY's `pdn',
 * `game', `ballot' fields; false with the error replied. */
bool serve_review_setup(ServeStore *s, const struct cJSON *body, Board *start, Move *moves,
                        int *nmoves, char *title, char *pdn_result, char *ballot, ServeReply *rep);
/* A ballot in current use chosen by SEED (any number: a clock reading): its number, 1-174
 * (0 only if none were in use). */
int serve_ballot_random(uint64_t seed);

/* The ballot whose position is B, named into OUT (64 bytes), or false. */
bool serve_ballot_name(const ServeStore *s, const Board *b, char *out);

/* The `ponder serve` command (serve.c). */
int cmd_serve(int argc, char **argv);

/* ---- The page's files, compiled in (build/gen/serve_assets.c, made from web/) ---- */

typedef struct {
    const char *path;         /* "/index.html", "/app.js", ... */
    const char *content_type; /* "text/html; charset=utf-8", ... */
    const unsigned char *data;
    size_t size;
} ServeAsset;

extern const ServeAsset serve_assets[];
extern const int serve_asset_count;
