/*
 * pdn.c - reading and writing PDN games (see pdn.h).
 *
 * Reading is a small hand-written scanner over the whole text. A game is an optional tag section
 * (`[Name "value"]`, one or more per line), then movetext: move numbers (`12.`, `12...`), moves
 * in square notation with optional `!`/`?` suffixes, NAGs (`$3`), comments (`{...}`, and `;` to
 * the end of the line as in PGN), variations (`( ... )`, nested, skipped), and a game-ending
 * result (`1-0`, `0-1`, `1/2-1/2`, `*`; the draughts forms `2-0`, `0-2`, `1-1` are read as the
 * first three). A game also ends where the next tag section begins or the text ends.
 *
 * Every move is checked against the legal moves of the position it is played in, under the
 * caller's rule set. Real-world files are loose about one thing: they write `x` for some simple
 * moves (the Tinsley collection has `10x14` from the start position) and `-` for captures (the
 * ballot lists write `9-18`), so the separator does not decide the move; the squares do. Squares
 * are read (notation_read_route) and resolved to a move (notation_resolve, NOTATION_EITHER) by
 * the same code as every other square notation. Anything else that does not fit the grammar is an
 * error with its line and column: the reader never guesses.
 */
#include "pdn.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    TOKEN_MAX = 64,    /* longest movetext word (the longest legal move is under 40 chars) */
    NUMBER_DIGITS = 5, /* move numbers up to 99999 */
    WRAP_COLUMN = 80,  /* movetext line width when writing */
};

/* The scanner: a PdnReader's state while it reads one game, and where errors go. */
typedef struct {
    const char *s;     /* the whole text, NUL-terminated */
    size_t i;          /* current offset */
    size_t line_start; /* offset of the first byte of the current line */
    int line;          /* 1-based line of offset i */
    ParseError *e;     /* where errors go (may be NULL) */
} Scanner;

static int sc_col(const Scanner *sc, size_t at)
{
    return (int)(at - sc->line_start) + 1;
}

/* Advances over one byte, keeping the line count. */
static void sc_next(Scanner *sc)
{
    if (sc->s[sc->i] == '\n') {
        sc->line++;
        sc->line_start = sc->i + 1;
    }
    sc->i++;
}

/* Copies the N bytes at P into OUT (at most 24 shown) with unprintable bytes as `?', so that
 * messages stay readable whatever the input holds. */
