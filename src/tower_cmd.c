/*
 * tower_cmd.c - `ponder tower`: the tower-variant program of seed 004 (the COMP10002 2021
 * checkers assignment), on top of the variant's rules and searches (tower.c) and its cells and
 * action lines (tower_format.c).
 *
 * The program prints the initial setup, then replays the actions read on stdin one per line,
 * each under a separator line with its number, the board cost and the board. The first bad
 * action ends the run with the assignment's error message (exit status 1). A line `A' then
 * computes and plays one action by minimax of depth 3, `P' up to ten; lines after the command are
 * not carried out (a warning on stderr counts them). Stdout is exactly the assignment's output; the
 * only addition, on stderr, is the input line where an error was found.
 *
 * Choices where the assignment is silent (see docs/tower.md): blank lines, blanks around a line
 * and CR line ends are ignored; letters may be lower case; an empty input prints the setup alone
 * (it is a list of no actions); `P' plays ten turns, and a turn that finds no action prints the
 * winner and ends the game (a game ended by the tenth action is not announced: the turn that
 * would find no action is not one of the ten); anything that is not an action or a command is
 * `ERROR: Illegal action.'.
 */
#include "tower.h"
#include "tower_format.h"

#include "cli.h"
#include "command.h"
#include "notation.h"
#include "opts.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
            int sq = tower_square(col, row);
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
        if (tower_is_blank((char)c)) {
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

/* After the command `CMD' on input line LINE_NO the game is over as far as the assignment goes:
 * the lines after it are not carried out. When stdin is not a terminal (where reading on would
 * wait for the user), counts those that are not blank and warns on stderr if there are any. */
static void warn_ignored(long line_no, char cmd)
{
    if (isatty(fileno(stdin)))
        return;
    char line[LINE_KEEP];
    size_t len;
    bool too_long;
    long ignored = 0, first = 0, at = line_no;
    while (read_line(stdin, line, &len, &too_long)) {
        at++;
        if (len > 0 || too_long) {
            if (ignored++ == 0)
                first = at;
        }
    }
    if (ignored > 0)
        fprintf(stderr,
                "ponder tower: warning: %ld line%s after `%c' (input line %ld) ignored, from "
                "line %ld: `%c' ends the input\n",
                ignored, ignored == 1 ? "" : "s", cmd, line_no, first, cmd);
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
        "The tower variant of checkers (COMP10002, 2021): reads actions such as `G6-F5' on stdin, "
        "one\n"
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

static int cmd_tower(int argc, char **argv)
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
            warn_ignored(line_no, kind == TOWER_LINE_ONE ? 'A' : 'P');
            break;
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
    opts_see_help("ponder tower");
    return 2;
}

PONDER_COMMAND("tower", cmd_tower, 60,
               "the tower variant (COMP10002 2021 assignment): replay, minimax, play")
