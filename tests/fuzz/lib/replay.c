/*
 * replay.c - the fuzz harnesses without libFuzzer: runs saved inputs through them once each.
 *
 *   test_fuzz                     every harness over tests/fuzz/corpus/NAME/ and
 *                                 tests/fuzz/regress/NAME/ (what `make test' runs)
 *   test_fuzz NAME PATH...        harness NAME over the files PATH (directories: every file in
 *                                 them), e.g. to replay a crash libFuzzer saved
 *
 * mk/fuzz.mk compiles each harness tests/fuzz/NAME.c with its two entry points renamed
 * fuzz_init_NAME and fuzz_one_NAME, and passes the list of names as FUZZ_HARNESSES, a list of
 * X(NAME). Prints one PASS line per harness, or a FAIL line naming the input that crashed (a
 * signal, a sanitizer report, a FUZZ_CHECK) or ran longer than FUZZ_REPLAY_TIMEOUT seconds
 * (default 60); a crash ends the program at once, with a non-zero status.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

#define X(name)                                                                                    \
    int fuzz_init_##name(int *argc, char ***argv);                                                 \
    int fuzz_one_##name(const uint8_t *data, size_t size);
FUZZ_HARNESSES
#undef X

typedef struct {
    const char *name;                          /* the harness, as in tests/fuzz/NAME.c */
    int (*init)(int *argc, char ***argv);      /* LLVMFuzzerInitialize */
    int (*one)(const uint8_t *data, size_t n); /* LLVMFuzzerTestOneInput */
} Harness;

static const Harness HARNESSES[] = {
#define X(name) {#name, fuzz_init_##name, fuzz_one_##name},
    FUZZ_HARNESSES
#undef X
};
enum { HARNESS_NB = sizeof HARNESSES / sizeof HARNESSES[0] };

static int report_fd = -1;          /* the original stdout: harnesses may silence fd 1 */
static const char *current_harness; /* what is running, for the crash message */
static const char *current_file;
static unsigned timeout_seconds = 60;

