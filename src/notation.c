/*
 * notation.c - parsers and writers for the core notations, square moves and FEN (see
 * notation.h), and the helpers the parsers of the other formats share.
 *
 * Every parser walks its input with an index it checks against the length, reads numbers digit
 * by digit with an explicit bound (no atoi, no sscanf), and reports the first fault it meets.
 */
#include "notation.h"

#include "bitboard.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool parse_fail(ParseError *e, int line, int col, const char *fmt, ...)
{
    if (!e)
        return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->line = line;
    e->col = col;
    return false;
}

void parse_error_format(const ParseError *e, char *buf, size_t size)
{
    if (e->line && e->col)
        snprintf(buf, size, "%s at line %d, column %d", e->msg, e->line, e->col);
    else if (e->line)
        snprintf(buf, size, "%s at line %d", e->msg, e->line);
    else if (e->col)
        snprintf(buf, size, "%s at column %d", e->msg, e->col);
    else
        snprintf(buf, size, "%s", e->msg);
}

const char *notation_show_char(unsigned char c, char out[8])
{
    if (isprint(c))
        snprintf(out, 8, "%c", c);
    else
        snprintf(out, 8, "\\x%02X", c);
    return out;
}

bool notation_read_square(const char *s, size_t *i, int line, int *sq, ParseError *e)
{
    size_t start = *i;
    long v = 0;
    int digits = 0;
    while (isdigit((unsigned char)s[*i])) {
        if (digits < 7)
            v = v * 10 + (s[*i] - '0');
        digits++;
        (*i)++;
    }
    if (digits == 0) {
        char c[8];
        if (s[*i] == '\0')
            return parse_fail(e, line, (int)*i + 1, "square number missing");
        return parse_fail(e, line, (int)*i + 1, "unexpected character `%s'",
                          notation_show_char((unsigned char)s[*i], c));
    }
    if (digits > 6 || v < 1 || v > 32)
        return parse_fail(e, line, (int)start + 1, "square number `%.*s' out of range",
                          digits > 12 ? 12 : digits, s + start);
    *sq = (int)v - 1;
    return true;
}

int notation_read_route(const char *s, size_t *i, int line, uint8_t *sq, int max, char *sep,
                        ParseError *e)
{
    int n = 0;
    *sep = 0;
    for (;;) {
        int v = 0; /* set by notation_read_square when it succeeds (gcc -O3 cannot see it) */
        if (n >= max) {
            parse_fail(e, line, (int)*i + 1, "too many squares in move");
            return 0;
        }
        if (!notation_read_square(s, i, line, &v, e))
            return 0;
        sq[n++] = (uint8_t)v;
        char c = s[*i];
        if (c != '-' && c != 'x' && c != 'X')
            return n;
        char kind = c == '-' ? '-' : 'x';
        if (*sep && kind != *sep) {
            parse_fail(e, line, (int)*i + 1, "mixed separators `-' and `x'");
            return 0;
        }
        *sep = kind;
        (*i)++;
    }
}

