/*
 * tower.c - `ponder tower`: the tower-variant program of seed 004 (the COMP10002 2021 checkers
 * assignment), and the variant's search (tower.h).
 *
 * The program prints the initial setup, then replays the actions read on stdin one per line,
 * each under a separator line with its number, the board cost and the board. The first bad
 * action ends the run with the assignment's error message (exit status 1). A line `A' then
 * computes and plays one action by minimax of depth 3, `P' up to ten; lines after the command are
 * not read. Stdout is exactly the assignment's output; the only addition, on stderr, is the input
 * line where an error was found.
 *
 * Choices where the assignment is silent (see docs/tower.md): blank lines, blanks around a line
 * and CR line ends are ignored; letters may be lower case; an empty input prints the setup alone
 * (it is a list of no actions); `P' plays ten turns, and a turn that finds no action prints the
 * winner and ends the game (a game ended by the tenth action is not announced: the turn that
 * would find no action is not one of the ten); anything that is not an action or a command is `ERROR: Illegal action.'.
 *
 * The search is the assignment's: plain minimax over the whole tree by default; `--depth N' uses
 * alpha-beta, which the unit tests prove returns the same action as plain minimax.
 */
#include "tower.h"

#include "bitboard.h"
#include "cli.h"
#include "command.h"
#include "notation.h"
#include "opts.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Actions ---- */

/* NE, SE, SW, NW: north is towards row 1, which is "up" (higher rows) on the internal board, and
 * east (towards column H) is towards lower internal columns, so NE is DIR_UL. */
static const int tower_dirs[4] = {DIR_UL, DIR_DL, DIR_DR, DIR_UR};

/* Whether a man of each colour may go in each direction (Black's men go up, White's down). */
static const bool man_forward[COLOR_NB][DIR_NB] = {
    [BLACK] = {[DIR_UL] = true, [DIR_UR] = true},
    [WHITE] = {[DIR_DL] = true, [DIR_DR] = true},
};

int tower_generate(const Board *b, Move out[TOWER_MAX_ACTIONS])
{
    int us = b->side, n = 0;
    Bitboard own = b->pieces[us], opp = b->pieces[us ^ 1], occupied = own | opp;
    /* Reading order (row 1 to 8, column A to H) is descending square index: tower row 1 is
     * internal row 7 and columns run right to left. */
    while (own) {
        int sq = 31 - __builtin_clz(own);
        own &= ~(1u << sq);
        bool king = board_is_king(b, sq);
        for (int k = 0; k < 4; k++) {
            int d = tower_dirs[k];
            if (!king && !man_forward[us][d])
                continue;
            int to = bb_step[sq][d];
            if (to < 0)
                continue;
            Bitboard captured = 0;
            if ((occupied >> to) & 1u) {
                int beyond = bb_jump[sq][d];
                if (!((opp >> to) & 1u) || beyond < 0 || ((occupied >> beyond) & 1u))
                    continue;
                captured = 1u << to;
                to = beyond;
            }
            Move *m = &out[n++];
            m->captured = captured;
            m->from = (uint8_t)sq;
            m->to = (uint8_t)to;
            m->len = 2;
            m->flags = !king && board_crown_square(us, to) ? MOVE_CROWNS : 0;
            m->path[0] = (uint8_t)sq;
            m->path[1] = (uint8_t)to;
        }
    }
    return n;
}

bool tower_has_action(const Board *b)
{
    int us = b->side;
    Bitboard empty = board_empty(b), own = b->pieces[us], opp = b->pieces[us ^ 1];
    /* A piece can go up if the square up-left or up-right of it is empty, or holds an opponent
     * with an empty square beyond: walk back from the empty squares. */
    Bitboard up =
        bb_dr(empty) | bb_dl(empty) | bb_dr(bb_dr(empty) & opp) | bb_dl(bb_dl(empty) & opp);
    Bitboard down =
        bb_ul(empty) | bb_ur(empty) | bb_ul(bb_ul(empty) & opp) | bb_ur(bb_ur(empty) & opp);
    Bitboard kings = own & b->kings;
    return ((own & (us == BLACK ? up : down)) | (kings & (up | down))) != 0;
}

