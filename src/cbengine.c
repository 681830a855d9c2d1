/*
 * cbengine.c - Ponder as a CheckerBoard engine: the getmove / enginecommand API (protocol
 * version 2) that libponder-cb.so and ponder64.dll export (mk/cbengine.mk, docs/cbengine.md).
 *
 * CheckerBoard hands over a position as an 8x8 array (board[x][y], CB_* values, square n of
 * the standard numbering at x, y with n = 4*(y+1) - x/2) and the side to move, and expects the
 * position after the engine's move back in the same array. The library keeps one Game across
 * calls so that repetitions count: "set gamehist FEN moves..." (sent before each getmove by
 * CheckerBoard since 2021) replaces it; without it, a position one legal move away from the
 * game's current one extends the game by that move, and any other position starts a new game.
 *
 * Nothing happens when the library is loaded: the engine (its hash table, threads, databases) is
 * made at the first getmove, with the options enginecommand set until then; changing the hash
 * size, the threads or the databases afterwards makes a new one at the next getmove. (The rules
 * and engine modules fill their tables on first use, under pthread_once: see ponder.h.)
 *
 * A search is an engine job (engine_start) on the engine's thread while getmove's thread polls
 * *playnow (a stop names the job: engine_stop) and copies the search's progress into the status
 * string; CheckerBoard's incremental clock (info bits 2-3, moreinfo) goes to timeman as
 * SearchLimits.clock and inc. Every call into the engine facade is in the cb_engine_* functions
 * below, so the library follows the facade when it changes.
 * One mutex serialises getmove, islegal and enginecommand: CheckerBoard calls them from one
 * thread, but a host that does not must not corrupt the shared game or options.
 *
 * The opening book: "set book N" chooses how (0 no book, 1 any book move, 2 good ones, 3 the
 * best: book variety 30, 10 and 0 hundredths of a man), "set bookfile FILE" which (Ponder's own
 * .pbk; "" the built-in one). A file is read when it is set, so a bad one is refused at once; a
 * bare file name not found from the working directory is looked for beside the library, where
 * CheckerBoard keeps an engine's files.
 */
#ifndef _WIN32
#define _GNU_SOURCE /* dladdr: where the library was loaded from */
#endif
#include "cbengine.h"

#ifdef CB_HAVE_EGDB
#include "egdb.h"
#endif
#include "book.h"
#include "engine.h"
#include "game.h"
#include "nnue.h"
#include "nnue_hook.h"
#include "notation.h"
#include "util.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif

enum {
    CB_POLL_MS = 5,     /* how often getmove looks at *playnow and the search's progress */
    CB_PATH_MAX = 1024, /* "set dbpath", "set bookfile" */
    CB_BOOK_BEST = 3,   /* "set book" 3: the book's best move (the default) */
};

/* The book variety (hundredths of a man) of "set book" 1-3: all kinds of moves, good moves,
 * the best move (CheckerBoard leaves the meaning of the levels to the engine). */
static const int CB_BOOK_VARIETY[CB_BOOK_BEST + 1] = {0, 30, 10, 0};

#define CB_ENGINE_NAME "Ponder"
#define CB_HELP_FILE "ponder-cb.htm"
#ifdef CB_HAVE_EGDB
#define CB_ABOUT_EGDB ",\nand its own endgame databases (set dbpath)."
#else
#define CB_ABOUT_EGDB ".\n(This build has no endgame databases.)"
#endif

/* Everything the library remembers between calls. */
typedef struct {
    pthread_mutex_t lock;       /* serialises the API's entry points */
    Engine *engine;             /* made at the first getmove; NULL until then or after a change */
    size_t hash_mb;             /* "hashsize" */
    int threads;                /* "searchthreads" */
    char dbpath[CB_PATH_MAX];   /* "dbpath": the databases' directory ("" none) */
    bool use_db;                /* "enable_wld" */
    int max_dbpieces;           /* "max_dbpieces": databases are used only if they reach this far */
    int dbmbytes;               /* "dbmbytes": kept and reported; Ponder maps its files whole */
    char db_note[ERR_LEN];      /* why the databases of dbpath are not in use ("" if they are) */
    int book;                   /* "book": 0 none, 1-3 more or less variety (CB_BOOK_VARIETY) */
    char bookfile[CB_PATH_MAX]; /* "bookfile": the book read ("" the built-in one) */
    char book_note[ERR_LEN];    /* why that file is not in use ("" if it is) */
    int contempt;               /* "contempt": the engine's, hundredths of a man */
    bool has_game;              /* whether game holds anything yet */
    Game game;                  /* the game so far, for repetitions */
} CbState;

