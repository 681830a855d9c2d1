/*
 * test_weights.c - the weights table and its file format: names both ways, parse errors with
 * their line numbers (and W untouched after one), a written file read back to the same values,
 * loading from a file, and the blend the evaluation reads kept fresh by every setter.
 */
#include "check.h"
#include "weights.h"

#include <stdio.h>
#include <unistd.h>

static Weights w, v; /* large (the blend): not on the stack */

static void test_names(void)
{
    CHECK_STR(weights_name(W_MAN_MG), "man_mg");
    CHECK_STR(weights_name(W_TEMPO), "tempo");
    CHECK(weights_name(-1) == NULL && weights_name(WEIGHT_NB) == NULL);
    for (int i = 0; i < WEIGHT_NB; i++)
        CHECK(weights_find(weights_name(i)) == i);
    CHECK(weights_find("MAN_MG") == -1); /* names are lower case */
    CHECK(weights_find("") == -1 && weights_find("no_such_weight") == -1);
}

static void test_defaults(void)
{
    weights_default(&w);
    CHECK(w.v[W_MAN_MG] == 100 && w.v[W_KING_EG] == 173 && w.v[W_TEMPO] == -1);
    CHECK(weights_fresh(&w, -1));
}

/* A file sets the names it gives and keeps the rest; blanks, comments, CRLF are fine. */
static void test_parse_good(void)
{
    char err[ERR_LEN] = "";
    weights_default(&w);
    const char *text = "# a comment\n"
                       "\n"
                       "man_mg 120\r\n"
                       "   king_eg\t-5   \n"
                       "tempo 10000\n"
                       "balance_mg -10000";
    CHECK(weights_parse(&w, text, err));
    CHECK_STR(err, "");
    CHECK(w.v[W_MAN_MG] == 120 && w.v[W_KING_EG] == -5 && w.v[W_TEMPO] == 10000);
    CHECK(w.v[W_BALANCE_MG] == -10000);
    CHECK(w.v[W_MAN_EG] == 166); /* not mentioned: built-in value */
    CHECK(weights_fresh(&w, -1));
    CHECK(weights_parse(&w, "", err)); /* an empty file changes nothing */
    CHECK(w.v[W_MAN_MG] == 120);
}

/* Each kind of bad line is refused with its line number and reason, and W is left as it was. */
static void test_parse_errors(void)
{
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"man_mg 1\nfoo 3\n", "line 2: unknown weight `foo'"},
        {"man_mg 1\n\n# c\nman_mg 2\n", "line 4: weight `man_mg' given twice"},
        {"tempo\n", "line 1: weight `tempo' has no value"},
        {"man_mg 1\ntempo   \n", "line 2: weight `tempo' has no value"},
        {"tempo x\n", "line 1: value of `tempo' is not an integer"},
        {"tempo 12x\n", "line 1: value of `tempo' is not an integer"},
        {"tempo 1.5\n", "line 1: value of `tempo' is not an integer"},
        {"\n\ntempo 10001\n", "line 3: value 10001 of `tempo' is outside [-10000, 10000]"},
        {"tempo -99999999999999999999\n", "is outside"},
        {"tempo 5 6\n", "line 1: unexpected text after the value of `tempo'"},
        {"man-mg 5\n", "line 1: unexpected character '-' in a weight name"},
        {"a_very_long_name_that_no_weight_has_and_never_will_have_at_all_ok 1\n",
         "line 1: weight name too long"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[ERR_LEN] = "";
        weights_default(&w);
        v = w;
        CHECK(!weights_parse(&w, cases[i].text, err));
        if (!strstr(err, cases[i].msg)) {
            printf("  case %zu: got \"%s\", expected \"%s\"\n", i, err, cases[i].msg);
            check_failed++;
        }
        CHECK(memcmp(w.v, v.v, sizeof w.v) == 0);
    }
}

/* weights_write then weights_parse gives back every value, whatever they are. */
static void test_round_trip(void)
{
    weights_default(&w);
    for (int i = 0; i < WEIGHT_NB; i++)
        w.v[i] = (i * 7919) % (2 * WEIGHT_LIMIT + 1) - WEIGHT_LIMIT;
    weights_refresh(&w);
    char path[] = "/tmp/ponder-test-weights-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    FILE *f = fdopen(fd, "w");
    CHECK(f && weights_write(&w, f));
    if (f)
        fclose(f);
    char err[ERR_LEN] = "";
    weights_default(&v);
    CHECK(weights_load(&v, path, err));
    CHECK_STR(err, "");
    CHECK(memcmp(w.v, v.v, sizeof w.v) == 0);
    CHECK(weights_fresh(&v, -1));
    /* A bad file is named in the message, with the line. */
    f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("man_mg 1\nking_mg\n", f);
        fclose(f);
    }
    CHECK(!weights_load(&v, path, err));
    CHECK(strstr(err, path) && strstr(err, "line 2: weight `king_mg' has no value"));
    unlink(path);
    CHECK(!weights_load(&v, path, err)); /* gone */
    CHECK(strstr(err, path) != NULL);
}

/* The blend: an _mg weight at phase P is mg*P + eg*(MAX-P); the setters keep it fresh. */
static void test_blend(void)
{
    weights_default(&w);
    for (int p = 0; p <= WEIGHT_PHASE_MAX; p++)
        CHECK(w.blend[p][W_MAN_MG] == w.v[W_MAN_MG] * p + w.v[W_MAN_EG] * (WEIGHT_PHASE_MAX - p));
    CHECK(w.blend[5][W_TEMPO] == w.v[W_TEMPO] * WEIGHT_PHASE_MAX);
    weights_set(&w, W_MAN_EG, 200);
    CHECK(weights_fresh(&w, -1) && w.blend[0][W_MAN_MG] == 200 * WEIGHT_PHASE_MAX);
    weights_set_phase(&w, W_MAN_MG, 300, 10);
    CHECK(weights_fresh(&w, 10));
    CHECK(!weights_fresh(&w, 11)); /* the other phases were left for speed */
    weights_set_phase(&w, W_MAN_MG, 100, 10);
    CHECK(weights_fresh(&w, -1)); /* set back: fresh everywhere again */
    w.v[W_TEMPO] = 7;             /* changed behind the setters' back */
    CHECK(!weights_fresh(&w, -1));
    weights_refresh(&w);
    CHECK(weights_fresh(&w, -1));
}

int main(void)
{
    RUN("weights", test_names);
    RUN("weights", test_defaults);
    RUN("weights", test_parse_good);
    RUN("weights", test_parse_errors);
    RUN("weights", test_round_trip);
    RUN("weights", test_blend);
    return check_total_failed ? 1 : 0;
}
