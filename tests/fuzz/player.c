/*
 * player.c - fuzz harness for middleware lines (seed 002) as `ponder player' reads them: the
 * bytes are its standard input, `0 0' or the opponent's moves as full paths (2 11 18), one a
 * line; it answers each with a move of its own after a depth-2 search.
 *
 * The program must exit 0 or 1, and everything it prints must be a legal reply: the harness
 * follows the game line by line (when the input holds no NUL byte and no overlong line, where
 * its line splitting would differ from fgets) and checks each answer with the library.
 */
#include "fuzz.h"

#include "movegen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet_stdout();
    return 0;
}

/* The protocol's "you move first" line: two zeros, blanks around and between. */
static bool is_first_move_marker(const char *text)
{
    int a, b;
    char rest;
    return sscanf(text, " %d %d %c", &a, &b, &rest) == 2 && a == 0 && b == 0 &&
           strspn(text, " \t0") == strlen(text);
}

/* Cuts the next line off *P (at '\n' or the end) and strips its line end; NULL when none. */
static char *next_line(char **p)
{
    if (!*p || !**p)
        return NULL;
    char *line = *p, *nl = strchr(line, '\n');
    if (nl) {
        *nl = '\0';
        *p = nl + 1;
    } else
        *p = NULL;
    size_t n = strlen(line);
    while (n > 0 && line[n - 1] == '\r')
        line[--n] = '\0';
    return line;
}

/* Follows the game of INPUT and OUTPUT and checks every move the program printed. */
static void check_answers(char *input, char *output)
{
    Board b;
    board_start(&b);
    char *in = input, *out = output;
    for (int lineno = 1;; lineno++) {
        char *line = next_line(&in);
        if (!line)
            break;
        if (!(is_first_move_marker(line) && lineno == 1)) {
            Move m;
            ParseError e;
            if (!middleware_parse_move(&b, &RULES_ENGLISH, line, &m, &e))
                break; /* the program stops here too */
            board_apply(&b, &m);
        }
        char *answer = next_line(&out);
        if (!answer)
            break; /* no legal move left: the program stopped */
        Move reply;
        ParseError e;
        FUZZ_CHECK(middleware_parse_move(&b, &RULES_ENGLISH, answer, &reply, &e),
                   "ponder player answered an illegal or malformed move");
        board_apply(&b, &reply);
    }
    FUZZ_CHECK(next_line(&out) == NULL, "ponder player printed more than one answer a line");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[] = {"player", "--depth", "2", "--hash", "1", NULL};
    char *out = NULL;
    size_t out_len = 0;
    int status = fuzz_run_command("player", 5, argv, data, size, &out, &out_len);
    FUZZ_CHECK(status == 0 || status == 1, "ponder player exit status");
    char *text = fuzz_text(data, size);
    bool simple = strlen(text) == size;
    for (char *p = text, *nl; simple && p && *p; p = nl ? nl + 1 : NULL)
        if ((nl = strchr(p, '\n')) ? nl - p > 1000 : strlen(p) > 1000)
            simple = false;
    if (simple)
        check_answers(text, out);
    free(text);
    free(out);
    return 0;
}
