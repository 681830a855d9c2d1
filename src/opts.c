/*
 * opts.c - command-line options for the front ends (see opts.h): a thin layer over glibc's
 * getopt_long that joins a program's option table with the engine options, reads those, and
 * words getopt's errors the Ponder way.
 *
 * getopt_long reports an error by returning ':' (a missing value, because the short-option
 * string starts with ':') or '?' with optopt set: 0 for an unknown or ambiguous long option, the
 * option's code for a flag given `=value', the letter for an unknown short option. The element
 * it was reading is argv[optind - 1] after a long option (it has moved past it), which is how
 * the messages below name what the user typed.
 */
#define _GNU_SOURCE
#include "opts.h"

#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The codes of the engine options: above any code a program uses. */
enum {
    CODE_HASH = 0x1000,
    CODE_THREADS,
    CODE_WEIGHTS,
    CODE_EGDB,
    CODE_EVAL,
    CODE_NET,
    CODE_BOOK,
    CODE_BOOK_VARIETY,
    CODE_CONTEMPT,
};

/* The one table of engine options: name, the OPTS_* bit that asks for it, its code, and its
 * help (the value's name, and the text, lines split by '\n'; in the --hash, --threads and
 * --contempt texts a `%' stands for the program's default, which opts_help() prints there). A
 * new engine option is a bit in opts.h, a row here and a case in engine_option(); every program
 * that asks for it then takes it, and describes it, the same way. The rows are in the order of
 * the help. */
static const struct {
    const char *name;
    unsigned bit;
    int code;
    const char *arg;  /* the value's name in the help: "MB" */
    const char *help; /* the help text */
} ENGINE_OPTIONS[] = {
    {"hash", OPTS_HASH, CODE_HASH, "MB", "transposition table size in MB (default %)"},
    {"threads", OPTS_THREADS, CODE_THREADS, "N", "search threads (default %)"},
    {"weights", OPTS_WEIGHTS, CODE_WEIGHTS, "FILE", "evaluation weights (default: built in)"},
    {"eval", OPTS_EVAL, CODE_EVAL, "E",
     "classic (the formula) or net (the network; the default when one\nis built in or given)"},
    {"net", OPTS_NET, CODE_NET, "FILE", "the network file (default: built in)"},
    {"egdb", OPTS_EGDB, CODE_EGDB, "DIR", "endgame databases"},
    {"contempt", OPTS_CONTEMPT, CODE_CONTEMPT, "N",
     "a draw counts as N hundredths of a man lost, and above 0\neach piece beyond 8 as N/5 won "
     "(default %; negative: a draw\nwon, no piece term)"},
    {"book", OPTS_BOOK, CODE_BOOK, "FILE",
     "opening book (default: the installed one, else the built-in\none; `none': no book; "
     "docs/book.md)"},
    {"book-variety", OPTS_BOOK, CODE_BOOK_VARIETY, "N",
     "any book move within N hundredths of a man of the best"},
};

void opts_begin(Opts *p, const char *prog, int argc, char **argv, const char *shortopts,
                const struct option *longopts, unsigned engine, EngineOptions *eo)
{
    memset(p, 0, sizeof *p);
    p->prog = prog;
    p->argc = argc;
    p->argv = argv;
    p->engine = eo;
    cli_set_prog(prog); /* cli_long's messages, here and in the program, name it too */
    if (snprintf(p->shortopts, sizeof p->shortopts, ":%s", shortopts) >= (int)sizeof p->shortopts)
        abort(); /* a programming error: the program's short options do not fit */
    int n = 0;
    for (; longopts && longopts[n].name; n++) {
        if (n >= OPTS_MAX - 1)
            abort();
        p->longopts[n] = longopts[n];
    }
    for (size_t i = 0; i < sizeof ENGINE_OPTIONS / sizeof ENGINE_OPTIONS[0]; i++)
        if (engine & ENGINE_OPTIONS[i].bit) {
            if (n >= OPTS_MAX - 1 || !eo)
                abort();
            p->longopts[n++] = (struct option){ENGINE_OPTIONS[i].name, required_argument, NULL,
                                               ENGINE_OPTIONS[i].code};
        }
    /* optind = 0 makes glibc start afresh (optind = 1 would keep a half-read bundle). */
    optind = 0;
    opterr = 0;
}

/* The long option whose name starts with the first LEN characters of TEXT and whose code is
 * CODE (any code when CODE is 0): an exact match, else the first; *MATCHES counts the
 * candidates. */
static const struct option *find_long(const Opts *p, const char *text, size_t len, int code,
                                      int *matches)
{
    const struct option *found = NULL;
    *matches = 0;
    for (const struct option *o = p->longopts; o->name; o++) {
        if (strncmp(o->name, text, len) != 0 || (code && o->val != code))
            continue;
        if (strlen(o->name) == len) {
            *matches = 1;
            return o;
        }
        if (!found)
            found = o;
        ++*matches;
    }
    return found;
}

