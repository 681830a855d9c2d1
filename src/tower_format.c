/*
 * tower_format.c - the cells and action lines of the tower variant (tower_format.h): cells to
 * squares and back, the reading of an input line, the assignment's checks of an action in its
 * order, and an action written as "G6-F5".
 */
#include "tower_format.h"

#include "bitboard.h"
#include "tower.h"

/* ---- Cells ---- */

int tower_square(int col, int row)
{
    if (col < 0 || col > 7 || row < 1 || row > 8)
        return -1;
    /* Tower row 1 is the top of a diagram with Black at the bottom: HackerRank row 7 - (row-1),
     * column mirrored. */
    return bb_square_at(8 - row, 7 - col);
}

void tower_cell(int sq, char out[3])
{
    int r = bb_row(sq), c = bb_col(sq);
    out[0] = (char)('A' + (7 - c));
    out[1] = (char)('1' + (7 - r));
    out[2] = '\0';
}

/* ---- Input lines ---- */

/* Reads a letter and one or more digits at S[*I] (before END). */
static bool parse_cell(const char *s, size_t *i, size_t end, int *col, int *row)
{
    size_t j = *i;
    if (j >= end)
        return false;
    char c = s[j];
    if (c >= 'A' && c <= 'Z')
        *col = c - 'A';
    else if (c >= 'a' && c <= 'z')
        *col = c - 'a';
    else
        return false;
    j++;
    if (j >= end || s[j] < '0' || s[j] > '9')
        return false;
    int r = 0;
    while (j < end && s[j] >= '0' && s[j] <= '9') {
        r = r * 10 + (s[j] - '0');
        if (r > 9999)
            r = 9999;
        j++;
    }
    *row = r;
    *i = j;
    return true;
}

TowerLine tower_parse_line(const char *line, size_t len, TowerCells *cells)
{
    size_t i = 0, end = len;
    while (i < end && tower_is_blank(line[i]))
        i++;
    while (end > i && tower_is_blank(line[end - 1]))
        end--;
    if (i == end)
        return TOWER_LINE_BLANK;
    if (end - i == 1) {
        char c = line[i];
        if (c == 'A' || c == 'a')
            return TOWER_LINE_ONE;
        if (c == 'P' || c == 'p')
            return TOWER_LINE_TEN;
        return TOWER_LINE_BAD;
    }
    TowerCells c;
    if (!parse_cell(line, &i, end, &c.from_col, &c.from_row) || i >= end || line[i] != '-')
        return TOWER_LINE_BAD;
    i++;
    if (!parse_cell(line, &i, end, &c.to_col, &c.to_row) || i != end)
        return TOWER_LINE_BAD;
    *cells = c;
    return TOWER_LINE_ACTION;
}

static bool off_board(int col, int row)
{
    return col < 0 || col > 7 || row < 1 || row > 8;
}

TowerStatus tower_check_action(const Board *b, const TowerCells *c, Move *out)
{
    if (off_board(c->from_col, c->from_row))
        return TOWER_SOURCE_OUTSIDE;
    if (off_board(c->to_col, c->to_row))
        return TOWER_TARGET_OUTSIDE;
    int from = tower_square(c->from_col, c->from_row);
    int to = tower_square(c->to_col, c->to_row); /* -1: a light cell, always empty */
    int color = from < 0 ? -1 : board_color_at(b, from);
    if (color < 0)
        return TOWER_SOURCE_EMPTY;
    if (to >= 0 && board_color_at(b, to) >= 0)
        return TOWER_TARGET_NOT_EMPTY;
    if (color != b->side)
        return TOWER_SOURCE_OPPONENT;
    Move list[TOWER_MAX_ACTIONS];
    int n = tower_generate(b, list);
    for (int i = 0; i < n; i++)
        if (list[i].from == from && list[i].to == to) {
            *out = list[i];
            return TOWER_OK;
        }
    return TOWER_ILLEGAL;
}

const char *tower_status_message(TowerStatus s)
{
    switch (s) {
    case TOWER_OK: return "OK";
    case TOWER_SOURCE_OUTSIDE: return "ERROR: Source cell is outside of the board.";
    case TOWER_TARGET_OUTSIDE: return "ERROR: Target cell is outside of the board.";
    case TOWER_SOURCE_EMPTY: return "ERROR: Source cell is empty.";
    case TOWER_TARGET_NOT_EMPTY: return "ERROR: Target cell is not empty.";
    case TOWER_SOURCE_OPPONENT: return "ERROR: Source cell holds opponent's piece/tower.";
    default: return "ERROR: Illegal action.";
    }
}

void tower_format_action(const Move *m, char out[6])
{
    tower_cell(m->from, out);
    out[2] = '-';
    tower_cell(m->to, out + 3);
}