int tower_cost(const Board *b)
{
    Bitboard k = b->kings;
    return bb_popcount(b->pieces[BLACK] & ~k) + 3 * bb_popcount(b->pieces[BLACK] & k) -
           bb_popcount(b->pieces[WHITE] & ~k) - 3 * bb_popcount(b->pieces[WHITE] & k);
}

static inline int lost_value(int side)
{
    return side == BLACK ? INT_MIN : INT_MAX;
}

int tower_leaf_value(const Board *b)
{
    return tower_has_action(b) ? tower_cost(b) : lost_value(b->side);
}

/* ---- Plain minimax ---- */

static int minimax(const Board *b, int depth, uint64_t *nodes)
{
    (*nodes)++;
    if (depth == 0)
        return tower_leaf_value(b);
    Move list[TOWER_MAX_ACTIONS];
    int n = tower_generate(b, list);
    if (n == 0)
        return lost_value(b->side);
    int best = lost_value(b->side);
    for (int i = 0; i < n; i++) {
        Board child = *b;
        board_apply(&child, &list[i]);
        int v = minimax(&child, depth - 1, nodes);
        if (b->side == BLACK ? v > best : v < best)
            best = v;
    }
    return best;
}

int tower_minimax(const Board *b, int depth, int *value, uint64_t *nodes)
{
    uint64_t count = 1;
    Move list[TOWER_MAX_ACTIONS];
    int n = tower_generate(b, list), best_i = -1, best = lost_value(b->side);
    for (int i = 0; i < n; i++) {
        Board child = *b;
        board_apply(&child, &list[i]);
        int v = minimax(&child, depth - 1, &count);
        /* Strictly better only: the first generated of equal actions stays. */
        if (best_i < 0 || (b->side == BLACK ? v > best : v < best)) {
            best = v;
            best_i = i;
        }
    }
    *value = best;
    if (nodes)
        *nodes = count;
    return best_i;
}

/* ---- Alpha-beta ---- */

/* The alpha-beta search must return the same action and value as plain minimax, so everything
 * it adds is either move ordering (which cannot change a minimax value) or a transposition
 * table whose stored values are only reused for a search of exactly the same remaining depth:
 * a value from a deeper search is a different minimax value here, since a win counts the same
 * at every distance and the leaves are cut at a fixed depth. */

enum { BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

typedef struct {
    uint64_t key;  /* Board.key of the position */
    int32_t value; /* value, or bound, of the search of DEPTH plies below it */
    int8_t depth;  /* remaining depth of that search */
    uint8_t bound; /* BOUND_*: what VALUE is */
    uint8_t best;  /* the action that was best or cut off, as its index in generation order */
} TowerEntry;

typedef struct {
    TowerEntry *tt;              /* transposition table, or NULL if it could not be had */
    uint64_t mask;               /* table entries - 1 */
    uint16_t killer[MAX_PLY][2]; /* per ply, two quiet actions that cut off (from << 8 | to) */
    uint32_t history[COLOR_NB][SQUARE_NB][SQUARE_NB]; /* cut-off counts of quiet actions */
    uint64_t nodes;                                   /* boards visited */
} TowerSearch;

static inline uint16_t action_id(const Move *m)
{
    return (uint16_t)(m->from << 8 | m->to);
}

/* Sorts the actions of an inner node into ORDER: the table's best action, captures of towers,
 * captures of men, crownings, killers, then quiet actions by history. */
static void order_actions(const TowerSearch *s, const Board *b, const Move *list, int n,
                          int tt_best, int ply, uint8_t *order)
{
    uint32_t score[TOWER_MAX_ACTIONS];
    for (int i = 0; i < n; i++) {
        const Move *m = &list[i];
        uint16_t id = action_id(m);
        if (i == tt_best)
            score[i] = 0xFFFFFFFFu;
        else if (m->captured)
            score[i] = (b->kings & m->captured) ? 0xFFFFFFF0u : 0xFFFFFFE0u;
        else if (m->flags & MOVE_CROWNS)
            score[i] = 0xFFFFFFD0u;
        else if (id == s->killer[ply][0])
            score[i] = 0xFFFFFFC1u;
        else if (id == s->killer[ply][1])
            score[i] = 0xFFFFFFC0u;
        else
            score[i] = s->history[b->side][m->from][m->to]; /* below 0xFFFF0000 */
        order[i] = (uint8_t)i;
    }
    for (int i = 1; i < n; i++) { /* insertion sort, stable: ties keep generation order */
        uint8_t x = order[i];
        int j = i;
        for (; j > 0 && score[order[j - 1]] < score[x]; j--)
            order[j] = order[j - 1];
        order[j] = x;
    }
}

/* Fail-soft alpha-beta: the exact minimax value when it lies strictly between ALPHA and BETA,
 * otherwise a bound on the same side of the window as the value. Black maximises. */
static int alphabeta(TowerSearch *s, const Board *b, int depth, int ply, int alpha, int beta)
{
    s->nodes++;
    if (depth == 0)
        return tower_leaf_value(b);

    /* 1. The table: a stored result of a search to the same depth may answer at once; any
     *    entry for this position names an action to try first. */
    TowerEntry *e = s->tt ? &s->tt[b->key & s->mask] : NULL;
    int tt_best = -1;
    if (e && e->key == b->key) {
        if (e->depth == depth &&
            (e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && e->value >= beta) ||
             (e->bound == BOUND_UPPER && e->value <= alpha)))
            return e->value;
        tt_best = e->best;
    }