static CbState cb = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .hash_mb = ENGINE_HASH_MB_DEFAULT,
    .threads = ENGINE_THREADS_DEFAULT,
    .use_db = true,
    .max_dbpieces = 8,
    .dbmbytes = 0,
    .book = CB_BOOK_BEST,
    .contempt = ENGINE_CONTEMPT_DEFAULT,
};

/* ---- Squares and pieces --------------------------------------------------------------------- */

/* The board coordinates of square index SQ (0-31, square number minus one). */
static CBcoor cb_coor(int sq)
{
    CBcoor c;
    c.y = sq / 4;
    c.x = 2 * (3 - sq % 4) + (c.y & 1);
    return c;
}

/* The square index at X, Y, or -1 for a light square. */
static int cb_square(int x, int y)
{
    if ((x + y) & 1)
        return -1;
    return 4 * (y + 1) - x / 2 - 1;
}

static int cb_piece(const Board *b, int sq)
{
    int c = board_color_at(b, sq);
    if (c < 0)
        return CB_FREE;
    return (c == BLACK ? CB_BLACK : CB_WHITE) | (board_is_king(b, sq) ? CB_KING : CB_MAN);
}

/* Reads BOARD and COLOR into B. Returns false with the reason in ERR (ERR_LEN bytes). */
static bool cb_read_board(int board[8][8], int color, Board *b, char *err)
{
    if (color != CB_BLACK && color != CB_WHITE) {
        snprintf(err, ERR_LEN, "side to move %d is neither CB_BLACK (2) nor CB_WHITE (1)", color);
        return false;
    }
    board_clear(b, color == CB_BLACK ? BLACK : WHITE);
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 8; y++) {
            int v = board[x][y], sq = cb_square(x, y);
            if (v == CB_FREE)
                continue;
            if (sq < 0) {
                snprintf(err, ERR_LEN, "a piece (%d) on the light square board[%d][%d]", v, x, y);
                return false;
            }
            int kind = v & (CB_MAN | CB_KING), side = v & (CB_WHITE | CB_BLACK);
            if ((v & ~15) || kind == 0 || kind == (CB_MAN | CB_KING) || side == 0 ||
                side == (CB_WHITE | CB_BLACK)) {
                snprintf(err, ERR_LEN, "board[%d][%d] (square %d) holds %d, not a piece", x, y,
                         sq + 1, v);
                return false;
            }
            board_set(b, sq, side == CB_BLACK ? BLACK : WHITE, kind == CB_KING);
        }
    /* A man on its own crowning row is refused as every program refuses it. */
    return board_valid(b, err) && board_reachable(b, err);
}

static void cb_write_board(const Board *b, int board[8][8])
{
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 8; y++) {
            int sq = cb_square(x, y);
            board[x][y] = sq < 0 ? CB_FREE : cb_piece(b, sq);
        }
}

/* Fills OUT with M as played in B. The captured pieces are listed in the order the move jumps
 * them: each lies between two consecutive squares of the path. */
static void cb_fill_move(const Board *b, const Move *m, CBmove *out)
{
    memset(out, 0, sizeof *out);
    out->oldpiece = cb_piece(b, m->from);
    out->newpiece = out->oldpiece;
    if (m->flags & MOVE_CROWNS)
        out->newpiece = (out->oldpiece & (CB_WHITE | CB_BLACK)) | CB_KING;
    out->from = cb_coor(m->from);
    out->to = cb_coor(m->to);
    if (!move_is_capture(m))
        return;
    out->jumps = m->len - 1;
    for (int i = 1; i + 1 < m->len && i < 12; i++)
        out->path[i] = cb_coor(m->path[i]);
    for (int i = 0; i + 1 < m->len && i < 12; i++) {
        CBcoor a = cb_coor(m->path[i]), z = cb_coor(m->path[i + 1]);
        int sq = cb_square((a.x + z.x) / 2, (a.y + z.y) / 2);
        out->del[i] = cb_coor(sq);
        out->delpiece[i] = cb_piece(b, sq);
    }
}

