/*
 * check.h - the unit-test harness: a test is a function, CHECK records a failure with its place
 * and keeps going, RUN prints `PASS name' or `FAIL name' for tests/run.sh to count.
 */
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failed; /* failures in the test now running */
static int check_total_failed;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf("  %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                      \
            check_failed++;                                                                        \
        }                                                                                          \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                                         \
    do {                                                                                           \
        unsigned long long check_a = (a), check_b = (b);                                           \
        if (check_a != check_b) {                                                                  \
            printf("  %s:%d: %s == %llu, expected %llu\n", __FILE__, __LINE__, #a, check_a,        \
                   check_b);                                                                       \
            check_failed++;                                                                        \
        }                                                                                          \
    } while (0)

#define CHECK_STR(a, b)                                                                            \
    do {                                                                                           \
        const char *check_a = (a), *check_b = (b);                                                 \
        if (strcmp(check_a, check_b) != 0) {                                                       \
            printf("  %s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, check_a,    \
                   check_b);                                                                       \
            check_failed++;                                                                        \
        }                                                                                          \
    } while (0)

#define RUN(suite, fn)                                                                             \
    do {                                                                                           \
        check_failed = 0;                                                                          \
        fn();                                                                                      \
        printf("%s %s/%s\n", check_failed ? "FAIL" : "PASS", suite, #fn);                          \
        fflush(stdout);                                                                            \
        if (check_failed)                                                                          \
            check_total_failed++;                                                                  \
    } while (0)

/* Where the test data lives: $PONDER_DATA or tests/data. */
static inline const char *check_data_dir(void)
{
    const char *d = getenv("PONDER_DATA");
    return d ? d : "tests/data";
}