static const char *show_token(const char *p, size_t n, char out[32])
{
    size_t k = 0;
    for (; k < n && k < 24; k++)
        out[k] = (p[k] >= 0x20 && p[k] < 0x7F) ? p[k] : '?';
    if (n > 24) {
        memcpy(out + k, "...", 3);
        k += 3;
    }
    out[k] = '\0';
    return out;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/* Characters that end a movetext word. */
static bool is_special(char c)
{
    return c == '\0' || is_blank(c) || strchr("{}()[];$\"", c) != NULL;
}

/* Skips a `{...}' comment starting at the current '{'. */
static bool skip_comment(Scanner *sc)
{
    int line = sc->line, col = sc_col(sc, sc->i);
    sc_next(sc);
    while (sc->s[sc->i] != '}') {
        if (sc->s[sc->i] == '\0')
            return parse_fail(sc->e, line, col, "comment `{' is never closed");
        sc_next(sc);
    }
    sc_next(sc);
    return true;
}

/* Skips blanks, `{...}' comments and `;' rest-of-line comments. */
static bool skip_blanks(Scanner *sc)
{
    for (;;) {
        char c = sc->s[sc->i];
        if (is_blank(c))
            sc_next(sc);
        else if (c == '{') {
            if (!skip_comment(sc))
                return false;
        } else if (c == ';') {
            while (sc->s[sc->i] != '\0' && sc->s[sc->i] != '\n')
                sc_next(sc);
        } else
            return true;
    }
}

/* Skips a variation `( ... )' starting at the current '(', nested ones and comments included. */
static bool skip_variation(Scanner *sc)
{
    int line = sc->line, col = sc_col(sc, sc->i);
    int depth = 0;
    for (;;) {
        char c = sc->s[sc->i];
        if (c == '\0')
            return parse_fail(sc->e, line, col, "variation `(' is never closed");
        if (c == '{') {
            if (!skip_comment(sc))
                return false;
            continue;
        }
        if (c == '(')
            depth++;
        else if (c == ')')
            depth--;
        sc_next(sc);
        if (depth == 0)
            return true;
    }
}

/* ---- Tags ---- */

static bool set_tag(PdnGame *g, Scanner *sc, int line, int col, const char *name, const char *value)
{
    for (int k = 0; k < g->ntags; k++)
        if (strcmp(g->tags[k].name, name) == 0)
            return parse_fail(sc->e, line, col, "tag `%s' given twice", name);
    if (g->ntags >= PDN_MAX_TAGS)
        return parse_fail(sc->e, line, col, "more than %d tags", PDN_MAX_TAGS);
    PdnTag *t = &g->tags[g->ntags++];
    snprintf(t->name, sizeof t->name, "%s", name);
    snprintf(t->value, sizeof t->value, "%s", value);
    return true;
}

/* Reads `[Name "value"]' at the current '['. *VALUE_COL receives the column of the value's
 * first character (for errors inside a FEN). */
static bool read_tag(Scanner *sc, PdnGame *g, int *value_col)
{
    char c8[8];
    int line = sc->line, col = sc_col(sc, sc->i);
    sc_next(sc);
    while (sc->s[sc->i] == ' ' || sc->s[sc->i] == '\t')
        sc_next(sc);
    char name[sizeof g->tags[0].name];
    size_t n = 0;
    int name_col = sc_col(sc, sc->i);
    while (isalnum((unsigned char)sc->s[sc->i]) || sc->s[sc->i] == '_') {
        if (n + 1 >= sizeof name)
            return parse_fail(sc->e, sc->line, name_col, "tag name longer than %zu characters",
                              sizeof name - 1);
        name[n++] = sc->s[sc->i];
        sc_next(sc);
    }
    name[n] = '\0';
    if (n == 0)
        return parse_fail(sc->e, sc->line, sc_col(sc, sc->i),
                          sc->s[sc->i] == '\0' ? "tag ends early" : "tag name expected, found `%s'",
                          notation_show_char((unsigned char)sc->s[sc->i], c8));
    while (sc->s[sc->i] == ' ' || sc->s[sc->i] == '\t')
        sc_next(sc);
    if (sc->s[sc->i] != '"')
        return parse_fail(sc->e, sc->line, sc_col(sc, sc->i), "`\"' expected after tag name `%s'",
                          name);
    sc_next(sc);
    *value_col = sc_col(sc, sc->i);
    char value[PDN_TAG_LEN];
    n = 0;
    for (;;) {
        char c = sc->s[sc->i];
        if (c == '\0' || c == '\n' || c == '\r')
            return parse_fail(sc->e, line, col, "value of tag `%s' is not closed on its line",
                              name);
        if (c == '"')
            break;
        if (c == '\\' && (sc->s[sc->i + 1] == '"' || sc->s[sc->i + 1] == '\\')) {
            sc_next(sc);
            c = sc->s[sc->i];
        }
        if (n + 1 >= sizeof value)
            return parse_fail(sc->e, line, *value_col, "value of tag `%s' longer than %zu bytes",
                              name, sizeof value - 1);
        value[n++] = c;
        sc_next(sc);
    }
    value[n] = '\0';
    sc_next(sc);
    while (sc->s[sc->i] == ' ' || sc->s[sc->i] == '\t')
        sc_next(sc);
    if (sc->s[sc->i] != ']')
        return parse_fail(sc->e, sc->line, sc_col(sc, sc->i), "`]' expected to close tag `%s'",
                          name);
    sc_next(sc);
    return set_tag(g, sc, line, col, name, value);
}

/* ---- Results ---- */

/* The canonical result for a result word, or NULL if WORD is none. */
static const char *result_of(const char *word, size_t n)
{
    static const struct {
        const char *word, *result;
    } table[] = {
        {"1-0", "1-0"}, {"0-1", "0-1"}, {"1/2-1/2", "1/2-1/2"}, {"*", "*"},
        {"2-0", "1-0"}, {"0-2", "0-1"}, {"1-1", "1/2-1/2"},
    };
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
        if (strlen(table[k].word) == n && memcmp(table[k].word, word, n) == 0)
            return table[k].result;
    return NULL;
}

/* ---- Moves ---- */

/* Parses the move word W (N bytes, found at LINE and COL) as a legal move of B: a route as
 * notation_read_route reads it (`-' or `x', not both), then at most two `!'/`?' marks. The
 * squares are resolved by notation_resolve with NOTATION_EITHER: the separator does not decide
 * (see the top of the file), and more than two squares may be joined by `-'. MOVE_NO is the move
 * number for messages. */
static bool parse_move_word(const Board *b, const Rules *r, const char *w, size_t n, int line,
                            int col, int move_no, Move *out, ParseError *e)
{
    char c8[8], tok[32], word[TOKEN_MAX + 1];
    if (!isdigit((unsigned char)w[0])) /* a word that is no move at all */
        return parse_fail(e, line, col, "unexpected `%s' in `%s'",
                          notation_show_char((unsigned char)w[0], c8), show_token(w, n, tok));
    if (n >= sizeof word)
        return parse_fail(e, line, col, "move `%s' too long", show_token(w, n, tok));
    memcpy(word, w, n); /* a copy that ends with the word, so a route cut short reads as one */
    word[n] = '\0';
    uint8_t sq[MAX_JUMPS + 4];
    char sep;
    size_t k = 0;
    int count = notation_read_route(word, &k, line, sq, (int)sizeof sq, &sep, e);
    if (count == 0) {
        char why[ERR_LEN];
        snprintf(why, sizeof why, "%s", e->msg);
        return parse_fail(e, line, col + e->col - 1, "move `%s': %s", show_token(w, n, tok), why);
    }
    /* Annotation suffix: !, ?, !!, ??, !?, ?! */
    size_t suffix = k;
    while (k < n && (w[k] == '!' || w[k] == '?'))
        k++;
    if (k < n)
        return parse_fail(e, line, col + (int)k, "unexpected `%s' in move `%s'",
                          notation_show_char((unsigned char)w[k], c8), show_token(w, n, tok));
    if (k - suffix > 2)
        return parse_fail(e, line, col + (int)suffix, "annotation `%.*s' longer than two marks",
                          (int)(k - suffix > 12 ? 12 : k - suffix), w + suffix);
    if (count < 2)
        return parse_fail(e, line, col, "move `%s' needs at least two squares",
                          show_token(w, n, tok));
    for (int a = 0; a < count - 1; a++)
        if (sq[a] == sq[a + 1])
            return parse_fail(e, line, col, "square %d repeated in move `%s'", sq[a] + 1,
                              show_token(w, n, tok));

    MoveList found;
    int named = notation_resolve(b, r, sq, count, NOTATION_EITHER, &found);
    if (named > 1)
        return parse_fail(e, line, col, "ambiguous move `%s': give the squares it passes through",
                          show_token(w, n, tok));
    if (named == 0)
        return parse_fail(e, line, col, "illegal move `%s' for %s at move %d",
                          show_token(w, suffix, tok), b->side == BLACK ? "Black" : "White",
                          move_no);
    *out = found.moves[0];
    return true;
}

bool pdn_parse_move(const Board *b, const Rules *r, const char *text, Move *out, ParseError *e)
{
    size_t i = 0, n = strlen(text);
    while (i < n && is_blank(text[i]))
        i++;
    while (n > i && is_blank(text[n - 1]))
        n--;
    if (i == n)
        return parse_fail(e, 0, 1, "empty move");
    return parse_move_word(b, r, text + i, n - i, 0, (int)i + 1, 1, out, e);
}

/* Reads the move word W at column COL of the current line and plays it in G and on BOARD. */
static bool read_move(Scanner *sc, const Rules *r, Board *board, PdnGame *g, const char *w,
                      size_t n, int col)
{
    if (g->nmoves >= GAME_MAX_PLIES)
        return parse_fail(sc->e, sc->line, col, "game longer than %d plies", GAME_MAX_PLIES);
    int move_no = (g->nmoves + (g->start.side == WHITE)) / 2 + 1;
    if (!parse_move_word(board, r, w, n, sc->line, col, move_no, &g->moves[g->nmoves], sc->e))
        return false;
    board_apply(board, &g->moves[g->nmoves++]);
    return true;
}

/* ---- Error recovery ---- */

/* Whether the line starting at P holds only tags (its first and last non-blank bytes are `['
 * and `]'). */
static bool pure_tag_line(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != '[')
        return false;
    char last = 0;
    for (; *p && *p != '\n'; p++)
        if (!is_blank(*p))
            last = *p;
    return last == ']';
}

