/*
 * middleware.c - the middleware protocol's move format (see middleware.h): a route is read
 * square by square and must be, exactly, the route of a legal move.
 */
#include "middleware.h"

#include <stdio.h>
#include <string.h>

bool middleware_parse_move(const Board *b, const Rules *r, const char *text, Move *out,
                           ParseError *e)
{
    uint8_t sq[MAX_JUMPS + 4];
    int n = 0;
    size_t i = 0;
    for (;;) {
        while (text[i] == ' ' || text[i] == '\t')
            i++;
        if (text[i] == '\0' || text[i] == '\r' || text[i] == '\n')
            break;
        if (n >= (int)sizeof sq)
            return parse_fail(e, 0, (int)i + 1, "too many squares in move");
        int s;
        if (!notation_read_square(text, &i, 0, &s, e))
            return false;
        if (text[i] != ' ' && text[i] != '\t' && text[i] != '\0' && text[i] != '\r' &&
            text[i] != '\n') {
            char c[8];
            return parse_fail(e, 0, (int)i + 1, "unexpected character `%s'",
                              notation_show_char((unsigned char)text[i], c));
        }
        sq[n++] = (uint8_t)s;
    }
    while (text[i] == '\r' || text[i] == '\n')
        i++;
    if (text[i] != '\0') {
        char c[8];
        return parse_fail(e, 0, (int)i + 1, "unexpected character `%s'",
                          notation_show_char((unsigned char)text[i], c));
    }
    if (n < 2)
        return parse_fail(e, 0, 0, "a move needs at least two squares");
    MoveList all;
    movegen_generate(b, r, true, &all);
    for (int k = 0; k < all.count; k++) {
        const Move *m = &all.moves[k];
        if (m->len == n && memcmp(m->path, sq, (size_t)n) == 0) {
            *out = *m;
            return true;
        }
    }
    return parse_fail(e, 0, 0, "illegal move");
}

int middleware_format_move(const Move *m, char *buf, size_t size)
{
    int len = 0;
    for (int i = 0; i < m->len; i++) {
        int w = snprintf(buf + len, size > (size_t)len ? size - (size_t)len : 0, i ? " %d" : "%d",
                         m->path[i] + 1);
        if (w < 0)
            return len;
        len += w;
    }
    return len;
}