/* ---- The game across calls -------------------------------------------------------------- */

/* Makes cb.game end in B: unchanged when it does, one move longer when B is one legal move
 * away, otherwise a new game from B. */
static void cb_sync_game(const Board *b)
{
    if (cb.has_game) {
        if (board_equal(&cb.game.board, b))
            return;
        MoveList list;
        movegen_generate(&cb.game.board, cb.game.rules, false, &list);
        for (int i = 0; i < list.count; i++) {
            Board next = cb.game.board;
            board_apply(&next, &list.moves[i]);
            if (board_equal(&next, b) && game_play(&cb.game, &list.moves[i]))
                return;
        }
    }
    game_init(&cb.game, &RULES_ENGLISH, b);
    cb.has_game = true;
}

/* "set gamehist FEN [MOVE...]": the game since the last irreversible move. Returns false with
 * the reason in ERR (the previous game stays). */
static bool cb_set_gamehist(const char *args, char *err, size_t size)
{
    char buf[CB_REPLY_SIZE];
    snprintf(buf, sizeof buf, "%s", args);
    char *save = NULL, *tok = strtok_r(buf, " \t\r\n", &save);
    if (!tok) {
        snprintf(err, size, "set gamehist: no FEN");
        return false;
    }
    ParseError pe;
    Board start;
    if (!notation_parse_fen(tok, &start, &pe)) {
        char msg[ERR_LEN + 40];
        parse_error_format(&pe, msg, sizeof msg);
        snprintf(err, size, "set gamehist: bad FEN `%.80s': %s", tok, msg);
        return false;
    }
    char why[ERR_LEN];
    if (!board_reachable(&start, why)) {
        snprintf(err, size, "set gamehist: bad FEN `%.80s': %s", tok, why);
        return false;
    }
    static Game g; /* under cb.lock; too large for CheckerBoard's stack */
    game_init(&g, &RULES_ENGLISH, &start);
    while ((tok = strtok_r(NULL, " \t\r\n", &save)) != NULL) {
        Move m;
        if (!notation_parse_move(&g.board, g.rules, tok, &m, &pe)) {
            snprintf(err, size, "set gamehist: move %d `%.20s': %s", g.ply + 1, tok, pe.msg);
            return false;
        }
        if (!game_play(&g, &m)) {
            snprintf(err, size, "set gamehist: more than %d moves", GAME_MAX_PLIES);
            return false;
        }
    }
    cb.game = g;
    cb.has_game = true;
    return true;
}

/* ---- Calls into the engine facade ------------------------------------------------------- */

/* The engine, made with the current options if there is none. NULL with the reason in ERR. */
static Engine *cb_engine_get(char *err)
{
    if (cb.engine)
        return cb.engine;
    EngineOptions opt;
    engine_default_options(&opt);
#ifdef CB_HAVE_EGDB
    egdb_hook_register(&egdb_driver); /* this library has the databases (main.c does the same) */
#endif
    nnue_hook_register(&nnue_driver); /* and the network, the default evaluation */
    /* The opening book: the file set, else the built-in one (if there is one), unless off. */
    opt.book = cb.book > 0 && cb.bookfile[0] ? cb.bookfile : NULL;
    opt.book_builtin = cb.book > 0 && !cb.bookfile[0];
    opt.book_variety = CB_BOOK_VARIETY[cb.book];
    cb.db_note[0] = cb.book_note[0] = '\0';
    opt.hash_mb = cb.hash_mb;
    opt.threads = cb.threads;
    opt.contempt = cb.contempt;
    opt.egdb_dir = cb.use_db && cb.dbpath[0] ? cb.dbpath : NULL;
    cb.engine = engine_new(&opt, err);
    if (!cb.engine && opt.book) {
        /* A book file that was readable when it was set and is not now: play from the
         * built-in book rather than not at all. */
        snprintf(cb.book_note, sizeof cb.book_note, "%s", err);
        opt.book = NULL;
        opt.book_builtin = true;
        cb.engine = engine_new(&opt, err);
    }
    if (!cb.engine && opt.egdb_dir) {
        /* Databases that cannot be opened must not cost the game: play without them (the
         * reason stays in ERR for the status line). */
        snprintf(cb.db_note, sizeof cb.db_note, "%s", err);
        opt.egdb_dir = NULL;
        cb.engine = engine_new(&opt, err);
    }
    if (cb.engine && opt.egdb_dir && engine_database_pieces(cb.engine) > cb.max_dbpieces) {
        /* The databases reach further than the user allows: the engine cannot use only part
         * of them, so it does without. */
        engine_free(cb.engine);
        opt.egdb_dir = NULL;
        cb.engine = engine_new(&opt, err);
    }
    return cb.engine;
}

