/*
 * console_view.c - the console's board drawing and thinking table (see console_view.h).
 *
 * Geometry: as drawn from Black's side, board row 0 is the bottom line of the drawing and holds
 * squares 1-4 from right to left; even rows have their dark squares in columns 0, 2, 4, 6, odd
 * rows in columns 1, 3, 5, 7. A rotated drawing shows the cell (7 - row, 7 - col) in place of
 * (row, col).
 */
#include "console_view.h"

#include "notation.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int console_view_square_at(int row, int col)
{
    if (row < 0 || row > 7 || col < 0 || col > 7 || ((row + col) & 1) != 0)
        return -1;
    return row * 4 + (7 - col) / 2;
}

void console_view_square_coords(int sq, int *row, int *col)
{
    *row = sq / 4;
    *col = 7 - 2 * (sq % 4) - ((*row & 1) ? 0 : 1);
}

/* Appends formatted text to BUF at *LEN, never past SIZE. */
static void put(char *buf, size_t size, int *len, const char *text)
{
    size_t n = strlen(text);
    if ((size_t)*len + n >= size)
        n = size > (size_t)*len + 1 ? size - (size_t)*len - 1 : 0;
    memcpy(buf + *len, text, n);
    *len += (int)n;
    buf[*len] = '\0';
}

int console_view_position(const Board *b, bool rotated, char *buf, size_t size)
{
    char fen[128];
    int len = 0;
    if (size == 0)
        return 0;
    buf[0] = '\0';
    notation_format_fen(b, fen, sizeof fen);
    put(buf, size, &len, ";[FEN \"");
    put(buf, size, &len, fen);
    put(buf, size, &len, "\"]\n  +---+---+---+---+---+---+---+---+\n");
    for (int line = 0; line < 8; line++) {
        char cells[40] = "  |", border[40] = "  +";
        for (int x = 0; x < 8; x++) {
            int row = rotated ? line : 7 - line, col = rotated ? 7 - x : x;
            int sq = console_view_square_at(row, col);
            const char *cell = "   ";
            char label[8] = "---";
            if (sq >= 0) {
                static const char *const pieces[2][2] = {{"(b)", "(B)"}, {"(w)", "(W)"}};
                int color = board_color_at(b, sq);
                cell = color < 0 ? " \\ " : pieces[color][board_is_king(b, sq)];
                snprintf(label, sizeof label, "%-3d", sq + 1);
                for (int k = 0; k < 3; k++)
                    if (label[k] == ' ')
                        label[k] = '-';
            }
            strcat(cells, cell);
            strcat(cells, "|");
            strcat(border, label);
            strcat(border, "+");
        }
        strcat(cells, "\n");
        strcat(border, "\n");
        put(buf, size, &len, cells);
        put(buf, size, &len, border);
    }
    return len;
}

const char *console_view_table_header(void)
{
    return "  depth   value      time       nodes\n"
           "  ----------------------------------------------------------------------------\n";
}

int console_view_table_row(int depth, const char *value, double time, uint64_t nodes,
                           const Move *pv, int pv_len, char *buf, size_t size)
{
    char head[96];
    int len = 0;
    if (size == 0)
        return 0;
    buf[0] = '\0';
    snprintf(head, sizeof head, "  %5d %7s %9.3f %11" PRIu64, depth, value, time, nodes);
    put(buf, size, &len, head);
    for (int i = 0; i < pv_len; i++) {
        char move[64];
        if (i > 0 && i % CONSOLE_VIEW_PV_PER_LINE == 0)
            put(buf, size, &len, "\n                                     ");
        notation_format_move(&pv[i], move, sizeof move);
        put(buf, size, &len, " ");
        put(buf, size, &len, move);
    }
    put(buf, size, &len, "\n");
    return len;
}