/* Where to go on after an error at offset AT: the first later line that starts a tag section
 * (starts with `[' and does not follow a line of tags only), or the end. */
static size_t next_game_start(const char *s, size_t at)
{
    size_t prev = at;
    while (prev > 0 && s[prev - 1] != '\n')
        prev--;
    size_t p = at;
    for (;;) {
        while (s[p] != '\0' && s[p] != '\n')
            p++;
        if (s[p] == '\0')
            return p;
        p++;
        size_t q = p;
        while (s[q] == ' ' || s[q] == '\t')
            q++;
        if (s[q] == '[' && !pure_tag_line(s + prev))
            return p;
        prev = p;
    }
}

/* ---- Games ---- */

static bool parse_game(Scanner *sc, const Rules *r, PdnGame *g)
{
    char tok[32];
    board_start(&g->start);
    g->ntags = 0;
    g->nmoves = 0;
    g->line = sc->line;
    snprintf(g->result, sizeof g->result, "*");

    /* 1. The tag section. */
    int fen_line = 0, fen_col = 0;
    while (sc->s[sc->i] == '[') {
        int line = sc->line, vcol = 0;
        if (!read_tag(sc, g, &vcol))
            return false;
        const PdnTag *t = &g->tags[g->ntags - 1];
        if (strcmp(t->name, "FEN") == 0) {
            fen_line = line;
            fen_col = vcol;
        } else if (strcmp(t->name, "GameType") == 0) {
            if (strtol(t->value, NULL, 10) != 21 || !isdigit((unsigned char)t->value[0]))
                return parse_fail(sc->e, line, vcol, "GameType `%s' is not English checkers (21)",
                                  show_token(t->value, strlen(t->value), tok));
        } else if (strcmp(t->name, "Result") == 0) {
            if (!result_of(t->value, strlen(t->value)))
                return parse_fail(sc->e, line, vcol,
                                  "Result tag `%s' is not 1-0, 0-1, 1/2-1/2 or *",
                                  show_token(t->value, strlen(t->value), tok));
        }
        if (!skip_blanks(sc))
            return false;
    }
    const char *fen = pdn_tag(g, "FEN");
    if (fen) {
        ParseError fe;
        if (!notation_parse_setup(fen, &g->start, &fe)) /* the set-up rule of every program */
            return parse_fail(sc->e, fen_line, fen_col + (fe.col > 0 ? fe.col - 1 : 0),
                              "bad FEN tag: %s", fe.msg);
    }
    const char *tag_result = pdn_tag(g, "Result");
    if (tag_result)
        snprintf(g->result, sizeof g->result, "%s", result_of(tag_result, strlen(tag_result)));

    /* 2. The movetext, up to a result, the next tag section or the end. */
    Board board = g->start;
    /* Move numbers: the first one sets the count (a fragment may start anywhere), the others must
     * follow it; Black's move and White's reply share a number. */
    bool numbered = false;
    long offset = 0; /* move number of ply i = (i + white_first) / 2 + offset */
    int white_first = g->start.side == WHITE;
    for (;;) {
        if (!skip_blanks(sc))
            return false;
        char c = sc->s[sc->i];
        int col = sc_col(sc, sc->i);
        if (c == '\0' || c == '[')
            return true;
        if (c == '(') {
            if (!skip_variation(sc))
                return false;
            continue;
        }
        if (c == ')' || c == '}' || c == ']' || c == '"')
            return parse_fail(sc->e, sc->line, col, "unexpected `%c' in the movetext", c);
        if (c == '$') {
            sc_next(sc);
            int digits = 0;
            while (isdigit((unsigned char)sc->s[sc->i])) {
                digits++;
                sc_next(sc);
            }
            if (digits == 0 || digits > 3 || !is_special(sc->s[sc->i]))
                return parse_fail(sc->e, sc->line, col, "NAG `$' must be followed by 1-3 digits");
            continue;
        }
        /* A word: everything up to a blank or a special character. */
        size_t start = sc->i;
        while (!is_special(sc->s[sc->i])) {
            if (sc->i - start >= TOKEN_MAX)
                return parse_fail(sc->e, sc->line, col, "word `%s' too long",
                                  show_token(sc->s + start, TOKEN_MAX, tok));
            sc_next(sc);
        }
        const char *w = sc->s + start;
        size_t n = sc->i - start;
        const char *res = result_of(w, n);
        if (res) {
            if (tag_result && strcmp(res, g->result) != 0)
                return parse_fail(sc->e, sc->line, col,
                                  "result `%.*s' disagrees with the Result tag `%s'", (int)n, w,
                                  tag_result);
            snprintf(g->result, sizeof g->result, "%s", res);
            return true;
        }
        size_t k = 0;
        while (k < n && w[k] == '.')
            k++;
        if (k == n) {
            if (n == 3)
                continue; /* a lone `...' standing for White's move number */
            return parse_fail(sc->e, sc->line, col, "unexpected `%.*s' in the movetext", (int)n, w);
        }
        /* A move number: digits then one or three dots, maybe glued to the move. */
        k = 0;
        while (k < n && isdigit((unsigned char)w[k]))
            k++;
        if (k > 0 && k < n && w[k] == '.') {
            size_t dots = k;
            while (dots < n && w[dots] == '.')
                dots++;
            if (k > NUMBER_DIGITS || strtol(w, NULL, 10) < 1)
                return parse_fail(sc->e, sc->line, col, "bad move number `%.*s'", (int)k, w);
            if (dots - k != 1 && dots - k != 3)
                return parse_fail(sc->e, sc->line, col + (int)k,
                                  "a move number ends with `.' or `...', not `%.*s'",
                                  (int)(dots - k), w + k);
            long v = strtol(w, NULL, 10);
            long here = (g->nmoves + white_first) / 2;
            if (numbered && v != here + offset)
                return parse_fail(sc->e, sc->line, col, "move number %ld where %ld was expected", v,
                                  here + offset);
            numbered = true;
            offset = v - here;
            if (dots == n)
                continue;
            w += dots;
            n -= dots;
            col += (int)dots;
        }
        if (!read_move(sc, r, &board, g, w, n, col))
            return false;
    }
}

