/*
 * test_openings.c - the built-in ballots against the data file, and loading openings from PDN
 * and FEN files, bad files included.
 */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "notation.h"
#include "openings.h"
#include "pdn.h"
#include "util.h"

/* Writes TEXT (LEN bytes) to a new temporary file and returns its path (static buffer). */
static const char *temp_file(const char *text, size_t len)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/ponder-test-openings-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return "/nonexistent";
    if (write(fd, text, len) != (ssize_t)len)
        path[0] = '\0';
    close(fd);
    return path;
}

/* Loads TEXT as an openings file; returns the count (or -1 with ERR filled). */
static int load_text(const char *text, Opening **out, char *err)
{
    const char *path = temp_file(text, strlen(text));
    int n = openings_load(path, out, err);
    unlink(path);
    return n;
}

static int count_pieces(const Board *b, int color)
{
    return __builtin_popcount(b->pieces[color]);
}

/* Every line of the data file's list, replayed here move by move, gives the built-in ballot of
 * the same number: same moves, same position. */
static void ballots_match_data_file(void)
{
    char path[512], err[ERR_LEN];
    snprintf(path, sizeof path, "%s/openings/three-move-ballots.txt", check_data_dir());
    char *text = util_read_file(path, 1 << 20, NULL, err, sizeof err);
    CHECK(text != NULL);
    if (!text)
        return;
    Opening *all = NULL;
    int n = openings_ballots(true, &all, err);
    CHECK_EQ_U64(n, 174);
    int lines = 0, in_use = 0;
    for (char *line = strtok(text, "\n"); line && n == 174; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        int number = atoi(line);
        CHECK(number == lines + 1);
        char *moves = strchr(line, '\t'), *status = moves ? strchr(moves + 1, '\t') : NULL;
        CHECK(moves && status);
        if (!moves || !status || number < 1 || number > 174)
            break;
        *status++ = '\0';
        in_use += strncmp(status, "USE", 3) == 0;
        /* Play the three moves from the start. */
        Board b;
        board_start(&b);
        const Opening *o = &all[number - 1];
        int k = 0;
        for (char *mv = strtok_r(moves + 1, " ", &moves); mv; mv = strtok_r(NULL, " ", &moves)) {
            Move m;
            ParseError e;
            bool ok = pdn_parse_move(&b, &RULES_ENGLISH, mv, &m, &e);
            if (!ok)
                printf("  ballot %d: %s: %s\n", number, mv, e.msg);
            CHECK(ok);
            if (!ok)
                break;
            CHECK(k < o->nmoves && move_same(&m, &o->moves[k], true));
            board_apply(&b, &m);
            k++;
        }
        CHECK_EQ_U64(k, 3);
        CHECK(board_equal(&b, &o->start));
        CHECK(b.key == o->start.key);
        CHECK(o->start.side == WHITE);
        char want[16];
        snprintf(want, sizeof want, "ballot %03d: ", number);
        CHECK(strncmp(o->name, want, strlen(want)) == 0);
        lines++;
    }
    CHECK_EQ_U64(lines, 174);
    CHECK_EQ_U64(in_use, 156);
    free(all);
    free(text);
}

/* The default list is the 156 in use, in order, a subset of all 174. */
static void ballots_in_use(void)
{
    char err[ERR_LEN];
    Opening *use = NULL, *all = NULL;
    int n = openings_ballots(false, &use, err), m = openings_ballots(true, &all, err);
    CHECK_EQ_U64(n, 156);
    CHECK_EQ_U64(m, 174);
    if (n != 156 || m != 174)
        return;
    int j = 0;
    for (int i = 0; i < n; i++) {
        while (j < m && strcmp(all[j].name, use[i].name) != 0)
            j++;
        CHECK(j < m);
        if (j < m)
            CHECK(board_equal(&all[j].start, &use[i].start));
    }
    /* Ballot 4 (9-13 22-17 13-22) takes a man; ballot 1 takes none. */
    CHECK_EQ_U64(count_pieces(&all[3].start, WHITE), 11);
    CHECK_EQ_U64(count_pieces(&all[0].start, WHITE), 12);
    /* Ballot 3 (9-13 21-17 10-14) is one of the 18 barred. */
    for (int i = 0; i < n; i++)
        CHECK(strncmp(use[i].name, "ballot 003", 10) != 0);
    free(use);
    free(all);
}

/* The 2,400 eleven-man ballots: one man off each side, Black to move, no moves kept. */
static void eleven_man_file(void)
{
    char path[512], err[ERR_LEN];
    snprintf(path, sizeof path, "%s/openings/eleven-man-ballots.pdn", check_data_dir());
    Opening *o = NULL;
    int n = openings_load(path, &o, err);
    if (n < 0)
        printf("  %s\n", err);
    CHECK_EQ_U64(n, 2400);
    for (int i = 0; i < n; i++) {
        CHECK_EQ_U64(count_pieces(&o[i].start, BLACK), 11);
        CHECK_EQ_U64(count_pieces(&o[i].start, WHITE), 11);
        CHECK(o[i].start.side == BLACK && o[i].nmoves == 0);
    }
    if (n > 1)
        CHECK_STR(o[1].name, "eleven-man-ballots.pdn:2");
    free(o);
}

