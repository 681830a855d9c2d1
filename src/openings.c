/*
 * openings.c - start positions for matches and tests (see openings.h).
 *
 * The three-move ballots are compiled in: mk/openings.mk runs scripts/gen-ballots.sh on
 * data/three-move-ballots.txt to make a table of strings, and openings_ballots() plays each
 * ballot's moves from the start through the PDN move parser (the list writes captures
 * with `-', as PDN files do), so a wrong entry is an error here rather
 * than a wrong opening in a match. Files are read whole (util_read_file) and parsed with the PDN
 * reader or the set-up FEN parser (notation_parse_setup, as the PDN reader reads a FEN tag), so
 * a position no program would accept stops the run here; their errors name the file, the line
 * and the column.
 */
#include "openings.h"

#include "pdn.h"
#include "util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPENINGS_FILE_MAX = 64 << 20 }; /* largest openings file read */

/* A growing array of openings. */
typedef struct {
    Opening *v; /* the openings */
    int n;      /* used */
    size_t cap; /* allocated */
} OpeningList;

static Opening *list_add(OpeningList *l)
{
    if (l->n == INT_MAX)
        return NULL;
    Opening *v = util_grow(l->v, &l->cap, (size_t)l->n + 1, sizeof *v, 64);
    if (!v)
        return NULL;
    l->v = v;
    Opening *o = &l->v[l->n++];
    memset(o, 0, sizeof *o);
    return o;
}

/* Whether the side to move in B has a legal move under English rules. */
static bool has_move(const Board *b)
{
    MoveList list;
    return movegen_generate(b, &RULES_ENGLISH, false, &list) > 0;
}

int openings_ballots(bool all, Opening **out, char *err)
{
    OpeningList l = {NULL, 0, 0};
    for (int k = 0; k < openings_ballot_record_count; k++) {
        const BallotRecord *rec = &openings_ballot_records[k];
        if (!all && !rec->in_use)
            continue;
        Opening *o = list_add(&l);
        if (!o) {
            snprintf(err, ERR_LEN, "out of memory");
            goto fail;
        }
        snprintf(o->name, sizeof o->name, "ballot %03d: %s", rec->number, rec->moves);
        board_start(&o->start);
        /* The moves, separated by single spaces (the generator checked the shape). */
        const char *p = rec->moves;
        while (*p) {
            char mv[16];
            size_t n = strcspn(p, " ");
            ParseError e;
            if (n >= sizeof mv || o->nmoves >= (int)(sizeof o->moves / sizeof o->moves[0])) {
                snprintf(err, ERR_LEN, "ballot %03d: malformed move list `%s'", rec->number,
                         rec->moves);
                goto fail;
            }
            memcpy(mv, p, n);
            mv[n] = '\0';
            if (!pdn_parse_move(&o->start, &RULES_ENGLISH, mv, &o->moves[o->nmoves], &e)) {
                snprintf(err, ERR_LEN, "ballot %03d: move `%s': %.100s", rec->number, mv, e.msg);
                goto fail;
            }
            board_apply(&o->start, &o->moves[o->nmoves++]);
            p += n;
            while (*p == ' ')
                p++;
        }
    }
    *out = l.v;
    return l.n;
fail:
    free(l.v);
    return -1;
}

/* The last part of PATH, for names and messages. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* "FILE:LINE:COL: MSG" (without the parts that are 0) into ERR. */
static void file_error(char *err, const char *file, int line, int col, const char *msg)
{
    if (line > 0 && col > 0)
        snprintf(err, ERR_LEN, "%.32s:%d:%d: %.96s", file, line, col, msg);
    else if (line > 0)
        snprintf(err, ERR_LEN, "%.32s:%d: %.96s", file, line, msg);
    else
        snprintf(err, ERR_LEN, "%.32s: %.96s", file, msg);
}

