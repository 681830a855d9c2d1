/*
 * fuzz.c - the helpers of fuzz.h: failing loudly, NUL-terminated copies of the input, running a
 * whole `ponder' subcommand in this process on a standard input made of the fuzzer's bytes, and
 * a fixed set of positions for the move parsers.
 */
#define _GNU_SOURCE
#include "fuzz.h"

#include "command.h"
#include "notation.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void fuzz_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "fuzz: %s:%d: %s\n", file, line, what);
    fflush(stderr);
    abort();
}

char *fuzz_text(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        fuzz_fail(__FILE__, __LINE__, "out of memory");
    if (size > 0)
        memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

void fuzz_quiet_stdout(void)
{
    fflush(stdout);
    int fd = open("/dev/null", O_WRONLY);
    if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
        fuzz_fail(__FILE__, __LINE__, "cannot send stdout to /dev/null");
    close(fd);
}

void fuzz_check_error(const ParseError *e, size_t text_len, bool single_line)
{
    FUZZ_CHECK(memchr(e->msg, '\0', sizeof e->msg) != NULL, "error message not terminated");
    FUZZ_CHECK(e->msg[0] != '\0', "failure without a message");
    FUZZ_CHECK(e->col >= 0 && e->line >= 0, "negative error position");
    if (single_line)
        FUZZ_CHECK((size_t)e->col <= text_len + 1, "error column past the end of the text");
}

/* A file descriptor on a fresh unlinked temporary file. */
static int temp_fd(void)
{
    FILE *f = tmpfile();
    int fd = f ? dup(fileno(f)) : -1;
    if (fd < 0)
        fuzz_fail(__FILE__, __LINE__, "cannot make a temporary file");
    fclose(f); /* the duplicate keeps the (already unlinked) file open */
    return fd;
}

static int input_fd = -1;  /* the file behind standard input, rewritten for every run */
static int output_fd = -1; /* the file standard output goes to while it is captured */

int fuzz_run_command(const char *name, int argc, char **argv, const uint8_t *data, size_t size,
                     char **out, size_t *out_len)
{
    const Command *c = command_find(name);
    if (!c)
        fuzz_fail(__FILE__, __LINE__, "no such command");
    if (input_fd < 0)
        input_fd = temp_fd();
    if (ftruncate(input_fd, 0) != 0)
        fuzz_fail(__FILE__, __LINE__, "cannot empty the stdin file");
    for (size_t done = 0; done < size;) {
        ssize_t n = pwrite(input_fd, data + done, size - done, (off_t)done);
        if (n <= 0)
            fuzz_fail(__FILE__, __LINE__, "cannot write the stdin file");
        done += (size_t)n;
    }
    /* stdin shares the file (and its offset) with input_fd: rewind it, and drop whatever the
     * stdio stream still held from the previous run. */
    if (dup2(input_fd, STDIN_FILENO) < 0 || lseek(STDIN_FILENO, 0, SEEK_SET) != 0)
        fuzz_fail(__FILE__, __LINE__, "cannot set up stdin");
    __fpurge(stdin);
    clearerr(stdin);

    fflush(stdout);
    int saved_stdout = -1;
    if (out) {
        if (output_fd < 0)
            output_fd = temp_fd();
        if (ftruncate(output_fd, 0) != 0 || (saved_stdout = dup(STDOUT_FILENO)) < 0 ||
            dup2(output_fd, STDOUT_FILENO) < 0 || lseek(STDOUT_FILENO, 0, SEEK_SET) != 0)
            fuzz_fail(__FILE__, __LINE__, "cannot capture stdout");
    }
    int status = c->run(argc, argv);
    fflush(stdout);
    clearerr(stdout);
    if (out) {
        off_t len = lseek(output_fd, 0, SEEK_END);
        if (len < 0 || dup2(saved_stdout, STDOUT_FILENO) < 0)
            fuzz_fail(__FILE__, __LINE__, "cannot restore stdout");
        close(saved_stdout);
        char *buf = malloc((size_t)len + 1);
        if (!buf || pread(output_fd, buf, (size_t)len, 0) != len)
            fuzz_fail(__FILE__, __LINE__, "cannot read the captured stdout");
        buf[len] = '\0';
        *out = buf;
        *out_len = (size_t)len;
    }
    return status;
}

/* FEN and rule set of each position of fuzz_position. */
static const struct {
    const char *fen;
    const Rules *rules;
} POSITIONS[] = {
    {"B:W21-32:B1-12", &RULES_ENGLISH}, /* the start */
    {"W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", &RULES_ENGLISH},
    {"B:W14,15,22,23:BK10", &RULES_ENGLISH},                       /* king multi-jumps */
    {"B:W6,7,14,15,22,23:BK1", &RULES_ENGLISH},                    /* branching routes */
    {"B:W10,18,27,K9,K17,K19,K26:B25,K5,K11,K31", &RULES_ENGLISH}, /* kings both sides */
    {"W:W17,21,24,25,29,32:B5,6,7,8,10,14,22,28", &RULES_ENGLISH}, /* White to move */
    {"B:W26,27:B22", &RULES_HACKERRANK},                           /* crowning mid-capture */
    {"B:W26,27:B22", &RULES_ENGLISH},                              /* the same, stopping */
    {"B:W6,14,15,22,23:BK1", &RULES_ENGLISH},                      /* king loop */
    {"W:W5,6,7,8:B1,2,3,4", &RULES_ENGLISH},                       /* blocked side */
    {"B:W:B25", &RULES_ENGLISH},                                   /* one man alone */
    {"B:W21-32:B1-12", &RULES_TOWER},                              /* optional capture */
    {"B:W14,22:BK18", &RULES_TOWER},
};
enum { POSITION_NB = sizeof POSITIONS / sizeof POSITIONS[0] };

int fuzz_position(int i, Board *b, const Rules **rules)
{
    int k = ((i % POSITION_NB) + POSITION_NB) % POSITION_NB;
    ParseError e;
    if (!notation_parse_fen(POSITIONS[k].fen, b, &e))
        fuzz_fail(__FILE__, __LINE__, "a built-in position does not parse");
    *rules = POSITIONS[k].rules;
    return POSITION_NB;
}