int notation_parse_squares(const char *text, uint8_t *squares, int max, bool *is_capture,
                           ParseError *e)
{
    size_t i = 0;
    char sep;
    while (text[i] == ' ' || text[i] == '\t')
        i++;
    int n = notation_read_route(text, &i, 0, squares, max, &sep, e);
    if (n == 0)
        return 0;
    while (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n')
        i++;
    if (text[i] != '\0') {
        char c[8];
        parse_fail(e, 0, (int)i + 1, "unexpected character `%s'",
                   notation_show_char((unsigned char)text[i], c));
        return 0;
    }
    if (n < 2) {
        parse_fail(e, 0, (int)i + 1, "a move needs at least two squares");
        return 0;
    }
    if (sep == '-' && n > 2) {
        parse_fail(e, 0, 1, "a simple move has two squares; captures use `x'");
        return 0;
    }
    *is_capture = sep == 'x';
    return n;
}

bool notation_squares_match(const Move *m, const uint8_t *sq, int n)
{
    if (m->path[0] != sq[0] || m->path[m->len - 1] != sq[n - 1])
        return false;
    int j = 1;
    for (int k = 1; k < n - 1; k++) {
        while (j < m->len - 1 && m->path[j] != sq[k])
            j++;
        if (j >= m->len - 1)
            return false;
        j++;
    }
    return true;
}

int notation_resolve(const Board *b, const Rules *r, const uint8_t *sq, int n, NotationKind kind,
                     MoveList *found)
{
    /* Every route is a candidate, so that each route of a merged capture is accepted as typed. */
    MoveList all;
    movegen_generate(b, r, true, &all);
    found->count = 0;
    for (int i = 0; i < all.count; i++) {
        const Move *m = &all.moves[i];
        if (kind != NOTATION_EITHER && move_is_capture(m) != (kind == NOTATION_CAPTURE))
            continue;
        if (m->len == n && memcmp(m->path, sq, (size_t)n) == 0) {
            found->moves[0] = *m; /* 1. a whole route */
            found->count = 1;
            return 1;
        }
    }
    for (int i = 0; i < all.count; i++) {
        const Move *m = &all.moves[i];
        if (kind != NOTATION_EITHER && move_is_capture(m) != (kind == NOTATION_CAPTURE))
            continue;
        if (!notation_squares_match(m, sq, n))
            continue;
        bool seen = false; /* 2. another route of a move already named */
        for (int k = 0; k < found->count && !seen; k++)
            seen = move_same(&found->moves[k], m, false);
        if (!seen)
            found->moves[found->count++] = *m;
    }
    return found->count;
}

bool notation_parse_move(const Board *b, const Rules *r, const char *text, Move *out, ParseError *e)
{
    uint8_t sq[MAX_JUMPS + 4];
    bool capture;
    int n = notation_parse_squares(text, sq, (int)sizeof sq, &capture, e);
    if (n == 0)
        return false;
    MoveList found;
    int count = notation_resolve(b, r, sq, n, capture ? NOTATION_CAPTURE : NOTATION_SIMPLE, &found);
    if (count == 0)
        return parse_fail(e, 0, 0, "illegal move");
    if (count > 1)
        return parse_fail(e, 0, 0, "ambiguous move: give more of its squares");
    *out = found.moves[0];
    return true;
}

int notation_format_move(const Move *m, char *buf, size_t size)
{
    int len = 0;
    char sep = move_is_capture(m) ? 'x' : '-';
    for (int i = 0; i < m->len; i++) {
        size_t room = size > (size_t)len ? size - (size_t)len : 0;
        int w = i ? snprintf(buf + len, room, "%c%d", sep, m->path[i] + 1)
                  : snprintf(buf + len, room, "%d", m->path[i] + 1);
        if (w < 0)
            return len;
        len += w;
    }
    return len;
}

/* ---- FEN ---- */

/* notation_parse_fen, keeping in COLS[sq] (when not NULL) the column of the item that placed a
 * piece on sq. */
static bool parse_fen(const char *text, Board *b, ParseError *e, int *cols)
{
    size_t i = 0, n = strlen(text);
    char c8[8];
    while (i < n && isspace((unsigned char)text[i]))
        i++;
    while (n > i && isspace((unsigned char)text[n - 1]))
        n--;
    if (n > i && text[i] == '"') {
        if (n - i < 2 || text[n - 1] != '"')
            return parse_fail(e, 0, (int)i + 1, "unbalanced quote");
        i++;
        n--;
    }
    if (n > i && text[n - 1] == '.')
        n--;
    if (i >= n)
        return parse_fail(e, 0, (int)i + 1, "empty FEN");
    /* Work on a bounded copy so that the end of the FEN is a NUL. */
    char buf[512];
    if (n - i >= sizeof buf)
        return parse_fail(e, 0, (int)sizeof buf, "FEN too long");
    size_t off = i;
    memcpy(buf, text + off, n - off);
    buf[n - off] = '\0';
    const char *s = buf;
    size_t p = 0;
#define COL() ((int)(p + off) + 1)

    Board nb;
    int side;
    if (s[p] == 'B' || s[p] == 'b')
        side = BLACK;
    else if (s[p] == 'W' || s[p] == 'w')
        side = WHITE;
    else
        return parse_fail(e, 0, COL(), "unexpected character `%s'",
                          notation_show_char((unsigned char)s[p], c8));
    p++;
    board_clear(&nb, side);
    bool seen[COLOR_NB] = {false, false};
    for (int list = 0; list < 2; list++) {
        if (s[p] != ':') {
            if (s[p] == '\0')
                return parse_fail(e, 0, COL(), "missing colour list");
            return parse_fail(e, 0, COL(), "unexpected character `%s'",
                              notation_show_char((unsigned char)s[p], c8));
        }
        p++;
        int color;
        if (s[p] == 'W' || s[p] == 'w')
            color = WHITE;
        else if (s[p] == 'B' || s[p] == 'b')
            color = BLACK;
        else if (s[p] == '\0')
            return parse_fail(e, 0, COL(), "missing colour letter");
        else
            return parse_fail(e, 0, COL(), "unexpected character `%s'",
                              notation_show_char((unsigned char)s[p], c8));
        if (seen[color])
            return parse_fail(e, 0, COL(), "colour `%c' given twice", color == WHITE ? 'W' : 'B');
        seen[color] = true;
        p++;
        if (s[p] == ':' || s[p] == '\0')
            continue; /* an empty list */
        for (;;) {
            bool king = false;
            if (s[p] == 'K' || s[p] == 'k') {
                king = true;
                p++;
            }
            int sq, sq2;
            size_t at = p;
            if (!notation_read_square(s, &p, 0, &sq, e)) {
                e->col += (int)off;
                return false;
            }
            sq2 = sq;
            if (s[p] == '-') { /* a range such as 1-12, as some programs write */
                p++;
                if (!notation_read_square(s, &p, 0, &sq2, e)) {
                    e->col += (int)off;
                    return false;
                }
                if (sq2 < sq)
                    return parse_fail(e, 0, (int)(at + off) + 1, "square range runs backwards");
            }
            for (int q = sq; q <= sq2; q++) {
                if (board_color_at(&nb, q) >= 0)
                    return parse_fail(e, 0, (int)(at + off) + 1, "square number `%d' repeated",
                                      q + 1);
                board_set(&nb, q, color, king);
                if (cols)
                    cols[q] = (int)(at + off) + 1;
            }
            if (s[p] == ',') {
                p++;
                continue;
            }
            break;
        }
    }
    if (s[p] != '\0')
        return parse_fail(e, 0, COL(), "unexpected character `%s'",
                          notation_show_char((unsigned char)s[p], c8));
#undef COL
    *b = nb;
    return true;
}

bool notation_parse_fen(const char *text, Board *b, ParseError *e)
{
    return parse_fen(text, b, e, NULL);
}

bool notation_parse_setup(const char *text, Board *b, ParseError *e)
{
    Board nb;
    int cols[SQUARE_NB] = {0};
    if (!parse_fen(text, &nb, e, cols))
        return false;
    int sq = board_unreachable_square(&nb);
    if (sq >= 0) {
        char why[ERR_LEN];
        board_reachable(&nb, why);
        return parse_fail(e, 0, cols[sq], "%s", why);
    }
    *b = nb;
    return true;
}

static int append_list(const Board *b, int color, bool kings, int first, char *buf, size_t size,
                       int len)
{
    Bitboard m = b->pieces[color] & (kings ? b->kings : ~b->kings);
    for (; m; m &= m - 1) {
        int w = snprintf(buf + len, size > (size_t)len ? size - (size_t)len : 0, "%s%s%d",
                         (first || len == 0) ? "" : ",", kings ? "K" : "", __builtin_ctz(m) + 1);
        first = 0;
        if (w > 0)
            len += w;
    }
    return len;
}

int notation_format_fen(const Board *b, char *buf, size_t size)
{
    int len = snprintf(buf, size, "%c:W", b->side == BLACK ? 'B' : 'W');
    int mark = len;
    len = append_list(b, WHITE, false, 1, buf, size, len);
    len = append_list(b, WHITE, true, len == mark, buf, size, len);
    len += snprintf(buf + len, size > (size_t)len ? size - (size_t)len : 0, ":B");
    mark = len;
    len = append_list(b, BLACK, false, 1, buf, size, len);
    len = append_list(b, BLACK, true, len == mark, buf, size, len);
    return len;
}
