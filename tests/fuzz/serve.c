/*
 * serve.c - fuzz harness for the web board's JSON API (serve_api_handle, what `ponder serve'
 * calls for every /api/ request once civetweb has parsed the HTTP): request bodies, paths and
 * methods, one request a line:
 *
 *   METHOD PATH [BODY]        e.g.  POST /api/games {"side":"white","fen":"W:W18:B14"}
 *
 * `@' in PATH stands for the id of the game the last successful POST /api/games created (ids
 * are random); a line starting with `~' is sent without a Content-Type. Every reply must have
 * one of the API's statuses (never a 500), a body of exactly body_len bytes, and that body must
 * be JSON (an object with "error" and "status" for an error) except for the PDN export. At the
 * end of each input the games it created are deleted, so inputs do not pile up games.
 *
 * FUZZ_TRACE=1 in the environment prints each request and the start of its reply on stderr.
 * The store is made once, with one worker whose searches last at most 50 ms: an input that
 * asks the engine to move and waits still ends quickly.
 */
#include "fuzz.h"

#include "serve.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_REQUESTS = 32, MAX_CREATED = MAX_REQUESTS };

static ServeStore *store;
static bool trace; /* FUZZ_TRACE=1: each request and its reply on stderr */

/* At exit: the workers joined and everything freed, so leak checkers see no lost memory. */
static void free_store(void)
{
    serve_store_shutdown(store);
    serve_store_free(store);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    trace = getenv("FUZZ_TRACE") != NULL;
    ServeStoreOptions opt = {.max_games = 8, .workers = 1, .max_time = 0.05};
    engine_default_options(&opt.engine);
    opt.engine.hash_mb = 1;
    opt.engine.threads = 1;
    char err[ERR_LEN];
    store = serve_store_new(&opt, err);
    if (!store)
        fuzz_fail(__FILE__, __LINE__, err);
    atexit(free_store);
    return 0;
}

static bool known_status(int s)
{
    static const int KNOWN[] = {200, 201, 202, 204, 400, 404, 405, 409, 413, 415, 422, 503};
    for (size_t i = 0; i < sizeof KNOWN / sizeof KNOWN[0]; i++)
        if (s == KNOWN[i])
            return true;
    return false;
}

/* Checks one reply to a request for PATH. */
static void check_reply(const ServeReply *rep, const char *method, const char *path)
{
    FUZZ_CHECK(known_status(rep->status), "a reply with a status the API does not use");
    if (rep->status == 204 || strcmp(method, "HEAD") == 0)
        return;
    FUZZ_CHECK(rep->body != NULL, "a reply without a body");
    FUZZ_CHECK(strlen(rep->body) == rep->body_len, "body_len is not the body's length");
    size_t n = strlen(path);
    if (rep->status == 200 && n >= 4 && strcmp(path + n - 4, "/pdn") == 0)
        return; /* the PDN file */
    cJSON *json = cJSON_Parse(rep->body);
    FUZZ_CHECK(json != NULL && cJSON_IsObject(json), "a reply body that is not a JSON object");
    if (rep->status >= 400) {
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(json, "error");
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(json, "status");
        FUZZ_CHECK(cJSON_IsString(e) && cJSON_IsNumber(s) && s->valueint == rep->status,
                   "an error reply without error and status");
    }
    cJSON_Delete(json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char created[MAX_CREATED][SERVE_ID_LEN + 1];
    int ncreated = 0;
    char last[SERVE_ID_LEN + 1] = "0000000000000000";
    char *p = text;
    for (int k = 0; k < MAX_REQUESTS && p && *p; k++) {
        char *line = p, *nl = strchr(p, '\n');
        if (nl) {
            *nl = '\0';
            p = nl + 1;
        } else
            p = NULL;
        bool typed = line[0] != '~';
        if (!typed)
            line++;
        /* METHOD PATH [BODY] */
        char *method = line, *sp = strchr(line, ' ');
        if (!sp || sp == line)
            continue;
        *sp = '\0';
        char *path_in = sp + 1, *body = strchr(path_in, ' ');
        if (body)
            *body++ = '\0';
        char path[512];
        size_t n = 0;
        for (const char *q = path_in; *q && n + SERVE_ID_LEN + 1 < sizeof path; q++)
            if (*q == '@') {
                memcpy(path + n, last, SERVE_ID_LEN);
                n += SERVE_ID_LEN;
            } else
                path[n++] = *q;
        path[n] = '\0';
        if (strncmp(path, "/api/", 5) != 0)
            continue; /* serve.c sends only these to the API */

        char *query = strchr(path, '?');
        if (query)
            *query++ = '\0';
        ServeRequest req = {.method = method,
                            .path = path,
                            .query = query,
                            .body = body,
                            .body_len = body ? strlen(body) : 0,
                            .content_type = typed ? "application/json" : NULL};
        ServeReply rep;
        serve_api_handle(store, &req, &rep);
        if (trace)
            fprintf(stderr, "%s %s -> %d %.120s\n", method, path, rep.status,
                    rep.body ? rep.body : "");
        check_reply(&rep, method, path);
        if (rep.status == 201 && strlen(rep.location) == 11 + SERVE_ID_LEN &&
            ncreated < MAX_CREATED) {
            memcpy(last, rep.location + 11, SERVE_ID_LEN + 1);
            memcpy(created[ncreated++], last, SERVE_ID_LEN + 1);
        }
        free(rep.body);
    }
    for (int i = 0; i < ncreated; i++)
        serve_store_delete(store, created[i]);
    free(text);
    return 0;
}