/* Forgets the engine so that the next getmove makes one with the new options. */
static void cb_engine_drop(void)
{
    engine_free(cb.engine);
    cb.engine = NULL;
}

/* A search job, and what getmove's thread reads of it. */
typedef struct {
    const Game *game; /* the position searched (its end), for the status line */
    SearchResult result;
    atomic_bool done;         /* set by the search thread when the job has ended */
    pthread_mutex_t lock;     /* guards status and done's signal */
    pthread_cond_t wake;      /* signalled when done is set */
    char status[CB_STR_SIZE]; /* the last finished iteration, as shown in CheckerBoard */
} CbSearch;

static void cb_format_info(const SearchInfo *info, const Board *root, char *buf, size_t size)
{
    char score[32], pv[400] = "";
    if (score_is_decisive(info->score))
        snprintf(score, sizeof score, "%s in %d", info->score > 0 ? "win" : "loss",
                 score_plies_to_end(info->score));
    else
        snprintf(score, sizeof score, "%+.2f", info->score / (double)SCORE_MAN);
    Board b = *root;
    size_t used = 0;
    for (int i = 0; i < info->pv_len && i < 12 && used + 24 < sizeof pv; i++) {
        if (i)
            pv[used++] = ' ';
        used += (size_t)notation_format_move(&info->pv[i], pv + used, sizeof pv - used);
        board_apply(&b, &info->pv[i]);
    }
    snprintf(buf, size, "depth %d/%d  score %s  time %.2fs  nodes %llu  kN/s %.0f  pv %s",
             info->depth, info->seldepth, score, info->time, (unsigned long long)info->nodes,
             info->time > 0 ? info->nodes / info->time / 1000 : 0.0, pv);
}

static void cb_on_iteration(const SearchInfo *info, void *ctx)
{
    CbSearch *s = ctx;
    char line[CB_STR_SIZE];
    cb_format_info(info, &s->game->board, line, sizeof line);
    pthread_mutex_lock(&s->lock);
    snprintf(s->status, sizeof s->status, "%s", line);
    pthread_mutex_unlock(&s->lock);
}

/* The job's end, on the search thread: wakes getmove's thread (which waits for the job). */
static void cb_on_done(EngineJob job, const SearchResult *result, void *ctx)
{
    (void)job;
    (void)result;
    CbSearch *s = ctx;
    pthread_mutex_lock(&s->lock);
    atomic_store(&s->done, true);
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
}

/* Waits until the search is done or MS milliseconds have passed, whichever comes first, so the
 * answer goes back the moment the search ends. */
static void cb_wait_ms(CbSearch *s, int ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += (long)ms * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&s->lock);
    while (!atomic_load(&s->done))
        if (pthread_cond_timedwait(&s->wake, &s->lock, &ts) != 0)
            break;
    pthread_mutex_unlock(&s->lock);
}

/* Searches the end of G within LIMITS as an engine job, stopping it when *PLAYNOW becomes
 * non-zero (the stop names the job, so it holds even before the search has begun), with its
 * progress copied into STR as it goes. Returns false (reason in ERR) when the job could not be
 * started. */
