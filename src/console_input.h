/*
 * console_input.h - the console's line reader: lines from a file descriptor, with a way to ask
 * "is a line already waiting?" without blocking.
 *
 * The console needs to know whether input is waiting at the moment it would start a search (a
 * search that starts while a command is waiting is stopped at once, which keeps piped sessions
 * deterministic), and it needs to wait for either a line or the end of a search. stdio cannot
 * answer the first question, so the reader owns its buffer and reads the descriptor itself:
 * poll() with a zero timeout to look, poll() on the descriptor and a second one (the search's
 * wake-up pipe) to wait. It works on terminals, pipes and regular files alike.
 *
 * Lines end in LF; a CR before the LF is dropped, and a last line without LF counts at end of
 * input. A line longer than CONSOLE_LINE_MAX - 1 bytes is skipped up to its end and reported as
 * too long; a line with a NUL byte is reported as such.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

enum { CONSOLE_LINE_MAX = 4096 }; /* longest line, including the terminating NUL */

typedef enum {
    LINE_OK,       /* a line, without its end */
    LINE_TOO_LONG, /* a line longer than CONSOLE_LINE_MAX - 1 bytes: OUT holds its beginning */
    LINE_NUL,      /* a line containing a NUL byte: OUT holds the part before it */
} LineStatus;

typedef struct {
    int fd;                     /* the descriptor read */
    char buf[CONSOLE_LINE_MAX]; /* bytes read and not yet taken */
    size_t len;                 /* bytes in buf */
    bool eof;                   /* read() returned 0 or failed: nothing more will come */
    bool skipping;              /* dropping the rest of an overlong line */
    bool long_ready;            /* an overlong line ended: report it before what follows */
    char long_start[48];        /* the beginning of that line, for the message */
} LineReader;

/* Starts reading FD. */
void line_reader_init(LineReader *r, int fd);

/* Whether a line (or the report of a bad one) can be taken now without reading. */
bool line_reader_has_line(const LineReader *r);

/* Reads whatever FD has ready without blocking, until a line is complete or nothing more is
 * ready. Returns line_reader_has_line(). */
bool line_reader_poll(LineReader *r);

/* Blocks until a line can be taken, the input ends, or WAKE_FD (-1: none) becomes readable.
 * Returns true when WAKE_FD is readable. Interrupted system calls are retried. */
bool line_reader_wait(LineReader *r, int wake_fd);

/* Takes the next line into OUT (SIZE bytes, at least CONSOLE_LINE_MAX for whole lines) and
 * returns its status; returns false from *GOT when there is no whole line. */
LineStatus line_reader_take(LineReader *r, char *out, size_t size, bool *got);
