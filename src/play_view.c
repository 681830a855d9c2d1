/*
 * play_view.c - the board, the move list and the scores of `ponder play' (see play_view.h).
 *
 * Colours are SGR escape sequences. Every square sets its own background and every piece its own
 * foreground and background, so the board looks the same on dark and on light terminals; each line
 * ends with a reset so that nothing leaks into the next line (or into the shell if the program is
 * interrupted mid-line).
 */
#include "play_view.h"

#include "bitboard.h"
#include "engine.h"
#include "notation.h"

#include <string.h>

/* One palette per colour depth: squares, last-move squares, the two kinds of tile, numbers. */
typedef struct {
    const char *dark;    /* background of a dark (playing) square */
    const char *light;   /* background of a light square */
    const char *marked;  /* background of a square of the last move */
    const char *number;  /* foreground of a square number */
    const char *taken;   /* foreground of the `x' on a square whose piece was just taken */
    const char *tile[2]; /* background and foreground of a Black and of a White piece */
} Palette;

static const Palette PALETTE_256 = {
    .dark = "\x1b[48;5;28m",    /* green */
    .light = "\x1b[48;5;187m",  /* buff */
    .marked = "\x1b[48;5;136m", /* dark gold */
    .number = "\x1b[38;5;194m",
    .taken = "\x1b[1;38;5;196m",
    .tile = {"\x1b[48;5;16;1;38;5;220m", "\x1b[48;5;231;1;38;5;124m"},
};

static const Palette PALETTE_8 = {
    .dark = "\x1b[42m",
    .light = "\x1b[47m",
    .marked = "\x1b[43m",
    .number = "\x1b[30m",
    .taken = "\x1b[1;31m",
    .tile = {"\x1b[40;1;33m", "\x1b[107;1;31m"},
};

#define SGR_RESET "\x1b[0m"

const char *play_view_bold(const PlayViewStyle *s)
{
    return s->color ? "\x1b[1m" : "";
}
const char *play_view_dim(const PlayViewStyle *s)
{
    return s->color ? "\x1b[2m" : "";
}
const char *play_view_warn(const PlayViewStyle *s)
{
    return s->color ? "\x1b[1;31m" : "";
}
const char *play_view_reset(const PlayViewStyle *s)
{
    return s->color ? SGR_RESET : "";
}

/* The squares the last move visited (origin, landings, destination) and the ones it emptied. */
static Bitboard path_mask(const Move *last)
{
    Bitboard m = 0;
    if (last)
        for (int i = 0; i < last->len; i++)
            m |= 1u << last->path[i];
    return m;
}

/* The square drawn at ROW, COL (row 0 at the top), or -1 for a light square: PDN's way up, or
 * turned around when FLIP. */
static int square_at(bool flip, int row, int col)
{
    return flip ? bb_square_at(7 - row, 7 - col) : bb_square_at(row, col);
}

/* Two lines per row of squares, five columns per square: the piece line, then the number line. */
static void board_color(FILE *f, const PlayViewStyle *s, const Board *b, const Move *last)
{
    const Palette *p = s->rich ? &PALETTE_256 : &PALETTE_8;
    Bitboard path = path_mask(last), taken = last ? last->captured : 0;
    for (int row = 0; row < 8; row++) {
        fputs("    ", f);
        for (int col = 0; col < 8; col++) {
            int sq = square_at(s->flip, row, col);
            if (sq < 0) {
                fprintf(f, "%s     ", p->light);
                continue;
            }
            const char *bg = (path >> sq) & 1 ? p->marked : p->dark;
            int c = board_color_at(b, sq);
            if (c >= 0)
                fprintf(f, "%s %s%s%s%s ", bg, p->tile[c], board_is_king(b, sq) ? " K " : "   ",
                        SGR_RESET, bg);
            else if ((taken >> sq) & 1)
                fprintf(f, "%s%s  x  %s", bg, p->taken, SGR_RESET);
            else
                fprintf(f, "%s     ", bg);
        }
        fprintf(f, "%s\n    ", SGR_RESET);
        for (int col = 0; col < 8; col++) {
            int sq = square_at(s->flip, row, col);
            if (sq < 0)
                fprintf(f, "%s     ", p->light);
            else
                fprintf(f, "%s%s%-5d%s", (path >> sq) & 1 ? p->marked : p->dark, p->number, sq + 1,
                        SGR_RESET);
        }
        fprintf(f, "%s\n", SGR_RESET);
    }
}

/* ASCII lines; the number of each dark square on the line under it, `*' marking the last move. */
static void board_plain(FILE *f, bool flip, const Board *b, const Move *last)
{
    Bitboard path = path_mask(last), taken = last ? last->captured : 0;
    fputs("    +---+---+---+---+---+---+---+---+\n", f);
    for (int row = 0; row < 8; row++) {
        fputs("    |", f);
        for (int col = 0; col < 8; col++) {
            int sq = square_at(flip, row, col), c = sq >= 0 ? board_color_at(b, sq) : -1;
            if (c >= 0 && board_is_king(b, sq))
                fprintf(f, "[%c]|", c == BLACK ? 'B' : 'W');
            else if (c >= 0)
                fprintf(f, " %c |", c == BLACK ? 'b' : 'w');
            else if (sq >= 0 && ((taken >> sq) & 1))
                fputs(" x |", f);
            else if (sq >= 0)
                fputs(" . |", f);
            else
                fputs("   |", f);
        }
        fputs("\n    +", f);
        for (int col = 0; col < 8; col++) {
            int sq = square_at(flip, row, col);
            if (sq < 0) {
                fputs("---+", f);
                continue;
            }
            char label[16];
            snprintf(label, sizeof label, "%d%s---", sq + 1, (path >> sq) & 1 ? "*" : "");
            fprintf(f, "%.3s+", label);
        }
        fputc('\n', f);
    }
    fputs("    b w: men   [B] [W]: kings   *: last move   x: just taken\n", f);
}

void play_view_board(FILE *f, const PlayViewStyle *s, const Board *b, const Move *last)
{
    bb_init();
    if (s->color)
        board_color(f, s, b, last);
    else
        board_plain(f, s->flip, b, last);
}

void play_view_moves(FILE *f, const PlayViewStyle *s, const Move *moves, int n)
{
    enum { WIDTH = 78, INDENT = 3 };
    char text[MAX_MOVES][64];
    int numw = n >= 100 ? 3 : n >= 10 ? 2 : 1, colw = 0;
    for (int i = 0; i < n; i++) {
        notation_format_move(&moves[i], text[i], sizeof text[i]);
        int w = numw + 2 + (int)strlen(text[i]);
        if (w > colw)
            colw = w;
    }
    colw += 3;
    int cols = (WIDTH - INDENT) / colw;
    if (cols < 1)
        cols = 1;
    if (cols > 6)
        cols = 6;
    for (int i = 0; i < n; i++) {
        int col = i % cols;
        if (col == 0)
            fprintf(f, "%*s", INDENT, "");
        fprintf(f, "%s%*d.%s %s", play_view_bold(s), numw, i + 1, play_view_reset(s), text[i]);
        if (col == cols - 1 || i == n - 1)
            fputc('\n', f);
        else
            fprintf(f, "%*s", colw - (numw + 2 + (int)strlen(text[i])), "");
    }
}

void play_view_score(int score, char *buf, size_t size)
{
    if (score_is_decisive(score))
        snprintf(buf, size, "%s in %d plies", score > 0 ? "win" : "loss",
                 score_plies_to_end(score));
    else
        snprintf(buf, size, "%+.2f", score / (double)SCORE_MAN);
}
