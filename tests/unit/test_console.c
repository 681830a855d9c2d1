/*
 * test_console.c - the console's pieces that stand alone: the board drawing and the thinking
 * table rows against the original program's transcripts, and the line reader (line ends, a last
 * line without its end, overlong lines, NUL bytes, looking without blocking).
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include "board.h"
#include "console_input.h"
#include "console_view.h"
#include "notation.h"

#include <unistd.h>

static void test_square_geometry(void)
{
    int dark = 0;
    for (int row = 0; row < 8; row++)
        for (int col = 0; col < 8; col++) {
            int sq = console_view_square_at(row, col);
            if (sq < 0)
                continue;
            dark++;
            int r, c;
            console_view_square_coords(sq, &r, &c);
            CHECK(r == row && c == col);
        }
    CHECK(dark == 32);
    CHECK(console_view_square_at(0, 6) == 0);  /* square 1: Black's back row, right */
    CHECK(console_view_square_at(7, 1) == 31); /* square 32 */
    CHECK(console_view_square_at(0, 7) == -1);
    CHECK(console_view_square_at(8, 0) == -1);
}

/* Every position drawn in the original's transcripts: the FEN line, then 17 lines. Each is
 * drawn again from its FEN (rotated when the original's was) and compared line for line. */
static void test_drawings_match_transcripts(void)
{
    static const char *const names[] = {"t1-commands", "t2-endgame", "t3-multijump",
                                        "t4-engine",   "t5-analyze", "t6-reply"};
    int drawings = 0;
    for (size_t t = 0; t < sizeof names / sizeof names[0]; t++) {
        char path[512];
        snprintf(path, sizeof path, "%s/ponder-transcripts/%s.out", check_data_dir(), names[t]);
        FILE *f = fopen(path, "r");
        CHECK(f != NULL);
        if (!f)
            continue;
        char lines[400][128];
        int n = 0;
        while (n < 400 && fgets(lines[n], sizeof lines[n], f))
            n++;
        fclose(f);
        for (int i = 0; i + 17 < n; i++) {
            if (strncmp(lines[i], ";[FEN \"", 7) != 0)
                continue;
            char fen[128];
            snprintf(fen, sizeof fen, "%s", lines[i] + 7);
            fen[strcspn(fen, "\"")] = '\0';
            Board b;
            ParseError e;
            CHECK(notation_parse_fen(fen, &b, &e));
            bool rotated = strstr(lines[i + 3], "+1--+") != NULL;
            char want[CONSOLE_VIEW_POSITION_LEN] = "", got[CONSOLE_VIEW_POSITION_LEN];
            for (int k = 0; k < 18; k++)
                strcat(want, lines[i + k]);
            console_view_position(&b, rotated, got, sizeof got);
            CHECK_STR(got, want);
            drawings++;
        }
    }
    CHECK(drawings >= 25);
}

/* Rows of t5's table, from the PVs it printed. */
static void test_table_rows(void)
{
    static const char *const pv_text[] = {"11-16", "23-19", "16x23", "26x19",
                                          "8-11",  "24-20", "9-13",  NULL};
    Move pv[8];
    Board b;
    board_start(&b);
    int n = 0;
    for (; pv_text[n]; n++) {
        ParseError e;
        CHECK(notation_parse_move(&b, &RULES_ENGLISH, pv_text[n], &pv[n], &e));
        board_apply(&b, &pv[n]);
    }
    char row[CONSOLE_VIEW_ROW_LEN];
    console_view_table_row(7, "0", 0.004, 16129, pv, n, row, sizeof row);
    CHECK_STR(row, "      7       0     0.004       16129 11-16 23-19 16x23 26x19 8-11 24-20\n"
                   "                                      9-13\n");
    console_view_table_row(6, "-2", 0.001, 4941, pv, 6, row, sizeof row);
    CHECK_STR(row, "      6      -2     0.001        4941 11-16 23-19 16x23 26x19 8-11 24-20\n");
    console_view_table_row(1, "-", 0, 0, pv, 0, row, sizeof row);
    CHECK_STR(row, "      1       -     0.000           0\n");
    CHECK_STR(console_view_table_header(),
              "  depth   value      time       nodes\n"
              "  ----------------------------------------------------------------------------\n");
    char tiny[16];
    console_view_table_row(7, "0", 0.004, 16129, pv, n, tiny,
                           sizeof tiny); /* cut short, terminated */
    CHECK(strlen(tiny) == sizeof tiny - 1);
}