static bool cb_engine_think(Engine *e, const Game *g, const SearchLimits *limits,
                            volatile int *playnow, char *str, SearchResult *out, char *err)
{
    static CbSearch s; /* under cb.lock */
    memset(&s, 0, sizeof s);
    s.game = g;
    atomic_init(&s.done, false);
    pthread_mutex_init(&s.lock, NULL);
    pthread_cond_init(&s.wake, NULL);
    EngineJob job = engine_start(e, g, limits, cb_on_iteration, cb_on_done, &s, err);
    bool ok = job != 0, stopped = false;
    while (ok && !atomic_load(&s.done)) {
        cb_wait_ms(&s, CB_POLL_MS);
        if (playnow && *playnow && !stopped) {
            engine_stop(e, job);
            stopped = true;
        }
        if (str) {
            pthread_mutex_lock(&s.lock);
            if (s.status[0])
                snprintf(str, CB_STR_SIZE, "%s", s.status);
            pthread_mutex_unlock(&s.lock);
        }
    }
    if (ok && !engine_wait(e, job, out)) {
        snprintf(err, ERR_LEN, "the search job was lost");
        ok = false;
    }
    if (ok && str && s.status[0])
        snprintf(str, CB_STR_SIZE, "%s", s.status);
    pthread_cond_destroy(&s.wake);
    pthread_mutex_destroy(&s.lock);
    return ok;
}

/* The time limits of a move: exactly MAXTIME with CB_EXACT_TIME; with an incremental clock in
 * INFO and MOREINFO (remaining time in the high 16 bits, increment in the low 16, in the unit
 * INFO's bits 2-3 give), the clock itself, which timeman.c shares out; otherwise MAXTIME, which
 * CheckerBoard means as an average and the engine keeps as a limit. */
static void cb_time_limits(double maxtime, int info, int moreinfo, SearchLimits *limits)
{
    static const double unit[4] = {0, 0.001, 0.01, 0.1};
    int mode = (info >> CB_INCR_TIME_SHIFT) & 3;
    if (!(info & CB_EXACT_TIME) && mode != 0) {
        double remaining = (double)((unsigned)moreinfo >> 16) * unit[mode];
        limits->clock = remaining > 0.001 ? remaining : 0.001; /* 0 would mean no clock */
        limits->inc = (double)((unsigned)moreinfo & 0xffff) * unit[mode];
        return;
    }
    limits->time = !isfinite(maxtime) || maxtime < 0.01 ? 0.01 : maxtime;
}

/* ---- The API ------------------------------------------------------------------------------- */

/* getmove's work, under cb.lock. */
static int cb_getmove(int board[8][8], int color, double maxtime, char *str, volatile int *playnow,
                      int info, int moreinfo, CBmove *move)
{
    char err[ERR_LEN];
    Board b;
    if (!cb_read_board(board, color, &b, err)) {
        snprintf(str, CB_STR_SIZE, "Ponder: %s", err);
        return CB_UNKNOWN;
    }
    cb_sync_game(&b);
    MoveList list;
    if (movegen_generate(&b, &RULES_ENGLISH, false, &list) == 0) {
        snprintf(str, CB_STR_SIZE, "Ponder: no legal move");
        return CB_LOSS;
    }
    Engine *e = cb_engine_get(err);
    if (!e) {
        snprintf(str, CB_STR_SIZE, "Ponder: %s", err);
        return CB_UNKNOWN;
    }
    if (cb.db_note[0])
        snprintf(str, CB_STR_SIZE, "Ponder: databases not used: %s", cb.db_note);
    else if (cb.book_note[0])
        snprintf(str, CB_STR_SIZE, "Ponder: book file not used: %s", cb.book_note);
    SearchLimits limits = {0};
    cb_time_limits(maxtime, info, moreinfo, &limits);
    SearchResult r;
    if (!cb_engine_think(e, &cb.game, &limits, playnow, str, &r, err)) {
        snprintf(str, CB_STR_SIZE, "Ponder: %s", err);
        return CB_UNKNOWN;
    }
    if (!r.has_move) {
        snprintf(str, CB_STR_SIZE, "Ponder: the search found no move");
        return CB_UNKNOWN;
    }
    if (r.book) {
        char mv[64];
        notation_format_move(&r.best, mv, sizeof mv);
        snprintf(str, CB_STR_SIZE, "book move %s", mv);
    }
    cb_fill_move(&b, &r.best, move);
    board_apply(&b, &r.best);
    cb_write_board(&b, board);
    if (!game_play(&cb.game, &r.best))
        game_init(&cb.game, &RULES_ENGLISH, &b);
    GameResult after = game_result(&cb.game);
    if (after == RESULT_DRAW_REPETITION || after == RESULT_DRAW_40_MOVES)
        return CB_DRAW;
    if (after != RESULT_NONE)
        return CB_WIN; /* the opponent has no move */
    if (r.database == 1)
        return CB_WIN;
    if (r.database == 2)
        return CB_LOSS;
    if (r.database == 3)
        return CB_DRAW;
    if (score_is_decisive(r.info.score))
        return r.info.score > 0 ? CB_WIN : CB_LOSS;
    return CB_UNKNOWN;
}