static void fen_lines_file(void)
{
    char err[ERR_LEN];
    Opening *o = NULL;
    int n = load_text("# two positions\n\nB:W21,22:B1,2\r\n  \"W:WK30:B1\"\n", &o, err);
    CHECK_EQ_U64(n, 2);
    if (n == 2) {
        CHECK(o[0].start.side == BLACK && o[0].start.pieces[WHITE] == ((1u << 20) | (1u << 21)));
        CHECK(o[1].start.side == WHITE && o[1].start.kings == 1u << 29);
        CHECK(strstr(o[1].name, ":4") != NULL);
    }
    free(o);
}

static void pdn_with_moves(void)
{
    char err[ERR_LEN];
    Opening *o = NULL;
    int n = load_text("[Event \"a\"]\n1. 9-13 22-17 2. 13x22 *\n\n"
                      "[FEN \"W:W21:B1\"]\n1... 21-17 *\n"
                      "1. 9-14 22-18 2. 5-9 24-19 3. 11-16 28-24 4. 16-20 19-15 5. 10x28 *\n",
                      &o, err);
    CHECK_EQ_U64(n, 3);
    if (n != 3)
        return;
    /* The same as ballot 4. */
    Opening *b = NULL;
    CHECK(openings_ballots(true, &b, err) == 174);
    CHECK(board_equal(&o[0].start, &b[3].start));
    CHECK_EQ_U64(o[0].nmoves, 3);
    free(b);
    /* From a FEN: the moves are played but not kept. */
    CHECK_EQ_U64(o[1].nmoves, 0);
    CHECK(o[1].start.side == BLACK && o[1].start.pieces[WHITE] == 1u << 16);
    /* Nine plies: more than an Opening keeps, so the end position stands alone. */
    CHECK_EQ_U64(o[2].nmoves, 0);
    CHECK(o[2].start.side == WHITE && board_color_at(&o[2].start, 27) == BLACK);
    CHECK_EQ_U64(count_pieces(&o[2].start, WHITE), 10);
    free(o);
}

/* Each bad file gives -1 and a message naming the place. */
static void bad_files(void)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"", "no start positions"},
        {"\n# only a comment\n", "no start positions"},
        {"B:W21,22:B1,2\nB:W21,22:B1,33\n", ":2:"},
        {"B:W21:B1\nW:W21:B1,21\n", "repeated"},
        {"B:WK1:B\n", "no legal move"},
        /* A man on its own crowning row: the words of every program, where it stands. */
        {"B:W21:B2\n# a comment\nB:W1,21:B5,9\n",
         ":3:4: a White man on square 1, its crowning row (write it as a king: K1)"},
        {"W:W21:B5,29\n", ":1:10: a Black man on square 29, its crowning row"},
        {"[FEN \"B:W1,21:B5,9\"]\n1. 9-13 *\n",
         ":1:10: bad FEN tag: a White man on square 1, its crowning row (write it as a king: K1)"},
        {"[FEN \"B:W21:B1\"]\n1. 1-5 21-17 2. 5-9 17-13 3. 9-14 13-10 *\n", "illegal move"},
        {"[FEN \"B:W21:B1\"]\n1. 1-5 {never closed\n", "never closed"},
        {"1. 11-15 23-18 2. 15x22 *", ":1:"},
        {"[FEN \"B:W5:B1,10\"] 1. 10-14 *\n", "no legal move"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char err[ERR_LEN] = "";
        Opening *o = NULL;
        int n = load_text(cases[k].text, &o, err);
        if (n != -1 || !strstr(err, cases[k].want))
            printf("  case %zu: got %d, `%s', expected -1 and `%s'\n", k, n, err, cases[k].want);
        CHECK(n == -1 && strstr(err, cases[k].want));
        if (n >= 0)
            free(o);
    }
    char err[ERR_LEN];
    Opening *o = NULL;
    CHECK(openings_load("/nonexistent/openings.pdn", &o, err) == -1);
    CHECK(strstr(err, "cannot open") != NULL);
    /* A NUL byte inside the file. */
    const char nul[] = "B:W21:B1\n\0B:W22:B2\n";
    const char *path = temp_file(nul, sizeof nul - 1);
    CHECK(openings_load(path, &o, err) == -1);
    CHECK(strstr(err, "NUL") != NULL);
    unlink(path);
}

int main(void)
{
    RUN("openings", ballots_match_data_file);
    RUN("openings", ballots_in_use);
    RUN("openings", eleven_man_file);
    RUN("openings", fen_lines_file);
    RUN("openings", pdn_with_moves);
    RUN("openings", bad_files);
    return check_total_failed != 0;
}
