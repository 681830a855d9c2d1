/*
 * notation.c - parsers and writers for moves, FEN, middleware paths, HackerRank input, tower
 * cells and seed-003 board files (see notation.h).
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

/* A printable rendering of byte C for messages: the character itself, or \xNN. */
static const char *show_char(unsigned char c, char out[8])
{
    if (isprint(c))
        snprintf(out, 8, "%c", c);
    else
        snprintf(out, 8, "\\x%02X", c);
    return out;
}

/* Reads a decimal square number 1-32 at S[*I]; on success stores the index (0-31). Numbers are
 * read up to 6 digits so that "99" and "100000" are "out of range" rather than garbage. */
static bool read_square(const char *s, size_t *i, int line, int *sq, ParseError *e)
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
                          show_char((unsigned char)s[*i], c));
    }
    if (digits > 6 || v < 1 || v > 32)
        return parse_fail(e, line, (int)start + 1, "square number `%.*s' out of range",
                          digits > 12 ? 12 : digits, s + start);
    *sq = (int)v - 1;
    return true;
}

int notation_parse_squares(const char *text, uint8_t *squares, int max, bool *is_capture,
                           ParseError *e)
{
    size_t i = 0;
    int n = 0;
    char sep = 0;
    while (text[i] == ' ' || text[i] == '\t')
        i++;
    for (;;) {
        int sq;
        if (n >= max) {
            parse_fail(e, 0, (int)i + 1, "too many squares in move");
            return 0;
        }
        if (!read_square(text, &i, 0, &sq, e))
            return 0;
        squares[n++] = (uint8_t)sq;
        char c = text[i];
        if (c == '-' || c == 'x' || c == 'X') {
            char kind = c == '-' ? '-' : 'x';
            if (sep && kind != sep) {
                parse_fail(e, 0, (int)i + 1, "mixed separators `-' and `x'");
                return 0;
            }
            sep = kind;
            i++;
            continue;
        }
        break;
    }
    while (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n')
        i++;
    if (text[i] != '\0') {
        char c[8];
        parse_fail(e, 0, (int)i + 1, "unexpected character `%s'", show_char((unsigned char)text[i], c));
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

bool notation_parse_move(const Board *b, const Rules *r, const char *text, Move *out,
                         ParseError *e)
{
    uint8_t sq[MAX_JUMPS + 4];
    bool capture;
    int n = notation_parse_squares(text, sq, (int)sizeof sq, &capture, e);
    if (n == 0)
        return false;
    /* A whole route names its move, even when a longer capture passes through its squares. */
    MoveList all;
    movegen_generate(b, r, true, &all);
    for (int i = 0; i < all.count; i++)
        if (all.moves[i].len == n && move_is_capture(&all.moves[i]) == capture &&
            memcmp(all.moves[i].path, sq, (size_t)n) == 0) {
            *out = all.moves[i];
            return true;
        }
    MoveList list;
    movegen_generate(b, r, false, &list);
    int found = -1;
    for (int i = 0; i < list.count; i++) {
        const Move *m = &list.moves[i];
        if (move_is_capture(m) != capture || !notation_squares_match(m, sq, n))
            continue;
        if (found >= 0)
            return parse_fail(e, 0, 0, "ambiguous move: give more of its squares");
        found = i;
    }
    if (found < 0) {
        /* The same squares may describe one of several routes of a merged capture. */
        for (int i = 0; i < all.count; i++)
            if (move_is_capture(&all.moves[i]) == capture &&
                notation_squares_match(&all.moves[i], sq, n)) {
                *out = all.moves[i];
                return true;
            }
        return parse_fail(e, 0, 0, "illegal move");
    }
    *out = list.moves[found];
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

bool notation_parse_path(const Board *b, const Rules *r, const char *text, Move *out,
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
        if (!read_square(text, &i, 0, &s, e))
            return false;
        if (text[i] != ' ' && text[i] != '\t' && text[i] != '\0' && text[i] != '\r' &&
            text[i] != '\n') {
            char c[8];
            return parse_fail(e, 0, (int)i + 1, "unexpected character `%s'",
                              show_char((unsigned char)text[i], c));
        }
        sq[n++] = (uint8_t)s;
    }
    while (text[i] == '\r' || text[i] == '\n')
        i++;
    if (text[i] != '\0') {
        char c[8];
        return parse_fail(e, 0, (int)i + 1, "unexpected character `%s'",
                          show_char((unsigned char)text[i], c));
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

int notation_format_path(const Move *m, char *buf, size_t size)
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

/* ---- FEN ---- */

bool notation_parse_fen(const char *text, Board *b, ParseError *e)
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
        return parse_fail(e, 0, COL(), "unexpected character `%s'", show_char((unsigned char)s[p], c8));
    p++;
    board_clear(&nb, side);
    bool seen[COLOR_NB] = {false, false};
    for (int list = 0; list < 2; list++) {
        if (s[p] != ':') {
            if (s[p] == '\0')
                return parse_fail(e, 0, COL(), "missing colour list");
            return parse_fail(e, 0, COL(), "unexpected character `%s'", show_char((unsigned char)s[p], c8));
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
            return parse_fail(e, 0, COL(), "unexpected character `%s'", show_char((unsigned char)s[p], c8));
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
            if (!read_square(s, &p, 0, &sq, e)) {
                e->col += (int)off;
                return false;
            }
            sq2 = sq;
            if (s[p] == '-') { /* a range such as 1-12, as some programs write */
                p++;
                if (!read_square(s, &p, 0, &sq2, e)) {
                    e->col += (int)off;
                    return false;
                }
                if (sq2 < sq)
                    return parse_fail(e, 0, (int)(at + off) + 1, "square range runs backwards");
            }
            for (int q = sq; q <= sq2; q++) {
                if (board_color_at(&nb, q) >= 0)
                    return parse_fail(e, 0, (int)(at + off) + 1, "square number `%d' repeated", q + 1);
                board_set(&nb, q, color, king);
            }
            if (s[p] == ',') {
                p++;
                continue;
            }
            break;
        }
    }
    if (s[p] != '\0')
        return parse_fail(e, 0, COL(), "unexpected character `%s'", show_char((unsigned char)s[p], c8));
#undef COL
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

/* ---- HackerRank ---- */

/* Reads the next line of TEXT from *POS into LINE (without its end), CR removed. Returns false
 * at the end of the text. Lines longer than the buffer are reported through *LONG. */
static bool next_line(const char *text, size_t *pos, char *line, size_t size, bool *overlong)
{
    if (text[*pos] == '\0')
        return false;
    size_t n = 0;
    *overlong = false;
    while (text[*pos] != '\0' && text[*pos] != '\n') {
        if (n + 1 < size)
            line[n++] = text[*pos];
        else
            *overlong = true;
        (*pos)++;
    }
    if (text[*pos] == '\n')
        (*pos)++;
    while (n > 0 && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
        n--;
    line[n] = '\0';
    return true;
}

bool notation_parse_hackerrank(const char *text, Board *b, ParseError *e)
{
    char line[64];
    size_t pos = 0;
    bool overlong;
    char c8[8];
    if (!next_line(text, &pos, line, sizeof line, &overlong))
        return parse_fail(e, 1, 0, "missing player line");
    size_t k = 0;
    while (line[k] == ' ')
        k++;
    int side;
    if (line[k] == 'b')
        side = BLACK;
    else if (line[k] == 'w')
        side = WHITE;
    else if (line[k] == '\0')
        return parse_fail(e, 1, 0, "empty player line (expected `b' or `w')");
    else
        return parse_fail(e, 1, (int)k + 1, "player must be `b' or `w', not `%s'",
                          show_char((unsigned char)line[k], c8));
    if (line[k + 1] != '\0' || overlong)
        return parse_fail(e, 1, (int)k + 2, "unexpected text after the player letter");
    if (!next_line(text, &pos, line, sizeof line, &overlong))
        return parse_fail(e, 2, 0, "missing board size line");
    k = 0;
    while (line[k] == ' ')
        k++;
    long size = 0;
    int digits = 0;
    while (isdigit((unsigned char)line[k])) {
        if (digits < 6)
            size = size * 10 + (line[k] - '0');
        digits++;
        k++;
    }
    if (digits == 0 || line[k] != '\0' || overlong)
        return parse_fail(e, 2, (int)k + 1, "board size must be a number");
    if (digits > 6 || size != 8)
        return parse_fail(e, 2, 1, "board size %s is not supported (only 8)",
                          digits > 6 ? "too large" : (snprintf(c8, sizeof c8, "%ld", size), c8));
    board_clear(b, side);
    for (int row = 0; row < 8; row++) {
        int ln = row + 3;
        if (!next_line(text, &pos, line, sizeof line, &overlong))
            return parse_fail(e, ln, 0, "missing board row %d (8 rows expected)", row);
        size_t len = strlen(line);
        if (overlong || len != 8)
            return parse_fail(e, ln, 0, "board row %d has %zu%s characters, expected 8", row,
                              len, overlong ? "+" : "");
        for (int col = 0; col < 8; col++) {
            char c = line[col];
            int color = -1;
            bool king = false;
            switch (c) {
            case '_': break;
            case 'b': color = BLACK; break;
            case 'w': color = WHITE; break;
            case 'B': color = BLACK; king = true; break;
            case 'W': color = WHITE; king = true; break;
            default:
                return parse_fail(e, ln, col + 1, "unknown character `%s' on the board",
                                  show_char((unsigned char)c, c8));
            }
            if (color < 0)
                continue;
            int sq = bb_square_at(row, col);
            if (sq < 0)
                return parse_fail(e, ln, col + 1, "piece on a light square (row %d, column %d)",
                                  row, col);
            board_set(b, sq, color, king);
        }
    }
    for (int ln = 11; next_line(text, &pos, line, sizeof line, &overlong); ln++)
        if (line[0] != '\0' || overlong)
            return parse_fail(e, ln, 0, "unexpected text after the board");
    return true;
}

int notation_format_hackerrank(const Move *m, char *buf, size_t size)
{
    int hops = move_is_capture(m) ? m->len - 1 : 1;
    int len = snprintf(buf, size, "%d\n", hops);
    for (int i = 0; i < m->len; i++) {
        int r, c;
        notation_hackerrank_coords(m->path[i], &r, &c);
        int w = snprintf(buf + len, size > (size_t)len ? size - (size_t)len : 0, "%d %d\n", r, c);
        if (w > 0)
            len += w;
    }
    return len;
}

/* ---- Tower cells ---- */

int notation_tower_square(int col, int row)
{
    if (col < 0 || col > 7 || row < 1 || row > 8)
        return -1;
    /* Tower row 1 is the top of a diagram with Black at the bottom: HackerRank row 7 - (row-1),
     * column mirrored. */
    return bb_square_at(8 - row, 7 - col);
}

void notation_tower_cell(int sq, char out[3])
{
    int r = bb_row(sq), c = bb_col(sq);
    out[0] = (char)('A' + (7 - c));
    out[1] = (char)('1' + (7 - r));
    out[2] = '\0';
}

/* ---- Seed-003 board files ---- */

/* Reads a time limit at S: digits with at most one '.'. All digits go into one integer (exact:
 * only the first 9 count), divided once by the power of ten of the fraction, so that "0.75"
 * gives the double nearest 0.75 as strtod would. Returns the bytes read; *T gets the value and
 * *DIGITS the number of digits (a caller refuses 0 or more than 9). */
static size_t read_time(const char *s, double *t, int *digits)
{
    double v = 0, scale = 1;
    int n = 0;
    bool frac = false;
    size_t i = 0;
    while (isdigit((unsigned char)s[i]) || (s[i] == '.' && !frac)) {
        if (s[i] == '.')
            frac = true;
        else {
            if (n < 9) {
                v = v * 10 + (s[i] - '0');
                if (frac)
                    scale *= 10;
            }
            n++;
        }
        i++;
    }
    *t = v / scale;
    *digits = n;
    return i;
}

/* Writes T as read_time reads it back exactly, with the fewest decimals that do (%g wrote
 * 3333333 as 3.33333e+06, which the reader refuses); a value the format cannot hold (more than
 * 9 digits) gets its nearest with 9 significant digits. */
static void format_time(double t, char *out, size_t size)
{
    for (int k = 0; k <= 8; k++) {
        double back;
        int digits;
        snprintf(out, size, "%.*f", k, t);
        if (read_time(out, &back, &digits) == strlen(out) && digits <= 9 && back == t)
            return;
    }
    snprintf(out, size, "%.9g", t);
}

bool notation_parse_board_file(const char *text, Board *b, double *time_limit, ParseError *e)
{
    int line = 1, col = 0;
    size_t i = 0;
    char c8[8];
    Board nb;
    board_clear(&nb, BLACK);
    int count = 0;
    /* Skips blanks, counting lines and columns. */
#define SKIP_BLANKS()                                                                             \
    while (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n') {            \
        if (text[i] == '\n') {                                                                     \
            line++;                                                                                \
            col = 0;                                                                               \
        } else                                                                                     \
            col++;                                                                                 \
        i++;                                                                                       \
    }
    while (count < SQUARE_NB) {
        SKIP_BLANKS();
        char c = text[i];
        if (c == '\0')
            return parse_fail(e, line, 0, "board ends after %d of 32 squares", count);
        if (c < '0' || c > '4')
            return parse_fail(e, line, col + 1, "square %d: `%s' is not a digit 0-4", count + 1,
                              show_char((unsigned char)c, c8));
        if (c != '0')
            board_set(&nb, count, (c == '1' || c == '3') ? BLACK : WHITE, c >= '3');
        count++;
        i++;
        col++;
    }
    SKIP_BLANKS();
    if (text[i] == '\0')
        return parse_fail(e, line, 0, "missing player to move (1 or 2)");
    if ((text[i] != '1' && text[i] != '2') || isdigit((unsigned char)text[i + 1]) ||
        text[i + 1] == '.')
        return parse_fail(e, line, col + 1, "player to move must be 1 or 2");
    nb.side = text[i] == '1' ? BLACK : WHITE;
    i++;
    col++;
    SKIP_BLANKS();
    if (text[i] == '\0')
        return parse_fail(e, line, 0, "missing time limit");
    double t;
    int digits;
    size_t len = read_time(text + i, &t, &digits);
    if (digits == 0 || digits > 9 || t <= 0)
        return parse_fail(e, line, col + 1, "time limit must be a positive number of seconds");
    i += len;
    col += (int)len;
    SKIP_BLANKS();
    if (text[i] != '\0')
        return parse_fail(e, line, col + 1, "unexpected text after the time limit");
#undef SKIP_BLANKS
    nb.key = board_compute_key(&nb);
    *b = nb;
    *time_limit = t;
    return true;
}

int notation_format_board_file(const Board *b, double time_limit, char *buf, size_t size)
{
    int len = 0;
    for (int sq = 0; sq < SQUARE_NB; sq++) {
        int c = board_color_at(b, sq), v = 0;
        if (c >= 0)
            v = (c == BLACK ? 1 : 2) + (board_is_king(b, sq) ? 2 : 0);
        int w = snprintf(buf + len, size > (size_t)len ? size - (size_t)len : 0, "%s%d%s",
                         (sq & 3) == 0 && ((sq >> 2) & 1) == 0 ? "  " : "", v,
                         (sq & 3) == 3 ? "\n" : "   ");
        if (w > 0)
            len += w;
    }
    char t[64];
    format_time(time_limit, t, sizeof t);
    int w = snprintf(buf + len, size > (size_t)len ? size - (size_t)len : 0, "%d\n%s\n",
                     b->side == BLACK ? 1 : 2, t);
    if (w > 0)
        len += w;
    return len;
}