int CB_CALL getmove(int board[8][8], int color, double maxtime, char str[1024], int *playnow,
                    int info, int moreinfo, struct CBmove *move)
{
    char scratch[CB_STR_SIZE];
    CBmove dummy;
    if (!board)
        return CB_UNKNOWN;
    pthread_mutex_lock(&cb.lock);
    int r = cb_getmove(board, color, maxtime, str ? str : scratch, playnow, info, moreinfo,
                       move ? move : &dummy);
    pthread_mutex_unlock(&cb.lock);
    return r;
}

int CB_CALL islegal(int board[8][8], int color, int from, int to, struct CBmove *move)
{
    char err[ERR_LEN];
    Board b;
    if (!board || from < 1 || from > 32 || to < 1 || to > 32 ||
        !cb_read_board(board, color, &b, err))
        return 0;
    MoveList list;
    movegen_generate(&b, &RULES_ENGLISH, false, &list);
    for (int i = 0; i < list.count; i++)
        if (list.moves[i].from == from - 1 && list.moves[i].to == to - 1) {
            if (move)
                cb_fill_move(&b, &list.moves[i], move);
            return 1;
        }
    return 0;
}

int CB_CALL enginename(char str[255])
{
    if (str)
        snprintf(str, 255, "%s", CB_ENGINE_NAME);
    return 1;
}

/* Reads VALUE (NULL: none given) as a whole number from MIN to MAX into *OUT: the digits alone
 * (util_parse_whole). Returns false with the reason in MSG (ERR_LEN bytes). */
static bool cb_whole(const char *value, long min, long max, long *out, char *msg)
{
    if (!value) {
        snprintf(msg, ERR_LEN, "no value given");
        return false;
    }
    return util_parse_whole(value, min, max, out, msg, ERR_LEN);
}

/* "get NAME" and "set NAME VALUE" of the integer options. hashsize, searchthreads and contempt
 * are the engine's hash, threads and contempt, read by its options table (its limits, its
 * wording); the others are CheckerBoard's own. Returns 1 handled, 0 refused, -1 not an integer
 * option. */
static int cb_int_option(bool set, const char *name, const char *value, char *reply)
{
    enum { HASH, THREADS, USE_DB, MAX_DBPIECES, DBMBYTES, BOOK, CONTEMPT };
    static const struct {
        const char *name;
        const char *engine; /* the engine option it is, or NULL */
        long min, max;      /* without engine: the accepted range */
        bool remake;        /* a change needs a new engine */
    } opts[] = {
        [HASH] = {"hashsize", "hash", 0, 0, true},
        [THREADS] = {"searchthreads", "threads", 0, 0, true},
        [USE_DB] = {"enable_wld", NULL, 0, 1, true},
        [MAX_DBPIECES] = {"max_dbpieces", NULL, 0, 32, true},
        [DBMBYTES] = {"dbmbytes", NULL, 0, 1 << 20, false},
        [BOOK] = {"book", NULL, 0, CB_BOOK_BEST, true},
        [CONTEMPT] = {"contempt", "contempt", 0, 0, true},
    };
    for (int i = 0; i < (int)(sizeof opts / sizeof opts[0]); i++) {
        if (strcmp(name, opts[i].name) != 0)
            continue;
        long vals[] = {
            [HASH] = (long)cb.hash_mb,        [THREADS] = cb.threads,   [USE_DB] = cb.use_db,
            [MAX_DBPIECES] = cb.max_dbpieces, [DBMBYTES] = cb.dbmbytes, [BOOK] = cb.book,
            [CONTEMPT] = cb.contempt};
        if (!set) {
            snprintf(reply, CB_REPLY_SIZE, "%ld", vals[i]);
            return 1;
        }
        long v;
        char msg[ERR_LEN];
        bool ok = opts[i].engine ? engine_option_parse(opts[i].engine, value, &v, msg)
                                 : cb_whole(value, opts[i].min, opts[i].max, &v, msg);
        if (!ok) {
            snprintf(reply, CB_REPLY_SIZE, "%s: %s", name, msg);
            return 0;
        }
        if (v != vals[i] && opts[i].remake)
            cb_engine_drop();
        switch (i) {
        case HASH: cb.hash_mb = (size_t)v; break;
        case THREADS: cb.threads = (int)v; break;
        case USE_DB: cb.use_db = v != 0; break;
        case MAX_DBPIECES: cb.max_dbpieces = (int)v; break;
        case DBMBYTES: cb.dbmbytes = (int)v; break;
        case BOOK: cb.book = (int)v; break;
        default: cb.contempt = (int)v; break;
        }
        snprintf(reply, CB_REPLY_SIZE, "%s %ld", name, v);
        return 1;
    }
    return -1;
}