/* A pipe holding TEXT (LEN bytes), its write end closed when CLOSE. Returns the read end. */
static int pipe_with(const char *text, size_t len, bool close_it, int *write_end)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    CHECK(write(fd[1], text, len) == (ssize_t)len);
    if (close_it) {
        close(fd[1]);
        *write_end = -1;
    } else
        *write_end = fd[1];
    return fd[0];
}

static void test_reader_lines(void)
{
    static const char text[] = "ping 1\r\n\nsetboard B:W:B1\nlast";
    int w, fd = pipe_with(text, sizeof text - 1, true, &w);
    LineReader r;
    line_reader_init(&r, fd);
    char line[CONSOLE_LINE_MAX];
    bool got;
    const char *want[] = {"ping 1", "", "setboard B:W:B1", "last"};
    for (int i = 0; i < 4; i++) {
        line_reader_wait(&r, -1);
        CHECK(line_reader_take(&r, line, sizeof line, &got) == LINE_OK);
        CHECK(got);
        CHECK_STR(line, want[i]);
    }
    line_reader_wait(&r, -1);
    line_reader_take(&r, line, sizeof line, &got);
    CHECK(!got && r.eof);
    close(fd);
}

static void test_reader_bad_lines(void)
{
    static char text[6000];
    memset(text, 'a', 5000);
    memcpy(text + 5000, "\nok\npi\0ng\nend\n", 14);
    int w, fd = pipe_with(text, 5014, true, &w);
    LineReader r;
    line_reader_init(&r, fd);
    char line[CONSOLE_LINE_MAX];
    bool got;
    line_reader_wait(&r, -1);
    CHECK(line_reader_take(&r, line, sizeof line, &got) == LINE_TOO_LONG);
    CHECK(got && strlen(line) > 0 && strspn(line, "a") == strlen(line));
    line_reader_wait(&r, -1);
    CHECK(line_reader_take(&r, line, sizeof line, &got) == LINE_OK);
    CHECK_STR(line, "ok");
    line_reader_wait(&r, -1);
    CHECK(line_reader_take(&r, line, sizeof line, &got) == LINE_NUL);
    CHECK_STR(line, "pi");
    line_reader_wait(&r, -1);
    CHECK(line_reader_take(&r, line, sizeof line, &got) == LINE_OK);
    CHECK_STR(line, "end");
    close(fd);
}

/* Looking for a line never blocks: nothing, half a line, then the rest. */
static void test_reader_poll(void)
{
    int w, fd = pipe_with("", 0, false, &w);
    LineReader r;
    line_reader_init(&r, fd);
    CHECK(!line_reader_poll(&r) && !r.eof);
    CHECK(write(w, "pi", 2) == 2);
    CHECK(!line_reader_poll(&r) && !r.eof);
    CHECK(write(w, "ng 5\nquit\n", 10) == 10);
    CHECK(line_reader_poll(&r));
    char line[CONSOLE_LINE_MAX];
    bool got;
    line_reader_take(&r, line, sizeof line, &got);
    CHECK_STR(line, "ping 5");
    CHECK(line_reader_has_line(&r));
    line_reader_take(&r, line, sizeof line, &got);
    CHECK_STR(line, "quit");
    CHECK(!line_reader_poll(&r) && !r.eof);
    close(w);
    CHECK(!line_reader_poll(&r) && r.eof);
    close(fd);
}

/* Waiting also ends when the other descriptor (the search's wake-up pipe) is readable. */
static void test_reader_wake(void)
{
    int w, fd = pipe_with("", 0, false, &w);
    int wake[2];
    CHECK(pipe(wake) == 0);
    CHECK(write(wake[1], "x", 1) == 1);
    LineReader r;
    line_reader_init(&r, fd);
    CHECK(line_reader_wait(&r, wake[0]));
    close(w);
    close(fd);
    close(wake[0]);
    close(wake[1]);
}

int main(void)
{
    RUN("console", test_square_geometry);
    RUN("console", test_drawings_match_transcripts);
    RUN("console", test_table_rows);
    RUN("console", test_reader_lines);
    RUN("console", test_reader_bad_lines);
    RUN("console", test_reader_poll);
    RUN("console", test_reader_wake);
    return check_total_failed ? 1 : 0;
}