/* Reads TEXT as FEN lines. */
static bool load_fen_lines(const char *text, const char *file, OpeningList *l, char *err)
{
    int line = 0;
    const char *p = text;
    while (*p) {
        line++;
        size_t n = strcspn(p, "\n");
        const char *next = p[n] ? p + n + 1 : p + n;
        size_t k = 0;
        while (k < n && (p[k] == ' ' || p[k] == '\t' || p[k] == '\r'))
            k++;
        if (k == n || p[k] == '#') {
            p = next;
            continue;
        }
        char fen[512];
        if (n >= sizeof fen) {
            file_error(err, file, line, 0, "line too long for a FEN");
            return false;
        }
        memcpy(fen, p, n);
        fen[n] = '\0';
        Opening *o = list_add(l);
        if (!o) {
            snprintf(err, ERR_LEN, "out of memory");
            return false;
        }
        ParseError e;
        if (!notation_parse_setup(fen, &o->start, &e)) {
            file_error(err, file, line, e.col, e.msg);
            return false;
        }
        if (!has_move(&o->start)) {
            file_error(err, file, line, 0, "the side to move has no legal move");
            return false;
        }
        snprintf(o->name, sizeof o->name, "%.50s:%d", file, line);
        p = next;
    }
    return true;
}

/* Reads TEXT as PDN games. */
static bool load_pdn(const char *text, const char *file, OpeningList *l, char *err)
{
    PdnGame *g = malloc(sizeof *g);
    if (!g) {
        snprintf(err, ERR_LEN, "out of memory");
        return false;
    }
    PdnReader rd;
    pdn_reader_init(&rd, text);
    ParseError e;
    int rc;
    bool ok = true;
    while ((rc = pdn_read_game(&rd, &RULES_ENGLISH, g, &e)) != 0) {
        if (rc < 0) {
            file_error(err, file, e.line, e.col, e.msg);
            ok = false;
            break;
        }
        Opening *o = list_add(l);
        if (!o) {
            snprintf(err, ERR_LEN, "out of memory");
            ok = false;
            break;
        }
        snprintf(o->name, sizeof o->name, "%.50s:%d", file, g->line);
        Board standard;
        board_start(&standard);
        o->start = g->start;
        bool keep = board_equal(&g->start, &standard) &&
                    g->nmoves <= (int)(sizeof o->moves / sizeof o->moves[0]);
        for (int i = 0; i < g->nmoves; i++) {
            if (keep)
                o->moves[o->nmoves++] = g->moves[i];
            board_apply(&o->start, &g->moves[i]);
        }
        if (!has_move(&o->start)) {
            file_error(err, file, g->line, 0, "the side to move has no legal move at the end");
            ok = false;
            break;
        }
    }
    free(g);
    return ok;
}

int openings_load(const char *path, Opening **out, char *err)
{
    char inner[ERR_LEN];
    size_t len;
    char *text = util_read_file(path, OPENINGS_FILE_MAX, &len, inner, sizeof inner);
    if (!text) {
        snprintf(err, ERR_LEN, "%s", inner);
        return -1;
    }
    const char *file = base_name(path);

    /* FEN lines or PDN: look at the first line that is not blank or a comment. */
    const char *p = text;
    if (strncmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3;
    for (;;) {
        p += strspn(p, " \t\r\n");
        if (*p != '#')
            break;
        p += strcspn(p, "\n");
    }
    bool fen = *p == '\0' || *p == 'B' || *p == 'W' || *p == 'b' || *p == 'w' || *p == '"';

    OpeningList l = {NULL, 0, 0};
    const char *body = strncmp(text, "\xEF\xBB\xBF", 3) == 0 ? text + 3 : text;
    bool ok = fen ? load_fen_lines(body, file, &l, err) : load_pdn(text, file, &l, err);
    free(text);
    if (ok && l.n == 0) {
        file_error(err, file, 0, 0, "no start positions in the file");
        ok = false;
    }
    if (!ok) {
        free(l.v);
        return -1;
    }
    *out = l.v;
    return l.n;
}
