/*
 * test_util.c - the floor under the library: util_grow, the doubling array that the book and
 * database builders (and their queues, heaps and job lists) grow through; the atomic file writer
 * and the binary reader that the book, network, checkpoint and weights files go through; FNV-1a.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "util.h"

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/ponder-util-XXXXXX";

/* How many entries of DIR (besides . and ..) there are. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

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

/* util_write_file replaces the file whole and leaves no temporary file; util_read_bytes reads
 * it back, NUL bytes and all, and refuses a file over its cap or a missing one with the reason. */
static void test_write_and_read(void)
{
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/f.bin", tmpdir);
    const unsigned char one[5] = {'a', 0, 'b', 0, 0xff};
    CHECK(util_write_file(path, one, sizeof one, err, sizeof err));
    CHECK(util_write_file(path, "xyz", 3, err, sizeof err));
    size_t len = 0;
    unsigned char *got = util_read_bytes(path, 100, &len, err, sizeof err);
    CHECK(got != NULL && len == 3 && memcmp(got, "xyz", 3) == 0);
    free(got);
    CHECK(util_write_file(path, one, sizeof one, err, sizeof err));
    got = util_read_bytes(path, 100, &len, err, sizeof err);
    CHECK(got != NULL && len == sizeof one && memcmp(got, one, sizeof one) == 0);
    free(got);
    CHECK(entries(tmpdir) == 1);
    CHECK(util_read_bytes(path, 4, &len, err, sizeof err) == NULL);
    CHECK(strstr(err, "larger than 4 bytes") != NULL);
    /* The text reader refuses the NUL byte that the binary one keeps. */
    CHECK(util_read_file(path, 100, &len, err, sizeof err) == NULL && strstr(err, "NUL byte"));
    char missing[600];
    snprintf(missing, sizeof missing, "%s/none", tmpdir);
    CHECK(util_read_bytes(missing, 100, &len, err, sizeof err) == NULL);
    CHECK(strstr(err, "cannot open") != NULL);
    remove(path);
}

/* A write into a missing directory fails with the name in the message; a commit told that the
 * writing failed removes the temporary file and keeps the old one. */
static void test_write_failures(void)
{
    char path[512], err[256], tmp[600];
    snprintf(path, sizeof path, "%s/no-such-dir/f.bin", tmpdir);
    CHECK(!util_write_file(path, "x", 1, err, sizeof err));
    CHECK(strstr(err, "cannot create") == err && strstr(err, "no-such-dir/f.bin.tmp"));
    snprintf(path, sizeof path, "%s/keep.txt", tmpdir);
    CHECK(util_write_file(path, "old", 3, err, sizeof err));
    FILE *f = util_temp_open(path, tmp, sizeof tmp, err, sizeof err);
    CHECK(f != NULL);
    if (f) {
        fputs("half of the new", f);
        CHECK(!util_temp_commit(f, tmp, path, false, err, sizeof err));
        CHECK(strstr(err, "cannot write") == err);
    }
    size_t len = 0;
    char *got = util_read_file(path, 100, &len, err, sizeof err);
    CHECK(got != NULL && strcmp(got, "old") == 0);
    free(got);
    CHECK(entries(tmpdir) == 1);
    remove(path);
}

/* FNV-1a's published check values (32-bit offset basis 2166136261, prime 16777619), and a
 * checksum taken in two pieces equals the checksum of the whole. */
static void test_fnv1a(void)
{
    CHECK_EQ_U64(util_fnv1a("", 0, UTIL_FNV_BASIS), 0x811c9dc5u);
    CHECK_EQ_U64(util_fnv1a("a", 1, UTIL_FNV_BASIS), 0xe40c292cu);
    CHECK_EQ_U64(util_fnv1a("foobar", 6, UTIL_FNV_BASIS), 0xbf9cf968u);
    CHECK_EQ_U64(util_fnv1a("bar", 3, util_fnv1a("foo", 3, UTIL_FNV_BASIS)), 0xbf9cf968u);
}

/* The 64-bit FNV-1a's published check values (offset basis 14695981039346656037, prime
 * 1099511628211): the endgame database files written before it moved to util carry them. */
static void test_fnv1a64(void)
{
    CHECK_EQ_U64(util_fnv1a64("", 0, UTIL_FNV64_BASIS), 0xcbf29ce484222325ull);
    CHECK_EQ_U64(util_fnv1a64("a", 1, UTIL_FNV64_BASIS), 0xaf63dc4c8601ec8cull);
    CHECK_EQ_U64(util_fnv1a64("foobar", 6, UTIL_FNV64_BASIS), 0x85944171f73967e8ull);
    CHECK_EQ_U64(util_fnv1a64("bar", 3, util_fnv1a64("foo", 3, UTIL_FNV64_BASIS)),
                 0x85944171f73967e8ull);
}

/* Little-endian byte access: the least significant byte first, signed fields by their pattern,
 * and every width reads back what it wrote. */
static void test_little_endian(void)
{
    uint8_t b[8];
    util_put_u16(b, 0x1234);
    CHECK(b[0] == 0x34 && b[1] == 0x12);
    util_put_u32(b, 0x89ABCDEFu);
    CHECK(b[0] == 0xEF && b[1] == 0xCD && b[2] == 0xAB && b[3] == 0x89);
    util_put_u64(b, 0x0102030405060708ull);
    for (int i = 0; i < 8; i++)
        CHECK(b[i] == 8 - i);
    CHECK_EQ_U64(util_get_u64(b), 0x0102030405060708ull);
    CHECK_EQ_U64(util_get_u32(b + 4), 0x01020304u);
    CHECK_EQ_U64(util_get_u16(b + 6), 0x0102u);
    util_put_u16(b, (uint16_t)(int16_t)-2);
    CHECK(b[0] == 0xFE && b[1] == 0xFF && (int16_t)util_get_u16(b) == -2);
    util_put_u32(b, (uint32_t)(int32_t)-70000);
    CHECK((int32_t)util_get_u32(b) == -70000);
    util_put_u32(b, 0xFFFFFFFFu);
    CHECK_EQ_U64(util_get_u32(b), 0xFFFFFFFFu);
}

/* util_parse_whole: the digits alone, as util_parse_long reads them; no blank or '+' first. */
static void test_parse_whole(void)
{
    long v = 7;
    char err[160];
    CHECK(util_parse_whole("16", 1, 65536, &v, err, sizeof err) && v == 16);
    CHECK(util_parse_whole("-3", -5, 5, &v, err, sizeof err) && v == -3);
    const char *bad[] = {" 16", "+16", "16.7", "", "x", "65537", "16 "};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = 7;
        CHECK(!util_parse_whole(bad[i], 1, 65536, &v, err, sizeof err) && v == 7);
        CHECK(strstr(err, "is not a whole number from 1 to 65536") != NULL);
    }
    CHECK(util_parse_long(" 16", 1, 65536, &v, err, sizeof err) && v == 16); /* the difference */
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        printf("FAIL util/mkdtemp\n");
        return 1;
    }
    RUN("util", test_grow_doubles);
    RUN("util", test_grow_overflow);
    RUN("util", test_write_and_read);
    RUN("util", test_write_failures);
    RUN("util", test_fnv1a);
    RUN("util", test_fnv1a64);
    RUN("util", test_little_endian);
    RUN("util", test_parse_whole);
    rmdir(tmpdir);
    return check_total_failed ? 1 : 0;
}
