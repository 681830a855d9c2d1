/*
 * test_rules.c - the rule-set table: every name rules_names() lists is found by rules_find(),
 * and the list is cut short, never overrun, in a small buffer.
 */
#include "check.h"
#include "rules.h"

static void test_names(void)
{
    char names[128];
    CHECK_STR(rules_names(names, sizeof names), "english, hackerrank, tower");
    int found = 0;
    for (char *name = strtok(names, ", "); name; name = strtok(NULL, ", ")) {
        const Rules *r = rules_find(name);
        CHECK(r != NULL);
        found += r != NULL && strcmp(r->name, name) == 0;
    }
    CHECK(found == 3);
    CHECK(rules_find("english") == &RULES_ENGLISH);
    CHECK(rules_find("chess") == NULL);
    CHECK(rules_find(NULL) == NULL);
}

static void test_short_buffer(void)
{
    char small[10];
    memset(small, 'x', sizeof small);
    CHECK_STR(rules_names(small, 9), "english,");
    CHECK(small[9] == 'x');
    char one[1] = {'x'};
    CHECK_STR(rules_names(one, 1), "");
}

int main(void)
{
    RUN("rules", test_names);
    RUN("rules", test_short_buffer);
    return check_total_failed ? 1 : 0;
}