/* The directory this library was loaded from, with its separator, into DIR ("" when unknown). */
static void cb_library_dir(char *dir, size_t size)
{
    dir[0] = '\0';
#ifdef _WIN32
    HMODULE self = NULL;
    char path[MAX_PATH];
    if (!GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                                GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                            (LPCSTR)(void *)cb_library_dir, &self))
        return;
    DWORD n = GetModuleFileNameA(self, path, sizeof path);
    if (n == 0 || n >= sizeof path)
        return;
    const char *p = path;
#else
    Dl_info info;
    if (!dladdr((void *)cb_library_dir, &info) || !info.dli_fname)
        return;
    const char *p = info.dli_fname;
#endif
    const char *slash = strrchr(p, '/');
#ifdef _WIN32
    const char *back = strrchr(p, '\\');
    if (!slash || (back && back > slash))
        slash = back;
#endif
    if (slash && (size_t)(slash - p + 1) < size)
        snprintf(dir, size, "%.*s", (int)(slash - p + 1), p);
}

/* "get bookfile" and "set bookfile FILE" (the rest of the line: Windows paths hold blanks; ""
 * the built-in book). The file is read now: one that cannot be read, or is not a book, is
 * refused with the reason and the previous setting stays. */
static int cb_bookfile(bool set, const char *rest, char *reply)
{
    if (set) {
        char path[CB_PATH_MAX];
        size_t n = rest ? strcspn(rest, "\r\n") : 0;
        while (n > 0 && (rest[n - 1] == ' ' || rest[n - 1] == '\t'))
            n--;
        if (n >= sizeof path) {
            snprintf(reply, CB_REPLY_SIZE, "bookfile longer than %d bytes", CB_PATH_MAX - 1);
            return 0;
        }
        memcpy(path, rest ? rest : "", n);
        path[n] = '\0';
        if (path[0]) {
            char err[ERR_LEN], dir[CB_PATH_MAX], beside[2 * CB_PATH_MAX];
            Book *bk = book_load(path, err);
            /* A bare name: the file beside the library (CheckerBoard's working directory is its
             * own, not the engines folder). */
            if (!bk && !strpbrk(path, "/\\:")) {
                cb_library_dir(dir, sizeof dir);
                snprintf(beside, sizeof beside, "%s%s", dir, path);
                char err2[ERR_LEN];
                FILE *there = dir[0] ? fopen(beside, "rb") : NULL;
                if (there) {
                    fclose(there);
                    bk = book_load(beside, err2);
                    if (!bk) /* the file beside the library is the one meant: its fault */
                        snprintf(err, sizeof err, "%s", err2);
                }
                if (bk) {
                    if (strlen(beside) >= sizeof path) {
                        book_free(bk);
                        snprintf(reply, CB_REPLY_SIZE, "bookfile longer than %d bytes",
                                 CB_PATH_MAX - 1);
                        return 0;
                    }
                    memcpy(path, beside, strlen(beside) + 1); /* fits: checked above */
                }
            }
            if (!bk) {
                snprintf(reply, CB_REPLY_SIZE, "%s", err);
                return 0;
            }
            book_free(bk);
        }
        if (strcmp(path, cb.bookfile) != 0)
            cb_engine_drop();
        snprintf(cb.bookfile, sizeof cb.bookfile, "%s", path);
    }
    snprintf(reply, CB_REPLY_SIZE, "%s", cb.bookfile);
    return 1;
}

