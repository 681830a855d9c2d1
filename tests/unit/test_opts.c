/*
 * test_opts.c - the option reader every program uses (opts.c): both spellings of a value,
 * bundled short options, abbreviations, `--', arguments left in order after the options, the
 * engine options and their limits, each kind of error with its message, a fresh start for
 * every parser run in one process (even after a half-read bundle), and the engine options' help
 * lines (opts_help).
 */
#define _GNU_SOURCE
#include "check.h"
#include "opts.h"

#include <unistd.h>

enum { OPT_DEPTH = OPTS_LONG, OPT_FLAG, OPT_DELTA };

static const struct option LONGOPTS[] = {
    {"help", no_argument, NULL, 'h'},
    {"quiet", no_argument, NULL, 'q'},
    {"concurrency", required_argument, NULL, 'j'},
    {"depth", required_argument, NULL, OPT_DEPTH},
    {"delta", required_argument, NULL, OPT_DELTA},
    {"flag", no_argument, NULL, OPT_FLAG},
    {0},
};

#define ARGC(a) ((int)(sizeof(a) / sizeof(a)[0]))

static void test_forms(void)
{
    char *argv[] = {"prog",        "--depth=5",       "-qj3",   "pos1", "--hash", "8",
                    "--threads=2", "--weights=w.txt", "--egdb", "dir",  "--conc", "4",
                    "--",          "--flag"};
    EngineOptions eo;
    engine_default_options(&eo);
    Opts p;
    opts_begin(&p, "prog", ARGC(argv), argv, "hqj:", LONGOPTS, OPTS_ENGINE, &eo);
    CHECK(opts_next(&p) == OPT_DEPTH);
    CHECK_STR(optarg, "5");
    CHECK(opts_next(&p) == 'q');
    CHECK(opts_next(&p) == 'j');
    CHECK_STR(optarg, "3");
    CHECK(opts_next(&p) == 'j'); /* --conc: an abbreviation of --concurrency */
    CHECK_STR(optarg, "4");
    CHECK(opts_next(&p) == OPTS_END);
    CHECK(eo.hash_mb == 8 && eo.threads == 2);
    CHECK_STR(eo.weights, "w.txt");
    CHECK_STR(eo.egdb_dir, "dir");
    /* The arguments, in order, after the options; `--' made --flag one of them. */
    CHECK(optind == ARGC(argv) - 2);
    CHECK_STR(argv[optind], "pos1");
    CHECK_STR(argv[optind + 1], "--flag");
}

/* A second parser in the same process starts afresh, even though the first stopped in the
 * middle of a bundle. */
static void test_reset(void)
{
    char *first[] = {"prog", "-qqq"};
    Opts p;
    opts_begin(&p, "prog", ARGC(first), first, "hqj:", LONGOPTS, 0, NULL);
    CHECK(opts_next(&p) == 'q');
    char *second[] = {"prog", "-j7", "x"};
    opts_begin(&p, "prog", ARGC(second), second, "hqj:", LONGOPTS, 0, NULL);
    CHECK(opts_next(&p) == 'j');
    CHECK_STR(optarg, "7");
    CHECK(opts_next(&p) == OPTS_END);
    CHECK(optind == 2);
}

/* Runs one parse of ARGV (ENGINE options into a default EngineOptions) to its end or its first
 * error; returns the last answer and leaves what went to stderr in MSG. */
static int parse(char **argv, int argc, unsigned engine, char *msg, size_t size)
{
    EngineOptions eo;
    engine_default_options(&eo);
    fflush(stderr);
    int saved = dup(2);
    FILE *tmp = tmpfile();
    if (saved < 0 || !tmp)
        return -100;
    dup2(fileno(tmp), 2);
    Opts p;
    opts_begin(&p, "prog", argc, argv, "hqj:", LONGOPTS, engine, &eo);
    int c;
    while ((c = opts_next(&p)) != OPTS_END && c != OPTS_BAD)
        ;
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(msg, 1, size - 1, tmp);
    msg[n] = '\0';
    fclose(tmp);
    return c;
}

#define EXPECT_ERROR(engine, text, ...)                                                            \
    do {                                                                                           \
        char *argv[] = {"prog", __VA_ARGS__};                                                      \
        char msg[512];                                                                             \
        CHECK(parse(argv, ARGC(argv), engine, msg, sizeof msg) == OPTS_BAD);                       \
        if (!strstr(msg, text)) {                                                                  \
            printf("  message `%s' lacks `%s'\n", msg, text);                                      \
            check_failed++;                                                                        \
        }                                                                                          \
    } while (0)

