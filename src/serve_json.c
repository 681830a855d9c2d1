/*
 * serve_json.c - the JSON plumbing of the web board's API: request bodies read strictly (a JSON
 * object, the Content-Type checked, trailing text refused, unknown fields and fields given twice
 * refused by name), optional fields checked by type and range with an error that names the
 * field, and replies written (a JSON body, or an error {"error", "status"} that needs no
 * allocation to send when memory runs out), and the frame of every request about one game (the
 * body read, then the game locked; the game unlocked, then the body freed). serve_api.c,
 * serve_play.c and serve_review.c use it.
 */
#include "serve.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- replies ---- */

void serve_api_reply_json(ServeReply *rep, int status, cJSON *json)
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
cJSON *serve_api_body(const ServeRequest *req, ServeReply *rep, const char *const *allowed)
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

/* ---- requests about one game ---- */

cJSON *serve_api_game_begin(ServeGame *g, const ServeRequest *req, ServeReply *rep,
                            const char *const *allowed)
{
    cJSON *body = serve_api_body(req, rep, allowed);
    if (body)
        pthread_mutex_lock(&g->lock);
    return body;
}

void serve_api_game_end(ServeGame *g, cJSON *body)
{
    pthread_mutex_unlock(&g->lock);
    cJSON_Delete(body);
}

/* ---- fields ---- */

/* Reads optional number field NAME of O into *OUT, within [MIN, MAX]. False with the error
 * replied when it is there but wrong. */
bool serve_api_number(const cJSON *o, const char *name, double min, double max, double *out,
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

bool serve_api_int(const cJSON *o, const char *name, int min, int max, int *out, ServeReply *rep)
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

bool serve_api_bool(const cJSON *o, const char *name, bool *out, ServeReply *rep)
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
const char *serve_api_string(const cJSON *o, const char *name, bool *bad, ServeReply *rep)
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