    /* 2. A side with no action has lost, whatever the depth. */
    Move list[TOWER_MAX_ACTIONS];
    uint8_t order[TOWER_MAX_ACTIONS];
    int n = tower_generate(b, list);
    if (n == 0)
        return lost_value(b->side);
    if (tt_best >= n)
        tt_best = -1;
    order_actions(s, b, list, n, tt_best, ply, order);

    /* 3. The children, best first, until one refutes the window. */
    int alpha0 = alpha, beta0 = beta, best = lost_value(b->side), best_i = 0;
    bool black = b->side == BLACK;
    for (int k = 0; k < n; k++) {
        const Move *m = &list[order[k]];
        Board child = *b;
        board_apply(&child, m);
        int v = alphabeta(s, &child, depth - 1, ply + 1, alpha, beta);
        if (k == 0 || (black ? v > best : v < best)) {
            best = v;
            best_i = order[k];
        }
        if (black && best > alpha)
            alpha = best;
        if (!black && best < beta)
            beta = best;
        if (alpha >= beta) {
            /* 4. A quiet action that cut off is remembered for the siblings of this node. */
            if (!m->captured) {
                uint16_t id = action_id(m);
                if (s->killer[ply][0] != id) {
                    s->killer[ply][1] = s->killer[ply][0];
                    s->killer[ply][0] = id;
                }
                uint32_t *h = &s->history[b->side][m->from][m->to];
                if (*h < 0xFFFF0000u)
                    *h += (uint32_t)(depth * depth);
            }
            break;
        }
    }

    /* 5. Store what the search proved, as exact value or bound against the window it had. */
    if (e) {
        e->key = b->key;
        e->value = best;
        e->depth = (int8_t)depth;
        e->bound = best <= alpha0 ? BOUND_UPPER : best >= beta0 ? BOUND_LOWER : BOUND_EXACT;
        e->best = (uint8_t)best_i;
    }
    return best;
}

/* The root at DEPTH, in generation order. The first action gets the full window; each later
 * one only has to show whether it is strictly better than the best so far (the first of equal
 * actions wins), so its window starts at that value. */
static int search_root(TowerSearch *s, const Board *b, const Move *list, int n, int depth,
                       int *value)
{
    int best_i = -1, best = lost_value(b->side);
    bool black = b->side == BLACK;
    for (int i = 0; i < n; i++) {
        Board child = *b;
        board_apply(&child, &list[i]);
        int v;
        if (best_i < 0)
            v = alphabeta(s, &child, depth - 1, 1, INT_MIN, INT_MAX);
        else if (black)
            v = alphabeta(s, &child, depth - 1, 1, best, INT_MAX);
        else
            v = alphabeta(s, &child, depth - 1, 1, INT_MIN, best);
        if (best_i < 0 || (black ? v > best : v < best)) {
            best = v;
            best_i = i;
        }
        if (best == (black ? INT_MAX : INT_MIN))
            break; /* nothing can be strictly better */
    }
    *value = best;
    return best_i;
}

