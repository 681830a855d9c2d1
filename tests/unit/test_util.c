/*
 * test_util.c - the floor under the library: util_grow, the doubling array that the book and
 * database builders (and their queues, heaps and job lists) grow through.
 */
#include "check.h"
#include "util.h"

#include <stdint.h>

/* From empty, the first growth allocates FIRST items; each later one doubles, keeping the items;
 * a request that fits changes nothing. */
static void test_grow_doubles(void)
{
    size_t cap = 0;
    int *a = util_grow(NULL, &cap, 1, sizeof *a, 4);
    CHECK(a != NULL);
    CHECK_EQ_U64(cap, 4);
    for (int i = 0; i < 4; i++)
        a[i] = i * 10;
    int *same = util_grow(a, &cap, 4, sizeof *a, 4);
    CHECK(same == a);
    CHECK_EQ_U64(cap, 4);
    a = util_grow(a, &cap, 5, sizeof *a, 4);
    CHECK(a != NULL);
    CHECK_EQ_U64(cap, 8);
    bool kept = true;
    for (int i = 0; i < 4; i++)
        kept &= a[i] == i * 10;
    CHECK(kept);
    /* Far past the capacity: doubling goes on until NEED fits (8 -> 16 -> 32 -> 64). */
    a = util_grow(a, &cap, 40, sizeof *a, 4);
    CHECK(a != NULL);
    CHECK_EQ_U64(cap, 64);
    kept = true;
    for (int i = 0; i < 4; i++)
        kept &= a[i] == i * 10;
    CHECK(kept);
    free(a);
    /* FIRST 0 starts from one item. */
    cap = 0;
    a = util_grow(NULL, &cap, 1, sizeof *a, 0);
    CHECK(a != NULL);
    CHECK_EQ_U64(cap, 1);
    free(a);
}

/* A size that would overflow is refused with the array untouched and the capacity unchanged. */
static void test_grow_overflow(void)
{
    size_t cap = 2;
    int *a = malloc(cap * sizeof *a);
    CHECK(a != NULL);
    a[0] = 7;
    int *b = util_grow(a, &cap, SIZE_MAX / 2, sizeof *a, 4);
    CHECK(b == NULL);
    CHECK_EQ_U64(cap, 2);
    CHECK(a[0] == 7);
    b = util_grow(a, &cap, SIZE_MAX, 1, 4);
    CHECK(b == NULL);
    CHECK_EQ_U64(cap, 2);
    free(a);
}

int main(void)
{
    RUN("util", test_grow_doubles);
    RUN("util", test_grow_overflow);
    return check_total_failed ? 1 : 0;
}