void pdn_reader_init(PdnReader *rd, const char *text)
{
    rd->text = text;
    rd->pos = strncmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0; /* a UTF-8 byte order mark */
    rd->line_start = rd->pos;
    rd->line = 1;
}

int pdn_read_game(PdnReader *rd, const Rules *r, PdnGame *g, ParseError *e)
{
    Scanner sc = {rd->text, rd->pos, rd->line_start, rd->line, e};
    int rc;
    if (!skip_blanks(&sc)) {
        rc = -1; /* a comment that never ends: nothing after it can be read */
    } else if (sc.s[sc.i] == '\0') {
        rc = 0;
    } else if (!parse_game(&sc, r, g)) {
        size_t next = next_game_start(sc.s, sc.i);
        while (sc.i < next)
            sc_next(&sc);
        rc = -1;
    } else
        rc = 1;
    rd->pos = sc.i;
    rd->line_start = sc.line_start;
    rd->line = sc.line;
    return rc;
}

int pdn_next_game(const char *text, size_t *pos, const Rules *r, PdnGame *g, ParseError *e)
{
    PdnReader rd;
    pdn_reader_init(&rd, text);
    /* Line numbers count from the start of the text. */
    const char *p = text + rd.pos, *end = text + *pos;
    while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        p++;
        rd.line++;
        rd.line_start = (size_t)(p - text);
    }
    if (*pos > rd.pos)
        rd.pos = *pos;
    int rc = pdn_read_game(&rd, r, g, e);
    *pos = rd.pos;
    return rc;
}

