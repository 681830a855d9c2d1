/*
 * version.c - `ponder version` and `ponder --version`: which program this is and how it was
 * built, for a bug report or to tell two binaries apart.
 *
 * The version is the project's number and the git commit it was built from (`git describe',
 * with `-dirty' for uncommitted changes; the Makefile passes it as PONDER_GIT and rebuilds this
 * file when it changes). The compiler is the one that compiled this file, the flags the build
 * variant's (PONDER_CFLAGS, also from the Makefile). The CPU features are the instruction-set
 * extensions the compiler was allowed to use (-march), which the code relies on where it matters
 * (BMI2's pdep/pext in bitboard.h, popcount), beside what this machine's CPU offers. The
 * built-in network is named with its shape (the default evaluation, docs/nnue.md).
 */
#include "command.h"
#include "nnue.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#ifndef PONDER_GIT
#define PONDER_GIT "unknown commit"
#endif
#ifndef PONDER_CFLAGS
#define PONDER_CFLAGS "unknown"
#endif

typedef struct {
    const char *name; /* as the compilers and /proc/cpuinfo spell it */
    bool compiled;    /* the compiler could use it in this build */
    bool present;     /* this machine's CPU has it */
} CpuFeature;

/* The x86 extensions that matter to this code, whether compiled in and whether present. Returns
 * how many were filled into OUT (0 on other architectures). */
static int cpu_features(CpuFeature *out)
{
    int n = 0;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
#define FEATURE(NAME, MACRO_ON)                                                                    \
    out[n++] = (CpuFeature){NAME, MACRO_ON, __builtin_cpu_supports(NAME) != 0};
#ifdef __POPCNT__
    FEATURE("popcnt", true)
#else
    FEATURE("popcnt", false)
#endif
#ifdef __BMI__
    FEATURE("bmi", true)
#else
    FEATURE("bmi", false)
#endif
#ifdef __BMI2__
    FEATURE("bmi2", true)
#else
    FEATURE("bmi2", false)
#endif
#ifdef __AVX2__
    FEATURE("avx2", true)
#else
    FEATURE("avx2", false)
#endif
#ifdef __AVX512BW__
    FEATURE("avx512bw", true)
#else
    FEATURE("avx512bw", false)
#endif
#ifdef __AVX512VNNI__
    FEATURE("avx512vnni", true)
#else
    FEATURE("avx512vnni", false)
#endif
#undef FEATURE
#else
    (void)out;
#endif
    return n;
}

/* The network built in (data/nets/default.pnet at build time): its name and shape, the first
 * thing to ask about when two builds play differently. */
static void print_network(void)
{
    if (!nnue_has_default()) {
        printf("built-in network: none (the default evaluation is the classic formula)\n");
        return;
    }
    char what[ERR_LEN + 64];
    nnue_describe_default(what, sizeof what);
    printf("built-in network: %s\n", what);
}

static void print_version(void)
{
    printf("ponder %s (%s)\n", PONDER_VERSION, PONDER_GIT);
#if defined(__clang__)
    printf("compiler: clang %d.%d.%d\n", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
    printf("compiler: gcc %s\n", __VERSION__);
#else
    printf("compiler: unknown C11 compiler\n");
#endif
    printf("flags: %s\n", PONDER_CFLAGS);
#ifdef PONDER_CHECKED
    printf("checks: on (PONDER_CHECKED: the engine checks its own state as it goes)\n");
#endif
    printf("network evaluation: %s\n", nnue_simd());
    print_network();
    CpuFeature f[8];
    int n = cpu_features(f);
    if (n == 0) {
        printf("CPU features: none used beyond the architecture's base\n");
        return;
    }
    printf("CPU features used:");
    int used = 0;
    for (int i = 0; i < n; i++)
        if (f[i].compiled) {
            printf(" %s", f[i].name);
            used++;
        }
    printf("%s\n", used ? "" : " none (a generic build)");
    printf("this CPU also has:");
    int extra = 0;
    for (int i = 0; i < n; i++)
        if (!f[i].compiled && f[i].present) {
            printf(" %s", f[i].name);
            extra++;
        }
    printf("%s\n", extra
                       ? " (not compiled in, apart from the network's run-time path above: rebuild "
                         "with ARCH=-march=native)"
                       : " nothing more");
}

static int cmd_version(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: ponder version   (or ponder --version)\n\n"
                   "Prints the version and the git commit of this build, the compiler and its\n"
                   "flags, the built-in network, and the CPU features the build uses.\n");
            return 0;
        }
        fprintf(stderr, "ponder version: unexpected argument `%s'\n", argv[i]);
        return 2;
    }
    print_version();
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

PONDER_COMMAND("version", cmd_version, 99, "the version, compiler and CPU features of this build")
