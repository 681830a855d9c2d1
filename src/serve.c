/*
 * serve.c - `ponder serve`: the web board. An HTTP server (civetweb, a maintained embedded
 * server packaged by Debian) that serves the page compiled into the binary and the JSON API of
 * serve_api.c, and pushes each game's state to its page over a WebSocket as it changes.
 *
 * Requests: civetweb parses HTTP and runs each connection on one of its threads; every request
 * comes to handle_request(), which guards the host and origin, reads a bounded body and hands
 * API paths to serve_api_handle(). The page's files come from the table generated from web/ at
 * build time (scripts/embed-assets.sh), so the server works from any directory and reads
 * nothing from the disk.
 *
 * Live output: a page opens ws://HOST/api/live?game=ID. A single pusher thread waits for any
 * game to change and sends each socket the state of its game when its version has grown (so
 * a burst of search iterations coalesces into one message); a slow client can only delay the
 * pusher, never a search or a request. Each open WebSocket holds a civetweb thread, so their
 * number is capped (--max-sockets) below the thread count; a page that cannot get one polls.
 *
 * Guards: the server binds to 127.0.0.1 unless --host says otherwise. Bound to loopback it
 * answers only requests whose Host is a loopback name (a web page elsewhere cannot reach it by
 * DNS rebinding), and it refuses any state-changing request or WebSocket whose Origin is not
 * the server itself (no cross-site requests).
 *
 * Shutdown: SIGINT and SIGTERM are blocked in every thread and taken by sigwait() in the main
 * thread, which stops the searches, the pusher, the HTTP server and frees everything.
 */
#define _POSIX_C_SOURCE 200809L
#include "serve.h"

#include "cli.h"
#include "command.h"
#include "opts.h"

#include <arpa/inet.h>
#include <civetweb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

enum {
    DEFAULT_PORT = 8080,
    HTTP_THREADS = 128, /* civetweb threads for plain requests (beyond the sockets) */
    SERVE_HASH_MB = 16, /* --hash default: each worker's table */
    /* The engine options serve takes. */
    SERVE_ENGINE_OPTS =
        OPTS_HASH | OPTS_WEIGHTS | OPTS_EGDB | OPTS_EVAL | OPTS_NET | OPTS_CONTEMPT | OPTS_BOOK,
};

typedef struct Socket {
    struct mg_connection *conn; /* the WebSocket connection */
    ServeGame *game;            /* its game, with a reference held */
    uint64_t sent;              /* version of the last state sent */
    struct Socket *next;
} Socket;

typedef struct {
    ServeStore *store;
    bool loopback;         /* bound to a loopback address: check Host headers */
    int port;              /* the port actually bound */
    bool verbose;          /* log every request to stderr */
    atomic_int active;     /* requests being answered (handle_request calls under way) */
    int max_sockets;       /* WebSockets open at once */
    char start_error[256]; /* civetweb's message when it cannot start */

    pthread_mutex_t sockets_lock;
    Socket *sockets; /* open WebSockets (ready ones) */
    int nsockets;    /* their number, plus those being opened */
    bool stopping;   /* the pusher should end */
    char reserved;   /* its address marks a WebSocket accepted but not yet ready */
    pthread_t pusher;
} Server;

/* ---- replies ---- */

static void add_header(struct mg_connection *conn, const char *name, const char *value)
{
    mg_response_header_add(conn, name, value, -1);
}

/* Sends REP (without the body for HEAD). Headers every answer carries: no caching of API
 * answers, no MIME sniffing. */