static void test_errors(void)
{
    EXPECT_ERROR(0, "prog: unknown option `--nope'", "--nope=3");
    EXPECT_ERROR(0, "prog: option `--depth' needs a value", "--depth");
    EXPECT_ERROR(0, "prog: option `--depth' needs a value", "--dep");
    EXPECT_ERROR(0, "prog: option `-j' needs a value", "-qj");
    EXPECT_ERROR(0, "prog: option `--flag' takes no value", "--flag=1");
    EXPECT_ERROR(0, "prog: unknown option `-x'", "-qxq");
    EXPECT_ERROR(0, "prog: ambiguous option `--de'", "--de", "1");
    /* Engine options exist only where asked for, and keep to the engine's limits. */
    EXPECT_ERROR(OPTS_HASH, "prog: unknown option `--threads'", "--threads", "2");
    EXPECT_ERROR(OPTS_HASH, "--hash: `65537' is not a whole number from 1 to 65536",
                 "--hash=65537");
    EXPECT_ERROR(OPTS_HASH, "--hash: `0' is not a whole number", "--hash", "0");
    EXPECT_ERROR(OPTS_THREADS, "--threads: `257' is not a whole number from 1 to 256",
                 "--threads=257");
    EXPECT_ERROR(OPTS_THREADS, "--threads: `two' is not a whole number", "--threads", "two");
    EXPECT_ERROR(OPTS_ENGINE, "prog: option `--weights' needs a value", "--weights");
}

static void test_limits(void)
{
    char msg[512];
    char *ok[] = {"prog", "--hash=65536", "--threads=256"};
    CHECK(parse(ok, ARGC(ok), OPTS_ENGINE, msg, sizeof msg) == OPTS_END);
    CHECK_STR(msg, "");
    CHECK(ENGINE_HASH_MB_MAX == 65536 && ENGINE_THREADS_MAX == 256);
}

/* Each engine option lands in its own field. */
static void test_engine_fields(void)
{
    char *args[] = {"prog", "--eval=classic", "--net", "n.pnet", "--egdb=d", "--weights", "w"};
    EngineOptions eo;
    engine_default_options(&eo);
    Opts p;
    opts_begin(&p, "prog", ARGC(args), args, "h", LONGOPTS, OPTS_ENGINE, &eo);
    CHECK(opts_next(&p) == OPTS_END);
    CHECK(eo.eval == ENGINE_EVAL_CLASSIC);
    CHECK_STR(eo.net, "n.pnet");
    CHECK_STR(eo.egdb_dir, "d");
    CHECK_STR(eo.weights, "w");
    EXPECT_ERROR(OPTS_EVAL, "prog: --eval must be `classic' or `net', not `neural'",
                 "--eval=neural");
    EXPECT_ERROR(OPTS_HASH, "prog: unknown option `--net'", "--net", "x");
}

/* opts_help's lines for the engine options BITS at INDENT and COLUMN, into BUF. */
static void help(unsigned bits, const EngineOptions *defaults, int indent, int column, char *buf,
                 size_t size)
{
    memset(buf, 0, size);
    FILE *f = fmemopen(buf, size, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    opts_help(f, bits, defaults, indent, column);
    fclose(f);
}

/* The help lines: exactly the options asked for, in the table's order, names at INDENT, texts
 * at COLUMN (further lines too), two spaces after a longer name, the program's defaults. */
static void test_help(void)
{
    char buf[2048];
    help(OPTS_HASH | OPTS_NET | OPTS_THREADS, NULL, 2, 16, buf, sizeof buf);
    CHECK_STR(buf, "  --hash MB     transposition table size in MB (default 64)\n"
                   "  --threads N   search threads (default 1)\n"
                   "  --net FILE    the network file (default: built in)\n");
    EngineOptions d;
    engine_default_options(&d);
    d.hash_mb = 16;
    d.threads = 3;
    help(OPTS_HASH | OPTS_THREADS | OPTS_EVAL, &d, 4, 15, buf, sizeof buf);
    CHECK_STR(buf,
              "    --hash MB  transposition table size in MB (default 16)\n"
              "    --threads N  search threads (default 3)\n"
              "    --eval E   classic (the formula) or net (the network; the default when one\n"
              "               is built in or given)\n");
    help(OPTS_BOOK, NULL, 2, 18, buf, sizeof buf);
    CHECK_STR(buf, "  --book FILE     opening book (default: the installed one, else the built-in\n"
                   "                  one; `none': no book; docs/book.md)\n"
                   "  --book-variety N  any book move within N hundredths of a man of the best\n");
    help(0, NULL, 2, 18, buf, sizeof buf);
    CHECK_STR(buf, "");
    /* Every engine option has a line. */
    help(OPTS_ENGINE | OPTS_BOOK, NULL, 2, 18, buf, sizeof buf);
    const char *names[] = {"--hash MB ",   "--threads N ",      "--weights FILE ",
                           "--eval E ",    "--net FILE ",       "--egdb DIR ",
                           "--book FILE ", "--book-variety N ", "--contempt N "};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        CHECK(strstr(buf, names[i]) != NULL);
}

int main(void)
{
    RUN("opts", test_forms);
    RUN("opts", test_reset);
    RUN("opts", test_errors);
    RUN("opts", test_limits);
    RUN("opts", test_engine_fields);
    RUN("opts", test_help);
    return check_total_failed ? 1 : 0;
}
