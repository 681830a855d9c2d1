/*
 * boardfile.c - reading and writing seed 003's board files (see boardfile.h). The reader walks
 * its input with a checked index and reports the first fault with its line and column.
 */
#include "boardfile.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

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

bool boardfile_parse(const char *text, Board *b, double *time_limit, ParseError *e)
{
    int line = 1, col = 0;
    size_t i = 0;
    char c8[8];
    Board nb;
    board_clear(&nb, BLACK);
    int count = 0;
    /* Skips blanks, counting lines and columns. */
#define SKIP_BLANKS()                                                                              \
    while (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n') {              \
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
                              notation_show_char((unsigned char)c, c8));
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

int boardfile_format(const Board *b, double time_limit, char *buf, size_t size)
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