static void send_reply(struct mg_connection *conn, const ServeReply *rep, bool head,
                       const char *cache, const char *etag, bool page)
{
    if (rep->status == 413)
        mg_disable_connection_keep_alive(conn); /* the unread body is not worth draining */
    mg_response_header_start(conn, rep->status);
    if (page) {
        /* The page runs only its own files and talks only to this server. */
        add_header(conn, "Content-Security-Policy",
                   "default-src 'self'; img-src 'self' data:; connect-src 'self'; "
                   "base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
        add_header(conn, "Referrer-Policy", "no-referrer");
    }
    char len[32];
    if (rep->status != 204 && rep->status != 304) {
        if (rep->content_type)
            add_header(conn, "Content-Type", rep->content_type);
        snprintf(len, sizeof len, "%zu", rep->body ? rep->body_len : 0);
        add_header(conn, "Content-Length", len);
    }
    add_header(conn, "Cache-Control", cache ? cache : "no-store");
    add_header(conn, "X-Content-Type-Options", "nosniff");
    if (etag)
        add_header(conn, "ETag", etag);
    if (rep->location[0])
        add_header(conn, "Location", rep->location);
    if (rep->disposition[0])
        add_header(conn, "Content-Disposition", rep->disposition);
    if (rep->allow)
        add_header(conn, "Allow", rep->allow);
    if (rep->status == 426)
        add_header(conn, "Upgrade", "websocket");
    mg_response_header_send(conn);
    if (!head && rep->body && rep->body_len && rep->status != 204 && rep->status != 304)
        mg_write(conn, rep->body, rep->body_len);
}

static void send_error(struct mg_connection *conn, bool head, int status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void send_error(struct mg_connection *conn, bool head, int status, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ServeReply rep;
    memset(&rep, 0, sizeof rep);
    serve_api_error(&rep, status, "%s", msg);
    send_reply(conn, &rep, head, NULL, NULL, false);
    free(rep.body);
}

/* ---- guards ---- */

/* Whether HOST (a Host header value, port included) names this machine's loopback. */
static bool loopback_host(const char *host)
{
    char name[64];
    size_t n = strlen(host);
    if (host[0] == '[') { /* [::1]:port */
        return strncmp(host, "[::1]", 5) == 0 && (host[5] == '\0' || host[5] == ':');
    }
    size_t colon = strcspn(host, ":");
    if (colon >= sizeof name || n > 80)
        return false;
    memcpy(name, host, colon);
    name[colon] = '\0';
    if (strcasecmp(name, "localhost") == 0)
        return true;
    struct in_addr a;
    return inet_pton(AF_INET, name, &a) == 1 && (ntohl(a.s_addr) >> 24) == 127;
}

/* Checks Host and Origin. Returns 0, or the status of the refusal (with MSG filled). */
static int check_request(const Server *sv, const struct mg_connection *conn, bool changes_state,
                         char *msg, size_t size)
{
    const char *host = mg_get_header(conn, "Host");
    if (sv->loopback && host && !loopback_host(host)) {
        snprintf(msg, size,
                 "host `%.60s' refused: this server answers loopback names only "
                 "(start it with --host to serve other names)",
                 host);
        return 403;
    }
    const char *origin = mg_get_header(conn, "Origin");
    if (changes_state && origin) {
        const char *o = origin;
        if (strncmp(o, "http://", 7) == 0)
            o += 7;
        if (!host || strcmp(o, host) != 0) {
            snprintf(msg, size, "cross-origin request from `%.80s' refused", origin);
            return 403;
        }
    }
    return 0;
}

/* ---- the page's files ---- */

static char asset_etags[64][24];

static void compute_etags(void)
{
    for (int i = 0; i < serve_asset_count && i < 64; i++) {
        uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
        for (size_t k = 0; k < serve_assets[i].size; k++)
            h = (h ^ serve_assets[i].data[k]) * 0x100000001b3ull;
        snprintf(asset_etags[i], sizeof asset_etags[i], "\"%016llx\"", (unsigned long long)h);
    }
}

static int serve_file(struct mg_connection *conn, const char *method, const char *path)
{
    bool head = strcmp(method, "HEAD") == 0;
    if (strcmp(path, "/") == 0)
        path = "/index.html";
    int found = -1;
    for (int i = 0; i < serve_asset_count; i++)
        if (strcmp(serve_assets[i].path, path) == 0)
            found = i;
    if (found < 0) {
        send_error(conn, head, 404, "no such path: %.100s", path);
        return 404;
    }
    if (!head && strcmp(method, "GET") != 0) {
        ServeReply rep;
        memset(&rep, 0, sizeof rep);
        serve_api_error(&rep, 405, "%s is not allowed here (allowed: GET, HEAD)", method);
        rep.allow = "GET, HEAD";
        send_reply(conn, &rep, false, NULL, NULL, false);
        free(rep.body);
        return 405;
    }
    const ServeAsset *a = &serve_assets[found];
    const char *etag = found < 64 ? asset_etags[found] : NULL;
    const char *inm = mg_get_header(conn, "If-None-Match");
    ServeReply rep;
    memset(&rep, 0, sizeof rep);
    rep.status = etag && inm && strstr(inm, etag) ? 304 : 200;
    rep.content_type = a->content_type;
    rep.body = (char *)a->data; /* sent, never freed */
    rep.body_len = a->size;
    send_reply(conn, &rep, head, "no-cache", etag, strncmp(a->content_type, "text/html", 9) == 0);
    return rep.status;
}

/* ---- requests ---- */

/* Reads the body (at most SERVE_BODY_MAX bytes) into a malloc'd NUL-terminated buffer. Returns
 * 0, or 413 when it is larger, 400 when it ends early, 500 without memory. */
static int read_body(struct mg_connection *conn, const struct mg_request_info *ri, char **out,
                     size_t *len)
{
    *out = NULL;
    *len = 0;
    long long declared = ri->content_length;
    if (declared > SERVE_BODY_MAX)
        return 413;
    size_t cap = declared >= 0 ? (size_t)declared : SERVE_BODY_MAX + 1;
    char *buf = malloc(cap + 1);
    if (!buf)
        return 500;
    size_t n = 0;
    while (n < cap) {
        int r = mg_read(conn, buf + n, cap - n);
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    buf[n] = '\0';
    if (declared < 0 && n > SERVE_BODY_MAX) {
        free(buf);
        return 413;
    }
    if (declared >= 0 && n < (size_t)declared) {
        free(buf);
        return 400;
    }
    *out = buf;
    *len = n;
    return 0;
}

static int handle_request(struct mg_connection *conn, void *cbdata)
{
    Server *sv = cbdata;
    atomic_fetch_add(&sv->active, 1);
    const struct mg_request_info *ri = mg_get_request_info(conn);
    const char *method = ri->request_method;
    const char *path = ri->local_uri ? ri->local_uri : "/";
    bool head = strcmp(method, "HEAD") == 0;
    bool safe = head || strcmp(method, "GET") == 0 || strcmp(method, "OPTIONS") == 0;
    double t0 = util_now();
    int status;
    char msg[200];

    if ((status = check_request(sv, conn, !safe, msg, sizeof msg)) != 0)
        send_error(conn, head, status, "%s", msg);
    else if (strncmp(path, "/api/", 5) != 0)
        status = serve_file(conn, method, path);
    else if (strcmp(path, "/api/live") == 0) {
        status = 426;
        send_error(conn, head, 426, "/api/live is a WebSocket: open it with ws://");
    } else {
        ServeRequest req = {.method = method,
                            .path = path,
                            .query = ri->query_string,
                            .content_type = mg_get_header(conn, "Content-Type")};
        char *body = NULL;
        size_t len = 0;
        status = read_body(conn, ri, &body, &len);
        if (status == 413)
            send_error(conn, head, 413, "request body larger than %d bytes", SERVE_BODY_MAX);
        else if (status == 400)
            send_error(conn, head, 400, "request body shorter than its Content-Length");
        else if (status == 500)
            send_error(conn, head, 500, "out of memory");
        else {
            req.body = body;
            req.body_len = len;
            ServeReply rep;
            serve_api_handle(sv->store, &req, &rep);
            send_reply(conn, &rep, head, NULL, NULL, false);
            status = rep.status;
            free(rep.body);
        }
        free(body);
    }
    if (sv->verbose)
        fprintf(stderr, "%s %s %s %d %.1f ms\n", ri->remote_addr, method, path, status,
                (util_now() - t0) * 1000);
    atomic_fetch_sub(&sv->active, 1);
    return status;
}

/* ---- WebSockets ---- */

/* The game id in the query "game=ID", or false. */
static bool socket_game_id(const struct mg_connection *conn, char id[SERVE_ID_LEN + 1])
{
    const struct mg_request_info *ri = mg_get_request_info(conn);
    const char *q = ri->query_string;
    if (!q)
        return false;
    int n = mg_get_var(q, strlen(q), "game", id, SERVE_ID_LEN + 1);
    return n == SERVE_ID_LEN;
}

static int ws_connect(const struct mg_connection *conn, void *cbdata)
{
    Server *sv = cbdata;
    char msg[200], id[SERVE_ID_LEN + 1];
    /* civetweb reuses connection objects: nothing may be left from an earlier connection. */
    mg_set_user_connection_data(conn, NULL);
    if (check_request(sv, conn, true, msg, sizeof msg) != 0) {
        if (sv->verbose)
            fprintf(stderr, "websocket refused: %s\n", msg);
        return 1;
    }
    if (!socket_game_id(conn, id))
        return 1;
    ServeGame *g = serve_store_get(sv->store, id);
    if (!g)
        return 1;
    serve_store_release(sv->store, g);
    pthread_mutex_lock(&sv->sockets_lock);
    bool room = !sv->stopping && sv->nsockets < sv->max_sockets;
    if (room)
        sv->nsockets++; /* reserved until ws_ready or the close handler */
    pthread_mutex_unlock(&sv->sockets_lock);
    if (!room)
        return 1;
    mg_set_user_connection_data(conn, &sv->reserved);
    return 0;
}

static void ws_ready(struct mg_connection *conn, void *cbdata)
{
    Server *sv = cbdata;
    char id[SERVE_ID_LEN + 1];
    ServeGame *g = socket_game_id(conn, id) ? serve_store_get(sv->store, id) : NULL;
    Socket *s = g ? calloc(1, sizeof *s) : NULL;
    if (!s) {
        if (g)
            serve_store_release(sv->store, g);
        static const char gone[] = "{\"error\":\"no such game\",\"status\":404}";
        mg_websocket_write(conn, MG_WEBSOCKET_OPCODE_TEXT, gone, sizeof gone - 1);
        mg_websocket_write(conn, MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE, "", 0);
        return;
    }
    s->conn = conn;
    s->game = g;
    pthread_mutex_lock(&sv->sockets_lock);
    s->next = sv->sockets;
    sv->sockets = s;
    pthread_mutex_unlock(&sv->sockets_lock);
    mg_set_user_connection_data(conn, s);
    /* The pusher sends the first state: sent = 0 is older than any version. */
    pthread_mutex_lock(&g->lock);
    serve_game_changed(sv->store, g);
    pthread_mutex_unlock(&g->lock);
}

static int ws_data(struct mg_connection *conn, int bits, char *data, size_t len, void *cbdata)
{
    (void)conn, (void)data, (void)len, (void)cbdata;
    /* The page sends nothing but pings; a close frame ends the connection. */
    return (bits & 0x0f) != MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE;
}

static void ws_close(const struct mg_connection *conn, void *cbdata)
{
    Server *sv = cbdata;
    void *data = mg_get_user_connection_data(conn);
    if (!data)
        return; /* refused by ws_connect: nothing reserved */
    Socket *s = data == &sv->reserved ? NULL : data;
    mg_set_user_connection_data(conn, NULL);
    pthread_mutex_lock(&sv->sockets_lock);
    sv->nsockets--;
    if (s)
        for (Socket **p = &sv->sockets; *p; p = &(*p)->next)
            if (*p == s) {
                *p = s->next;
                break;
            }
    pthread_mutex_unlock(&sv->sockets_lock);
    if (s) {
        serve_store_release(sv->store, s->game);
        free(s);
    }
}

/* The pusher: after each change of any game, sends every socket whose game moved on its new
 * state. At most one pass per 25 ms, so that fast iterations coalesce. */
static void *pusher_main(void *arg)
{
    Server *sv = arg;
    uint64_t tick = 0;
    for (;;) {
        tick = serve_store_wait_change(sv->store, tick, 1.0);
        pthread_mutex_lock(&sv->sockets_lock);
        if (sv->stopping) {
            pthread_mutex_unlock(&sv->sockets_lock);
            break;
        }
        for (Socket *s = sv->sockets; s; s = s->next) {
            char *json = NULL;
            pthread_mutex_lock(&s->game->lock);
            if (s->game->version != s->sent) {
                s->sent = s->game->version;
                json = serve_api_state_json(sv->store, s->game);
            }
            pthread_mutex_unlock(&s->game->lock);
            if (json) {
                mg_websocket_write(s->conn, MG_WEBSOCKET_OPCODE_TEXT, json, strlen(json));
                free(json);
            }
        }
        pthread_mutex_unlock(&sv->sockets_lock);
        usleep(25000);
    }
    return NULL;
}

/* ---- the command ---- */

typedef struct {
    struct mg_context *ctx; /* the server to stop */
    atomic_bool done;       /* mg_stop has returned */
} Stopper;

static void *stopper_main(void *arg)
{
    Stopper *st = arg;
    mg_stop(st->ctx);
    atomic_store(&st->done, true);
    return NULL;
}

/* Stops the HTTP server. mg_stop() alone takes one to two seconds here: civetweb's listening
 * thread notices the stop flag only when its poll() times out. So mg_stop runs on a helper
 * thread while this one connects to the listening socket every few milliseconds, which wakes
 * that poll at once; the loop ends when the socket is closed or mg_stop returns. */
static void stop_http(struct mg_context *ctx, const struct in_addr *addr, int port)
{
    Stopper st = {.ctx = ctx};
    atomic_init(&st.done, false);
    pthread_t t;
    if (pthread_create(&t, NULL, stopper_main, &st) != 0) {
        mg_stop(ctx);
        return;
    }
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr = *addr;
    if (sa.sin_addr.s_addr == htonl(INADDR_ANY))
        sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    for (int i = 0; i < 400 && !atomic_load(&st.done); i++) {
        usleep(5000);
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0)
            break;
        int rc = connect(fd, (struct sockaddr *)&sa, sizeof sa);
        close(fd);
        if (rc != 0)
            break;
    }
    pthread_join(t, NULL);
}

/* While the server starts, civetweb's messages are kept (the first one, which has the cause)
 * instead of printed, so that a failure is said once, with its reason; afterwards they go to
 * stderr. One server per process, so one of each. */
static atomic_bool starting;
static char start_log[256];

static int log_message(const struct mg_connection *conn, const char *message)
{
    (void)conn;
    if (atomic_load(&starting)) {
        if (!start_log[0])
            snprintf(start_log, sizeof start_log, "%s", message);
        return 1;
    }
    fprintf(stderr, "ponder serve: %s\n", message);
    return 1;
}

/* The reason in civetweb's first start-up message: "cannot bind to H:P: 98 (Address already in
 * use)" gives "Address already in use"; else the message itself, else FALLBACK. */
static const char *start_reason(const char *fallback, char *buf, size_t size)
{
    const char *open = strrchr(start_log, '(');
    size_t n = strlen(start_log);
    if (open && n > 0 && start_log[n - 1] == ')') {
        snprintf(buf, size, "%.*s", (int)(start_log + n - 1 - open - 1), open + 1);
        return buf;
    }
    return start_log[0] ? start_log : fallback[0] ? fallback : "unknown error";
}

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: ponder serve [--host ADDR] [--port N] [options]\n"
        "\n"
        "Serves a web page to play checkers against the engine, or to watch it play itself,\n"
        "and the JSON API behind it (docs/serve.md). Open http://HOST:PORT/ in a browser.\n"
        "Ctrl-C stops the server.\n"
        "  --host ADDR        IPv4 address to listen on (default 127.0.0.1; 0.0.0.0 for every\n"
        "                     interface: anyone who can reach it can play)\n"
        "  --port N           port (default %d; 0 picks a free one, printed at start)\n"
        "  --workers N        engine threads, the most searches at once (default: cores, <= 4)\n"
        "  --hash MB          transposition table of each worker (default %d)\n"
        "  --max-games N      games kept at once; the least recently used goes (default 256)\n"
        "  --max-time S       longest thinking time a page may ask for (default 60)\n"
        "  --max-sockets N    live WebSocket connections at once (default 64)\n"
        "  --verbose          log every request on stderr\n",
        DEFAULT_PORT, SERVE_HASH_MB);
    opts_help(f, SERVE_ENGINE_OPTS & ~OPTS_HASH, NULL, 2, 21);
}