/* enginecommand's work, under cb.lock. */
static int cb_command(const char *command, char *reply)
{
    char buf[CB_REPLY_SIZE];
    snprintf(buf, sizeof buf, "%s", command);
    char *save = NULL, *verb = strtok_r(buf, " \t\r\n", &save);
    if (!verb) {
        snprintf(reply, CB_REPLY_SIZE, "?");
        return 0;
    }
    if (strcmp(verb, "name") == 0) {
        snprintf(reply, CB_REPLY_SIZE, "%s", CB_ENGINE_NAME);
        return 1;
    }
    if (strcmp(verb, "about") == 0) {
        char net[ERR_LEN + 64];
        nnue_describe_default(net, sizeof net);
        snprintf(reply, CB_REPLY_SIZE,
                 "Ponder %s, a checkers (English draughts) engine\n"
                 "Alpha-beta search with Lazy SMP, a neural-network evaluation\n"
                 "(%s) and an opening book%s\n"
                 "Network: %s",
                 PONDER_VERSION, nnue_simd(), CB_ABOUT_EGDB, net);
        return 1;
    }
    if (strcmp(verb, "help") == 0) {
        snprintf(reply, CB_REPLY_SIZE, "%s", CB_HELP_FILE);
        return 1;
    }
    if (strcmp(verb, "get") != 0 && strcmp(verb, "set") != 0) {
        snprintf(reply, CB_REPLY_SIZE, "?");
        return 0;
    }
    bool set = verb[0] == 's';
    char *name = strtok_r(NULL, " \t\r\n", &save);
    char *rest = save ? save + strspn(save, " \t") : NULL;
    if (!name) {
        snprintf(reply, CB_REPLY_SIZE, "?");
        return 0;
    }
    if (!set && strcmp(name, "protocolversion") == 0) {
        snprintf(reply, CB_REPLY_SIZE, "2");
        return 1;
    }
    if (!set && strcmp(name, "gametype") == 0) {
        snprintf(reply, CB_REPLY_SIZE, "%d", CB_GT_ENGLISH);
        return 1;
    }
    if (set && strcmp(name, "gamehist") == 0) {
        char err[CB_REPLY_SIZE];
        if (!cb_set_gamehist(rest ? rest : "", err, sizeof err)) {
            snprintf(reply, CB_REPLY_SIZE, "%s", err);
            return 0;
        }
        snprintf(reply, CB_REPLY_SIZE, "gamehist: %d moves", cb.game.ply);
        return 1;
    }
    if (strcmp(name, "dbpath") == 0) {
        if (set) {
            /* The path is the rest of the line: Windows paths hold blanks. */
            size_t n = rest ? strcspn(rest, "\r\n") : 0;
            if (n >= sizeof cb.dbpath) {
                snprintf(reply, CB_REPLY_SIZE, "dbpath longer than %d bytes", CB_PATH_MAX - 1);
                return 0;
            }
            if (n != strlen(cb.dbpath) || strncmp(rest, cb.dbpath, n) != 0)
                cb_engine_drop();
            memcpy(cb.dbpath, rest ? rest : "", n);
            cb.dbpath[n] = '\0';
        }
        snprintf(reply, CB_REPLY_SIZE, "%s", cb.dbpath);
        return 1;
    }
    if (strcmp(name, "bookfile") == 0)
        return cb_bookfile(set, rest, reply);
    int r = cb_int_option(set, name, rest ? strtok_r(NULL, " \t\r\n", &save) : NULL, reply);
    if (r >= 0)
        return r;
    snprintf(reply, CB_REPLY_SIZE, "?");
    return 0;
}

int CB_CALL enginecommand(const char *command, char reply[1024])
{
    char scratch[CB_REPLY_SIZE];
    if (!reply)
        reply = scratch;
    if (!command) {
        snprintf(reply, CB_REPLY_SIZE, "?");
        return 0;
    }
    pthread_mutex_lock(&cb.lock);
    int r = cb_command(command, reply);
    pthread_mutex_unlock(&cb.lock);
    return r;
}