/* Writes S to the report descriptor (async-signal-safe). */
static void report(const char *s)
{
    size_t n = strlen(s);
    while (n > 0) {
        ssize_t w = write(report_fd, s, n);
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

/* The FAIL line for the input under way (async-signal-safe). */
static void report_current(const char *why)
{
    report("FAIL fuzz ");
    report(current_harness ? current_harness : "?");
    report(" ");
    report(current_file ? current_file : "?");
    report(": ");
    report(why);
    report("\n");
}

static void on_signal(int sig)
{
    if (sig == SIGALRM)
        report_current("still running after the time limit (a hang)");
    else if (sig == SIGABRT)
        report_current("aborted (a failed check or assertion)");
    else
        report_current(sig == SIGSEGV ? "segmentation fault" : "killed by a signal");
    _exit(1);
}

#if defined(__SANITIZE_ADDRESS__)
static void on_sanitizer_death(void)
{
    report_current("sanitizer error (report above)");
}
#endif

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads PATH whole into a malloc'd buffer (*SIZE bytes). NULL on failure. */
static uint8_t *read_whole(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        uint8_t *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *size = n;
    return buf;
}

/* Runs harness H over one file. Returns false (having said why) if it cannot be read. */
static bool replay_file(const Harness *h, const char *path)
{
    size_t size = 0;
    uint8_t *data = read_whole(path, &size);
    if (!data) {
        char msg[600];
        snprintf(msg, sizeof msg, "FAIL fuzz %s %s: cannot read it: %s\n", h->name, path,
                 strerror(errno));
        report(msg);
        return false;
    }
    current_file = path;
    alarm(timeout_seconds);
    h->one(data, size);
    alarm(0);
    current_file = NULL;
    free(data);
    return true;
}

/* Runs harness H over every file of directory DIR (in name order), or over DIR itself when it
 * is a file. Adds the inputs run to *COUNT; false if something could not be read. */
static bool replay_path(const Harness *h, const char *dir, int *count, bool missing_ok)
{
    DIR *d = opendir(dir);
    if (!d) {
        if (errno == ENOTDIR) {
            (*count)++;
            return replay_file(h, dir);
        }
        if (errno == ENOENT && missing_ok)
            return true;
        char msg[600];
        snprintf(msg, sizeof msg, "FAIL fuzz %s %s: %s\n", h->name, dir, strerror(errno));
        report(msg);
        return false;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **bigger = realloc(names, cap * sizeof *names);
            if (!bigger)
                abort();
            names = bigger;
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        if (!(names[n] = malloc(len)))
            abort();
        snprintf(names[n], len, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, compare_names);
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        if (ok && !replay_file(h, names[i]))
            ok = false;
        free(names[i]);
    }
    free(names);
    *count += (int)n;
    return ok;
}

static const Harness *find_harness(const char *name)
{
    for (int i = 0; i < HARNESS_NB; i++)
        if (strcmp(HARNESSES[i].name, name) == 0)
            return &HARNESSES[i];
    return NULL;
}

/* Calls H's initialisation with an argv like libFuzzer's. */
static void start_harness(const Harness *h, char *argv0)
{
    char *args[] = {argv0, NULL};
    int argc = 1;
    char **argv = args;
    current_harness = h->name;
    h->init(&argc, &argv);
}

int main(int argc, char **argv)
{
    report_fd = dup(STDOUT_FILENO);
    if (report_fd < 0)
        return 1;
    const char *t = getenv("FUZZ_REPLAY_TIMEOUT");
    if (t && atoi(t) > 0)
        timeout_seconds = (unsigned)atoi(t);
    signal(SIGALRM, on_signal);
    signal(SIGABRT, on_signal);
    signal(SIGPIPE, SIG_IGN);
#if defined(__SANITIZE_ADDRESS__)
    /* ASan reports a bad access itself, with the stack: just name the input after it. */
    __sanitizer_set_death_callback(on_sanitizer_death);
#else
    signal(SIGSEGV, on_signal);
    signal(SIGBUS, on_signal);
    signal(SIGFPE, on_signal);
#endif

    if (argc >= 2) {
        const Harness *h = find_harness(argv[1]);
        if (!h || argc < 3) {
            fprintf(stderr, "usage: %s [NAME PATH...]\nharnesses:", argv[0]);
            for (int i = 0; i < HARNESS_NB; i++)
                fprintf(stderr, " %s", HARNESSES[i].name);
            fputc('\n', stderr);
            return 2;
        }
        start_harness(h, argv[0]);
        int count = 0;
        bool ok = true;
        for (int i = 2; i < argc; i++)
            ok = replay_path(h, argv[i], &count, false) && ok;
        char msg[200];
        snprintf(msg, sizeof msg, "%s fuzz %s: %d inputs\n", ok ? "PASS" : "FAIL", h->name, count);
        report(msg);
        return ok ? 0 : 1;
    }

    int failed = 0;
    for (int i = 0; i < HARNESS_NB; i++) {
        const Harness *h = &HARNESSES[i];
        char corpus[256], regress[256], msg[300];
        snprintf(corpus, sizeof corpus, "tests/fuzz/corpus/%s", h->name);
        snprintf(regress, sizeof regress, "tests/fuzz/regress/%s", h->name);
        start_harness(h, argv[0]);
        int seeds = 0, regressions = 0;
        bool ok = replay_path(h, corpus, &seeds, false);
        ok = replay_path(h, regress, &regressions, true) && ok;
        if (ok && seeds == 0) {
            snprintf(msg, sizeof msg, "FAIL fuzz %s: the corpus %s is empty\n", h->name, corpus);
            ok = false;
        } else
            snprintf(msg, sizeof msg, "%s fuzz %s: %d corpus and %d regression inputs\n",
                     ok ? "PASS" : "FAIL", h->name, seeds, regressions);
        report(msg);
        failed += !ok;
    }
    return failed ? 1 : 0;
}