const char *pdn_tag(const PdnGame *g, const char *name)
{
    for (int k = 0; k < g->ntags; k++)
        if (strcmp(g->tags[k].name, name) == 0)
            return g->tags[k].value;
    return NULL;
}

/* ---- Writing ---- */

static bool valid_tag_name(const char *name)
{
    if (!name[0])
        return false;
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            return false;
    return true;
}

/* Writes one tag, escaping `"' and `\' and turning line breaks into spaces. */
static void write_tag(FILE *f, const char *name, const char *value)
{
    fprintf(f, "[%s \"", name);
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', f);
        fputc((*p == '\n' || *p == '\r') ? ' ' : *p, f);
    }
    fputs("\"]\n", f);
}

/* Appends WORD to the movetext line in LINE (length *LEN), flushing the line to F first when
 * WORD would pass the wrap column. */
static void wrap_word(FILE *f, char *line, size_t *len, const char *word)
{
    size_t n = strlen(word);
    if (*len > 0 && *len + 1 + n > WRAP_COLUMN) {
        fprintf(f, "%.*s\n", (int)*len, line);
        *len = 0;
    }
    if (*len > 0)
        line[(*len)++] = ' ';
    memcpy(line + *len, word, n);
    *len += n;
}

/* Whether pdn_write_game writes tag NAME itself (a caller's is left out). */
static bool owned_tag(const char *name)
{
    return !strcmp(name, "Result") || !strcmp(name, "FEN") || !strcmp(name, "SetUp") ||
           !strcmp(name, "GameType");
}