static int default_workers(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 4 ? 4 : (int)n;
}

int cmd_serve(int argc, char **argv)
{
    const char *host = "127.0.0.1";
    long port = DEFAULT_PORT, workers = default_workers(), max_games = 256;
    long max_sockets = 64;
    double max_time = 60;
    bool verbose = false;
    EngineOptions eopt;
    engine_default_options(&eopt);
    char egdb_dir[CLI_PATH_MAX];
    eopt.egdb_dir = cli_engine_egdb(egdb_dir, sizeof egdb_dir);
    char book_path[CLI_PATH_MAX];
    cli_engine_book(&eopt, book_path, sizeof book_path);
    eopt.hash_mb = SERVE_HASH_MB; /* each worker's */
    enum {
        OPT_HOST = OPTS_LONG,
        OPT_PORT,
        OPT_WORKERS,
        OPT_MAX_GAMES,
        OPT_MAX_SOCKETS,
        OPT_MAX_TIME,
        OPT_VERBOSE,
    };
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {"host", required_argument, NULL, OPT_HOST},
        {"port", required_argument, NULL, OPT_PORT},
        {"workers", required_argument, NULL, OPT_WORKERS},
        {"max-games", required_argument, NULL, OPT_MAX_GAMES},
        {"max-sockets", required_argument, NULL, OPT_MAX_SOCKETS},
        {"max-time", required_argument, NULL, OPT_MAX_TIME},
        {"verbose", no_argument, NULL, OPT_VERBOSE},
        {0},
    };
    Opts p;
    opts_begin(&p, "ponder serve", argc, argv, "h", longopts, SERVE_ENGINE_OPTS, &eopt);
    for (int c; (c = opts_next(&p)) != OPTS_END;) {
        switch (c) {
        case 'h': usage(stdout); return 0;
        case OPT_HOST: host = optarg; break;
        case OPT_PORT:
            if (!cli_long("--port", optarg, 0, 65535, &port))
                goto bad;
            break;
        case OPT_WORKERS:
            if (!cli_long("--workers", optarg, 1, 64, &workers))
                goto bad;
            break;
        case OPT_MAX_GAMES:
            if (!cli_long("--max-games", optarg, 1, 100000, &max_games))
                goto bad;
            break;
        case OPT_MAX_SOCKETS:
            if (!cli_long("--max-sockets", optarg, 0, 1000, &max_sockets))
                goto bad;
            break;
        case OPT_MAX_TIME:
            if (!cli_double("--max-time", optarg, 0.01, 3600, &max_time))
                goto bad;
            break;
        case OPT_VERBOSE: verbose = true; break;
        default: goto bad;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "ponder serve: unexpected argument `%s'\n", argv[optind]);
        goto bad;
    }
    struct in_addr addr;
    if (strcmp(host, "localhost") == 0)
        host = "127.0.0.1";
    if (inet_pton(AF_INET, host, &addr) != 1) {
        fprintf(stderr, "ponder serve: --host: `%s' is not an IPv4 address such as 127.0.0.1\n",
                host);
        goto bad;
    }

    /* 1. Signals: blocked here, before any thread starts, so every thread inherits the mask and
     * only sigwait() below receives them. */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);

    /* 2. The games and the engine workers. */
    Server sv;
    memset(&sv, 0, sizeof sv);
    atomic_init(&sv.active, 0);
    sv.loopback = (ntohl(addr.s_addr) >> 24) == 127;
    sv.verbose = verbose;
    sv.max_sockets = (int)max_sockets;
    pthread_mutex_init(&sv.sockets_lock, NULL);
    ServeStoreOptions sopt = {
        .max_games = (int)max_games, .workers = (int)workers, .max_time = max_time, .engine = eopt};
    sopt.engine.threads = 1;
    char err[ERR_LEN];
    sv.store = serve_store_new(&sopt, err);
    if (!sv.store) {
        fprintf(stderr, "ponder serve: %s\n", err);
        return 1;
    }
    compute_etags();

    /* 3. The HTTP server. */
    char ports[64], threads[24], connq[16];
    snprintf(ports, sizeof ports, "%s:%ld", host, port);
    snprintf(threads, sizeof threads, "%ld", HTTP_THREADS + max_sockets);
    snprintf(connq, sizeof connq, "%d", 256);
    const char *pairs[][2] = {
        {"listening_ports", ports},
        {"num_threads", threads},
        {"listen_backlog", "256"},
        {"connection_queue", connq},
        {"request_timeout_ms", "10000"},
        {"enable_keep_alive", "yes"},
        {"keep_alive_timeout_ms", "5000"},
        {"tcp_nodelay", "1"}, /* headers and body go out in two writes: no Nagle delay */
        {"websocket_timeout_ms", "30000"},
        {"enable_websocket_ping_pong", "yes"},
        {"access_control_allow_origin", ""},
    };
    enum { NPAIRS = sizeof pairs / sizeof pairs[0] };
    const char *options[2 * NPAIRS + 1];
    for (int i = 0; i < NPAIRS; i++) {
        options[2 * i] = pairs[i][0];
        options[2 * i + 1] = pairs[i][1];
    }
    options[2 * NPAIRS] = NULL;
    struct mg_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.log_message = log_message;
    mg_init_library(0);
    struct mg_error_data ed = {.text = sv.start_error, .text_buffer_size = sizeof sv.start_error};
    struct mg_init_data init = {
        .callbacks = &cb, .user_data = &sv, .configuration_options = options};
    start_log[0] = '\0';
    atomic_store(&starting, true);
    struct mg_context *ctx = mg_start2(&init, &ed);
    atomic_store(&starting, false);
    if (!ctx) {
        char reason[256];
        start_reason(sv.start_error, reason, sizeof reason);
        fprintf(stderr, "ponder serve: cannot listen on %s: %s%s\n", ports, reason,
                strstr(reason, "in use") ? " (another program has that port: pick another with "
                                           "--port N, or --port 0 for any free one)"
                                         : "");
        serve_store_free(sv.store);
        mg_exit_library();
        pthread_mutex_destroy(&sv.sockets_lock);
        return 1;
    }
    mg_set_request_handler(ctx, "/", handle_request, &sv);
    mg_set_websocket_handler(ctx, "/api/live", ws_connect, ws_ready, ws_data, ws_close, &sv);
    struct mg_server_port sp[4];
    int nports = mg_get_server_ports(ctx, 4, sp);
    sv.port = nports > 0 ? sp[0].port : (int)port;
    int rc = pthread_create(&sv.pusher, NULL, pusher_main, &sv);
    if (rc != 0) {
        fprintf(stderr, "ponder serve: cannot start a thread\n");
        mg_stop(ctx);
        serve_store_free(sv.store);
        mg_exit_library();
        return 1;
    }
    printf("ponder serve: listening on http://%s:%d/ (Ctrl-C stops)\n", host, sv.port);
    fflush(stdout);

    /* 4. Wait for Ctrl-C or SIGTERM, then stop in order: searches (which wakes waiting
     * requests), the pusher, the WebSockets, the HTTP server, the store. */
    int sig = 0;
    sigwait(&sigs, &sig);
    fprintf(stderr, "ponder serve: %s received, stopping\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    pthread_mutex_lock(&sv.sockets_lock);
    sv.stopping = true;
    pthread_mutex_unlock(&sv.sockets_lock);
    serve_store_shutdown(sv.store);
    pthread_join(sv.pusher, NULL);
    /* Close frames ("going away"): a browser answers at once, which ends civetweb's read loop
     * of that socket now rather than at its next timeout. */
    /* Requests under way (one waiting for a search, say) get their answers out first: once
     * mg_stop begins, civetweb drops whatever is still being written. At most 2 s. */
    for (int i = 0; i < 200 && atomic_load(&sv.active) > 0; i++)
        usleep(10000);
    pthread_mutex_lock(&sv.sockets_lock);
    for (Socket *s = sv.sockets; s; s = s->next)
        mg_websocket_write(s->conn, MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE, "\x03\xe9", 2);
    pthread_mutex_unlock(&sv.sockets_lock);
    stop_http(ctx, &addr, sv.port);
    serve_store_free(sv.store);
    mg_exit_library();
    pthread_mutex_destroy(&sv.sockets_lock);
    printf("ponder serve: stopped\n");
    return 0;
bad:
    opts_see_help("ponder serve");
    return 2;
}

PONDER_COMMAND("serve", cmd_serve, 60, "the web board: play or watch the engine in a browser")
