/*
 * cli.c - option parsing and the default database directory for the front ends (see cli.h).
 *
 * The parsing itself is util.c's; this file adds the front ends' convention of saying what was
 * wrong on stderr, prefixed by the program and the option. The program's name is the one
 * cli_set_prog() was last given (main() gives "ponder CMD", opts_begin() the name the program
 * reads its options under), like getopt's own state: one per process, set before parsing.
 */
#include "cli.h"

#include "egdb_hook.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Big enough for any message of util_parse_* about an argument of a reasonable length. */
enum { CLI_MSG_LEN = 1024 };

static const char *cli_prog = "ponder"; /* names the program in the messages below */

void cli_set_prog(const char *prog)
{
    cli_prog = prog && *prog ? prog : "ponder";
}

bool cli_long(const char *option, const char *text, long min, long max, long *out)
{
    char msg[CLI_MSG_LEN];
    if (util_parse_long(text, min, max, out, msg, sizeof msg))
        return true;
    fprintf(stderr, "%s: %s: %s\n", cli_prog, option, msg);
    return false;
}

bool cli_double(const char *option, const char *text, double min, double max, double *out)
{
    char msg[CLI_MSG_LEN];
    if (util_parse_double(text, min, max, out, msg, sizeof msg))
        return true;
    fprintf(stderr, "%s: %s: %s\n", cli_prog, option, msg);
    return false;
}

bool cli_word(const char *option, const char *text, const char *const *words, int n, int *out)
{
    for (int i = 0; i < n; i++)
        if (strcmp(text, words[i]) == 0) {
            *out = i;
            return true;
        }
    fprintf(stderr, "%s: %s: `%.60s' is %s", cli_prog, option, text,
            n == 2 ? "neither " : "none of ");
    for (int i = 0; i < n; i++)
        fprintf(stderr, "%s%s", i == 0 ? "" : n == 2 ? " nor " : ", ", words[i]);
    fputc('\n', stderr);
    return false;
}

bool cli_shard(const char *option, const char *text, long *shard, long *shards)
{
    const char *slash = strchr(text, '/');
    char first[32];
    if (!slash || (size_t)(slash - text) >= sizeof first) {
        fprintf(stderr, "%s: %s wants I/N (e.g. 2/8), not `%s'\n", cli_prog, option, text);
        return false;
    }
    memcpy(first, text, (size_t)(slash - text));
    first[slash - text] = '\0';
    char what[64];
    snprintf(what, sizeof what, "%s (N)", option);
    if (!cli_long(what, slash + 1, 1, 1000000, shards))
        return false;
    snprintf(what, sizeof what, "%s (I)", option);
    if (!cli_long(what, first, 1, 1000000, shard))
        return false;
    if (*shard > *shards) {
        fprintf(stderr, "%s: %s %s: I must be between 1 and N\n", cli_prog, option, text);
        return false;
    }
    return true;
}

void cli_catch_stop(CliStop *s, void (*handler)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &s->old_int);
    sigaction(SIGTERM, &sa, &s->old_term);
    s->caught = true;
}

void cli_release_stop(CliStop *s)
{
    if (!s->caught)
        return;
    sigaction(SIGINT, &s->old_int, NULL);
    sigaction(SIGTERM, &s->old_term, NULL);
    s->caught = false;
}

int cli_job_end(const char *prog, int interrupted, const char *done, bool complete, const char *err,
                const char *path, bool written, const char *msg)
{
    if (interrupted) {
        fprintf(stderr, "\n%s: interrupted after %s; nothing written\n", prog, done);
        return 128 + interrupted;
    }
    if (!complete) {
        fprintf(stderr, "\n%s: %s: %s\n", prog, path, err[0] ? err : "failed");
        return 1;
    }
    if (!written) {
        fprintf(stderr, "\n%s: %s\n", prog, msg);
        return 1;
    }
    return 0;
}

const char *cli_egdb_dir(char *buf, size_t size)
{
    const char *env = getenv("PONDER_EGDB");
    if (env && strcmp(env, "none") == 0)
        snprintf(buf, size, "%s", "");
    else if (env && *env)
        snprintf(buf, size, "%s", env);
    else if ((env = getenv("XDG_DATA_HOME")) && *env)
        snprintf(buf, size, "%s/ponder/egdb", env);
    else if ((env = getenv("HOME")) && *env)
        snprintf(buf, size, "%s/.local/share/ponder/egdb", env);
    else
        snprintf(buf, size, "egdb");
    return buf;
}

void cli_engine_book(EngineOptions *eo, char *buf, size_t size)
{
    const char *env = getenv("PONDER_BOOK");
    eo->book = NULL;
    eo->book_builtin = false;
    if (env && strcmp(env, "none") == 0)
        return;
    if (env && *env) {
        snprintf(buf, size, "%s", env);
        eo->book = buf;
        return;
    }
    if ((env = getenv("XDG_DATA_HOME")) && *env)
        snprintf(buf, size, "%s/ponder/book.pbk", env);
    else if ((env = getenv("HOME")) && *env)
        snprintf(buf, size, "%s/.local/share/ponder/book.pbk", env);
    else
        buf[0] = '\0';
    if (buf[0] && access(buf, R_OK) == 0)
        eo->book = buf;
    else
        eo->book_builtin = true;
}

const char *cli_engine_egdb(char *buf, size_t size)
{
    const EgdbDriver *d = egdb_hook_driver();
    if (!d || !d->holds || !cli_egdb_dir(buf, size)[0] || !d->holds(buf))
        return NULL;
    return buf;
}