int tower_alphabeta(const Board *b, int depth, int *value, uint64_t *nodes)
{
    TowerSearch s = {0};
    Move list[TOWER_MAX_ACTIONS];
    int n = tower_generate(b, list), best_i = -1;
    /* A table of 2^(depth + 6) entries, at most 2^20 (16 MB), so that the shallow searches the
     * tests run by the thousand stay cheap. Without the memory the search runs without it. */
    int bits = depth + 6 < 20 ? depth + 6 : 20;
    s.tt = calloc((size_t)1 << bits, sizeof(TowerEntry));
    s.mask = s.tt ? ((uint64_t)1 << bits) - 1 : 0;
    s.nodes = 1;
    *value = lost_value(b->side);
    /* Iterative deepening: each depth fills the table and the history that order the next;
     * only the last decides. */
    for (int d = 1; d <= depth && n > 0; d++)
        best_i = search_root(&s, b, list, n, d, value);
    free(s.tt);
    if (nodes)
        *nodes = s.nodes;
    return best_i;
}

/* ---- Input lines ---- */

static inline bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

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
    while (i < end && is_blank(line[i]))
        i++;
    while (end > i && is_blank(line[end - 1]))
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
    int from = notation_tower_square(c->from_col, c->from_row);
    int to = notation_tower_square(c->to_col, c->to_row); /* -1: a light cell, always empty */
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
    notation_tower_cell(m->from, out);
    out[2] = '-';
    notation_tower_cell(m->to, out + 3);
}

/* ---- The program ---- */

enum {
    LINE_KEEP = 64,  /* bytes of a line kept (no action or command is longer) */
    PLAY_TURNS = 10, /* turns `P' plays */
};

static const char SEPARATOR[] = "=====================================";

static void print_board(const Board *b)
{
    fputs("     A   B   C   D   E   F   G   H\n", stdout);
    for (int row = 1; row <= 8; row++) {
        fputs("   +---+---+---+---+---+---+---+---+\n", stdout);
        printf(" %d |", row);
        for (int col = 0; col < 8; col++) {
            int sq = notation_tower_square(col, row);
            int color = sq < 0 ? -1 : board_color_at(b, sq);
            char c = color < 0 ? '.' : color == BLACK ? 'b' : 'w';
            if (color >= 0 && board_is_king(b, sq))
                c = (char)(c - 'a' + 'A');
            printf(" %c |", c);
        }
        putchar('\n');
    }
    fputs("   +---+---+---+---+---+---+---+---+\n", stdout);
}

/* Prints action number NUMBER, M, just played: B is the board after it. */
static void print_action(const Board *b, const Move *m, int number, bool computed)
{
    char text[6];
    tower_format_action(m, text);
    printf("%s\n%s%s ACTION #%d: %s\nBOARD COST: %d\n", SEPARATOR, computed ? "*** " : "",
           b->side == BLACK ? "WHITE" : "BLACK", number, text, tower_cost(b));
    print_board(b);
}

/* Reads one line of F into LINE (at most LINE_KEEP bytes kept, blanks around it dropped
 * however many there are). *LEN gets the kept length, *TOO_LONG whether text was dropped. Returns
 * false at end of input with nothing read. */
static bool read_line(FILE *f, char *line, size_t *len, bool *too_long)
{
    size_t n = 0, blanks = 0;
    bool any = false;
    int c;
    *too_long = false;
    while ((c = getc(f)) != EOF && c != '\n') {
        any = true;
        if (is_blank((char)c)) {
            blanks++;
            continue;
        }
        if (n > 0) /* blanks inside the text are kept; leading and trailing ones are not */
            for (; blanks > 0; blanks--) {
                if (n < LINE_KEEP)
                    line[n++] = ' ';
                else
                    *too_long = true;
            }
        blanks = 0;
        if (n < LINE_KEEP)
            line[n++] = (char)c;
        else
            *too_long = true;
    }
    *len = n;
    return any || c == '\n';
}

/* Plays up to TURNS computed actions from *B, numbering them after *NUMBER. A turn with no
 * action prints the winner and ends the game. */