bool pdn_write_game(FILE *f, const Game *g, const PdnTag *tags, int ntags, const char *result)
{
    if (!result)
        result = "*";
    if (!result_of(result, strlen(result)) || strcmp(result_of(result, strlen(result)), result))
        return errno = EINVAL, false;
    /* What is written must read back: valid names, no name twice, room for the tags we add. */
    int own = 0;
    for (int k = 0; k < ntags; k++) {
        if (!valid_tag_name(tags[k].name))
            return errno = EINVAL, false;
        for (int j = 0; j < k; j++)
            if (strcmp(tags[j].name, tags[k].name) == 0)
                return errno = EINVAL, false;
        own += !owned_tag(tags[k].name);
    }
    if (own > PDN_MAX_TAGS - 4)
        return errno = EINVAL, false;

    /* 1. Tags: the caller's, then the game type (21: English checkers, so that other programs
     * need not guess), the set-up and the result, which this function owns. */
    Board start;
    board_start(&start);
    bool setup = !board_equal(&start, &g->start);
    for (int k = 0; k < ntags; k++)
        if (!owned_tag(tags[k].name))
            write_tag(f, tags[k].name, tags[k].value);
    write_tag(f, "GameType", "21");
    if (setup) {
        char fen[200];
        notation_format_fen(&g->start, fen, sizeof fen);
        write_tag(f, "SetUp", "1");
        write_tag(f, "FEN", fen);
    }
    write_tag(f, "Result", result);

    /* 2. Movetext: "N." before Black's moves ("N..." when White opens), wrapped; a number stays
     * on the line of its move. */
    char line[WRAP_COLUMN + 64];
    size_t len = 0;
    bool white_first = g->start.side == WHITE;
    for (int i = 0; i < g->ply; i++) {
        char word[96], mv[64];
        notation_format_move(&g->moves[i], mv, sizeof mv);
        int ply = i + white_first;
        if (ply % 2 == 0)
            snprintf(word, sizeof word, "%d. %s", ply / 2 + 1, mv);
        else if (i == 0)
            snprintf(word, sizeof word, "%d... %s", ply / 2 + 1, mv);
        else
            snprintf(word, sizeof word, "%s", mv);
        wrap_word(f, line, &len, word);
    }
    wrap_word(f, line, &len, result);
    fprintf(f, "%.*s\n\n", (int)len, line);
    return fflush(f) == 0 && !ferror(f);
}