/* Prints what getopt_long's answer C (':' or '?') means. */
static void complain(Opts *p, int c)
{
    const char *text = optind > 0 && optind <= p->argc ? p->argv[optind - 1] : "";
    bool is_long = strncmp(text, "--", 2) == 0 && text[2] != '\0';
    size_t len = is_long ? strcspn(text + 2, "=") : 0;
    int matches = 0;
    const struct option *o = is_long ? find_long(p, text + 2, len, optopt, &matches) : NULL;
    if (c == ':' && is_long) {
        fprintf(stderr, "%s: option `--%s' needs a value\n", p->prog, o ? o->name : text + 2);
    } else if (c == ':') {
        fprintf(stderr, "%s: option `-%c' needs a value\n", p->prog, optopt);
    } else if (optopt == 0 && is_long) {
        find_long(p, text + 2, len, 0, &matches);
        fprintf(stderr, "%s: %s option `%.*s'\n", p->prog, matches > 1 ? "ambiguous" : "unknown",
                (int)(len + 2), text);
    } else if (o && text[2 + len] == '=') {
        fprintf(stderr, "%s: option `--%s' takes no value (`%s')\n", p->prog, o->name, text);
    } else {
        fprintf(stderr, "%s: unknown option `-%c'\n", p->prog,
                optopt > 0x20 && optopt < 0x7f ? optopt : '?');
    }
}

/* Reads the engine option CODE's value VALUE. */
static bool engine_option(Opts *p, int code, const char *value)
{
    EngineOptions *eo = p->engine;
    long n;
    switch (code) {
    case CODE_HASH:
        if (!cli_long("--hash", value, ENGINE_HASH_MB_MIN, ENGINE_HASH_MB_MAX, &n))
            return false;
        eo->hash_mb = (size_t)n;
        return true;
    case CODE_THREADS:
        if (!cli_long("--threads", value, ENGINE_THREADS_MIN, ENGINE_THREADS_MAX, &n))
            return false;
        eo->threads = (int)n;
        return true;
    case CODE_WEIGHTS: eo->weights = value; return true;
    case CODE_EVAL:
        if (!engine_eval_parse(value, &eo->eval)) {
            fprintf(stderr, "%s: --eval must be `classic' or `net', not `%s'\n", p->prog, value);
            return false;
        }
        return true;
    case CODE_NET: eo->net = value; return true;
    case CODE_BOOK: /* a file, or `none': no book at all (not even the built-in one) */
        eo->book = strcmp(value, "none") == 0 ? NULL : value;
        eo->book_builtin = false;
        return true;
    case CODE_BOOK_VARIETY:
        if (!cli_long("--book-variety", value, ENGINE_BOOK_VARIETY_MIN, ENGINE_BOOK_VARIETY_MAX,
                      &n))
            return false;
        eo->book_variety = (int)n;
        return true;
    case CODE_CONTEMPT:
        if (!cli_long("--contempt", value, ENGINE_CONTEMPT_MIN, ENGINE_CONTEMPT_MAX, &n))
            return false;
        eo->contempt = (int)n;
        return true;
    default: /* CODE_EGDB */ eo->egdb_dir = value; return true;
    }
}

int opts_next(Opts *p)
{
    for (;;) {
        int c = getopt_long(p->argc, p->argv, p->shortopts, p->longopts, NULL);
        if (c == -1)
            return OPTS_END;
        if (c == ':' || c == '?') {
            complain(p, c);
            return OPTS_BAD;
        }
        if (c < CODE_HASH || c > CODE_CONTEMPT)
            return c;
        if (!engine_option(p, c, optarg))
            return OPTS_BAD;
    }
}

void opts_see_help(const char *prog)
{
    fprintf(stderr, "see `%s --help'\n", prog);
}

void opts_help(FILE *f, unsigned engine, const EngineOptions *defaults, int indent, int column)
{
    EngineOptions engine_defaults;
    if (!defaults) {
        engine_default_options(&engine_defaults);
        defaults = &engine_defaults;
    }
    for (size_t i = 0; i < sizeof ENGINE_OPTIONS / sizeof ENGINE_OPTIONS[0]; i++) {
        if (!(engine & ENGINE_OPTIONS[i].bit))
            continue;
        int at =
            fprintf(f, "%*s--%s %s", indent, "", ENGINE_OPTIONS[i].name, ENGINE_OPTIONS[i].arg);
        /* The text at COLUMN, or two spaces after a name that reaches it. */
        fprintf(f, "%*s", at < column ? column - at : 2, "");
        for (const char *c = ENGINE_OPTIONS[i].help; *c; c++) {
            if (*c == '\n')
                fprintf(f, "\n%*s", column, "");
            else if (*c == '%' && ENGINE_OPTIONS[i].code == CODE_HASH)
                fprintf(f, "%zu", defaults->hash_mb);
            else if (*c == '%' && ENGINE_OPTIONS[i].code == CODE_THREADS)
                fprintf(f, "%d", defaults->threads);
            else if (*c == '%' && ENGINE_OPTIONS[i].code == CODE_CONTEMPT)
                fprintf(f, "%d", defaults->contempt);
            else
                fputc(*c, f);
        }
        fputc('\n', f);
    }
}
