/*
 * console_input.c - the console's line reader (see console_input.h).
 *
 * The buffer holds at most one partial line plus whatever complete lines came with the same
 * read. Reads happen only while no whole line is buffered, so at most one overlong-line report
 * is ever pending, and the buffer cannot fill up while it holds a line ending.
 */
#define _POSIX_C_SOURCE 200809L
#include "console_input.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void line_reader_init(LineReader *r, int fd)
{
    memset(r, 0, sizeof *r);
    r->fd = fd;
}

bool line_reader_has_line(const LineReader *r)
{
    return r->long_ready || memchr(r->buf, '\n', r->len) != NULL || (r->eof && r->len > 0);
}

/* A full buffer without a line end starts an overlong line: keep its beginning for the report
 * and drop the rest up to the next line end. */
static void check_overflow(LineReader *r)
{
    if (r->len < sizeof r->buf || memchr(r->buf, '\n', r->len))
        return;
    size_t keep = sizeof r->long_start - 1;
    memcpy(r->long_start, r->buf, keep);
    r->long_start[keep] = '\0';
    r->len = 0;
    r->skipping = true;
}

/* One read() from the descriptor; the end of input or an error sets eof. */
static void fill(LineReader *r)
{
    char tmp[CONSOLE_LINE_MAX];
    char *dst = r->skipping ? tmp : r->buf + r->len;
    size_t room = r->skipping ? sizeof tmp : sizeof r->buf - r->len;
    ssize_t n = read(r->fd, dst, room);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        r->eof = true;
        if (r->skipping) { /* the overlong line ended with the input */
            r->skipping = false;
            r->long_ready = true;
        }
        return;
    }
    if (!r->skipping) {
        r->len += (size_t)n;
        check_overflow(r);
        return;
    }
    char *nl = memchr(tmp, '\n', (size_t)n);
    if (!nl)
        return;
    r->skipping = false;
    r->long_ready = true;
    size_t rest = (size_t)n - (size_t)(nl + 1 - tmp);
    memcpy(r->buf, nl + 1, rest); /* rest < sizeof buf: the buffer was empty while skipping */
    r->len = rest;
}

bool line_reader_poll(LineReader *r)
{
    while (!line_reader_has_line(r) && !r->eof) {
        struct pollfd p = {.fd = r->fd, .events = POLLIN};
        int k = poll(&p, 1, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        if (p.revents & POLLNVAL)
            r->eof = true;
        else
            fill(r);
    }
    return line_reader_has_line(r);
}

bool line_reader_wait(LineReader *r, int wake_fd)
{
    for (;;) {
        if (line_reader_has_line(r))
            return false;
        struct pollfd p[2];
        int n = 0, in = -1, wake = -1;
        if (!r->eof) {
            in = n;
            p[n++] = (struct pollfd){.fd = r->fd, .events = POLLIN};
        }
        if (wake_fd >= 0) {
            wake = n;
            p[n++] = (struct pollfd){.fd = wake_fd, .events = POLLIN};
        }
        if (n == 0)
            return false;
        int k = poll(p, (nfds_t)n, -1);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            r->eof = true; /* poll itself failed: treat the input as ended */
            return false;
        }
        if (wake >= 0 && p[wake].revents)
            return true;
        if (in >= 0 && p[in].revents) {
            if (p[in].revents & POLLNVAL)
                r->eof = true;
            else
                fill(r);
            if (r->eof)
                return false;
        }
    }
}

LineStatus line_reader_take(LineReader *r, char *out, size_t size, bool *got)
{
    *got = false;
    if (size == 0)
        return LINE_OK;
    out[0] = '\0';
    if (r->long_ready) {
        r->long_ready = false;
        *got = true;
        snprintf(out, size, "%s", r->long_start);
        return LINE_TOO_LONG;
    }
    char *nl = memchr(r->buf, '\n', r->len);
    if (!nl && !(r->eof && r->len > 0))
        return LINE_OK;
    size_t n = nl ? (size_t)(nl - r->buf) : r->len;
    size_t used = nl ? n + 1 : n;
    if (n > 0 && r->buf[n - 1] == '\r')
        n--;
    LineStatus st = LINE_OK;
    const char *nul = memchr(r->buf, '\0', n);
    if (nul) {
        n = (size_t)(nul - r->buf);
        st = LINE_NUL;
    }
    if (n >= size)
        n = size - 1;
    memcpy(out, r->buf, n);
    out[n] = '\0';
    memmove(r->buf, r->buf + used, r->len - used);
    r->len -= used;
    *got = true;
    return st;
}