static void play_turns(Board *b, int *number, int turns, int depth, bool use_alphabeta)
{
    for (int t = 0; t < turns; t++) {
        Move list[TOWER_MAX_ACTIONS];
        int value;
        int i = use_alphabeta ? tower_alphabeta(b, depth, &value, NULL)
                              : tower_minimax(b, depth, &value, NULL);
        if (i < 0) {
            puts(b->side == BLACK ? "WHITE WIN!" : "BLACK WIN!");
            return;
        }
        tower_generate(b, list);
        board_apply(b, &list[i]);
        print_action(b, &list[i], ++*number, true);
    }
}

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: ponder tower [--depth N]\n"
        "\n"
        "The tower variant of checkers (seed 004): reads actions such as `G6-F5' on stdin, one\n"
        "per line, Black first, and prints the setup and each action with its board cost and\n"
        "board. A final line `A' computes and plays the next action by minimax, `P' plays up\n"
        "to ten; the side left without an action loses. An illegal action prints the reason\n"
        "and exits with status 1.\n"
        "  --depth N    search N plies (1 to %d) with alpha-beta instead of the assignment's\n"
        "               plain minimax of depth 3; the same action as plain minimax at depth N\n",
        TOWER_MAX_DEPTH);
}

static void show_line(const char *line, size_t len, bool too_long, char *out, size_t size)
{
    size_t k = 0;
    for (size_t i = 0; i < len && k + 5 < size; i++) {
        unsigned char c = (unsigned char)line[i];
        out[k++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    if (too_long || k < len)
        for (int d = 0; d < 3; d++)
            out[k++] = '.';
    out[k] = '\0';
}

int cmd_tower(int argc, char **argv)
{
    long depth = 3;
    bool use_alphabeta = false;
    enum { OPT_DEPTH = OPTS_LONG };
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {"depth", required_argument, NULL, OPT_DEPTH},
        {0},
    };
    Opts p;
    opts_begin(&p, "ponder tower", argc, argv, "h", longopts, 0, NULL);
    for (int c; (c = opts_next(&p)) != OPTS_END;) {
        if (c == 'h') {
            usage(stdout);
            return 0;
        }
        if (c != OPT_DEPTH || !cli_long("--depth", optarg, 1, TOWER_MAX_DEPTH, &depth))
            goto bad;
        use_alphabeta = true;
    }
    if (optind < argc) {
        fprintf(stderr, "ponder tower: unexpected argument `%s' (actions are read on stdin)\n",
                argv[optind]);
        goto bad;
    }

    Board b;
    board_start(&b);
    printf("BOARD SIZE: 8x8\n#BLACK PIECES: %d\n#WHITE PIECES: %d\n", bb_popcount(b.pieces[BLACK]),
           bb_popcount(b.pieces[WHITE]));
    print_board(&b);

    char line[LINE_KEEP];
    size_t len;
    bool too_long;
    int number = 0, status = 0;
    long line_no = 0;
    while (read_line(stdin, line, &len, &too_long)) {
        line_no++;
        TowerCells cells;
        TowerLine kind = too_long ? TOWER_LINE_BAD : tower_parse_line(line, len, &cells);
        TowerStatus s = TOWER_ILLEGAL;
        Move m;
        if (kind == TOWER_LINE_BLANK)
            continue;
        if (kind == TOWER_LINE_ONE || kind == TOWER_LINE_TEN) {
            play_turns(&b, &number, kind == TOWER_LINE_ONE ? 1 : PLAY_TURNS, (int)depth,
                       use_alphabeta);
            break; /* lines after the command are not read */
        }
        if (kind == TOWER_LINE_ACTION)
            s = tower_check_action(&b, &cells, &m);
        if (s != TOWER_OK) {
            char shown[48];
            show_line(line, len, too_long, shown, sizeof shown);
            puts(tower_status_message(s));
            fprintf(stderr, "ponder tower: stopped at input line %ld: `%s'\n", line_no, shown);
            status = 1;
            break;
        }
        board_apply(&b, &m);
        print_action(&b, &m, ++number, false);
    }
    if (status == 0 && ferror(stdin)) {
        fprintf(stderr, "ponder tower: error reading the input\n");
        status = 1;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "ponder tower: error writing the output\n");
        status = 1;
    }
    return status;
bad:
    usage(stderr);
    return 2;
}

PONDER_COMMAND("tower", cmd_tower, 60, "the tower variant of seed 004: replay, minimax, play")
